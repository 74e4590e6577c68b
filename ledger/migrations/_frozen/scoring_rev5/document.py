# A frozen copy of scoring/document.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""The JSON contract of CONTRACT.md: read a session document, write the result document."""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import suppress
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any, NamedTuple, TypeVar

from .errors import Problems, ScoringError
from .games import Game, get_game
from .model import (
    ChipPayment,
    ChiTsun,
    Direction,
    Doubles,
    End,
    Entry,
    Hand,
    HandEvent,
    HandResult,
    HeadTail,
    NextFirst,
    Options,
    Result,
    Session,
    SessionResult,
    Special,
    Ties,
)
from .options import OPTION_SPECS, Amount
from .session import score_session
from .text import N_, Phrase
from .tiles import Tile

E = TypeVar("E", bound=StrEnum)
MAX_WHOLE = 10_000  # far above any score; keeps absurd numbers from costing time
A_FIELD = Phrase("a field here")


def score(document: object) -> dict[str, Any]:
    """Score a session document (parsed JSON) and return the result document.

    >>> out = score({"game": "jie-long", "seating": ["A", "B"], "first": "A",
    ...              "hands": [{"results": {"A": {"pips": 2}, "B": {"pips": 12}}}]})
    >>> out["hands"][0]["net"], out["settle_up"]
    ({'A': 10, 'B': -10}, [{'from': 'B', 'to': 'A', 'amount': 10}])
    """
    return result_document(score_session(parse_session(document)))


# -- reading -------------------------------------------------------------------------------


def parse_session(document: object) -> Session:
    """Turn a session document into a Session, checking the shape and type of every field.

    The rules themselves (who may have which special, which scores are possible) are checked
    when the session is scored.
    """
    doc = _object(
        document, "", required={"game", "seating"}, optional={"options", "first", "hands"}
    )
    game = get_game(_string(doc["game"], "game"))
    seating = _list(doc["seating"], "seating")
    names = tuple(_string(name, f"seating[{i}]") for i, name in enumerate(seating))
    first = _string(doc["first"], "first") if "first" in doc else (names[0] if names else "")
    # From here on, every problem is gathered and all are said at once.
    problems = Problems()
    options = Options()
    with problems:
        options = _options(game, doc.get("options", {}))
    hands = []
    with problems:
        for i, hand in enumerate(_list(doc.get("hands", []), "hands")):
            with problems:
                hands.append(_hand(game, hand, f"hands[{i}]"))
    problems.raise_any()
    return Session(game=game.key, seating=names, first=first, hands=tuple(hands), options=options)


_CHOICES = {
    "head_tail": HeadTail,
    "payment": ChipPayment,
    "next_first": NextFirst,
    "chi_tsun": ChiTsun,
    "ties": Ties,
    "doubles": Doubles,
}


def _options(game: Game, value: object) -> Options:
    what = Phrase("an option of {game}", game=Phrase(game.label))
    raw = _object(value, "options", optional=game.option_names, what=what)
    parsed: dict[str, Any] = {}
    problems = Problems()
    for name, item in raw.items():
        with problems:
            parsed[name] = _option(name, item)
            if name == "payment" and parsed[name] not in game.payments:
                raise ScoringError(
                    "{game}'s payment is {known}, not {value}",
                    "options.payment",
                    game=Phrase(game.label),
                    known=" / ".join(payment.value for payment in game.payments),
                    value=_shown(item),
                )
    problems.raise_any()
    if "chip" in parsed and not game.pays_chips(Options(**parsed)):
        # A game that pays by the stake takes a chip only with its chips (rules rev 4).
        raise ScoringError(
            '{game} pays a chip only with payment "chips": choose chips, or leave the chip out',
            "options.chip",
            game=Phrase(game.label),
        )
    # One table, one unit: a chips table pays only chips (rules rev 5). Only a Ce Deng table
    # played before keeps its stake, for the declared doubles it paid by it.
    if (
        "stake" in parsed
        and game.pays_chips(Options(**parsed))
        and parsed.get("doubles") is not Doubles.STAKE
    ):
        raise ScoringError(
            '{game} with payment "chips" pays only chips: leave the stake out, '
            'or choose payment "pairwise"',
            "options.stake",
            game=Phrase(game.label),
        )
    if "doubles" in parsed and not game.pays_chips(Options(**parsed)):
        raise ScoringError(
            '{game} pays declared doubles in money by the stake, except with payment "chips": '
            "leave out what declared doubles pay",
            "options.doubles",
            game=Phrase(game.label),
        )
    return Options(**parsed)


def _option(name: str, item: object) -> object:
    path = f"options.{name}"
    spec = OPTION_SPECS[name]
    if spec.amount is not None:
        return _money(item, path, spec.amount)
    if spec.most is not None:
        return _count(item, path, spec.most)
    if name == "redeal_doubles":
        if str(_whole(item, path)) not in spec.values:
            raise ScoringError(
                "a redeal is asked for with 7 doubles (the usual rule) or 6 (the variant), "
                "not {value}",
                path,
                value=_shown(item),
            )
        return _whole(item, path)
    return _choice(_CHOICES[name], item, path)


_HAND_FIELDS = {"results", "first", "direction", "last", *(event.value for event in HandEvent)}


def _hand(game: Game, value: object, path: str) -> Hand:
    raw = _object(value, path, optional=_HAND_FIELDS)
    blocked = raw.get("blocked", False)
    if not isinstance(blocked, bool):
        raise ScoringError("blocked is true or false", f"{path}.blocked")
    last = raw.get("last", False)
    if not isinstance(last, bool):
        raise ScoringError("last is true or false", f"{path}.last")
    results = _object(raw.get("results", {}), f"{path}.results")
    read = _READERS[game.entry]
    problems = Problems()
    read_results = {}
    for name, result in results.items():
        with problems:
            read_results[_string(name, f"{path}.results")] = read(
                game, name, result, f"{path}.results.{name}"
            )
    problems.raise_any()
    return Hand(
        results=read_results,
        first=_optional_string(raw, "first", path),
        direction=_choice(Direction, raw["direction"], f"{path}.direction")
        if "direction" in raw
        else None,
        blocked=blocked,
        redeal=_optional_string(raw, "redeal", path),
        declared_doubles=_optional_string(raw, "declared_doubles", path),
        last=last,
    )


def _pips(game: Game, name: str, value: object, path: str) -> Result:
    if type(value) is dict and value.keys() == {"pips"}:  # the common case, kept quick
        pips = value["pips"]
        if type(pips) is int and pips >= 0:
            return Result(pips=pips)
    raw = _object(value, path, optional={"pips", "tiles", "specials"})
    if "pips" in raw and "tiles" in raw:
        raise ScoringError("give either pips (a number) or tiles (a list), not both", path)
    if "pips" not in raw and "tiles" not in raw:
        raise ScoringError("the score is missing: give pips (a number) or tiles (a list)", path)
    specials = _specials(game, raw.get("specials", []), f"{path}.specials")
    if "tiles" in raw:
        return game.result_from_tiles(_tiles(raw["tiles"], f"{path}.tiles"), specials)
    score = Whose(N_("{name}'s score"), name)
    return Result(pips=_whole(raw["pips"], f"{path}.pips", score), specials=specials)


def _fish(game: Game, name: str, value: object, path: str) -> Result:
    fields = {"tiles", "large_fish_pips", "small_fish_red"}
    raw = _object(value, path, optional=fields | {"specials"})
    specials = _specials(game, raw.get("specials", []), f"{path}.specials")
    if "tiles" in raw:
        if len(raw.keys() & fields) > 1:
            raise ScoringError(
                "give either the captured tiles or the two fish totals, not both", path
            )
        return game.result_from_tiles(_tiles(raw["tiles"], f"{path}.tiles"), specials)
    if not raw.keys() >= {"large_fish_pips", "small_fish_red"}:
        raise ScoringError(
            "give the captured tiles, or both large_fish_pips and small_fish_red", path
        )
    large = Whose(N_("{name}'s large-fish pips"), name)
    red = Whose(N_("{name}'s small-fish red spots"), name)
    return Result(
        large_fish_pips=_whole(raw["large_fish_pips"], f"{path}.large_fish_pips", large),
        small_fish_red=_whole(raw["small_fish_red"], f"{path}.small_fish_red", red),
        specials=specials,
    )


_READERS = {Entry.PIPS: _pips, Entry.FISH: _fish}
_SPECIAL_VALUES = frozenset(special.value for special in Special)


def _specials(game: Game, value: object, path: str) -> frozenset[Special]:
    if value == []:
        return frozenset()
    items = []
    for i, item in enumerate(_list(value, path)):
        special = Special(item) if isinstance(item, str) and item in _SPECIAL_VALUES else None
        if special not in game.specials:
            raise ScoringError(
                N_("{value} is not a special result of {game}: it has {allowed}")
                if game.specials
                else N_("{value} is not a special result: {game} has none"),
                f"{path}[{i}]",
                value=_shown(item),
                game=Phrase(game.label),
                allowed=", ".join(json.dumps(known.value) for known in sorted(game.specials)),
            )
        items.append(special)
    if len(set(items)) < len(items):
        raise ScoringError("a special result is listed twice", path)
    return frozenset(items)


def _tiles(value: object, path: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(item, f"{path}[{i}]") for i, item in enumerate(_list(value, path)))


def _object(
    value: object,
    path: str,
    *,
    required: set[str] | frozenset[str] = frozenset(),
    optional: set[str] | frozenset[str] | None = None,
    what: Phrase = A_FIELD,
) -> dict[str, object]:
    """A JSON object; with ``optional`` given, only the listed keys are allowed."""
    if not isinstance(value, dict):
        raise ScoringError("expected an object ({...})", path)
    for key in value:
        if optional is not None and key not in required and key not in optional:
            allowed = ", ".join(sorted(set(required) | set(optional))) or Phrase("nothing")
            raise ScoringError(
                "{key} is not {what} (allowed: {allowed})",
                _join(path, str(key)),
                key=repr(key),
                what=what,
                allowed=allowed,
            )
    for key in sorted(required):
        if key not in value:
            raise ScoringError("{key} is missing", _join(path, key), key=key)
    return value


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _list(value: object, path: str) -> list[object]:
    if not isinstance(value, list):
        raise ScoringError("expected a list ([...])", path)
    return value


def _string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise ScoringError("expected a name in quotes", path)
    return value


def _optional_string(raw: Mapping[str, object], key: str, path: str) -> str | None:
    return _string(raw[key], f"{path}.{key}") if key in raw else None


def _choice(kind: type[E], value: object, path: str) -> E:
    try:
        return kind(value) if isinstance(value, str) else kind("")
    except ValueError:
        raise ScoringError(
            "{value} is not one of {allowed}",
            path,
            value=_shown(value),
            allowed=", ".join(json.dumps(member.value) for member in kind),
        ) from None


def _shown(value: object) -> str:
    """A value as the document or the form gave it: text as typed, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


class Whose(NamedTuple):
    """Whose number a refusal is about: ``template`` (marked for translation) and the name,
    made into a Phrase only when there is something to refuse."""

    template: str
    name: str


def _number(value: object, path: str, what: Phrase, about: Whose | None) -> Decimal:
    """A finite number, or a refusal that says ``what`` was expected (of ``about``)."""
    number = None
    if not isinstance(value, bool) and isinstance(value, int | float | str | Decimal):
        with suppress(InvalidOperation):
            number = Decimal(repr(value) if isinstance(value, float) else value)
    if number is None or not number.is_finite():
        raise _expected(what, value, path, about)
    return number


def _expected(what: Phrase, value: object, path: str, about: Whose | None) -> ScoringError:
    if about is None:
        return ScoringError("expected {what}, not {value}", path, what=what, value=_shown(value))
    return ScoringError(
        "{about} must be {what}, not {value}",
        path,
        about=Phrase(about.template, name=about.name),
        what=what,
        value=_shown(value),
    )


def whole_number(value: object) -> int:
    """A whole number as the reader takes it ("١٢", "12 ", 12.0 are 12): for an app that stores
    what it was sent, once the engine has accepted it.

    >>> whole_number("١٢"), whole_number(" 12 "), whole_number(12.0)
    (12, 12, 12)
    """
    return _whole(value, "")


def _whole(value: object, path: str, about: Whose | None = None) -> int:
    if type(value) is int and 0 <= value <= MAX_WHOLE:  # the common case, kept quick
        return value
    what = Phrase("a whole number, 0 or more")
    number = _number(value, path, what, about)
    if number > MAX_WHOLE:
        what = Phrase("a whole number no larger than {most}", most=MAX_WHOLE)
    if number > MAX_WHOLE or number < 0 or number != number.to_integral_value():
        raise _expected(what, value, path, about)
    return int(number)


def _count(value: object, path: str, most: int) -> int:
    what = Phrase("a whole number from 1 to {most}", most=most)
    number = _number(value, path, what, None)
    if not 1 <= number <= most or number != number.to_integral_value():
        raise _expected(what, value, path, None)
    return int(number)


def _money(value: object, path: str, limits: Amount) -> Decimal:
    most, places = limits
    what = Phrase(
        "an amount from 0 (points only) to {most}, such as 1 or 0.50, "
        "with at most {places} decimal places",
        most=most,
        places=places,
    )
    number = _number(value, path, what, None)
    exponent = number.as_tuple().exponent
    if not 0 <= number <= most or (isinstance(exponent, int) and -exponent > places):
        raise _expected(what, value, path, None)
    return number


# -- writing -------------------------------------------------------------------------------


def amount(value: Decimal) -> int | str:
    """A JSON number when whole, otherwise a decimal string (CONTRACT.md).

    >>> amount(Decimal("12.00")), amount(Decimal("12.50")), amount(Decimal("-0"))
    (12, '12.50', 0)
    """
    whole = int(value)
    if whole == value:
        return whole
    return format(value, "f")


def _amounts(values: Mapping[str, Decimal]) -> dict[str, int | str]:
    return {name: amount(value) for name, value in values.items()}


def _transfer(payer: str, payee: str, value: Decimal) -> dict[str, Any]:
    return {"from": payer, "to": payee, "amount": amount(value)}


def hand_document(hand: HandResult) -> dict[str, Any]:
    """One entry of the result document's ``hands``: what a hand settled."""
    return {
        "first": hand.first,
        "direction": hand.direction.value,
        "order": list(hand.order),
        "scores": dict(hand.scores),
        "ranking": list(hand.ranking),
        "payments": [
            {
                **_transfer(p.payer, p.payee, p.amount),
                "multiplier": p.multiplier,
                "reason": p.reason,
            }
            for p in hand.payments
        ],
        "net": _amounts(hand.net),
        "next_first": hand.next_first,
        "next_direction": hand.next_direction.value,
        **(
            {
                "proven": [
                    {"player": p.player, "special": p.special.value, "tiles": p.tiles, "why": p.why}
                    for p in hand.proven
                ]
            }
            if hand.proven
            else {}
        ),
    }


def result_document(result: SessionResult) -> dict[str, Any]:
    """The result document of CONTRACT.md for a scored session."""
    return {
        "hands": [hand_document(hand) for hand in result.hands],
        "totals": {
            "net": _amounts(result.totals.net),
            "scores": dict(result.totals.scores),
            "hands_won": dict(result.totals.hands_won),
        },
        "settle_up": [_transfer(t.payer, t.payee, t.amount) for t in result.settle_up],
        **({"end": end_document(result.end)} if result.end is not None else {}),
    }


def end_document(end: End) -> dict[str, Any]:
    """The result document's ``end``: over or not, why, the winner; and while it goes on,
    who leads and what is left to play (``points_to_go``, ``hands_to_go``, when set)."""
    if end.over:
        return {"over": True, "reason": str(end.reason), "winner": end.winner}
    left = {"points_to_go": end.points_to_go, "hands_to_go": end.hands_to_go}
    return {"over": False, "leader": end.winner} | {k: v for k, v in left.items() if v is not None}
