"""Tables named as people remember them (issue 37, items 1 and 8): wherever tables are listed,
the weekday, date and time they began in the reader's language, the game, and how they came out
in one line, so two tables of one day read apart; amounts with a minus sign, plurals as each
language counts them."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.test import Client
from django.utils import translation

from ledger.groups import services
from ledger.groups.models import Group
from ledger.models import Player, TableSession
from ledger.tables import services as table_services
from ledger.tables import stakes
from ledger.web import display

# both_databases on the tests whose lines say how tables came out (amounts and winners the result
# rows sum) and on the query count of the tables' page. The dates and times in each language,
# the plurals and the amounts' formats (no query) run once.

THREE = ["Anna", "Bob", "Celine"]
EVENING = datetime(2026, 11, 26, 20, 10, tzinfo=UTC)  # a Thursday
LATER = datetime(2026, 11, 26, 22, 40, tzinfo=UTC)


def hand(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


def table_at(group: Group, when: datetime, *hands: dict) -> TableSession:
    table = services.table_start(group=group, seating=THREE, first="Anna")
    for number, data in enumerate(hands, start=1):
        table_services.hand_record(session=table, number=number, data=data)
    TableSession.objects.filter(pk=table.pk).update(created=when)
    return table


@pytest.fixture
def evening(db) -> tuple[Group, TableSession, TableSession]:
    """Two tables of one Thursday: 0.50 a point, pairwise."""
    group = services.group_create(name="Thursday", game="jie-long", options={"stake": "0.50"})
    # Anna 2, Bob 12, Celine 20 -> Anna +14, Bob -1, Celine -13.
    first = table_at(group, EVENING, hand(2, 12, 20))
    # Celine 2, Bob 3, Anna 9 -> Celine +4, Bob +2.50, Anna -6.50.
    second = table_at(group, LATER, hand(9, 3, 2))
    return group, first, second


def listed(page: str, table: TableSession) -> str:
    """A table's line in a list, tags stripped."""
    line = re.search(rf'<li id="table-{table.pk}">(.*?)<form', page, re.S)[1]
    return " ".join(re.sub(r"<[^>]+>", "", line).split())


def time_text(page: str, table: TableSession) -> str:
    line = re.search(rf'<li id="table-{table.pk}">(.*?)</li>', page, re.S)[1]
    return re.search(r"<time datetime=\"([^\"]+)\" data-when>(.*?)</time>", line).groups()


@pytest.mark.both_databases
def test_two_tables_of_one_day_read_apart_by_their_time_and_how_they_came_out(evening):
    group, first, second = evening
    page = Client().get(f"/g/{group.token}/").content.decode()
    assert listed(page, first) == (
        "Thu 11/26/2026, 8:10 p.m. · Jie Long 接龙 · Anna +14 · Bob −1 · Celine −13 · 1 hand"
    )
    assert listed(page, second).startswith("Thu 11/26/2026, 10:40 p.m. · Jie Long 接龙 · ")
    # The biggest winner first; a loss with a minus sign (U+2212), not a hyphen.
    assert "Celine +4 · Bob +2.50 · Anna −6.50" in listed(page, second)
    # The instant itself, for the phone to write in its own region and on its own clock.
    assert time_text(page, first)[0] == "2026-11-26T20:10:00+00:00"
    every = Client().get(f"/g/{group.token}/tables/").content.decode()
    assert listed(every, first) == listed(page, first)


@pytest.mark.parametrize(
    ("language", "when"),
    [
        ("zh-hans", "2026年11月26日 星期四 20:10"),
        ("zh-hant", "2026年11月26日 星期四 20:10"),
        ("ko", "2026-11-26 (목요일) 오후 8:10"),
    ],
)
def test_a_tables_time_reads_in_the_page_s_language_without_english(evening, language, when):
    group, first, _ = evening
    page = Client().get(f"/g/{group.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert time_text(page, first)[1] == when
    line = listed(page, first)
    for name in [*THREE, "Jie Long"]:  # names; the game's, romanised, is its name in Korean
        line = line.replace(name, "")
    assert not re.search(r"[A-Za-z]", line), line


@pytest.mark.both_databases
def test_a_points_only_table_names_its_winner(db):
    group = services.group_create(name="Points", game="jie-long", options={"stake": "0"})
    table = table_at(group, EVENING, hand(9, 3, 20))  # fewest pips win at Jie Long
    page = Client().get(f"/g/{group.token}/").content.decode()
    assert "· Won by Bob ·" in listed(page, table)
    zh = Client().get(f"/g/{group.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Bob 获胜" in listed(zh, table)


def test_a_table_without_hands_lists_its_players(db):
    group = services.group_create(name="New", game="jie-long", options={"stake": "0.50"})
    table = table_at(group, EVENING)
    page = Client().get(f"/g/{group.token}/").content.decode()
    assert listed(page, table).endswith("· Anna, Bob, Celine · 0 hands")


@pytest.mark.both_databases
def test_a_players_account_and_statistics_name_tables_the_same_way(evening):
    group, first, second = evening
    celine = Player.objects.get(group=group, name="Celine")
    account = Client().get(f"/g/{group.token}/players/{celine.pk}/").content.decode()
    row = re.search(rf'<tr id="table-{first.pk}">(.*?)</tr>', account, re.S)[1]
    assert '<time datetime="2026-11-26T20:10:00+00:00" data-when>Thu 11/26/2026, 8:10 p.m.' in row
    assert "Anna +14 · Bob −1 · Celine −13" in row
    stats = Client().get(f"/g/{group.token}/statistics/").content.decode()
    # Celine's best table is the later one (+4), her worst the first (−13).
    assert (
        'data-when>Thu 11/26/2026, 10:40 p.m.</time> · Jie Long 接龙</a>: <span class="plus">+4'
        in (stats)
    )
    assert (
        'data-when>Thu 11/26/2026, 8:10 p.m.</time> · Jie Long 接龙</a>: <span class="minus">−13'
        in (stats)
    )


@pytest.mark.both_databases
def test_the_tables_page_asks_as_many_queries_for_many_tables_as_for_two(
    evening, django_assert_max_num_queries
):
    group, _, _ = evening
    client = Client()
    with django_assert_max_num_queries(100) as few:
        client.get(f"/g/{group.token}/tables/")
    for _ in range(8):
        table_at(group, LATER, hand(2, 12, 20))
    with django_assert_max_num_queries(len(few.captured_queries)):
        page = client.get(f"/g/{group.token}/tables/").content.decode()
    assert page.count("data-when>") == 10


@dataclass
class Line:
    game: str
    unit: str
    seating: list[str]
    net: dict[str, Decimal] = field(default_factory=dict)
    value: Decimal = Decimal(1)


def test_a_chip_table_s_outcome_counts_chips_in_the_reader_s_plural_with_their_money():
    line = Line("jie-long", "chips", ["Anna", "Bob"], {"Anna": Decimal(-1), "Bob": Decimal(1)})
    assert display.outcome(line) == "Bob +1 chip (+1) · Anna −1 chip (−1)"
    line.net = {"Anna": Decimal("-1.5"), "Bob": Decimal("1.5")}
    line.value = Decimal("0.50")
    assert display.outcome(line) == "Bob +1.50 chips (+0.75) · Anna −1.50 chips (−0.75)"
    with translation.override("ko"):
        assert display.outcome(line) == "Bob 칩 +1.50 (+0.75) · Anna 칩 −1.50 (−0.75)"


@pytest.mark.parametrize(
    ("language", "ding_niu", "tiu_yu"),
    [
        ("en", "4 players", "2–3 players"),
        ("zh-hans", "4 人", "2–3 人"),
        ("ko", "4명", "2–3명"),
    ],
)
def test_the_home_page_counts_each_game_s_players_in_the_reader_s_language(
    db, language, ding_niu, tiu_yu
):
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert re.search(r'<li id="game-ding-niu">.*? — (.*?)</li>', page)[1] == ding_niu
    assert re.search(r'<li id="game-tiu-yu">.*? — (.*?)</li>', page)[1] == tiu_yu


def test_an_amount_in_points_or_chips_agrees_with_its_number():
    assert [display.in_unit(Decimal(n), "points") for n in (1, 2, -1)] == [
        "1 point",
        "2 points",
        "−1 point",
    ]
    assert display.in_unit(Decimal(1), "chips") == "+1 chip"
    assert display.in_unit(Decimal("-6.5"), "money") == "−6.50"
    with translation.override("zh-hans"):
        assert display.in_unit(Decimal(2), "points") == "2 点"


def test_amounts_are_grouped_in_thousands_as_the_page_s_language_writes_them():
    big, points = Decimal("-12345.5"), Decimal(1500)
    assert (display.money(-big), display.money(big)) == ("+12,345.50", "−12,345.50")
    assert display.in_unit(points, "points") == "1,500 points"
    assert stakes.stake_line("jie-long", {"stake": "1000"}) == "1,000 a point, pairwise"
    with translation.override("ko"):
        assert display.money(-big) == "+12,345.50"
    with translation.override("zh-hans"):  # Django's Chinese formats group nothing
        assert display.money(-big) == "+12345.50"
        assert display.in_unit(points, "points") == "1500 点"


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant"])
def test_a_tables_name_and_its_outcome_are_parted_by_chinese_punctuation(client, db, language):
    """Issue 45, item 15: the last evening and a player's best and worst tables put an ASCII
    colon between a table's name and what came of it; Chinese takes the full-width one."""
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "1"})
    table = table_at(group, EVENING, hand(2, 12, 20))
    anna = Player.objects.get(group=group, name="Anna")
    client.cookies["django_language"] = language

    page = client.get(f"/g/{group.token}/").content.decode()
    stats = client.get(f"/g/{group.token}/statistics/").content.decode()
    hand_page = client.get(f"/t/{table.token}/hands/1/").content.decode()
    player = client.get(f"/g/{group.token}/players/{anna.pk}/").content.decode()

    outcome = re.search(rf'<li id="outcome-{table.pk}">.*?</li>', page, re.S)[0]
    assert '</a>：<span class="outcome">' in outcome
    assert "</a>：<span class=" in stats and "</a>: " not in stats
    assert 'aria-label="Anna：' in hand_page and 'aria-label="Anna: ' not in hand_page
    assert ": " not in re.sub(r"<[^>]*>", "", player.split("<main>")[1])
