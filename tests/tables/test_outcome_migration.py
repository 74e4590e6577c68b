"""Migration 0039 (rows and hands keep what a hand's display needs) on rows of the schema before
it: every hand that counts gets who led it and who leads next, every row that stands its
place in turn and in the ranking, its payments and its proof, as the engine gives them (what
the services write today); rows a change reversed, and their reversals, stay without. Every
total, balance, standing, API answer and export is the same to the cent before and after, and
``ledger_verify`` finds nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ledger.api import serializers
from ledger.events import exports as event_exports
from ledger.events import selectors as event_selectors
from ledger.events import services as event_services
from ledger.groups import exports as group_exports
from ledger.groups import selectors as group_selectors
from ledger.groups import services as group_services
from ledger.models import Event, Group, Hand, Result, TableSession
from ledger.tables import exports, money, selectors, services
from tests.events.test_events import play
from tests.tables.conftest import SEATING, plain_hand

# A migration run back and forth: in the PostgreSQL pass alone when one answers (on SQLite
# when none does, on both in make test-deep).
pytestmark = pytest.mark.postgresql

BEFORE = ("ledger", "0038_payment_chip_constraint")
THREE = ["Anna", "Bob", "Celine"]
NEW_ROW_FIELDS = ("turn", "rank", "paid", "proof")
LEAD_FIELDS = ("first", "direction", "next_first", "next_direction")
DECLARED = {
    "declared_doubles": "Celine",
    "results": {"Anna": {"pips": 50}, "Bob": {"pips": 61}, "Dominic": {"pips": 48}},
}


def _migrate(target: list[tuple[str, str]] | None = None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def _three(a: int, b: int, c: int) -> dict[str, Any]:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


def _played() -> None:
    """A lone Ce Deng table at a stake of 0.50 with a tail-eight its pips prove, a redeal,
    declared doubles, a correction and a void; one played to a target until it was over; a
    group's tables in money, chips and points, one corrected, one with ties to the lower
    total; and a tournament's round."""
    lone = services.session_create(
        game="ce-deng", options={"stake": "0.50"}, seating=SEATING, first="Anna"
    )
    services.hand_record(session=lone, number=1, data=plain_hand())
    services.hand_record(session=lone, number=2, data=plain_hand(direction="cw", Bob=80))
    services.hand_record(session=lone, number=3, data={"redeal": "Dominic"})
    services.hand_record(session=lone, number=4, data=DECLARED)
    services.hand_record(session=lone, number=5, data=plain_hand(first="Celine", direction="cw"))
    services.hand_correct(session=lone, number=1, data=plain_hand(Anna=20, Bob=2), version=1)
    services.hand_void(session=lone, number=5, version=1)
    ended = services.session_create(
        game="jie-long", options={"play_to": 40}, seating=THREE, first="Bob"
    )
    services.hand_record(session=ended, number=1, data=_three(2, 12, 20))
    services.hand_record(session=ended, number=2, data=_three(9, 5, 21))
    group = group_services.group_create(name="Tuesdays", game="jie-long", options={"stake": "1"})
    for options in (
        {"stake": "0.25"},
        {"payment": "chips", "chip": "0.2"},
        {"stake": "0"},
        {"ties": "lower_total"},
    ):
        table = group_services.table_start(
            group=group, seating=THREE, first="Anna", options=options
        )
        services.hand_record(session=table, number=1, data=_three(2, 12, 20))
        services.hand_record(session=table, number=2, data=_three(9, 9, 20))
        services.hand_record(session=table, number=3, data=_three(5, 5, 21))
    services.hand_correct(session=table, number=1, data=_three(12, 2, 20), version=1)
    event = event_services.event_create(
        name="Club night", game="jie-long", options={"stake": "0.1"}, rounds=2, seed="club"
    )
    for name in ("Anna", "Bob", "Celine", "Dominic", "Edith", "Farid", "Gus", "Hana"):
        event_services.entry_add(event=event, name=name, organiser=True)
    begun = event_services.round_begin(round=event_services.round_seat(event=event))
    for table in begun.tables.order_by("table_number"):
        play(table, 2, 12, 34, 18)
        play(table, 20, 2, 5, 5)


def _content(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def _read() -> dict[str, object]:
    """Every table's totals and score sheet as its readers read them (each hand with what it
    came to, the totals, the settle-up, where it ends, who leads next), its API hands, every
    group's balances, every event's standings, and every export of each."""
    tables = TableSession.objects.order_by("pk")
    sheets = {}
    for table in tables:
        sheet = selectors.score_sheet(table)
        sheets[table.pk] = (
            [(row.hand, row.result, row.why) for row in sheet.rows],
            sheet.result,
            (sheet.next_first, sheet.next_direction),
            serializers.hands_data(sheet),
            money.table_totals(table),
        )
    groups = {}
    for group in Group.objects.all():
        ledger = group_selectors.ledger(group)
        groups[group.pk] = (ledger.money, ledger.points, ledger.hands, ledger.won)
    standings = {
        event.pk: [
            (row.name, row.net, row.hands_won, row.points, row.hands, row.place)
            for row in event_selectors.standings(event).rows
        ]
        for event in Event.objects.all()
    }
    files = [
        *(_content(exports.response(t, kind)) for t in tables for kind in exports.EXPORTS),
        *(_content(exports.response(t, kind, words=True)) for t in tables
          for kind in exports.EXPORTS),
        *(_content(group_exports.response(g, kind)) for g in Group.objects.all()
          for kind in group_exports.EXPORTS),
        *(_content(event_exports.event_response(e, kind)) for e in Event.objects.all()
          for kind in event_exports.EVENT_EXPORTS),
    ]  # fmt: skip
    return {"tables": sheets, "groups": groups, "standings": standings, "exports": files}


def _kept() -> tuple[set[tuple[Any, ...]], set[tuple[Any, ...]]]:
    """What the rows that stand and the hands that count keep of their outcome."""
    rows = Result.objects.standing().values_list("pk", *NEW_ROW_FIELDS)
    hands = Hand.objects.filter(voided=False).values_list("pk", *LEAD_FIELDS)
    as_text = {(pk, turn, rank, repr(paid), repr(proof)) for pk, turn, rank, paid, proof in rows}
    return as_text, set(hands)


@pytest.mark.django_db(transaction=True)
def test_old_rows_get_what_the_engine_gives_and_every_figure_stays_to_the_cent():
    _played()
    before, kept = _read(), _kept()
    reversed_ = Result.objects.exclude(reverses=None).count()
    assert reversed_ > 0
    assert Result.objects.standing().exclude(proof=None).count() == 1  # the tail-eight's
    try:
        _migrate([BEFORE])
        old = MigrationExecutor(connection).loader.project_state([BEFORE]).apps
        OldResult, OldHand = old.get_model("ledger", "Result"), old.get_model("ledger", "Hand")
        assert not {"turn", "paid"} & {f.name for f in OldResult._meta.get_fields()}
        assert not {"next_first"} & {f.name for f in OldHand._meta.get_fields()}

        _migrate()

        assert _read() == before
        assert _kept() == kept
        # Rows a change reversed, and their reversals, keep nothing more: they cancel.
        for row in Result.objects.exclude(reverses=None).select_related("reverses"):
            assert (row.turn, row.rank, row.paid, row.proof) == (None, None, [], None)
            assert (row.reverses.turn, row.reverses.paid, row.reverses.proof) == (None, [], None)
        said = StringIO()
        call_command("ledger_verify", stdout=said)  # exits 1 on any difference
        assert said.getvalue().startswith("All agree:"), said.getvalue()
    finally:
        _migrate()
