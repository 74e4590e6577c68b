"""A group's CSV exports (issue 20, item 6): its tables, payments, balances and statistics, for
a program (column keys, codes) or a person (words in the page's language); a name that looks
like a formula is kept from running, amounts stay numbers, and no table's link is written."""

from __future__ import annotations

import csv
import io

import pytest
from django.http import Http404
from django.utils import translation

from ledger.groups import exports, services, stats
from ledger.tables import services as table_services

# Depends on the database: amounts are the database's decimal sums (four places on PostgreSQL).
pytestmark = pytest.mark.both_databases

PLAYERS = ["=1+1", "Bob", "Celine"]


def hand(a: int, b: int, c: int) -> dict:
    return {"results": {n: {"pips": p} for n, p in zip(PLAYERS, (a, b, c), strict=True)}}


@pytest.fixture
def club(db):
    group = services.group_create(name="Quarter club", game="jie-long", options={"stake": "0.25"})
    table = services.table_start(group=group, seating=PLAYERS, first="Bob")
    table_services.hand_record(session=table, number=1, data=hand(0, 13, 21))  # +8.50 -1.25 -7.25
    points = services.table_start(group=group, seating=PLAYERS, first="Bob", options={"stake": 0})
    table_services.hand_record(session=points, number=1, data=hand(12, 2, 20))
    services.payment_record(group=group, payer="Celine", payee="=1+1", amount="2.5", note="-cash")
    voided = services.payment_record(group=group, payer="Bob", payee="Celine", amount="1").payment
    services.payment_void(payment=voided)
    return group


def rows(group, kind: str, *, words: bool = False) -> list[list[str]]:
    reply = exports.response(group, kind, words=words)
    text = b"".join(reply.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def test_tables_has_a_row_per_table_and_a_column_per_player(club):
    found = rows(club, "tables")
    assert found[0] == [
        "table", "date", "game", "unit", "value", "hands", "'=1+1", "Bob", "Celine",
    ]  # fmt: skip
    first, points = found[1:]
    assert first[2:] == ["jie-long", "money", "0.25", "1", "8.50", "-1.25", "-7.25"]
    assert points[0] == "2" and points[3:] == ["points", "0", "1", "12", "2", "20"]
    tokens = [t.token for t in club.tables.all()] + [club.token]
    text = "".join(",".join(row) for row in found)
    assert not any(token in text for token in tokens)


def test_payments_list_every_payment_voided_ones_too(club):
    found = rows(club, "payments")
    assert found[0] == ["date", "from", "to", "amount", "unit", "chip", "note", "voided"]
    assert [row[1:] for row in found[1:]] == [
        ["Celine", "'=1+1", "2.50", "money", "", "'-cash", ""],
        ["Bob", "Celine", "1", "money", "", "", "yes"],
    ]


def test_balances_count_payments_as_the_ledger_does(club):
    found = rows(club, "balances")
    assert found[0] == ["player", "money", "hands", "hands_won", "points_jie-long"]
    assert found[1:] == [
        ["'=1+1", "6", "2", "1", "12"],
        ["Bob", "-1.25", "2", "1", "15"],
        ["Celine", "-4.75", "2", "0", "41"],
    ]


def test_statistics_have_a_row_per_player_from_player_stats(club):
    found = rows(club, "statistics")
    assert found[0][:6] == ["player", "tables", "hands", "hands_won", "won_share", "specials"]
    assert found[0][-1] == "average_score_jie-long"  # within one game only
    by_name = {row[0]: dict(zip(found[0], row, strict=True)) for row in found[1:]}
    anna = by_name["'=1+1"]
    assert (anna["tables"], anna["hands"], anna["won_share"], anna["average_score_jie-long"]) == (
        "2", "2", "0.5", "6.0",
    )  # fmt: skip
    assert (anna["best_table"], anna["best_unit"], anna["best_result"]) == ("1", "money", "8.50")
    assert anna["money"] == "8.50" and "chips" not in anna
    assert len(found) == 1 + len(stats.player_stats(club))


def test_a_person_s_download_has_its_headers_and_units_in_words(club):
    with translation.override("en"):
        found = rows(club, "tables", words=True)
    assert found[0] == [
        "Table", "Date", "Game", "Unit", "Value", "Hands", "'=1+1", "Bob", "Celine",
    ]  # fmt: skip
    assert found[1][3] == "money"
    with translation.override("zh-hans"):
        assert rows(club, "balances", words=True)[0][0] == "玩家"


def test_an_unknown_kind_is_not_found(club):
    with pytest.raises(Http404):
        exports.response(club, "hands")
    reply = exports.response(club, "tables")
    assert reply["Content-Disposition"].endswith('Quarter-club-tables.csv"')
