"""Undo, in the services: seating a round, a swap and a drop can be undone, latest first, until
a round begins; undoing puts back exactly what was there."""

from __future__ import annotations

import pytest

from ledger.events import services
from ledger.models import Entry, Event, Round, TableSession
from ledger.tables import tally
from tests.events.test_events import TWELVE, play

# Depends on the database: an event's undo steps are JSON, taken back under the round's row lock.
pytestmark = pytest.mark.both_databases


def seating(round: Round) -> tuple[list[tuple[int, list[str], str]], list[str]]:
    """What a round seats, as stored: each table's number, players in order, and first lead;
    and the byes."""
    round.refresh_from_db()
    tables = [
        (table.table_number, table.seating, table.first)
        for table in TableSession.objects.filter(round=round).order_by("table_number")
    ]
    return tables, list(round.byes)


def steps(event: Event) -> list[str]:
    event.refresh_from_db()
    return [step["kind"] for step in event.undo]


def test_undoing_a_seated_round_unseats_it_and_seating_it_again_seats_the_same(event):
    seated = seating(services.round_seat(event=event))

    undone = services.event_undo(event=event)

    assert undone == {"kind": "seat", "round": 1}
    assert not Round.objects.filter(event=event).exists()
    assert not TableSession.objects.filter(round__event=event).exists()
    assert steps(event) == []
    assert seating(services.round_seat(event=event)) == seated


def test_undoing_swaps_restores_the_exact_previous_seating_latest_first(event):
    played = services.round_seat(event=event)
    services.entry_add(event=event, name="Sub Sam", organiser=True)
    before_any = seating(played)
    (_, one, _), (_, two, _), _ = before_any[0]
    services.round_swap(round=played, first=one[0], second=two[2])  # seat 0 leads: first moves
    after_one = seating(played)
    services.round_swap(round=played, first=two[2], second="Sub Sam")  # a substitute steps in

    assert steps(event) == ["seat", "swap", "swap"]
    assert services.event_undo(event=event)["names"] == [two[2], "Sub Sam"]
    assert seating(played) == after_one
    services.event_undo(event=event)
    assert seating(played) == before_any
    assert steps(event) == ["seat"]


def test_undoing_a_swap_with_a_bye_puts_the_bye_back(db):
    event = services.event_create(name="Ding", game="ding-niu", options={}, rounds=2)
    for name in TWELVE[:10]:
        services.entry_add(event=event, name=name, organiser=True)
    played = services.round_seat(event=event)
    before = seating(played)
    tables, byes = before

    services.round_swap(round=played, first=byes[0], second=tables[1][1][0])
    assert seating(played) != before
    services.event_undo(event=event)

    assert seating(played) == before


def test_an_undone_swap_counts_its_tables_again(event):
    played = services.round_seat(event=event)
    tables = list(played.tables.order_by("table_number"))[:2]
    revisions = [table.revision for table in tables]
    services.round_swap(round=played, first=tables[0].seating[1], second=tables[1].seating[1])

    services.event_undo(event=event)

    for table, revision in zip(tables, revisions, strict=True):
        table.refresh_from_db()
        assert table.revision > revision
        assert tally.current_tally(table) is not None  # counted for the table as it is again


def test_undoing_a_drop_brings_the_player_back(event):
    name = TWELVE[3]
    services.entry_drop(event=event, name=name)

    services.event_undo(event=event)

    assert Entry.objects.get(event=event, player__name=name).active
    assert steps(event) == []


def test_dropping_someone_not_playing_changes_nothing_and_leaves_nothing_to_undo(event):
    services.entry_drop(event=event, name=TWELVE[0])
    services.entry_drop(event=event, name=TWELVE[0])  # already out
    services.entry_drop(event=event, name="Nobody")

    assert steps(event) == ["drop"]


def test_swapping_two_players_at_one_table_leaves_nothing_to_undo(event):
    played = services.round_seat(event=event)
    table = played.tables.first()

    services.round_swap(round=played, first=table.seating[0], second=table.seating[1])

    assert steps(event) == ["seat"]


def test_nothing_can_be_undone_once_the_round_has_begun(event):
    played = services.round_seat(event=event)
    tables = list(played.tables.order_by("table_number"))
    services.round_swap(round=played, first=tables[0].seating[0], second=tables[1].seating[0])
    services.entry_drop(event=event, name=tables[2].seating[3])
    services.round_begin(round=played)
    begun = seating(played)

    with pytest.raises(services.Refused, match="Nothing to undo"):
        services.event_undo(event=event)

    assert seating(played) == begun
    assert not Entry.objects.get(player__name=tables[2].seating[3]).active


def test_a_drop_during_a_round_can_be_undone_until_the_next_round_begins(event):
    services.round_begin(round=services.round_seat(event=event))
    services.entry_drop(event=event, name=TWELVE[0])
    services.entry_drop(event=event, name=TWELVE[1])

    assert services.event_undo(event=event)["name"] == TWELVE[1]
    services.round_begin(round=services.round_seat(event=event))

    with pytest.raises(services.Refused):
        services.event_undo(event=event)
    assert not Entry.objects.get(player__name=TWELVE[0]).active


def test_undo_refuses_a_round_that_began_without_its_steps_being_cleared(event):
    played = services.round_seat(event=event)
    Round.objects.filter(pk=played.pk).update(started=played.tables.first().created)

    with pytest.raises(services.RoundStarted, match="Round 1 has begun"):
        services.event_undo(event=event)

    assert Round.objects.filter(pk=played.pk).exists() and steps(event) == ["seat"]


def test_a_round_whose_tables_have_hands_is_not_unseated(event):
    played = services.round_seat(event=event)
    play(played.tables.first(), 2, 12, 34, 18)

    with pytest.raises(services.Refused, match="hands recorded"):
        services.event_undo(event=event)

    assert Round.objects.filter(pk=played.pk).exists() and steps(event) == ["seat"]


def test_undo_refuses_when_the_page_showed_another_latest_change(event):
    services.round_seat(event=event)  # the page showed this one ...
    services.entry_drop(event=event, name=TWELVE[0])  # ... and another device did this

    with pytest.raises(services.Refused, match="meanwhile"):
        services.event_undo(event=event, steps=1)

    assert steps(event) == ["seat", "drop"]
    assert services.event_undo(event=event, steps=2)["kind"] == "drop"
