"""The examples in the app's docstrings hold: pytest collects doctests from tests/ and scoring/
only (pyproject.toml), so the ledger's are run here, each module on its own. The migrations'
frozen copy of the engine (ledger/migrations/_frozen) is left out: its examples are scoring's
as they were, naming scoring's errors by scoring's path."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

LEDGER = Path(__file__).resolve().parents[2] / "ledger"
FROZEN = LEDGER / "migrations" / "_frozen"
WITH_EXAMPLES = sorted(
    ".".join(path.relative_to(LEDGER.parent).with_suffix("").parts)
    for path in LEDGER.rglob("*.py")
    if ">>> " in path.read_text(encoding="utf-8") and not path.is_relative_to(FROZEN)
)


def test_some_modules_have_examples():
    assert "ledger.web.display" in WITH_EXAMPLES


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_the_examples_in_a_modules_docstrings_hold(name):
    tried = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)

    assert tried.attempted and not tried.failed
