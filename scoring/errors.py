"""The one error the engine raises: a message for a player and the path of the bad field."""

from __future__ import annotations


class ScoringError(ValueError):
    """Invalid input, said in plain words, with the path of the offending field.

    >>> err = ScoringError("Bob's score of 1 is impossible", "hands[0].results.Bob.pips")
    >>> err.as_dict()
    {'error': "Bob's score of 1 is impossible", 'path': 'hands[0].results.Bob.pips'}
    """

    def __init__(self, message: str, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def as_dict(self) -> dict[str, str]:
        return {"error": self.message, "path": self.path}
