# A frozen copy of scoring/errors.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""The one error the engine raises: a message for a player and the path of the bad field."""

from __future__ import annotations

from typing import Any


class ScoringError(ValueError):
    """Invalid input, said in plain words, with the path of the offending field.

    The message is ``template`` filled in with ``params``; an app that speaks another language
    translates the template and fills it in with the same params.

    >>> err = ScoringError("{name}'s score of {score} is impossible", "hands[0].results.Bob.pips",
    ...                    name="Bob", score=1)
    >>> err.as_dict()["error"], err.as_dict()["path"]
    ("Bob's score of 1 is impossible", 'hands[0].results.Bob.pips')
    >>> err.template, err.params
    ("{name}'s score of {score} is impossible", {'name': 'Bob', 'score': 1})
    """

    def __init__(self, template: str, path: str = "", **params: object) -> None:
        message = template.format(**params) if params else template
        super().__init__(message)
        self.message = message
        self.template = template
        self.params = params
        self.path = path
        # Everything found wrong, this error first (``Problems`` gathers them).
        self.errors: tuple[ScoringError, ...] = (self,)

    def as_dict(self) -> dict[str, Any]:
        """The error object of CONTRACT.md: the first problem, and all of them."""
        return {
            "error": self.message,
            "path": self.path,
            "errors": [{"error": e.message, "path": e.path} for e in self.errors],
        }


class Problems:
    """What is wrong with a document, gathered so that all of it is said at once: each
    ``with problems:`` block that raises a ScoringError has it kept, and the caller goes on.

    >>> problems = Problems()
    >>> for name in ("Anna", "Bob"):
    ...     with problems:
    ...         raise ScoringError("{name} is wrong", name, name=name)
    >>> problems.raise_any()
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: Anna is wrong
    >>> try:
    ...     problems.raise_any()
    ... except ScoringError as error:
    ...     [e.path for e in error.errors]
    ['Anna', 'Bob']
    """

    def __init__(self) -> None:
        self.found: list[ScoringError] = []

    def __enter__(self) -> Problems:
        return self

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> bool:
        if isinstance(error, ScoringError):
            self.found.extend(error.errors)
            return True
        return False

    def raise_any(self) -> None:
        """Raise the first problem found, carrying all of them; nothing if none was."""
        if self.found:
            first = self.found[0]
            first.errors = tuple(self.found)
            raise first
