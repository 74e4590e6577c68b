"""Each hand's outcome per player is stored as rows in the hand's transaction (issue 20, item 2),
and those rows always equal what the engine computes from the hands: after every save,
correction, void and refusal, however they come."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from ledger.models import Result, TableSession
from ledger.tables import services
from ledger.tables.stored import specials_of
from tests.depth import examples

# Depends on the database: the result rows are written under the table's row lock, and their
# sums kept to the cent.
pytestmark = pytest.mark.both_databases

PLAYERS = ["Anna", "Bob", "Celine"]
# Jie Long scores three players can have at once (each makeable from disjoint tiles), ties
# among them, so that ties to the lower total can turn on an earlier correction.
SCORES = [(2, 12, 20), (5, 5, 20), (12, 12, 5), (20, 5, 2), (9, 11, 7), (12, 2, 12)]
OPTIONS = [{}, {"ties": "lower_total"}, {"payment": "chips", "chip": "0.5"}, {"stake": "0"}]
OPTIONS += [{"play_to": 40, "ties": "lower_total"}]

operations = st.lists(
    st.one_of(
        st.tuples(st.just("record"), st.sampled_from(SCORES)),
        st.tuples(st.just("correct"), st.integers(1, 8), st.sampled_from(SCORES)),
        st.tuples(st.just("void"), st.integers(1, 8)),
    ),
    max_size=10,
)


def hand(scores: tuple[int, int, int]) -> dict[str, Any]:
    return {"results": {name: {"pips": pips} for name, pips in zip(PLAYERS, scores, strict=True)}}


def rows(table: TableSession) -> dict[tuple[int, str], tuple[Any, ...]]:
    current = Result.objects.filter(session=table).standing().select_related("hand", "player")
    return {
        (row.hand.number, row.player.name): (row.score, row.net, row.won, row.specials)
        for row in current
    }


def engine(table: TableSession) -> dict[tuple[int, str], tuple[Any, ...]]:
    """The oracle: the live hands scored by the engine, outcome by outcome."""
    live = list(table.hands.filter(voided=False).order_by("number"))
    document = table.document([h.named for h in live])
    result = scoring.score_session(scoring.parse_session(document))
    return {
        (h.number, name): (
            played.scores.get(name),
            played.net[name],
            played.ranking[0] == name,
            sorted(specials_of(table.game, h.named["results"].get(name, {}))),
        )
        for h, played in zip(live, result.hands, strict=True)
        for name in PLAYERS
    }


def apply(table: TableSession, operation: tuple[Any, ...]) -> None:
    try:
        if operation[0] == "record":
            number = table.hands.count() + 1
            services.hand_record(session=table, number=number, data=hand(operation[1]))
        elif (found := table.hands.filter(number=operation[1]).first()) is not None:
            if operation[0] == "correct":
                data = hand(operation[2])
                services.hand_correct(
                    session=table, number=found.number, data=data, version=found.version
                )
            else:
                services.hand_void(session=table, number=found.number, version=found.version)
    except (scoring.ScoringError, services.HandVoided):
        pass  # refused: nothing may change, which the rows are checked for all the same


@pytest.mark.django_db
@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.sampled_from(OPTIONS), operations)
def test_the_rows_always_equal_what_the_engine_computes_from_the_hands(options, steps):
    table = services.session_create(game="jie-long", options=options, seating=PLAYERS, first="Anna")
    for operation in steps:
        apply(table, operation)
        assert rows(table) == engine(table)
    # Nothing is lost or edited: every row a change took back is kept, beside its reversal.
    for reversal in Result.objects.filter(session=table).exclude(reverses=None):
        taken = reversal.reverses
        assert (reversal.net, reversal.hand_id, reversal.player_id) == (
            -taken.net,
            taken.hand_id,
            taken.player_id,
        )


@pytest.mark.django_db
def test_a_correction_that_turns_a_later_tie_writes_new_rows_and_keeps_the_old():
    table = services.session_create(
        game="jie-long", options={"ties": "lower_total"}, seating=PLAYERS, first="Anna"
    )
    services.hand_record(session=table, number=1, data=hand((2, 12, 20)))
    services.hand_record(session=table, number=2, data=hand((5, 5, 20)))  # Anna: lower total
    assert rows(table)[(2, "Anna")][2] is True

    services.hand_correct(session=table, number=1, data=hand((20, 2, 12)), version=1)
    assert rows(table)[(2, "Bob")][2] is True  # now Bob's total is the lower
    old = Result.objects.filter(session=table, hand__number=2).exclude(reversal=None)
    assert {r.player.name: r.won for r in old} == {"Anna": True, "Bob": False, "Celine": False}
    assert rows(table) == engine(table)


@pytest.mark.django_db
def test_a_redeal_has_no_rows_and_declared_doubles_mark_their_holder():
    table = services.session_create(
        game="ce-deng", options={}, seating=[*PLAYERS, "Dominic"], first="Anna"
    )
    services.hand_record(session=table, number=1, data={"redeal": "Bob"})
    assert not Result.objects.exists()
    doubles = {
        "declared_doubles": "Bob",
        "results": {"Anna": {"pips": 60}, "Celine": {"pips": 50}, "Dominic": {"pips": 45}},
    }
    services.hand_record(session=table, number=2, data=doubles)
    held = Result.objects.get(player__name="Bob")
    assert (held.score, held.won, held.specials) == (0, True, ["declared_doubles"])
    assert held.net == Decimal(2 * (60 + 50 + 45))
