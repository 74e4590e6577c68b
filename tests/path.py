"""The path a request takes through the ledger's own files, as a reader follows it.

``followed(call)`` runs ``call`` and records every call from a function of one ledger file into
a function of another (Django's code, the engine in ``scoring`` and the templates' filters,
which Django calls, are not the ledger's path; a comprehension or a lambda is part of the
function it is written in). A file is *entered* from each other file that calls into it: the
view reading the table through three selectors enters selectors.py once, a service reading it
too enters it a second time. Reading an object's attribute (a ``property``) is reading the
object, not a step of the path.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

import ledger

LEDGER = str(Path(ledger.__file__).parent) + "/"


def _ours(code: CodeType) -> bool:
    return code.co_filename.startswith(LEDGER) and "/migrations/" not in code.co_filename


def _attributes() -> set[CodeType]:
    """The code of every property of the ledger's classes: reading one is reading the object."""
    codes = set()
    modules = [module for name, module in sys.modules.items() if name.startswith("ledger.")]
    classes = {
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, type) and value.__module__.startswith("ledger.")
    }
    for klass in classes:
        for value in vars(klass).values():
            if isinstance(value, property) and value.fget is not None:
                codes.add(value.fget.__code__)
            elif isinstance(value, cached_property):
                codes.add(value.func.__code__)
    return codes


def _function(frame: FrameType) -> FrameType:
    """The function a frame is written in: a comprehension's or a lambda's enclosing one."""
    while frame.f_code.co_name.startswith("<") and frame.f_back is not None:
        frame = frame.f_back
    return frame


def _name(code: CodeType) -> str:
    return code.co_filename.removeprefix(LEDGER)


@dataclass
class Walk:
    """Who called into which file: (calling file:function, called file:function), in order."""

    calls: list[tuple[str, str]] = field(default_factory=list)

    @property
    def entries(self) -> Counter[str]:
        """How many other files entered each file."""
        files = {(caller.split(":")[0], called.split(":")[0]) for caller, called in self.calls}
        return Counter(called for _, called in files)

    def __str__(self) -> str:
        return "\n".join(f"{caller} -> {called}" for caller, called in self.calls)


def followed(call: Callable[[], Any]) -> tuple[Any, Walk]:
    """``call()``'s answer, and the path it took."""
    attributes = _attributes()
    path = Walk()
    seen: set[tuple[str, str]] = set()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if event != "call" or not _ours(code) or code in attributes or code.co_name[0] == "<":
            return
        caller = _function(frame.f_back) if frame.f_back is not None else None
        if caller is None or not _ours(caller.f_code):
            return
        if caller.f_code.co_filename == code.co_filename:
            return
        hop = (f"{_name(caller.f_code)}:{caller.f_code.co_name}", f"{_name(code)}:{code.co_name}")
        if hop not in seen:
            seen.add(hop)
            path.calls.append(hop)

    sys.setprofile(profile)
    try:
        answer = call()
    finally:
        sys.setprofile(None)
    return answer, path
