"""Builders for session documents, so that each test shows only the numbers it is about."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import strategies as st

from scoring import GAMES, Deck, ScoringError, score

FOUR = ("Anna", "Bob", "Celine", "Dominic")
THREE = FOUR[:3]
TWO = FOUR[:2]


def session(
    game: str,
    seating: Sequence[str],
    hands: Iterable[Mapping[str, Any]],
    *,
    first: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """A session document; keyword arguments become its options."""
    document: dict[str, Any] = {
        "game": game,
        "seating": list(seating),
        "first": first or seating[0],
        "hands": [dict(hand) for hand in hands],
    }
    if options:
        document["options"] = options
    return document


def hand(results: Mapping[str, Any], **fields: Any) -> dict[str, Any]:
    """A played hand. A bare number is that player's pips; a dict is the result as given."""
    return {
        "results": {
            name: {"pips": result} if isinstance(result, int) else dict(result)
            for name, result in results.items()
        },
        **fields,
    }


def special(pips: int, *specials: str) -> dict[str, Any]:
    return {"pips": pips, "specials": list(specials)}


def tiles(*texts: str) -> dict[str, Any]:
    return {"tiles": list(texts)}


def play(
    game: str,
    seating: Sequence[str],
    results: Mapping[str, Any],
    *,
    first: str | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Score a one-hand session and return that hand of the result document."""
    out = score(session(game, seating, [hand(results)], first=first, **options))
    first_hand: dict[str, Any] = out["hands"][0]
    return first_hand


def money(value: object) -> Decimal:
    """An amount of the result document (a JSON number or a decimal string) as a Decimal."""
    assert not isinstance(value, bool | float), f"amounts are ints or decimal strings: {value!r}"
    return Decimal(str(value))


def nets(out_hand: Mapping[str, Any]) -> dict[str, Decimal]:
    return {name: money(value) for name, value in out_hand["net"].items()}


def paid(out_hand: Mapping[str, Any]) -> set[tuple[str, str, Decimal]]:
    """The payments of a hand as (from, to, amount)."""
    return {(p["from"], p["to"], money(p["amount"])) for p in out_hand["payments"]}


def whole(values: Mapping[str, int]) -> dict[str, Decimal]:
    return {name: Decimal(value) for name, value in values.items()}


def rejected(document: object) -> ScoringError:
    """Score ``document``, which must be rejected with a ScoringError; return the error."""
    with pytest.raises(ScoringError) as caught:
        score(document)
    return caught.value


# -- what a phone can send ------------------------------------------------------------------

TYPED = ("0", "3", "12", "23", "86", "87", "200", "-4", "1.5", "abc", "")
OPTION_TYPED = ("0", "0.50", "1", "6", "7", "7/8", "6/7", "each", "highest", "rotate", "-1", "x")


@st.composite
def phone_sessions(draw: st.DrawFn) -> dict[str, Any]:
    """A session document as the table page builds one from what players type and tap: the
    offered specials, events and tiles, numbers as typed (digits become numbers, anything else
    goes as text), options as typed. Most are wrong somewhere; every kind of rule is met."""
    game = GAMES[draw(st.sampled_from(sorted(GAMES)))]
    seating = FOUR[: draw(st.sampled_from(game.player_counts))]
    options = draw(
        st.dictionaries(st.sampled_from(sorted(game.option_names)), st.sampled_from(OPTION_TYPED))
    )
    every_tile = [str(tile) for tile in Deck.DOUBLE_64.all_tiles()]

    def typed(text: str) -> int | str:
        return int(text) if text.isdigit() else text

    hands = []
    for _ in range(draw(st.integers(1, 2))):
        hand_doc: dict[str, Any] = {}
        if draw(st.booleans()):
            hand_doc["first"] = draw(st.sampled_from(seating))
        events = sorted(event.value for event in game.events)
        event = draw(st.sampled_from([None, *events]))
        if event == "blocked":
            hand_doc["blocked"] = True
        elif event is not None:
            hand_doc[event] = draw(st.sampled_from(seating))
        results = {}
        for name in seating:
            if draw(st.integers(0, 9)) == 0:
                continue  # a field left empty
            result: dict[str, Any]
            if draw(st.booleans()):
                result = {"tiles": draw(st.lists(st.sampled_from(every_tile), max_size=10))}
            elif game.entry.fields[0].key == "pips":
                result = {"pips": typed(draw(st.sampled_from(TYPED)))}
            else:
                result = {
                    field.key: typed(draw(st.sampled_from(TYPED))) for field in game.entry.fields
                }
            specials = (
                draw(st.lists(st.sampled_from(sorted(game.specials)), unique=True))
                if game.specials
                else []
            )
            if specials:
                result["specials"] = [special.value for special in specials]
            results[name] = result
        hand_doc["results"] = results
        hands.append(hand_doc)
    return {
        "game": game.key,
        "seating": list(seating),
        "first": draw(st.sampled_from(seating)),
        "options": options,
        "hands": hands,
    }
