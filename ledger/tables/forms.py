"""Turning what a phone posts at a table into the scoring contract's documents, and errors
back into messages beside the right field."""

from __future__ import annotations

import re
import secrets
from typing import Any, NamedTuple

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _

from ledger.models import TableSession
from ledger.tables import checks
from ledger.tables.clock import TimeFields
from ledger.web.forms import OptionFields, engine_message, game_options, whole_number
from ledger.web.games import game_choices
from scoring import GAMES, SPECIAL_RULES, HandEvent, Options, ScoringError

MAX_PLAYERS = 4
DRAW_LOTS = "draw"


class SeatFields(forms.Form):
    """Players in seating order (a field per seat) and who leads first: a seat's number, or
    lots drawn."""

    game = forms.ChoiceField(choices=game_choices)
    first = forms.CharField(required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(MAX_PLAYERS):
            self.fields[f"player_{i}"] = forms.CharField(required=False, max_length=40)

    def seating(self) -> list[str]:
        """The names typed, in seat order, empty seats left out; call after ``is_valid()``."""
        return [
            name
            for i in range(MAX_PLAYERS)
            if (name := self.cleaned_data.get(f"player_{i}", "").strip())
        ]

    def leader(self) -> str:
        """Who leads the first hand: the seat chosen, or drawn by lot."""
        seating = self.seating()
        first = self.cleaned_data.get("first") or DRAW_LOTS
        if first == DRAW_LOTS:
            return secrets.choice(seating) if seating else ""
        if (seat := whole_number(first)) is not None and seat < len(seating):
            return seating[seat]
        return first


class SessionForm(OptionFields, TimeFields, SeatFields):
    """A new table: game, options, where it ends by time, players in seating order, who leads
    first."""

    def document(self) -> dict[str, Any]:
        """The new session as a scoring document; call after ``is_valid()``."""
        game = GAMES[self.cleaned_data["game"]]
        return {
            "game": game.key,
            "options": game_options(self.cleaned_data, game.option_names),
            "seating": self.seating(),
            "first": self.leader(),
        }

    def add_scoring_error(self, error: ScoringError) -> None:
        """Put each problem the engine found beside the field its path names."""
        for problem in error.errors:
            path = problem.path
            if path.startswith("options."):
                field = path.removeprefix("options.")
            elif match := re.fullmatch(r"seating\[(\d+)\]", path):
                field = f"player_{match[1]}"
            elif path in ("seating", "first", "game"):
                field = {"seating": "player_0"}.get(path, path)
            else:
                field = None
            self.add_error(field if field in self.fields else None, engine_message(problem))


_EVENTS = {event.value: event for event in HandEvent}


class Cleaned(NamedTuple):
    """A hand form, cleaned."""

    number: int  # the hand's number, as the form sent it
    hand: dict[str, Any]  # as the scoring contract takes it
    # What the engine found of it as the table's next hand; None for a hand the table as read
    # has stored already (another phone's, or this one's sent before): the service says what.
    checked: checks.Checked | None


class HandForm:
    """One hand posted from the table page: a field per seat, named by seat index, as the
    game's ``entry`` asks for results (``pips-0``; ``large-0`` and ``red-0``).

    As the table's next hand, ``cleaned()`` cleans it once: the hand is built from the fields
    (``data``) and the engine asked about it (checks.new_hand), every problem either finds put
    beside its field (``errors``)."""

    def __init__(self, session: TableSession, post: QueryDict, *, saving: bool = True) -> None:
        self.session = session
        self.saving = saving  # else previewed: whatever its number, checked as the next hand
        self.game = GAMES[session.game]
        self.seating = session.seating
        self.post = post
        self.errors: dict[str, str] = {}
        self._cleaned: Cleaned | None = None

    def cleaned(self) -> Cleaned | None:
        """The hand as cleaned (once); None if anything is wrong."""
        if self._cleaned is None and not self.errors:
            self._cleaned = self.clean()
        return None if self.errors else self._cleaned

    def clean(self) -> Cleaned | None:
        """The hand as entered, checked by the engine as the next hand, also with results
        left empty (their fields say so first), so that one answer names every problem."""
        number = whole_number(self._value("number")) or 0
        hand = self.data()
        if hand is None:
            return None
        try:
            checked = checks.sent(self.session, number if self.saving else None, hand)
        except ScoringError as error:
            self.add_scoring_error(error)
            return None
        return Cleaned(number, hand, checked)

    def _value(self, key: str) -> str:
        return str(self.post.get(key, "")).strip()

    def data(self) -> dict[str, Any] | None:
        """The hand as the scoring contract takes it, without the results left empty (each
        said in ``errors``); None when it cannot be built at all (an event without its caller).
        """
        hand: dict[str, Any] = {}
        if first := self._value("first"):
            hand["first"] = first
        if direction := self._value("direction"):
            hand["direction"] = direction
        event, who = _EVENTS.get(self._value("event")), self._value("event_player")
        if event is not None and event.has_caller:
            if who not in self.seating:
                self.errors["event"] = _("Choose who called it.")
                return None
            hand[event.value] = who
            if event is HandEvent.REDEAL:  # dealt again: nobody has a result
                return hand
        elif event is not None:
            hand[event.value] = True
        results = {}
        for i, name in enumerate(self.seating):
            if event is HandEvent.DECLARED_DOUBLES and name == who:
                continue
            result = self._result(i, name)
            if result is not None:
                results[name] = result
        hand["results"] = results
        return hand

    def _result(self, i: int, name: str) -> dict[str, Any] | None:
        result: dict[str, Any] = {}
        if tiles := self._value(f"tiles-{i}"):
            result["tiles"] = re.split(r"[\s,]+", tiles)
        else:
            entry = self.game.entry
            typed = {field.key: self._value(f"{field.short}-{i}") for field in entry.fields}
            if not any(typed.values()):
                self.errors[f"{entry.fields[0].short}-{i}"] = _(entry.missing) % {"name": name}
                return None
            # Of several numbers, one left empty is 0.
            result.update({key: _number(value or "0") for key, value in typed.items()})
        if specials := self.post.getlist(f"specials-{i}"):
            result["specials"] = specials
        return result

    def add_scoring_error(self, error: ScoringError) -> None:
        """Put each problem the engine found beside the field its path names (the first one
        of each field)."""
        for problem in error.errors:
            self.errors.setdefault(self.field_for(problem.path), engine_message(problem))

    def field_for(self, path: str) -> str:
        match = re.fullmatch(r"hands\[\d+\]\.results\.(.+?)(?:\.(\w+))?(?:\[\d+\])?", path)
        if match and match[1] in self.seating:
            i = self.seating.index(match[1])
            fields = self.game.entry.fields
            kinds = {"tiles": "tiles", "specials": "specials"}
            kinds.update({field.key: field.short for field in fields})
            return f"{kinds.get(match[2] or '', fields[0].short)}-{i}"
        match = re.fullmatch(r"hands\[\d+\]\.(\w+)", path)
        if match:
            return "event" if match[1] in _EVENTS else match[1]
        return "__all__"


def _number(text: str) -> int | str:
    """Digits become a number; anything else goes to the engine as typed, to be refused."""
    number = whole_number(text)
    return text if number is None else number


def hand_rows(
    game: str,
    seating: list[str],
    *,
    first: str,
    options: Options,
    data: dict[str, Any] | None,
    post: QueryDict | None = None,
    errors: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """What the hand form shows for each seat: its values, the specials it may have, errors.

    Values come from what was posted (to keep a player's typing) or else from a stored hand.
    Every special the options allow is listed, those of the other seats hidden: the page's
    script shows them when who led changes.
    """
    rules = GAMES[game]
    fields = rules.entry.fields
    players = len(seating)
    offered = sorted(
        {
            *rules.seat_specials(players, leads=True, options=options),
            *rules.seat_specials(players, leads=False, options=options),
        }
    )
    # The pips beyond which an entry proves a head or tail special (RULES.md, Ce Deng).
    beyond = {
        special: most
        for leads in (True, False)
        for special, _, most in rules.proofs(players, leads=leads, options=options)
    }
    errors = errors or {}
    results = (data or {}).get("results", {})
    rows = []
    for i, name in enumerate(seating):
        stored = results.get(name, {})
        if post is not None:
            numbers = [post.get(f"{field.short}-{i}", "") for field in fields]
            tiles = post.get(f"tiles-{i}", "")
            checked = post.getlist(f"specials-{i}")
        else:
            numbers = [stored.get(field.key, "") for field in fields]
            tiles = " ".join(stored.get("tiles", []))
            checked = stored.get("specials", [])
        rows.append(
            {
                "index": i,
                "name": name,
                "fields": [
                    {
                        "name": f"{field.short}-{i}",
                        "label": _(field.label),
                        "value": value,
                        "error": errors.get(f"{field.short}-{i}", ""),
                    }
                    for field, value in zip(fields, numbers, strict=True)
                ],
                "tiles": tiles,
                "specials": [
                    {
                        "value": special.value,
                        "label": _(special.label),
                        "seat": SPECIAL_RULES[special].seat.value,
                        "hidden": not SPECIAL_RULES[special].seat_allows(name == first),
                        "checked": special.value in checked,
                        "beyond": beyond.get(special, ""),
                    }
                    for special in offered
                ],
                "errors": {
                    kind: errors[f"{kind}-{i}"]
                    for kind in ("tiles", "specials")
                    if f"{kind}-{i}" in errors
                },
            }
        )
    return rows
