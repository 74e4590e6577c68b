"""Turning what a phone posts at a table into the scoring contract's documents, and errors
back into messages beside the right field."""

from __future__ import annotations

import re
import secrets
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _

from ledger.forms import OptionFields, engine_message, game_options, whole
from ledger.games import game_choices, special_label
from scoring import GAMES, ScoringError, Special

MAX_PLAYERS = 4
DRAW_LOTS = "draw"


class SessionForm(OptionFields):
    """A new table: game, options, players in seating order, who leads first."""

    game = forms.ChoiceField(choices=game_choices)
    first = forms.CharField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(MAX_PLAYERS):
            self.fields[f"player_{i}"] = forms.CharField(required=False, max_length=40)

    def document(self) -> dict[str, Any]:
        """The new session as a scoring document; call after ``is_valid()``."""
        data = self.cleaned_data
        game = GAMES[data["game"]]
        seating = [
            data[f"player_{i}"].strip()
            for i in range(MAX_PLAYERS)
            if data.get(f"player_{i}", "").strip()
        ]
        options = game_options(data, game.option_names)
        first = data.get("first") or DRAW_LOTS
        if first == DRAW_LOTS:
            leader = secrets.choice(seating) if seating else ""
        elif (seat := whole(first)) is not None and seat < len(seating):
            leader = seating[seat]
        else:
            leader = first
        return {"game": game.key, "options": options, "seating": seating, "first": leader}

    def add_scoring_error(self, error: ScoringError) -> None:
        path = error.path
        if path.startswith("options."):
            field = path.removeprefix("options.")
        elif match := re.fullmatch(r"seating\[(\d+)\]", path):
            field = f"player_{match[1]}"
        elif path in ("seating", "first", "game"):
            field = {"seating": "player_0"}.get(path, path)
        else:
            field = None
        self.add_error(field if field in self.fields else None, engine_message(error))


class HandForm:
    """One hand posted from the table page: a field per seat, named by seat index."""

    def __init__(self, game: str, seating: list[str], post: QueryDict) -> None:
        self.game = GAMES[game]
        self.seating = seating
        self.post = post
        self.errors: dict[str, str] = {}

    def _value(self, key: str) -> str:
        return str(self.post.get(key, "")).strip()

    def data(self) -> dict[str, Any] | None:
        """The hand as the scoring contract takes it, or None with ``errors`` filled in."""
        hand: dict[str, Any] = {}
        if first := self._value("first"):
            hand["first"] = first
        if direction := self._value("direction"):
            hand["direction"] = direction
        event, who = self._value("event"), self._value("event_player")
        if event in ("redeal", "declared_doubles"):
            if who not in self.seating:
                self.errors["event"] = _("Choose who called it.")
                return None
            hand[event] = who
            if event == "redeal":
                return hand
        elif event == "blocked":
            hand["blocked"] = True
        results = {}
        for i, name in enumerate(self.seating):
            if event == "declared_doubles" and name == who:
                continue
            result = self._result(i, name)
            if result is not None:
                results[name] = result
        hand["results"] = results
        return None if self.errors else hand

    def _result(self, i: int, name: str) -> dict[str, Any] | None:
        result: dict[str, Any] = {}
        if tiles := self._value(f"tiles-{i}"):
            result["tiles"] = re.split(r"[\s,]+", tiles)
        elif self.game.key == "tiu-yu":
            large, red = self._value(f"large-{i}"), self._value(f"red-{i}")
            if not large and not red:
                self.errors[f"large-{i}"] = _("Enter %(name)s's fish.") % {"name": name}
                return None
            result["large_fish_pips"] = _number(large or "0")
            result["small_fish_red"] = _number(red or "0")
        else:
            pips = self._value(f"pips-{i}")
            if not pips:
                self.errors[f"pips-{i}"] = _("Enter %(name)s's score.") % {"name": name}
                return None
            result["pips"] = _number(pips)
        if specials := self.post.getlist(f"specials-{i}"):
            result["specials"] = specials
        return result

    def add_scoring_error(self, error: ScoringError) -> None:
        """Put the engine's message beside the field its path names."""
        self.errors[self.field_for(error.path)] = engine_message(error)

    def field_for(self, path: str) -> str:
        match = re.fullmatch(r"hands\[\d+\]\.results\.(.+?)(?:\.(\w+))?(?:\[\d+\])?", path)
        if match and match[1] in self.seating:
            i = self.seating.index(match[1])
            kind = {
                "tiles": "tiles",
                "specials": "specials",
                "large_fish_pips": "large",
                "small_fish_red": "red",
            }.get(match[2] or "", "large" if self.game.key == "tiu-yu" else "pips")
            return f"{kind}-{i}"
        match = re.fullmatch(r"hands\[\d+\]\.(\w+)", path)
        if match:
            return {"redeal": "event", "declared_doubles": "event", "blocked": "event"}.get(
                match[1], match[1]
            )
        return "__all__"


def _number(text: str) -> int | str:
    """Digits become a number; anything else goes to the engine as typed, to be refused."""
    number = whole(text)
    return text if number is None else number


def hand_rows(
    game: str,
    seating: list[str],
    *,
    first: str,
    head_tail: str,
    data: dict[str, Any] | None,
    post: QueryDict | None = None,
    errors: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """What the hand form shows for each seat: its values, the specials it may have, errors.

    Values come from what was posted (to keep a player's typing) or else from a stored hand.
    """
    rules = GAMES[game]
    errors = errors or {}
    results = (data or {}).get("results", {})
    rows = []
    for i, name in enumerate(seating):
        stored = results.get(name, {})
        if post is not None:
            values = {
                "pips": post.get(f"pips-{i}", ""),
                "tiles": post.get(f"tiles-{i}", ""),
                "large": post.get(f"large-{i}", ""),
                "red": post.get(f"red-{i}", ""),
                "specials": post.getlist(f"specials-{i}"),
            }
        else:
            values = {
                "pips": stored.get("pips", ""),
                "tiles": " ".join(stored.get("tiles", [])),
                "large": stored.get("large_fish_pips", ""),
                "red": stored.get("small_fish_red", ""),
                "specials": stored.get("specials", []),
            }
        specials = []
        for special in sorted(rules.specials):
            if special in (Special.HEAD_SIX, Special.TAIL_SEVEN) and head_tail != "6/7":
                continue
            seat = (
                "head"
                if special.startswith("head")
                else "tail"
                if special.startswith("tail")
                else "any"
            )
            specials.append(
                {
                    "value": special.value,
                    "label": special_label(special),
                    "seat": seat,
                    "hidden": (seat == "head" and name != first)
                    or (seat == "tail" and name == first),
                    "checked": special.value in values["specials"],
                }
            )
        rows.append(
            {
                "index": i,
                "name": name,
                "values": values,
                "specials": specials,
                "errors": {
                    kind: errors[f"{kind}-{i}"]
                    for kind in ("pips", "tiles", "large", "red", "specials")
                    if f"{kind}-{i}" in errors
                },
            }
        )
    return rows
