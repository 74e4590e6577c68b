"""Migrations 0029 to 0031 (the append-only ledger) run on rows of the schema before them: a
row a change replaced gets its reversal, a voided payment its void row, every row its unit,
and every table's, player's and group's money, every standing and every export stays to the
cent (issue 14, items 2 and 7). Migration 0032 (amounts as whole ten-thousandths) keeps every
amount, and so every sum, exactly, both ways. Each test migrates forward to the latest, so
0033 (a table's changes of how it ends: a new, empty table) and 0034 (the database cache's
table dropped) run on those rows too, and back through them in the second test, and every
total, standing and export is compared after them."""

from __future__ import annotations

from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import Sum

from ledger.events import exports as event_exports
from ledger.events import selectors as event_selectors
from ledger.events import services as event_services
from ledger.groups import exports as group_exports
from ledger.groups import selectors as group_selectors
from ledger.groups import services as group_services
from ledger.models import Event, Group, Payment, Result, TableSession
from ledger.tables import exports, selectors, services, verify
from tests.events.test_events import play
from tests.tables.conftest import SEATING, plain_hand

# The migrations run on PostgreSQL alone when one answers (postgresql: on SQLite when none does,
# on both in make test-deep), but for 0032 forward and back, which takes a path of SQLite's own:
# its decimal columns hold floats, each rounded to four places on the way to whole
# ten-thousandths (both_databases).

BEFORE = ("ledger", "0028_limit_counts")
DECIMALS = ("ledger", "0031_append_only_results")  # the last schema with decimal columns
THREE = ["Anna", "Bob", "Celine"]


def _executor() -> MigrationExecutor:
    return MigrationExecutor(connection)


def _migrate(target: list[tuple[str, str]] | None = None) -> None:
    executor = _executor()
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def _three(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


def _played() -> Group:
    """A lone table with a correction and a void; a group's tables in money, chips and points,
    one corrected; three payments, one voided. Stakes, chips and payments with the fractions
    a float does not hold (0.1, 0.3333), and a payment of 13 digits."""
    lone = services.session_create(
        game="ce-deng", options={"stake": "0.1"}, seating=SEATING, first="Anna"
    )
    services.hand_record(session=lone, number=1, data=plain_hand())
    services.hand_record(session=lone, number=2, data=plain_hand(direction="cw", Bob=40))
    services.hand_correct(session=lone, number=1, data=plain_hand(Anna=20, Bob=2), version=1)
    services.hand_void(session=lone, number=2, version=1)
    group = group_services.group_create(name="Tuesdays", game="jie-long", options={"stake": "1"})
    for options in ({"stake": "0.3333"}, {"payment": "chips", "chip": "0.2"}, {"stake": "0"}):
        table = group_services.table_start(
            group=group, seating=THREE, first="Anna", options=options
        )
        services.hand_record(session=table, number=1, data=_three(2, 12, 20))
        services.hand_record(session=table, number=2, data=_three(9, 5, 20))
    services.hand_correct(session=table, number=2, data=_three(5, 9, 21), version=1)
    paid = group_services.payment_record(group=group, payer="Celine", payee="Anna", amount="7.25")
    group_services.payment_record(group=group, payer="Bob", payee="Anna", amount="0.1")
    group_services.payment_record(
        group=group, payer="Anna", payee="Celine", amount="123456789.1234"
    )
    group_services.payment_void(payment=paid.payment)
    event = event_services.event_create(
        name="Club night", game="jie-long", options={"stake": "0.1"}, rounds=2, seed="club"
    )
    for name in ("Anna", "Bob", "Celine", "Dominic", "Edith", "Farid", "Gus", "Hana"):
        event_services.entry_add(event=event, name=name, organiser=True)
    begun = event_services.round_begin(round=event_services.round_seat(event=event))
    for table in begun.tables.order_by("table_number"):
        play(table, 2, 12, 34, 18)
        play(table, 20, 2, 5, 5)
    return group


def _content(response) -> bytes:
    return b"".join(response.streaming_content)


def _money() -> dict[str, object]:
    """Every table's totals as its pages read them, each player's rows summed by the database,
    every group's balances, every event's standings, and every export of each."""
    tables = {
        table.pk: selectors.score_sheet(table).result.totals for table in TableSession.objects.all()
    }
    summed = {
        (row["session"], row["player"]): (row["net"], row["score"])
        for row in Result.objects.standing()
        .order_by()
        .values("session", "player")
        .annotate(net=Sum("net"), score=Sum("score"))
    }
    ledgers = {}
    for group in Group.objects.all():
        ledger = group_selectors.ledger(group)
        ledgers[group.pk] = (ledger.money, ledger.points, ledger.hands, ledger.won)
    standings = {
        event.pk: [
            (row.name, row.net, row.hands_won, row.points, row.hands, row.place)
            for row in event_selectors.standings(event).rows
        ]
        for event in Event.objects.all()
    }
    files = [
        *(_content(exports.response(t, kind)) for t in TableSession.objects.order_by("pk")
          for kind in exports.EXPORTS),
        *(_content(group_exports.response(g, kind)) for g in Group.objects.all()
          for kind in group_exports.EXPORTS),
        *(_content(event_exports.event_response(e, kind)) for e in Event.objects.all()
          for kind in event_exports.EVENT_EXPORTS),
    ]  # fmt: skip
    return {
        "tables": tables,
        "rows": summed,
        "groups": ledgers,
        "standings": standings,
        "exports": files,
    }


@pytest.mark.postgresql
def test_every_total_stays_to_the_cent_and_each_change_becomes_rows(transactional_db):
    group = _played()
    before = _money()
    reversals = Result.objects.exclude(reverses=None).count()
    standing = set(
        Result.objects.standing().values_list("hand", "player", "score", "net", "won", "unit")
    )
    void = Payment.objects.select_related("void").get(void__isnull=False).void
    assert reversals == 4 + 4 + 3  # Ce Deng's hands 1 and 2 (4 players), a group table's hand 2
    try:
        _migrate([BEFORE])
        # The rows as the schema before 0028 held them: replaced ones marked, voids a time.
        old = _executor().loader.project_state([BEFORE]).apps
        OldResult, OldPayment = (
            old.get_model("ledger", "Result"),
            old.get_model("ledger", "Payment"),
        )
        assert OldResult.objects.filter(current=False).count() == reversals
        assert not OldResult.objects.filter(current=False, replaced=None).exists()
        assert OldResult.objects.count() == len(standing) + reversals
        rows = OldResult.objects.filter(current=True).order_by().values("session", "player")
        current = {(r["session"], r["player"]): r["net"] for r in rows.annotate(net=Sum("net"))}
        assert current == {key: net for key, (net, _) in before["rows"].items()}
        assert OldPayment.objects.get(voided__isnull=False).voided == void.at
        # And each kept tally with money, as ledger.tables.tally kept it then.
        for table in old.get_model("ledger", "TableSession").objects.all():
            net = {int(pk): Decimal(value) for pk, value in table.tally["net"].items()}
            assert net == {
                player: net for (pk, player), (net, _) in before["rows"].items() if pk == table.pk
            }

        _migrate()

        assert _money() == before
        assert not [t for t in TableSession.objects.all() if "net" in t.tally]
        assert Result.objects.exclude(reverses=None).count() == reversals
        assert (
            set(
                Result.objects.standing().values_list(
                    "hand", "player", "score", "net", "won", "unit"
                )
            )
            == standing
        )
        units = dict(Result.objects.values_list("session__pk", "unit").distinct())
        money_tables = 1 + 1 + 2  # the lone table, the group's, the event's two
        assert sorted(units.values()) == ["chips", *["money"] * money_tables, "points"]
        assert all(row.net == -row.reverses.net for row in Result.objects.exclude(reverses=None))
        # Every hand's rows, reversals included, still sum to zero; the void kept its time.
        for hand, total in Result.objects.order_by().values_list("hand").annotate(Sum("net")):
            assert total == Decimal(0), hand
        again = Payment.objects.select_related("void").get(void__isnull=False)
        assert (again.void.at, again.void.device, again.void.reason) == (void.at, "", "")
        assert group_selectors.ledger(group).money == before["groups"][group.pk][0]
        assert not [line for checked in verify.tables() for line in checked.differences]
    finally:
        _migrate()


def _amounts(apps) -> tuple[dict[int, Decimal], dict[int, Decimal]]:
    """Each result row's net and each payment's amount, by id, as ``apps``' models read them."""
    rows = apps.get_model("ledger", "Result").objects.values_list("pk", "net")
    paid = apps.get_model("ledger", "Payment").objects.values_list("pk", "amount")
    return dict(rows), dict(paid)


@pytest.mark.both_databases
def test_every_amount_and_sum_stays_exact_through_whole_ten_thousandths_and_back(
    transactional_db,
):
    _played()
    before = _money()
    try:
        _migrate([DECIMALS])
        old = _executor().loader.project_state([DECIMALS]).apps
        held = _amounts(old)
        assert held[0] and held[1]

        _migrate()

        current = _executor().loader.project_state(_executor().loader.graph.leaf_nodes()).apps
        assert _amounts(current) == held
        assert _money() == before
        said = StringIO()
        call_command("ledger_verify", stdout=said)  # exits 1 on any difference
        assert said.getvalue().startswith("All agree: checked 6 tables")

        _migrate([DECIMALS])

        assert _amounts(_executor().loader.project_state([DECIMALS]).apps) == held
    finally:
        _migrate()
    assert _money() == before
