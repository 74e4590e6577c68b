"""A group's statistics, ratings and CSV exports through the API (issue 20, item 6): the group's
link reads them, an outsider finds nothing, a period that is not one is a 400 that says where,
and money reads as the table API writes it ("8.50", never the database's "8.5000")."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from ledger.api.money import money
from ledger.models import Player
from tests.api.test_groups_api import play

# both_databases on the tests that read balances, statistics, ratings or exports the database sums,
# or a period at the calendar's ends. Refusals, the outsider's 404s and the money format of a
# given sum (no query) run once.

API = "/api/v1"
THREE = ["Anna", "Bob", "Celine"]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def start_group(api: APIClient, **options: str) -> dict:
    body = {"name": "Teahouse", "game": "jie-long", "options": options}
    made = api.post(f"{API}/groups/", body, format="json")
    assert made.status_code == 201, made.content
    return made.json()


@pytest.fixture
def quarter(api, db) -> dict:
    """A group at 0.25 a point, one table played: Anna +8.50, Bob -1.25, Celine -7.25."""
    group = start_group(api, stake="0.25")
    group["table"] = play(api, group, (0, 13, 21))
    return group


@pytest.mark.both_databases
def test_the_group_s_amounts_read_as_money_not_as_four_places(api, quarter):
    paid = api.post(
        f"{API}/groups/{quarter['token']}/payments/",
        {"from": "Celine", "to": "Anna", "amount": "2.5"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="pay-celine-0001",
    )
    assert paid.status_code == 201 and paid.json()["amount"] == "2.50"
    read = api.get(f"{API}/groups/{quarter['token']}/").json()
    assert read["balances"] == {"Anna": "6.00", "Bob": "-1.25", "Celine": "-4.75"}
    assert sorted(t["amount"] for t in read["settle_up"]) == ["1.25", "4.75"]
    assert read["payments"][0]["amount"] == "2.50"


def test_a_sum_as_postgresql_gives_it_reads_as_money_too():
    # PostgreSQL sums the four-place column into four places; SQLite into as few as it likes.
    sums = ("12.5000", "12.5", "-3.0000", "0.1250", "0E-4")
    assert [money(Decimal(v)) for v in sums] == ["12.50", "12.50", "-3.00", "0.125", "0.00"]


@pytest.mark.both_databases
def test_statistics_give_each_player_s_numbers_with_tidy_money(api, quarter):
    read = api.get(f"{API}/groups/{quarter['token']}/statistics/")
    assert read.status_code == 200, read.content
    body = read.json()
    assert (body["from"], body["to"]) == (None, None)
    anna = {one["name"]: one for one in body["players"]}["Anna"]
    assert anna["id"] == Player.objects.get(group__token=quarter["token"], name="Anna").pk
    assert (anna["tables"], anna["hands"], anna["won"], anna["won_share"]) == (1, 1, 1, 1.0)
    assert anna["average_scores"] == {"jie-long": 0.0} and anna["specials"] == {}
    best = anna["best_table"]
    assert (best["number"], best["token"], best["unit"], best["amount"]) == (
        1, quarter["table"], "money", "8.50",
    )  # fmt: skip
    assert [point["balance"] for point in anna["money_over_time"]] == ["8.50"]
    assert "chips_over_time" not in anna  # chips count in money, at each table's chip value


@pytest.mark.both_databases
def test_a_period_with_no_hands_has_players_but_nothing_counted(api, quarter):
    read = api.get(f"{API}/groups/{quarter['token']}/statistics/?from=2001-01-01&to=2001-01-31")
    assert read.status_code == 200, read.content
    body = read.json()
    assert (body["from"], body["to"]) == ("2001-01-01", "2001-01-31")
    for one in body["players"]:
        assert (one["hands"], one["won_share"], one["best_table"]) == (0, None, None)


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("from=yesterday", "from"),
        ("from=2026-13-01", "from"),
        ("to=2026-02-30", "to"),
        ("from=20260305", "from"),
        ("from=2026-03-05&from=2026-03-06", "from"),
        ("from=2026-03-05&to=2026-03-01", "to"),
    ],
)
def test_a_period_that_is_not_one_is_refused_and_says_where(api, quarter, query, path):
    refused = api.get(f"{API}/groups/{quarter['token']}/statistics/?{query}")
    assert refused.status_code == 400
    body = refused.json()
    assert body["path"] == path and body["errors"] == [{"error": body["error"], "path": path}]
    assert path in body["error"]


# The calendar's ends, as the days they are (each alone) and as a period of every day, on a
# server east of UTC (Shanghai), west of it (-12) and on it: the last day's next midnight, and east
# of UTC the first day's midnight in UTC, are past what a date can hold.
ENDS = [("0001-01-01", "9999-12-31", 1), ("0001-01-01", "0001-01-01", 0), ("9999-12-31", None, 0)]
ZONES = ["UTC", "Asia/Shanghai", "Etc/GMT+12"]


@pytest.mark.both_databases
@pytest.mark.parametrize("zone", ZONES)
@pytest.mark.parametrize(("start", "end", "hands"), ENDS)
def test_a_period_at_the_calendar_s_ends_is_answered(
    api, quarter, settings, zone, start, end, hands
):
    settings.TIME_ZONE = zone
    query = {"from": start, **({"to": end} if end else {})}
    read = api.get(f"{API}/groups/{quarter['token']}/statistics/", query)
    assert read.status_code == 200, read.content
    body = read.json()
    assert (body["from"], body["to"]) == (start, end)
    anna = {one["name"]: one for one in body["players"]}["Anna"]
    assert (anna["hands"], anna["won"]) == (hands, hands)


@pytest.mark.both_databases
def test_ratings_list_who_played_best_first(api, quarter):
    play(api, quarter, (0, 13, 21))
    read = api.get(f"{API}/groups/{quarter['token']}/ratings/")
    assert read.status_code == 200, read.content
    rated = read.json()["players"]
    assert [one["name"] for one in rated] == THREE  # Anna won both, Celine lost both
    ids = dict(Player.objects.filter(group__token=quarter["token"]).values_list("name", "pk"))
    assert [one["id"] for one in rated] == [ids[name] for name in THREE]
    assert all(one["tables"] == 2 for one in rated)
    assert [one["places"] for one in rated] == [
        [{"place": place, "tables": 2}] for place in (1, 2, 3)
    ]
    for one in rated:
        assert one["ordinal"] == pytest.approx(one["mu"] - 3 * one["sigma"])


@pytest.mark.both_databases
def test_the_exports_come_as_csv_with_names_kept_from_running_as_formulas(api, db):
    group = start_group(api, stake="0.25")
    play(api, group, (0, 13, 21), seating=["=1+1", "Bob", "Celine"])
    download = api.get(f"{API}/groups/{group['token']}/export/tables.csv")
    assert download.status_code == 200 and download["Content-Type"].startswith("text/csv")
    text = b"".join(download.streaming_content).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == [
        "table", "date", "game", "unit", "value", "hands", "'=1+1", "Bob", "Celine",
    ]  # fmt: skip
    assert rows[1][2:] == ["jie-long", "money", "0.25", "1", "8.50", "-1.25", "-7.25"]
    assert group["token"] not in text

    for kind in ("payments", "balances", "statistics"):
        assert api.get(f"{API}/groups/{group['token']}/export/{kind}.csv").status_code == 200
    missing = api.get(f"{API}/groups/{group['token']}/export/hands.csv")
    assert missing.status_code == 404 and missing.json()["error"]


def test_an_outsider_or_a_table_s_link_finds_none_of_them(api, quarter):
    for token in ("x" * 22, quarter["table"]):
        for read in ("statistics/", "ratings/", "export/tables.csv"):
            assert api.get(f"{API}/groups/{token}/{read}").status_code == 404, (token, read)
