"""The statistics page for a thumb (issue 37, item 5): players ranked by what they won with
their key figures, the rest a tap away; head to head says what passed between the two players
(the pairwise payments of the hands they shared), beside each one's net there, and answers an
htmx request with that answer alone; the rating says what it measures and the places behind it.
Checked against amounts worked out by hand here, in English, Chinese and Korean."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.test import Client

from ledger.groups import services, stats
from ledger.groups.models import Group
from ledger.models import Player
from ledger.tables import services as table_services

# Depends on the database: the amounts are the database's sums of the stored rows.
pytestmark = pytest.mark.both_databases

THREE = ["Anna", "Bob", "Celine"]


def hand(*pips: int, names: list[str] = THREE) -> dict:
    return {"results": {name: {"pips": p} for name, p in zip(names, pips, strict=True)}}


@pytest.fixture
def group(db) -> Group:
    """0.50 a point, pairwise (docs/rules.md: each pair settles the difference of its scores).

    Table 1, Anna Bob Celine:
    - pips 2, 12, 20: Bob pays Anna 5, Celine pays Anna 9 and Bob 4: +14, -1, -13.
    - pips 12, 2, 20: Anna pays Bob 5, Celine pays Anna 4 and Bob 9: -1, +14, -13.
    Table 2, Anna Bob Celine: pips 20, 12, 2: Anna pays Bob 4 and Celine 9, Bob pays Celine 5:
      -13, -1, +14.
    Table 3, Anna Celine Dominic (no Bob): pips 2, 20, 12: Anna +14.
    Table 4, for points only (stake 0), Anna Bob Celine: pips 2, 12, 20.

    Anna and Bob shared 3 money hands: Anna won 5 from Bob, Bob 5 + 4 = 9 from Anna, so Bob won
    4 from Anna; their nets there: Anna 14 - 1 - 13 = 0, Bob -1 + 14 - 1 = +12.
    """
    found = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    first = services.table_start(group=found, seating=THREE, first="Anna")
    table_services.hand_record(session=first, number=1, data=hand(2, 12, 20))
    table_services.hand_record(session=first, number=2, data=hand(12, 2, 20))
    second = services.table_start(group=found, seating=THREE, first="Anna")
    table_services.hand_record(session=second, number=1, data=hand(20, 12, 2))
    four = ["Anna", "Celine", "Dominic"]
    third = services.table_start(group=found, seating=four, first="Anna")
    table_services.hand_record(session=third, number=1, data=hand(2, 20, 12, names=four))
    points = services.table_start(group=found, seating=THREE, first="Anna", options={"stake": "0"})
    table_services.hand_record(session=points, number=1, data=hand(2, 12, 20))
    return found


def ids(group: Group) -> dict[str, int]:
    return dict(Player.objects.filter(group=group).values_list("name", "pk"))


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def test_head_to_head_says_what_passed_between_the_two_as_worked_out_by_hand(group):
    anna, bob = (Player.objects.get(group=group, name=name) for name in ("Anna", "Bob"))
    met = stats.head_to_head(group, anna, bob)
    assert (met.hands, met.points_hands) == (4, 1)
    [money] = met.passed
    assert (money.unit, money.hands, money.a_from_b, money.b_from_a) == ("money", 3, 5, 9)
    assert money.balance == -4 and money.amount == 4
    assert (met.a.money, met.b.money) == (0, 12)

    page = Client().get(
        f"/g/{group.token}/statistics/", {"a": ids(group)["Anna"], "b": ids(group)["Bob"]}
    )
    answer = text(re.search(r'<ul id="passed">(.*?)</ul>', page.content.decode(), re.S)[1])
    assert answer == (
        "Bob won 4 from Anna over 3 hands. 1 hand was played for points only: nothing passed there."
    )
    sides = text(re.search(r'<ul id="pair-sides"[^>]*>(.*?)</ul>', page.content.decode(), re.S)[1])
    assert sides.startswith("Anna 0 ") and " Bob +12 " in sides


def test_two_who_came_out_even_are_said_to_and_the_order_of_the_two_does_not_matter(group):
    anna, celine = (Player.objects.get(group=group, name=name) for name in ("Anna", "Celine"))
    # Anna and Celine: table 1, Anna won 9 + 4; table 2, Celine won 9; table 3, Anna won 18 / 2.
    there = stats.head_to_head(group, anna, celine).passed[0]
    back = stats.head_to_head(group, celine, anna).passed[0]
    assert (there.a_from_b, there.b_from_a, there.hands) == (22, 9, 4)
    assert (back.a_from_b, back.b_from_a, back.balance) == (9, 22, -13)
    bob, dominic = (Player.objects.get(group=group, name=name) for name in ("Bob", "Dominic"))
    never = stats.head_to_head(group, bob, dominic)
    assert (never.hands, never.passed, never.points_hands) == (0, (), 0)


def test_even_is_said_in_words(db):
    found = services.group_create(name="Even", game="jie-long", options={"stake": "1"})
    table = services.table_start(group=found, seating=THREE, first="Anna")
    table_services.hand_record(session=table, number=1, data=hand(2, 12, 20))
    table_services.hand_record(session=table, number=2, data=hand(12, 2, 20))
    page = Client().get(
        f"/g/{found.token}/statistics/", {"a": ids(found)["Anna"], "b": ids(found)["Bob"]}
    )
    answer = text(re.search(r'<ul id="passed">(.*?)</ul>', page.content.decode(), re.S)[1])
    assert answer == "Nothing passed between Anna and Bob over 2 hands: they came out even."


def test_compare_with_htmx_gets_the_answer_alone(group):
    query = {"a": ids(group)["Anna"], "b": ids(group)["Bob"]}
    url = f"/g/{group.token}/statistics/"
    part = Client().get(url, query, HTTP_HX_REQUEST="true").content.decode()
    assert part.startswith('<div id="pair-answer"') and "<html" not in part
    assert "Bob won 4 from Anna over 3 hands." in part
    whole = Client().get(url, query).content.decode()
    assert "<html" in whole and 'id="ranking"' in whole and "Bob won 4 from Anna" in whole
    # The same player twice: said, not a blank.
    same = Client().get(url, {"a": query["a"], "b": query["a"]}, HTTP_HX_REQUEST="true")
    assert same.status_code == 200 and "Choose two different players." in same.content.decode()


def test_players_are_ranked_by_what_they_won_with_their_figures_and_the_rest_a_tap_away(group):
    # Money: Anna 14 - 1 - 13 + 14 = +14, Bob -1 + 14 - 1 = +12, Celine -13 - 13 + 14 - 13 =
    # -25; Dominic (12 pips at table 3) pays Anna 5 and is paid 4 by Celine: -1.
    page = Client().get(f"/g/{group.token}/statistics/").content.decode()
    ranking = re.search(r'<ol id="ranking"[^>]*>(.*?)</ol>', page, re.S)[1]
    names = re.findall(r'<strong class="name">([^<]+)</strong>', ranking)
    nets = re.findall(r'<strong class="net [a-z]+" data-unit="money">([^<]+)</strong>', ranking)
    assert names == ["Anna", "Bob", "Dominic", "Celine"]
    assert nets == ["+14", "+12", "−1", "−25"]
    anna = re.search(r'<li id="player-\d+">(.*?)</li>', ranking, re.S)[1]
    figures = text(re.search(r'<p class="figures">(.*?)</p>', anna, re.S)[1])
    # Hands 2, 12, 20, 2 and 2 (points): 5 hands, 3 won, (2 + 12 + 20 + 2 + 2) / 5 = 7.60.
    assert figures == "5 hands, 3 won (60%), average score 7.60"
    more = re.search(r'<details class="more">(.*?)</details>', anna, re.S)[1]
    assert "Best table" in more and "Worst table" in more and 'data-figure="tables">4<' in more
    assert sum(Decimal(net.replace("\N{MINUS SIGN}", "-")) for net in nets) == 0


def test_the_rating_says_what_it_measures_and_the_places_behind_it(group):
    page = Client().get(f"/g/{group.token}/statistics/").content.decode()
    assert "The rating measures the places players take at each table" in page
    rated = {
        name: text(places)
        for name, places in re.findall(
            r'<strong class="name">([^<]+)</strong> <strong class="rating">.*?'
            r'<span class="places">(.*?)</span>',
            page,
            re.S,
        )
    }
    # Places by each table's totals (equal totals share a place; points only: fewer pips
    # better): table 1 Anna and Bob 1st (13 each), Celine 3rd; table 2 Celine, Bob, Anna;
    # table 3 Anna, Dominic, Celine; table 4 Anna, Bob, Celine.
    assert rated == {
        "Anna": "1st ×3, 3rd ×1",
        "Bob": "1st ×1, 2nd ×2",
        "Celine": "1st ×1, 3rd ×3",
        "Dominic": "2nd ×1",
    }
    assert {one.name: one.places for one in stats.ratings(group)}["Anna"] == ((1, 3), (3, 1))


ENGLISH = re.compile(r"\b[A-Za-z]{3,}\b")
# What the page shows as it is, in any language: the players' names, the game's name
# (romanised beside its characters), the group's, and English in the language switcher.
KEPT = {"Anna", "Bob", "Celine", "Dominic", "Teahouse", "Jie", "Long", "English"}


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant", "ko"])
def test_the_statistics_page_shows_no_english_in_chinese_or_korean(group, language):
    query = {"a": ids(group)["Anna"], "b": ids(group)["Bob"]}
    page = (
        Client()
        .get(f"/g/{group.token}/statistics/", query, HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    body = re.search(r"<body[^>]*>(.*)</body>", page, re.S)[1]
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<svg.*?</svg>", " ", body, flags=re.S)  # drawn words are checked apart
    words = set(ENGLISH.findall(re.sub(r"<[^>]+>", " ", body))) - KEPT
    assert words == set(), words


def test_at_chip_tables_what_passed_is_counted_in_money_at_the_chip_s_value(db):
    found = services.group_create(name="Chips", game="jie-long", options={"stake": "1"})
    options = {"payment": "chips", "chip": "0.50"}
    table = services.table_start(group=found, seating=THREE, first="Anna", options=options)
    # The winner takes a chip from each other player: Bob twice (one from Anna each time), then
    # Anna (one from Bob). Bob won 2 chips from Anna, Anna 1 from Bob: Bob 1 ahead of her, worth
    # 0.50 (rules rev 5: a group adds money, not chip counts).
    for number, pips in enumerate([(9, 5, 20), (9, 5, 20), (2, 12, 20)], start=1):
        table_services.hand_record(session=table, number=number, data=hand(*pips))
    query = {"a": ids(found)["Anna"], "b": ids(found)["Bob"]}
    page = Client().get(f"/g/{found.token}/statistics/", query).content.decode()
    answer = text(re.search(r'<ul id="passed">(.*?)</ul>', page, re.S)[1])
    assert answer == "Bob won 0.50 from Anna over 3 hands."
    [chips] = stats.head_to_head(
        found, *(Player.objects.get(group=found, name=name) for name in ("Anna", "Bob"))
    ).passed
    assert (chips.unit, chips.a_from_b, chips.b_from_a) == ("money", Decimal("0.50"), 1)
    sides = text(re.search(r'<ul id="pair-sides"[^>]*>(.*?)</ul>', page, re.S)[1])
    assert sides == "Anna 0 1 won, 20 points Bob +1.50 2 won, 22 points"


def test_in_korean_the_figures_take_the_minus_sign_and_no_particle_follows_a_number(group):
    """Issue 45, item 15: a rating below zero read "-0.2" (a hyphen), and what passed between
    two players "4을(를)": an ending chosen for the number, which Korean cannot choose for a
    blank. The sentence now gives the amount after a colon."""
    query = {"a": ids(group)["Anna"], "b": ids(group)["Bob"]}
    page = (
        Client()
        .get(f"/g/{group.token}/statistics/", query, HTTP_ACCEPT_LANGUAGE="ko")
        .content.decode()
    )
    ratings = [text(r) for r in re.findall(r'<strong class="rating">(.*?)</strong>', page)]
    skills = [text(s) for s in re.findall(r'<span class="skill">(.*?)</span>', page)]
    passed = text(re.search(r'<ul id="passed">(.*?)</ul>', page, re.S)[1])

    assert any(r.startswith("\u2212") for r in ratings), ratings  # Celine's, at least
    assert not any("-" in figure for figure in ratings + skills)
    assert "을(를)" not in page and "이(가)" not in page and "은(는)" not in page
    assert passed.startswith("3판 동안 Bob 님이 Anna 님에게서 딴 금액: 4")
