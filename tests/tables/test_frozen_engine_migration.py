"""Migrations 0015 and 0030 score every stored table again with the migrations' frozen engine
(ledger/migrations/_frozen/scoring_rev5), reading its options as played under the revision
of the rules each was written under (3 and 4). Tables stored in the schema before 0015 with
the options earlier revisions took and later ones pinned or refused (a chip a table paying by
the stake ignored, a stake a chips table ignored, Ce Deng's declared doubles at a chips table
paid by the stake) get a row for every player of every hand that counts, and once migrated to
the latest every row, total and flow equals what today's engine computes from the table, to
the cent, and ``manage.py ledger_verify`` finds no difference."""

from __future__ import annotations

from decimal import Decimal

import pytest

import scoring
from ledger.models import TableSession
from tests.migrating import migrate, models_at
from tests.tables.conftest import SEATING, plain_hand
from tests.tables.test_rows_equal_engine import assert_rows_equal_engine

# On PostgreSQL alone when one answers (postgresql: a migration test; on SQLite when none does,
# on both in make test-deep): migrations run on rows of the schema before them.
pytestmark = pytest.mark.postgresql

BEFORE = ("ledger", "0013_table_ends_by_time")  # before the result rows
ROWS = ("ledger", "0015_hand_results_rows")
THREE = SEATING[:3]
# Celine's 8 doubles: the others hold the rest of the deck (tests/scoring/test_ce_deng.py).
DECLARED = {
    "declared_doubles": "Celine",
    "results": {"Anna": {"pips": 50}, "Bob": {"pips": 61}, "Dominic": {"pips": 48}},
}


def three(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


# As stored under the rules' third revision: (game, seating, options, hands).
TABLES = [
    # A chip that paid nothing, since the table pays by the stake (refused from revision 4).
    ("jie-long", THREE, {"stake": "2", "chip": "5"}, [three(2, 12, 20), three(9, 5, 20)]),
    ("ce-deng", SEATING, {"stake": "0.50", "chip": "3"}, [plain_hand(), DECLARED]),
    # A stake that paid nothing, since the table pays chips (refused from revision 5).
    ("jie-long", THREE, {"payment": "chips", "chip": "0.50", "stake": "2"}, [three(2, 12, 20)]),
    ("tsair-deng", THREE, {"payment": "chips", "chip": "0.25", "stake": "3"}, [three(0, 12, 20)]),
    # Declared doubles at a chips table paid 2 x stake x pips in money (2 chips from revision 5).
    ("ce-deng", SEATING, {"payment": "chips", "chip": "0.50"}, [plain_hand(), DECLARED]),
    ("ce-deng", SEATING, {"payment": "chips", "chip": "2", "stake": "0.25"}, [DECLARED]),
    # Points only: nothing paid, declared doubles included (revision 4, for every table).
    ("ce-deng", SEATING, {"payment": "chips", "chip": "0"}, [plain_hand(), DECLARED]),
    ("ce-deng", SEATING, {"stake": "0.50"}, [plain_hand(), plain_hand(Dominic=80)]),
]


@pytest.fixture
def stored(transactional_db):
    """The tables above as the schema before 0015 stored them, players and hands by name, each
    hand with its record in its history (the test takes them through 0015 first, so they are
    its own: ``transactional_db``)."""
    migrate([BEFORE])
    old = models_at(BEFORE)
    Player = old.get_model("ledger", "Player")
    tables = []
    for game, seating, options, hands in TABLES:
        table = old.get_model("ledger", "TableSession").objects.create(
            game=game, options=options, first=seating[0]
        )
        for position, name in enumerate(seating):
            player, _ = Player.objects.get_or_create(key=name.casefold(), defaults={"name": name})
            old.get_model("ledger", "Seat").objects.create(
                session=table, player=player, position=position
            )
        for number, data in enumerate(hands, start=1):
            hand = old.get_model("ledger", "Hand").objects.create(
                session=table, number=number, data=data
            )
            old.get_model("ledger", "HandChange").objects.create(
                hand=hand, kind="record", before=None, after=data
            )
        tables.append(table.pk)
    try:
        yield tables
    finally:
        migrate()


def test_tables_stored_under_earlier_rules_get_rows_that_equal_today_s_engine(stored):
    migrate([ROWS])

    # 0015: a row for every player of every hand, as today's engine reads the table as played
    # under the third revision.
    then = models_at(ROWS)
    Result = then.get_model("ledger", "Result")
    for pk, (game, seating, options, hands) in zip(stored, TABLES, strict=True):
        document = {
            "game": game,
            "options": scoring.options.as_played(game, options, played=3),
            "seating": seating,
            "first": seating[0],
            "hands": hands,
        }
        played = scoring.score_session(scoring.parse_session(document), new=())
        rows = {
            (row.hand.number, row.player.name): row.net
            for row in Result.objects.filter(session_id=pk).select_related("hand", "player")
        }
        assert rows == {
            (number, name): net
            for number, hand in enumerate(played.hands, start=1)
            for name, net in hand.net.items()
        }, (game, options)

    migrate()

    for pk in stored:
        table = TableSession.objects.get(pk=pk)
        assert table.hands.exists() and table.results.exists()
        assert_rows_equal_engine(table)
    declared = TableSession.objects.get(pk=stored[4])
    # 2 x stake x pips, the stake of 1 by default, as the third revision paid.
    assert declared.options == {"payment": "chips", "chip": "0.50", "doubles": "stake"}
    assert declared.results.filter(hand__number=2, player__name="Celine").get().net == Decimal(
        2 * (50 + 61 + 48)
    )
