"""Hands as the database keeps them: their players by id.

The engine and the contract's documents name players ("Anna"); the database refers to a player
by the id of their row, so a name lives in one place (``Player.name``) and two circles' Annas
never meet. A hand is turned into ids as it is stored and back into names as it is read, with
the names and ids of its table's seats: in a stored hand, ``results`` is keyed by the player's
id as a string (JSON keys are strings) and ``first``, ``redeal`` and ``declared_doubles`` hold
the id itself.

Only hands the engine accepted are stored, and the engine accepts only seated names, so every
name of a hand being stored has an id.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from scoring import GAMES, HandEvent, Special

# The fields of a hand that hold one player (the results hold one per key).
ONE_PLAYER = ("first", *(event.value for event in HandEvent if event.has_caller))


def _each_player(data: Mapping[str, Any], convert: Callable[[Any], Any]) -> dict[str, Any]:
    converted = {
        key: convert(value) if key in ONE_PLAYER and value is not None else value
        for key, value in data.items()
    }
    if "results" in data:
        converted["results"] = {
            str(convert(key)): result for key, result in data["results"].items()
        }
    return converted


def by_id(data: Mapping[str, Any], ids: Mapping[str, int]) -> dict[str, Any]:
    """A hand named as the engine reads it, as it is stored: ``ids`` maps each seated name to
    the player's id."""
    return _each_player(data, lambda name: ids[name])


def by_name(data: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, Any]:
    """A stored hand as the engine reads it: ``names`` maps each seated player's id to their
    name. Anything else is left as a string for the engine to refuse ("not seated"): a hand
    whose player was unseated in the admin, or that named someone unseated before players
    were stored by id."""

    def name(pk: Any) -> str:
        try:
            return names[int(pk)]
        except (KeyError, ValueError):
            return str(pk)

    return _each_player(data, name)


def specials_of(game: str, result: Mapping[str, Any]) -> list[str]:
    """A result's specials, as a hand stores them: those marked, and the pass that a score of
    0 is in a game that knows pass, marked or not (``scoring.Game.in_force``)."""
    marked: list[str] = result.get("specials", [])
    if result.get("pips") != 0 and result.get("tiles") != []:
        return marked
    found = GAMES[game].in_force(0, frozenset(Special(value) for value in marked))
    return marked + sorted(special.value for special in found if special.value not in marked)
