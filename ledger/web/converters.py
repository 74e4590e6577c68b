"""Path converters: a link's parts as they can be, so nothing else reaches a query.

A token is what ``models.new_token`` makes; a NUL byte or a thousand-digit number in a path
would otherwise reach the database, which refuses it with an error instead of "not found".
"""

from __future__ import annotations


class Token:
    regex = r"[A-Za-z0-9_-]{1,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class Number:
    """A hand's or round's number: up to nine digits, well inside the database's integers."""

    regex = r"[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
