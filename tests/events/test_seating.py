"""Seating a round: table sizes per game, byes, methods, lead rotation; bounded and repeatable."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations, permutations

import pytest

from ledger.events.seating import Method, met_counts, seat_round, table_sizes
from scoring import GAMES

NAMES = [f"P{i:03}" for i in range(700)]


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("count", [*range(0, 26), 37, 41, 599, 600, 601])
def test_every_player_is_seated_once_or_has_a_bye_at_tables_the_game_allows(game, count):
    allowed = GAMES[game].player_counts
    players = NAMES[:count]

    seating = seat_round(players, allowed=allowed, method=Method.RANDOM, seed="s", round_number=1)

    seated = [name for table in seating.tables for name in table]
    assert sorted(seated + list(seating.byes)) == sorted(players)
    assert all(len(table) in allowed for table in seating.tables)
    sizes = [len(table) for table in seating.tables]
    assert not sizes or max(sizes) - min(sizes) <= 1
    # Byes only where no split of everyone fits: fewer than one table's worth of players.
    assert len(seating.byes) < min(allowed)
    if count >= max(allowed):
        assert len(seating.tables) == -(-(count - len(seating.byes)) // max(allowed))


@pytest.mark.parametrize(
    ("count", "allowed", "sizes", "byes"),
    [
        (12, (2, 3, 4), [4, 4, 4], 0),
        (10, (2, 3, 4), [4, 3, 3], 0),
        (5, (2, 3, 4), [3, 2], 0),
        (1, (2, 3, 4), [], 1),
        (10, (4,), [4, 4], 2),
        (7, (4,), [4], 3),
        (3, (4,), [], 3),
        (7, (2, 3), [3, 2, 2], 0),
        (9, (2, 3), [3, 3, 3], 0),
    ],
)
def test_table_sizes(count, allowed, sizes, byes):
    assert table_sizes(count, allowed) == (sizes, byes)


def test_round_one_is_random_but_the_seed_reproduces_it():
    players = NAMES[:40]
    seat = lambda seed: seat_round(  # noqa: E731
        players, allowed=(2, 3, 4), method=Method.MIXING, seed=seed, round_number=1
    )

    assert seat("club-night") == seat("club-night")
    assert seat("club-night") != seat("other")
    assert seat("club-night").tables[0] != tuple(players[:4])


def test_byes_go_round_to_those_who_had_fewest():
    players = NAMES[:10]  # Ding Niu: 2 tables of 4, 2 byes a round
    had: Counter[str] = Counter()
    for round_number in range(1, 6):
        seating = seat_round(
            players, allowed=(4,), method=Method.MIXING, seed="s",
            round_number=round_number, byes_had=had,
        )  # fmt: skip
        assert len(seating.byes) == 2
        had.update(seating.byes)

    assert set(had.values()) == {1}  # five rounds, ten byes, everyone once


def test_standings_seats_the_strongest_together_and_the_lowest_sit_out():
    players = NAMES[:10]
    standings = list(reversed(players))

    seating = seat_round(
        players, allowed=(4,), method=Method.STANDINGS, seed="s", round_number=2,
        standings=standings,
    )  # fmt: skip

    assert set(seating.tables[0]) == set(standings[:4])
    assert set(seating.tables[1]) == set(standings[4:8])
    assert set(seating.byes) == set(standings[8:])


def _fewest_repeats(players, sizes, met):
    """Brute force: the fewest repeated pairs any seating of ``players`` at ``sizes`` has."""
    best = None
    first, rest = players[0], players[1:]
    for order in permutations(rest):
        order = (first, *order)
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        repeats = sum(1 for t in tables for pair in combinations(t, 2) if met[frozenset(pair)])
        best = repeats if best is None else min(best, repeats)
        if best == 0:
            break
    return best


@pytest.mark.parametrize(("count", "allowed"), [(8, (4,)), (9, (2, 3)), (8, (2, 3, 4))])
def test_mixing_finds_the_fewest_repeat_table_mates(count, allowed):
    players = NAMES[:count]
    first = seat_round(players, allowed=allowed, method=Method.MIXING, seed="s", round_number=1)
    met = met_counts(first.tables)

    second = seat_round(
        players, allowed=allowed, method=Method.MIXING, seed="s", round_number=2, met=met
    )

    sizes = [len(t) for t in second.tables]
    assert second.repeats(met) == _fewest_repeats(players, sizes, met)


def test_twelve_players_in_round_two_meet_as_few_again_as_possible():
    """3 tables of 4 from 3 tables of 4: every new table must hold two old table-mates
    (4 players from 3 old tables), so 3 repeated pairs is the least possible."""
    players = NAMES[:12]
    first = seat_round(players, allowed=(4,), method=Method.MIXING, seed="s", round_number=1)
    met = met_counts(first.tables)

    second = seat_round(
        players, allowed=(4,), method=Method.MIXING, seed="s", round_number=2, met=met
    )

    assert second.repeats(met) == 3
    assert all(len({p for p in t if p in old}) <= 2 for t in second.tables for old in first.tables)


def test_the_lead_goes_to_who_has_led_least():
    players = NAMES[:8]
    led = Counter(dict.fromkeys(players[:7], 1))  # only P007 has never led

    seating = seat_round(
        players, allowed=(4,), method=Method.RANDOM, seed="s", round_number=3, led=led
    )

    table = next(t for t in seating.tables if "P007" in t)
    assert table[0] == "P007"


def test_leads_rotate_over_rounds():
    players = NAMES[:8]
    led: Counter[str] = Counter()
    for round_number in range(1, 5):
        seating = seat_round(
            players, allowed=(4,), method=Method.MIXING, seed="s", round_number=round_number,
            met=None, led=led,
        )  # fmt: skip
        led.update(table[0] for table in seating.tables)

    assert set(led.values()) == {1}  # 4 rounds x 2 tables: 8 leads, one each


def test_a_name_twice_is_refused():
    with pytest.raises(ValueError, match="once"):
        seat_round(["A", "A"], allowed=(2,), method=Method.RANDOM, seed="s", round_number=1)


def test_seating_600_players_takes_well_under_a_second():
    players = NAMES[:600]
    met: Counter[frozenset[str]] = Counter()
    started = time.perf_counter()
    for round_number in range(1, 4):
        seating = seat_round(
            players, allowed=(2, 3, 4), method=Method.MIXING, seed="s",
            round_number=round_number, met=met,
        )  # fmt: skip
        met.update(met_counts(seating.tables))

    # Not a benchmark (bench_events prints the figure): a guard against a runaway search.
    assert time.perf_counter() - started < 10
