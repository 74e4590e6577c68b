"""Tournaments: registration, rounds seated as table sessions, swaps, standings."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from itertools import combinations, pairwise

import pytest
from django.utils import timezone

from ledger.events import selectors, standings
from ledger.events import services as event_services
from ledger.models import Round, TableSession
from ledger.tables import services
from scoring import ScoringError

# both_databases on the tests of the standings: their nets are the result rows' sums, in a fixed
# number of queries. Seating, swaps and the tie-breakers run once: no two saves race here for
# the rounds' row locks to decide.

TWELVE = [f"Player {i:02}" for i in range(1, 13)]


def play(table: TableSession, *pips: int) -> None:
    """Record the table's next hand: each seat's pips in seating order."""
    seating = table.seating
    number = table.hands.count() + 1
    data = {"results": {name: {"pips": p} for name, p in zip(seating, pips, strict=True)}}
    services.hand_record(session=table, number=number, data=data)


def test_an_event_refuses_what_the_engine_refuses(db):
    with pytest.raises(ScoringError) as refused:
        event_services.event_create(name="X", game="ding-niu", options={"stake": 1}, rounds=2)
    assert refused.value.path == "options.stake"
    with pytest.raises(ValueError, match="rounds"):
        event_services.event_create(name="X", game="jie-long", options={}, rounds=0)


def test_a_round_is_tables_of_the_event_game_seating_every_active_player(event):
    played = event_services.round_seat(event=event)

    tables = list(TableSession.objects.filter(round=played).order_by("table_number"))
    assert [t.table_number for t in tables] == [1, 2, 3]
    assert sorted(name for t in tables for name in t.seating) == sorted(TWELVE)
    assert all(t.game == "jie-long" and t.options == {"stake": 1} for t in tables)
    assert all(t.first == t.seating[0] for t in tables)
    assert played.byes == []


def test_round_one_is_the_same_for_the_same_seed(db):
    def first_round():
        event = event_services.event_create(
            name="E", game="jie-long", options={}, rounds=1, seed="fixed"
        )
        for name in TWELVE:
            event_services.entry_add(event=event, name=name, organiser=True)
        round = event_services.round_seat(event=event)
        return [t.seating for t in round.tables.order_by("table_number")]

    assert first_round() == first_round()


def test_the_next_round_waits_for_this_one_to_begin(event):
    event_services.round_seat(event=event)

    with pytest.raises(event_services.RoundStarted):
        event_services.round_seat(event=event)


def test_mixing_round_two_meets_as_few_again_as_possible(event):
    one = event_services.round_begin(round=event_services.round_seat(event=event))
    two = event_services.round_seat(event=event)

    before = {frozenset(p) for t in one.tables.all() for p in combinations(t.seating, 2)}
    again = [
        p for t in two.tables.all() for p in combinations(t.seating, 2) if frozenset(p) in before
    ]
    assert len(again) == 3  # 3 tables of 4 out of 3 tables of 4: one old pair a table at least


def test_the_organiser_swaps_two_players_before_the_round_begins(event):
    played = event_services.round_seat(event=event)
    tables = list(played.tables.order_by("table_number"))
    lead, other = tables[0].seating[0], tables[1].seating[2]

    event_services.round_swap(round=played, first=lead, second=other)

    tables = list(played.tables.order_by("table_number"))
    assert tables[0].seating[0] == other and tables[0].first == other
    assert tables[1].seating[2] == lead
    event_services.round_begin(round=played)
    with pytest.raises(event_services.RoundStarted):
        event_services.round_swap(round=played, first=lead, second=other)


def test_a_table_with_hands_recorded_keeps_its_seating(event):
    played = event_services.round_seat(event=event)
    tables = list(played.tables.order_by("table_number"))
    play(tables[0], 3, 10, 20, 30)  # before the round began: the hands are these players'
    lead, other = tables[0].seating[0], tables[1].seating[2]

    with pytest.raises(event_services.Refused, match="has hands recorded"):
        event_services.round_swap(round=played, first=lead, second=other)

    assert [table.seating for table in played.tables.order_by("table_number")] == [
        table.seating for table in tables
    ]
    assert selectors.standings(event).rows  # every table still scores


def test_byes_in_ding_niu_and_a_swap_with_a_bye(db):
    event = event_services.event_create(name="Ding", game="ding-niu", options={}, rounds=2)
    for name in TWELVE[:10]:
        event_services.entry_add(event=event, name=name, organiser=True)

    played = event_services.round_seat(event=event)
    sitting_out = played.byes[0]
    seated = played.tables.first().seating[1]
    event_services.round_swap(round=played, first=sitting_out, second=seated)
    played.refresh_from_db()

    assert len(played.byes) == 2 and seated in played.byes and sitting_out not in played.byes
    assert sitting_out in played.tables.first().seating


@pytest.mark.both_databases
def test_standings_add_up_every_table_with_tie_breakers(event):
    round_one = event_services.round_begin(round=event_services.round_seat(event=event))
    tables = list(round_one.tables.order_by("table_number"))
    play(tables[0], 2, 12, 34, 18)
    play(tables[1], 10, 10, 20, 30)

    result = selectors.standings(event)

    assert len(result.rows) == 12
    assert sum(row.net for row in result.rows) == 0
    leader = result.rows[0]
    assert leader.name == tables[0].seating[0] and leader.net == Decimal(58)
    assert leader.place == 1 and leader.rounds[1] == (1, Decimal(58))
    # Level on net: more hands won first.
    level = [row for row in result.rows if row.net == 0]
    assert all(row.hands_won >= later.hands_won for row, later in pairwise(level))
    states = {state.number: state for state in result.tables}
    assert states[1].recorded == 1 and states[3].recorded == 0 and not states[1].corrected


@pytest.mark.both_databases
def test_a_dropped_player_keeps_their_results_and_is_not_seated_again(event):
    round_one = event_services.round_begin(round=event_services.round_seat(event=event))
    table = round_one.tables.order_by("table_number").first()
    play(table, 2, 12, 34, 18)
    gone = table.seating[2]

    event_services.entry_drop(event=event, name=gone)
    round_two = event_services.round_seat(event=event)

    assert all(gone not in t.seating for t in round_two.tables.all())
    assert gone not in round_two.byes
    row = next(r for r in selectors.standings(event).rows if r.name == gone)
    assert row.net == Decimal(-70) and not row.active


def test_a_late_arrival_plays_from_the_next_round(event):
    event_services.round_begin(round=event_services.round_seat(event=event))
    event_services.entry_add(event=event, name="Late Lily", organiser=True)

    round_two = event_services.round_seat(event=event)

    names = [n for t in round_two.tables.all() for n in t.seating] + round_two.byes
    assert "Late Lily" in names and len(names) == 13


def test_the_event_has_as_many_rounds_as_it_says(event):
    for _ in range(3):
        event_services.round_begin(round=event_services.round_seat(event=event))

    with pytest.raises(ValueError, match="3 rounds"):
        event_services.round_seat(event=event)
    assert Round.objects.filter(event=event).count() == 3


@pytest.mark.both_databases
def test_standings_take_a_constant_number_of_queries(event, django_assert_max_num_queries):
    for _ in range(2):
        round = event_services.round_begin(round=event_services.round_seat(event=event))
        for table in round.tables.all():
            play(table, 2, 12, 34, 18)

    # tables, seats, entries, rounds, and the money: sums and who won what from whom
    with django_assert_max_num_queries(6):
        selectors.standings(event)


def test_a_substitute_takes_a_players_place_before_the_round_begins(event):
    played = event_services.round_seat(event=event)
    table = played.tables.order_by("table_number").first()
    absent = table.seating[0]
    event_services.entry_add(event=event, name="Sub Sam", organiser=True)

    event_services.round_swap(round=played, first=absent, second="Sub Sam")
    event_services.entry_drop(event=event, name=absent)

    table.refresh_from_db()
    assert table.seating[0] == "Sub Sam" and table.first == "Sub Sam"
    with pytest.raises(ValueError, match="not registered"):
        event_services.round_swap(round=played, first="Sub Sam", second="Nobody")


def _row(name: str, net: int, won: int, points: int) -> standings.Standing:
    return standings.Standing(name, True, Decimal(net), won, points)


@pytest.mark.parametrize(
    ("ties", "order"),
    [
        (["hands_won", "fewest_points"], ["Ann", "Bea", "Cy", "Dee"]),
        (["fewest_points", "hands_won"], ["Ann", "Cy", "Bea", "Dee"]),
        (["head_to_head"], ["Ann", "Dee", "Bea", "Cy"]),  # Bea and Cy both -3: by name
        ([], ["Ann", "Bea", "Cy", "Dee"]),  # level on net: by name
    ],
)
def test_tie_breakers_apply_in_the_order_the_organiser_chose(ties, order):
    rows = [
        _row("Bea", 5, 3, 40),
        _row("Cy", 5, 1, 20),
        _row("Dee", 5, 1, 60),
        _row("Ann", 9, 0, 0),
    ]
    # Dee won 4 from Cy and 2 from Bea; Cy won 1 from Bea.
    from collections import Counter

    h2h = {
        "Dee": Counter({"Cy": Decimal(4), "Bea": Decimal(2)}),
        "Cy": Counter({"Dee": Decimal(-4), "Bea": Decimal(1)}),
        "Bea": Counter({"Dee": Decimal(-2), "Cy": Decimal(-1)}),
    }

    ranked = standings.order(rows, ties, h2h)

    assert [row.name for row in ranked] == order
    assert [row.place for row in ranked] == [1, 2, 3, 4]


def test_the_event_form_keeps_the_tie_breakers_in_the_chosen_order(client, db):
    from django.urls import reverse

    from ledger.models import Event

    client.post(
        reverse("event_new"),
        {"name": "E", "game": "jie-long", "rounds": "1", "method": "mixing",
         "tie_1": "head_to_head", "tie_2": "", "tie_3": "head_to_head"},
    )  # fmt: skip

    assert Event.objects.get().tie_breakers == ["head_to_head"]


def test_a_round_with_minutes_ends_each_of_its_tables_by_time_when_it_begins(event):
    event.minutes_per_round = 45
    event.save()
    seated = event_services.round_seat(event=event)
    assert all(t.ends_at is None for t in seated.tables.all())  # the clock starts at the begin

    begun = event_services.round_begin(round=seated)
    assert begun.ends is not None
    assert [t.ends_at for t in begun.tables.all()] == [begun.ends] * 3


def test_a_table_whose_time_ran_out_is_finished_once_its_last_hand_is_saved(event):
    event.minutes_per_round = 45
    event.save()
    begun = event_services.round_begin(round=event_services.round_seat(event=event))
    past = timezone.now() - timedelta(minutes=1)
    Round.objects.filter(pk=begun.pk).update(ends=past)
    TableSession.objects.filter(round=begun).update(ends_at=past)
    table = begun.tables.order_by("table_number").first()
    scores = dict(zip(table.seating, (2, 12, 34, 18), strict=False))
    hand = {"results": {name: {"pips": pips} for name, pips in scores.items()}}
    services.hand_record(session=table, number=1, data=hand)

    (state,) = selectors.round_tables(
        event, [Round.objects.get(pk=begun.pk)], selectors.standings(event)
    )
    by_table = {t["table"].number: t["state"] for t in state.tables}
    assert by_table == {1: "finished", 2: "running late", 3: "running late"}
