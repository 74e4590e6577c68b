"""The one error the engine raises: a message for a player and the path of the bad field."""

from __future__ import annotations


class ScoringError(ValueError):
    """Invalid input, said in plain words, with the path of the offending field.

    The message is ``template`` filled in with ``params``; an app that speaks another language
    translates the template and fills it in with the same params.

    >>> err = ScoringError("{name}'s score of {score} is impossible", "hands[0].results.Bob.pips",
    ...                    name="Bob", score=1)
    >>> err.as_dict()
    {'error': "Bob's score of 1 is impossible", 'path': 'hands[0].results.Bob.pips'}
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

    def as_dict(self) -> dict[str, str]:
        return {"error": self.message, "path": self.path}
