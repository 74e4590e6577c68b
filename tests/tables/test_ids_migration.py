"""Migration 0020 stores players by id (issue 20, item 1): on rows of the old schema, where
hands, their changes and tallies named the players, a lone table, a group's table and a
tournament's two tables (each with a corrected hand, a redeal, declared doubles, a pass and a
voided hand) come through with every name turned into the id of the player seated under it,
and who leads the first hand into that seated player. Every total and settle-up, the kept
tallies, the tournament's standings, the group's balances, the CSV export, the API's hands and
the changes are what they were, to the cent, and still name the players; a tally that names
someone no longer seated is emptied and its table counted from the hands. Undone, the names
come back exactly as they were, tallies too; redone, every total is the same again."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

import scoring
from ledger.api.serializers import hands_data
from ledger.events.selectors import standings
from ledger.groups.selectors import ledger
from ledger.models import Event, Group, HandChange, TableSession
from ledger.tables import checks, money, selectors, tally
from ledger.tables.exports import totals_rows
from ledger.tables.results import outcomes
from scoring.document import amount
from tests.migrating import once
from tests.tables.conftest import SEATING, plain_hand

# On PostgreSQL alone when one answers (postgresql: a migration test; on SQLite when none does,
# on both in make test-deep): a migration run on rows of the schema before it.
pytestmark = pytest.mark.postgresql

BEFORE = ("ledger", "0019_groups")
PLAIN = plain_hand()["results"]
# As a phone sends them: who leads each hand and which way are the rules' to say (the services
# wrote them into the hand as they stored it).
HANDS = [
    {"results": PLAIN},
    {"redeal": "Bob"},
    {
        "declared_doubles": "Celine",
        "results": {"Anna": {"pips": 60}, "Bob": {"pips": 41}, "Dominic": {"pips": 52}},
    },
    {"results": PLAIN | {"Bob": {"pips": 0}}},  # a pass: stored with the special it proves
]
VOIDED = plain_hand(first="Bob")
TABLES = [  # (label, who leads the first hand, stake)
    ("lone", "Anna", "0.50"),
    ("group", "Celine", "1"),  # not seat 0
    ("cup 1", "Bob", "2"),
    ("cup 2", "Anna", "2"),  # its tally was counted when Zed sat there: it cannot be kept
]
REVISION = 7  # five hands recorded, one corrected, one voided
ONE_PLAYER = ("first", "redeal", "declared_doubles")


def leaf() -> None:
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.fixture(scope="module")
def migrated(django_db_setup, django_db_blocker):
    """Migrated once for the module's tests (tests.migrating)."""
    with once(django_db_blocker):
        yield from _migrated()


def _migrated():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    Player, Table, Seat, Hand, Change, Result = (
        old.get_model("ledger", model)
        for model in ("Player", "TableSession", "Seat", "Hand", "HandChange", "Result")
    )
    group = old.get_model("ledger", "Group").objects.create(
        name="Thursday", game="ce-deng", options={"stake": "1"}
    )
    event = old.get_model("ledger", "Event").objects.create(
        name="Cup", game="ce-deng", options={"stake": "2"}, rounds=2
    )
    rounds = [
        old.get_model("ledger", "Round").objects.create(event=event, number=n, method="mixing")
        for n in (1, 2)
    ]
    places = {  # (where the table is, the circle its players are of)
        "lone": ({}, None),  # the table's own, below
        "group": ({"group": group}, {"group": group}),
        "cup 1": ({"round": rounds[0], "table_number": 1}, {"event": event}),
        "cup 2": ({"round": rounds[1], "table_number": 1}, {"event": event}),
    }
    tables, expected, hands, changes = {}, {}, {}, {}
    for label, first, stake in TABLES:
        where, circle = places[label]
        table = Table.objects.create(
            game="ce-deng", options={"stake": stake}, first=first, revision=REVISION, **where
        )
        players = {
            name: Player.objects.get_or_create(
                key=name.casefold(), **(circle or {"table": table}), defaults={"name": name}
            )[0]
            for name in SEATING
        }
        for position, name in enumerate(SEATING):
            Seat.objects.create(session=table, player=players[name], position=position)

        document = {
            "game": "ce-deng",
            "options": {"stake": stake},
            "seating": SEATING,
            "first": first,
        }
        entered = scoring.score_session(scoring.parse_session({**document, "hands": HANDS}), new=())
        datas = [
            checks.as_stored({**hand, "first": p.first, "direction": p.direction.value}, p)
            for hand, p in zip(HANDS, entered.hands, strict=True)
        ]
        # What the table came to, by the engine from its hands by name, before anything moved.
        result = scoring.score_session(scoring.parse_session({**document, "hands": datas}), new=())
        tables[label], expected[label] = table.pk, result
        typo = {**datas[0], "results": datas[0]["results"] | {"Celine": {"pips": 40}}}
        stored = [  # (number, data, voided, version, its changes as (kind, before, after))
            (1, datas[0], False, 2, [("record", None, typo), ("correct", typo, datas[0])]),
            *((n, data, False, 1, [("record", None, data)]) for n, data in enumerate(datas[1:], 2)),
            (5, VOIDED, True, 1, [("record", None, VOIDED), ("void", VOIDED, None)]),
        ]
        for number, data, voided, version, made in stored:
            hand = Hand.objects.create(
                session=table, number=number, data=data, voided=voided, version=version
            )
            hands[hand.pk] = data
            for kind, before, after in made:
                change = Change.objects.create(hand=hand, kind=kind, before=before, after=after)
                changes[change.pk] = (before, after)
            if not voided:
                for name, outcome in outcomes("ce-deng", data, result.hands[number - 1]).items():
                    Result.objects.create(
                        session=table, hand=hand, player=players[name], score=outcome.score,
                        net=outcome.net, won=outcome.won, specials=list(outcome.specials),
                    )  # fmt: skip
        # The tally as the old ledger.tables.tally.stored kept it: everything by name.
        seating = [*SEATING[:3], "Zed"] if label == "cup 2" else SEATING
        table.tally = {
            "of": [REVISION, "ce-deng", {"stake": stake}, seating, first],
            "net": {name: str(value) for name, value in result.totals.net.items()},
            "hands_won": result.totals.hands_won,
            "points": result.totals.scores,
            "recorded": 5,
            "counted": len(result.hands),
            "corrected": True,
            "time_up": False,
            "owed": [
                [payee, payer, str(value)]
                for (payee, payer), value in scoring.won_from(result.hands).items()
            ],
        }
        table.save(update_fields=["tally"])
        if label == "group":
            old.get_model("ledger", "Payment").objects.create(
                group=group, payer=players["Bob"], payee=players["Anna"], amount=Decimal(5)
            )
    for player in Player.objects.filter(event=event):
        old.get_model("ledger", "Entry").objects.create(event=event, player=player)
    try:
        leaf()
        yield tables, expected, hands, changes, group.pk, event.pk
    finally:
        leaf()


def test_every_hand_and_change_names_its_players_by_their_seat_s_player_id(migrated, db):
    tables, _, hands, changes, _, _ = migrated
    for label, first, _ in TABLES:
        table = TableSession.objects.get(pk=tables[label])
        ids = {name: pk for pk, name in table.seated.items()}
        assert table.first == first
        assert table.leader_id == ids[first]
        now_and_then = [(hand.data, hands[hand.pk]) for hand in table.hands.all()] + [
            (now, then)
            for change in HandChange.objects.filter(hand__session=table)
            for now, then in zip((change.before, change.after), changes[change.pk], strict=True)
            if then is not None
        ]
        # Five hands; eight changes' sides (a record has no before, a void no after).
        assert len(now_and_then) == 5 + 8
        for now, then in now_and_then:
            results = {str(ids[name]) for name in then.get("results", {})}
            assert set(now.get("results", {})) == results
            assert {key: now[key] for key in ONE_PLAYER if key in then} == {
                key: ids[then[key]] for key in ONE_PLAYER if key in then
            }
            assert table.named(now) == then


def test_every_total_standing_balance_and_export_is_what_it_was_to_the_cent(migrated, db):
    tables, expected, hands, changes, group, event = migrated
    for label, _, _ in TABLES:
        table = TableSession.objects.get(pk=tables[label])
        was = expected[label]
        sheet = selectors.score_sheet(table)
        assert sheet.result.totals == was.totals
        assert sheet.result.settle_up == was.settle_up
        exported = {row[1]: row[3:6] for row in list(totals_rows(sheet))[1:]}
        assert exported == {
            name: [
                was.totals.scores[name],
                was.totals.hands_won[name],
                amount(was.totals.net[name]),
            ]
            for name in SEATING
        }
        shown = [item["hand"] for item in hands_data(sheet)]
        assert shown == [hands[row.hand.pk] for row in sheet.rows]
        assert all((c.before, c.after) == changes[c.pk] for c in selectors.changes(table))

        kept = tally.current_tally(table)
        if label == "cup 2":
            assert table.tally == {}
            assert kept is None
            continue
        assert table.tally["of"][3:] == [list(table.seated), table.leader_id]
        assert kept is not None
        # The money is the rows' since 0030 (the tally keeps how far the table played).
        assert "net" not in table.tally
        assert money.table_totals(table) == was.totals
        assert money.won_from([table])[table.pk] == scoring.won_from(was.hands)
        assert (kept.recorded, kept.counted, kept.corrected) == (5, 4, True)

    # The cup's first table by its kept tally, its second counted from its hands.
    cup = [expected["cup 1"].totals, expected["cup 2"].totals]
    rows = standings(Event.objects.get(pk=event)).rows
    assert {row.name: (row.net, row.points, row.hands_won) for row in rows} == {
        name: (
            sum(t.net[name] for t in cup),
            sum(t.scores[name] for t in cup),
            sum(t.hands_won[name] for t in cup),
        )
        for name in SEATING
    }

    paid = {"Anna": -5, "Bob": 5}  # Bob paid Anna 5: his balance rises, hers falls
    assert ledger(Group.objects.get(pk=group)).money == {
        name: expected["group"].totals.net[name] + paid.get(name, 0) for name in SEATING
    }


def test_undone_the_names_come_back_and_redone_every_total_is_the_same(migrated, transactional_db):
    tables, expected, hands, changes, _, _ = migrated
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    assert dict(old.get_model("ledger", "Hand").objects.values_list("pk", "data")) == hands
    assert {
        change.pk: (change.before, change.after)
        for change in old.get_model("ledger", "HandChange").objects.all()
    } == changes
    old_tables = {
        table.pk: table for table in old.get_model("ledger", "TableSession").objects.all()
    }
    for label, first, _ in TABLES:
        table = old_tables[tables[label]]
        assert table.first == first
        if label != "cup 2":  # emptied on the way in
            assert table.tally["of"][3:] == [SEATING, first]
            net = expected[label].totals.net
            assert table.tally["net"] == {name: str(value) for name, value in net.items()}

    leaf()
    for label, pk in tables.items():
        table = TableSession.objects.get(pk=pk)
        assert selectors.score_sheet(table).result.totals == expected[label].totals
        kept = tally.current_tally(table)
        assert (kept is None) == (label == "cup 2")
        assert money.table_totals(table) == expected[label].totals
