"""A group's statistics, head-to-heads and ratings (issue 20, item 6): counted from the stored
result rows over all time or a period, best and worst table by one rule, ratings per table by
Plackett-Luce as openskill gives them, the same on every asking, and the same few queries
however many tables the group has."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from openskill.models import PlackettLuce

from ledger.groups import services, stats
from ledger.models import Hand, Player, TableSession
from ledger.tables import services as table_services

# Depends on the database: statistics are sums and counts the database makes, in a fixed number of
# queries.
pytestmark = pytest.mark.both_databases

THREE = ["Anna", "Bob", "Celine"]
FIRST, SECOND = date(2026, 3, 5), date(2026, 3, 12)


def hand(a: int, b: int, c: int, names: list[str] = THREE) -> dict:
    return {"results": {name: {"pips": p} for name, p in zip(names, (a, b, c), strict=True)}}


def played(table, *hands, day: date | None = None) -> None:
    for number, data in enumerate(hands, start=1):
        table_services.hand_record(session=table, number=number, data=data)
    if day is not None:
        noon = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
        Hand.objects.filter(session=table).update(created=noon)
        TableSession.objects.filter(pk=table.pk).update(created=noon)


def player(group, name: str) -> Player:
    return Player.objects.get(group=group, name=name)


def by_name(group, **period) -> dict[str, stats.PlayerStats]:
    return {one.name: one for one in stats.player_stats(group, **period)}


@pytest.fixture
def friends(db):
    return services.group_create(name="Thursday teahouse", game="jie-long", options={"stake": "1"})


@pytest.fixture
def two_evenings(friends):
    # The first evening: Anna +28 then -2 (Bob wins the second hand): Anna 26, Bob 26, Celine -52.
    first = services.table_start(group=friends, seating=THREE, first="Anna")
    played(first, hand(2, 12, 20), hand(12, 2, 20), day=FIRST)
    # The second: Celine wins the one hand, Anna pays 26.
    second = services.table_start(group=friends, seating=THREE, first="Anna")
    played(second, hand(20, 12, 2), day=SECOND)
    return first, second


def test_each_player_s_tables_hands_wins_average_and_money_over_time(friends, two_evenings):
    first, second = two_evenings
    anna = by_name(friends)["Anna"]
    assert (anna.tables, anna.hands, anna.won) == (2, 3, 1)
    assert anna.won_share == 0.3333
    assert anna.average_scores == {"jie-long": round((2 + 12 + 20) / 3, 2)}
    assert (anna.best_table.pk, anna.best_table.amount, anna.best_table.unit) == (
        first.pk, 26, "money",
    )  # fmt: skip
    assert anna.best_table.day == FIRST and anna.best_table.game == "jie-long"
    assert (anna.worst_table.pk, anna.worst_table.amount) == (second.pk, -26)
    assert anna.money_over_time == [(FIRST, 26), (SECOND, 0)]
    assert anna.specials == {}
    celine = by_name(friends)["Celine"]
    assert (celine.won, celine.money_over_time) == (1, [(FIRST, -52), (SECOND, -24)])


def test_a_period_counts_only_the_hands_played_in_it_both_days_included(friends, two_evenings):
    first, second = two_evenings
    anna = by_name(friends, start=SECOND)["Anna"]
    assert (anna.tables, anna.hands, anna.won) == (1, 1, 0)
    assert anna.best_table.pk == anna.worst_table.pk == second.pk
    assert anna.money_over_time == [(SECOND, -26)]  # from 0 at the start of the period
    assert by_name(friends, start=FIRST, end=FIRST)["Anna"].hands == 2
    assert by_name(friends, start=FIRST, end=SECOND)["Anna"].hands == 3

    nothing = by_name(friends, start=date(2026, 4, 1))["Anna"]
    assert (nothing.tables, nothing.hands, nothing.won) == (0, 0, 0)
    assert nothing.won_share is None and nothing.average_scores == {}
    assert nothing.best_table is None and nothing.worst_table is None
    assert nothing.money_over_time == []


def test_best_and_worst_come_from_tables_that_pay_before_points(friends):
    # Anna wins big at a points-only table and loses at a chip table: her best and worst are
    # from the chip table alone (no money table), in chips with their money beside.
    points = services.table_start(
        group=friends, seating=THREE, first="Anna", options={"stake": "0"}
    )
    played(points, hand(2, 12, 20))
    chips = services.table_start(
        group=friends, seating=THREE, first="Anna", options={"payment": "chips", "chip": "0.50"}
    )
    played(chips, hand(9, 5, 20))  # Bob wins: Anna pays him one chip
    anna = by_name(friends)["Anna"]
    assert (anna.best_table.pk, anna.best_table.unit, anna.best_table.amount) == (
        chips.pk, "chips", -1,
    )  # fmt: skip
    assert anna.best_table.money == Decimal("-0.50")
    # In money, the chip at 0.50 (rules rev 5: a group adds money, not chip counts).
    assert anna.money_over_time[-1][1] == Decimal("-0.50")

    # Only points-only tables: the lower total is the better (in Jie Long).
    others = services.group_create(name="Points", game="jie-long", options={"stake": "0"})
    low = services.table_start(group=others, seating=THREE, first="Anna")
    played(low, hand(2, 12, 20))
    high = services.table_start(group=others, seating=THREE, first="Anna")
    played(high, hand(30, 12, 2))
    anna = by_name(others)["Anna"]
    assert (anna.best_table.pk, anna.best_table.unit, anna.best_table.amount) == (
        low.pk, "points", 2,
    )  # fmt: skip
    assert (anna.worst_table.pk, anna.worst_table.amount) == (high.pk, 30)


def test_on_a_tie_the_earlier_table_is_both_best_and_worst(friends):
    tables = [services.table_start(group=friends, seating=THREE, first="Anna") for _ in range(2)]
    for table in tables:
        played(table, hand(2, 12, 20))
    anna = by_name(friends)["Anna"]
    assert anna.best_table.pk == anna.worst_table.pk == tables[0].pk


def test_specials_are_counted_by_kind_and_a_redeal_is_no_hand(db):
    four = ["Anna", "Bob", "Celine", "Dominic"]
    group = services.group_create(name="Ce Deng club", game="ce-deng", options={})
    table = services.table_start(group=group, seating=four, first="Anna")
    pass_and_tail = {
        "results": {
            "Anna": {"pips": 0}, "Bob": {"pips": 13},
            "Celine": {"pips": 60, "specials": ["tail_eight"]}, "Dominic": {"pips": 7},
        }
    }  # fmt: skip
    doubles = {
        "declared_doubles": "Bob",
        "results": {"Anna": {"pips": 60}, "Celine": {"pips": 50}, "Dominic": {"pips": 45}},
    }
    played(table, {"redeal": "Bob"}, pass_and_tail, doubles)
    found = by_name(group)
    assert found["Anna"].specials == {"pass": 1}
    assert found["Bob"].specials == {"declared_doubles": 1}
    assert found["Celine"].specials == {"tail_eight": 1} and found["Dominic"].specials == {}
    assert {name: one.hands for name, one in found.items()} == dict.fromkeys(four, 2)


def test_amounts_are_tidy_not_the_database_s_four_places(db):
    group = services.group_create(name="Quarter", game="jie-long", options={"stake": "0.25"})
    played(services.table_start(group=group, seating=THREE, first="Anna"), hand(0, 13, 21))
    anna = by_name(group)["Anna"]
    assert str(anna.best_table.amount) == "8.50"
    assert [str(balance) for _, balance in anna.money_over_time] == ["8.50"]
    assert str(stats.head_to_head(group, player(group, "Bob"), player(group, "Anna")).a.money) == (
        "-1.25"
    )


def test_head_to_head_counts_only_the_hands_both_played(friends):
    together = services.table_start(group=friends, seating=THREE, first="Anna")
    played(together, hand(2, 12, 20), hand(12, 2, 20))  # Anna 26, Bob 26 at these two
    apart = services.table_start(group=friends, seating=["Anna", "Celine", "Dominic"], first="Anna")
    played(apart, hand(2, 12, 20, names=["Anna", "Celine", "Dominic"]))

    anna, bob, celine = (player(friends, name) for name in THREE)
    met = stats.head_to_head(friends, anna, bob)
    assert (met.hands, met.tables) == (2, 1)
    points = {"jie-long": 14}  # scores add up within one game only
    assert (met.a.name, met.a.won, met.a.money, met.a.points) == ("Anna", 1, 26, points)
    assert (met.b.name, met.b.won, met.b.money, met.b.points) == ("Bob", 1, 26, points)
    with_celine = stats.head_to_head(friends, anna, celine)
    assert (with_celine.hands, with_celine.tables) == (3, 2)
    assert with_celine.a.money == 26 + 28 and with_celine.b.money == -52 - 2
    with pytest.raises(ValueError):
        stats.head_to_head(friends, anna, anna)


def test_ratings_replay_each_table_as_one_match_as_openskill_rates_it(friends):
    first = services.table_start(group=friends, seating=THREE, first="Anna")
    played(first, hand(2, 12, 20), hand(12, 2, 20))  # Anna 26, Bob 26, Celine -52: a tie
    second = services.table_start(group=friends, seating=THREE, first="Anna")
    played(second, hand(20, 12, 2))  # Celine 28, Bob -2, Anna -26
    services.table_start(group=friends, seating=["Anna", "Dominic"], first="Anna")  # no hand

    model = PlackettLuce()
    anna, bob, celine = model.rating(), model.rating(), model.rating()
    [anna], [bob], [celine] = model.rate([[anna], [bob], [celine]], ranks=[1, 1, 3])
    [anna], [bob], [celine] = model.rate([[anna], [bob], [celine]], ranks=[3, 2, 1])
    expected = {"Anna": anna, "Bob": bob, "Celine": celine}

    rated = stats.ratings(friends)
    assert [one.name for one in rated] == sorted(expected, key=lambda n: -expected[n].ordinal())
    for one in rated:  # Dominic played no hand: not rated
        assert one.mu == pytest.approx(expected[one.name].mu, abs=1e-9)
        assert one.sigma == pytest.approx(expected[one.name].sigma, abs=1e-9)
        assert one.ordinal == pytest.approx(one.mu - 3 * one.sigma, abs=1e-9)
        assert one.tables == 2
    assert stats.ratings(friends) == rated  # computed on read: the same numbers again


def test_statistics_and_ratings_cost_the_same_queries_for_one_table_or_twenty(friends):
    anna, bob = None, None

    def queries() -> tuple[int, int, int]:
        counts = []
        for read in (
            lambda: stats.player_stats(friends),
            lambda: stats.ratings(friends),
            lambda: stats.head_to_head(friends, anna, bob),
        ):
            with CaptureQueriesContext(connection) as seen:
                read()
            counts.append(len(seen.captured_queries))
        return counts[0], counts[1], counts[2]

    played(services.table_start(group=friends, seating=THREE, first="Anna"), hand(2, 12, 20))
    anna, bob = player(friends, "Anna"), player(friends, "Bob")
    few = queries()
    for _ in range(19):
        table = services.table_start(group=friends, seating=THREE, first="Anna")
        played(table, hand(2, 12, 20), hand(12, 2, 20))
    assert queries() == few == (4, 3, 3)
    assert by_name(friends)["Anna"].tables == 20 and by_name(friends)["Anna"].hands == 39
    assert stats.head_to_head(friends, anna, bob).a.money == Decimal(28 + 19 * 26)


def test_scores_are_averaged_and_added_within_one_game_only(friends):
    # Jie Long, where the lowest total wins, and Tiu Yu, where the highest does: an average of
    # Anna's 2 and 54 (28) would say nothing of either game (rules rev 5).
    together = services.table_start(group=friends, seating=THREE, first="Anna")
    played(together, hand(2, 12, 20))
    fishing = services.table_start(
        group=friends, seating=["Anna", "Bob"], first="Bob", game="tiu-yu"
    )
    catches = {"Anna": ["6:5", "5:6", "1:4", "1:4"], "Bob": ["3:3", "1:5"]}  # 54 and 10
    played(fishing, {"results": {name: {"tiles": tiles} for name, tiles in catches.items()}})

    anna = by_name(friends)["Anna"]
    assert anna.average_scores == {"jie-long": 2, "tiu-yu": 54}
    met = stats.head_to_head(friends, player(friends, "Anna"), player(friends, "Bob"))
    assert (met.a.points, met.b.points) == (
        {"jie-long": 2, "tiu-yu": 54},
        {"jie-long": 12, "tiu-yu": 10},
    )
    page = Client().get(f"/g/{friends.token}/statistics/").content.decode()
    average = re.search(r'id="player-\d+">.*?<span data-figure="average">(.*?)</span>', page, re.S)
    assert average[1] == "average score Jie Long 接龙 2.00 · Tiu Yu 54.00"
