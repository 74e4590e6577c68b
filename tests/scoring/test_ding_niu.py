"""Ding Niu: ranking with its two tie rules, chips by rank, and the SuanZhang creator."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scoring import GAMES, score

from .documents import hand, nets, paid, play, rejected, session, special, tiles, whole

SEATS = ("Adam", "Boris", "Celine", "Dominik")

# ding-niu-24 pips: 2 4 6 8 10 12 (doubles), 4 6 7 10 11 (1:3 1:5 1:6 4:6 5:6), all twice,
# and 8 9 (2:6 3:6) once. Every tile under 7 pips is even, so 5 cannot be scored.


def results(*scores: int) -> dict[str, int]:
    return dict(zip(SEATS, scores, strict=True))


RANKINGS = [
    pytest.param(
        results(10, 6, 6, 10),
        "Adam",
        ["Boris", "Celine", "Dominik", "Adam"],
        id="seed 1 (6 for the impossible 5): lower hand takes first, upper hand third",
    ),
    pytest.param(
        results(10, 15, 15, 10),
        "Adam",
        ["Adam", "Dominik", "Celine", "Boris"],
        id="seed 2: Adam wins the tie for first, Celine the tie for third",
    ),
    pytest.param(
        results(6, 6, 6, 10),
        "Adam",
        ["Adam", "Celine", "Boris", "Dominik"],
        id="3-way tie for first: lowest hand first, the rest upper hand first",
    ),
    pytest.param(
        results(10, 6, 6, 6),
        "Adam",
        ["Boris", "Dominik", "Celine", "Adam"],
        id="3-way tie for first without the first player",
    ),
    pytest.param(
        results(10, 10, 10, 10),
        "Adam",
        ["Adam", "Dominik", "Celine", "Boris"],
        id="4-way tie",
    ),
    pytest.param(
        results(4, 10, 10, 12),
        "Adam",
        ["Adam", "Celine", "Boris", "Dominik"],
        id="tie for second goes to the upper hand",
    ),
    pytest.param(
        results(4, 8, 12, 12),
        "Adam",
        ["Adam", "Boris", "Dominik", "Celine"],
        id="tie for last: the lower hand is last",
    ),
    pytest.param(
        results(4, 10, 10, 10),
        "Adam",
        ["Adam", "Dominik", "Celine", "Boris"],
        id="3-way tie for second",
    ),
    pytest.param(
        results(8, 12, 4, 8),
        "Celine",
        ["Celine", "Adam", "Dominik", "Boris"],
        id="turn order Celine Dominik Adam Boris: Adam is the upper of the tied pair",
    ),
    pytest.param(
        results(6, 6, 10, 6),
        "Celine",
        ["Dominik", "Boris", "Adam", "Celine"],
        id="turn order Celine Dominik Adam Boris: 3-way tie for first",
    ),
]


@pytest.mark.parametrize(("scores", "first", "ranking"), RANKINGS)
def test_ranking_and_chips_by_rank(scores: dict[str, int], first: str, ranking: list[str]) -> None:
    out = play("ding-niu", SEATS, scores, first=first)
    assert out["ranking"] == ranking
    # 1st +6, 2nd -1, 3rd -2, 4th -3.
    assert nets(out) == whole(dict(zip(ranking, [6, -1, -2, -3], strict=True)))
    assert out["next_first"] == ranking[0]


@pytest.mark.parametrize(
    ("scores", "ranking"),
    [
        ([10, 5, 5, 10], ("Boris", "Celine", "Dominik", "Adam")),
        ([10, 15, 15, 10], ("Adam", "Dominik", "Celine", "Boris")),
    ],
    ids=["Boris and Celine at 5", "Boris and Celine at 15"],
)
def test_the_seed_examples_rank_as_the_seed_says(scores: list[int], ranking: tuple[str]) -> None:
    assert GAMES["ding-niu"].rank(results(*scores), SEATS) == ranking


def test_the_seed_score_of_5_cannot_be_entered() -> None:
    error = rejected(session("ding-niu", SEATS, [hand(results(10, 5, 5, 10))]))
    assert error.path == "hands[0].results.Boris.pips"
    assert "impossible" in error.message


def test_the_chip_value_multiplies_the_chips() -> None:
    out = play("ding-niu", SEATS, results(4, 6, 8, 10), chip="0.25")
    # 6 x 0.25 = 1.50; 1, 2, 3 x 0.25.
    assert out["net"] == {"Adam": "1.50", "Boris": "-0.25", "Celine": "-0.50", "Dominik": "-0.75"}


SUANZHANG = [
    pytest.param(
        {"Adam": special(4, "suanzhang"), "Boris": 6, "Celine": 8, "Dominik": 10},
        {},
        {"Adam": 12, "Boris": -2, "Celine": -4, "Dominik": -6},
        id="the creator wins: everything doubles",
    ),
    pytest.param(
        {"Adam": 4, "Boris": 6, "Celine": special(8, "suanzhang"), "Dominik": 10},
        {},
        {"Adam": 12, "Boris": 0, "Celine": -12, "Dominik": 0},
        id="the creator third pays 12 alone",
    ),
    pytest.param(
        {"Adam": 4, "Boris": special(10, "suanzhang"), "Celine": 6, "Dominik": 8},
        {},
        {"Adam": 12, "Boris": -12, "Celine": 0, "Dominik": 0},
        id="the creator last pays 12 alone",
    ),
    pytest.param(
        {"Adam": 4, "Boris": special(6, "suanzhang"), "Celine": 8, "Dominik": 10},
        {},
        {"Adam": 12, "Boris": -12, "Celine": 0, "Dominik": 0},
        id="the creator second pays 12 alone",
    ),
    pytest.param(
        {"Adam": 6, "Boris": special(6, "suanzhang"), "Celine": 8, "Dominik": 10},
        {},
        {"Adam": 12, "Boris": -12, "Celine": 0, "Dominik": 0},
        id="the creator losing the tie for first pays 12",
    ),
    pytest.param(
        {"Adam": special(4, "suanzhang"), "Boris": 6, "Celine": 8, "Dominik": 10},
        {"chip": 2},
        {"Adam": 24, "Boris": -4, "Celine": -8, "Dominik": -12},
        id="the creator wins at 2 a chip",
    ),
    pytest.param(
        {"Adam": 4, "Boris": special(10, "suanzhang"), "Celine": 6, "Dominik": 8},
        {"chip": "0.50"},
        {"Adam": 6, "Boris": -6, "Celine": 0, "Dominik": 0},
        id="the creator loses at 0.50 a chip",
    ),
]


@pytest.mark.parametrize(("scores", "options", "expected"), SUANZHANG)
def test_suanzhang(
    scores: dict[str, Any], options: dict[str, Any], expected: dict[str, int]
) -> None:
    out = play("ding-niu", SEATS, scores, **options)
    assert nets(out) == whole(expected)


def test_a_losing_suanzhang_creator_makes_the_only_payment() -> None:
    scores = {"Adam": 4, "Boris": special(10, "suanzhang"), "Celine": 6, "Dominik": 8}
    out = play("ding-niu", SEATS, scores)
    assert paid(out) == {("Boris", "Adam", Decimal(12))}
    assert out["ranking"] == ["Adam", "Celine", "Dominik", "Boris"]


@pytest.mark.parametrize(
    ("name", "pips"),
    [
        # The first player led one of 6 tiles: 12+12+11+11+10 = 56 at most.
        ("Adam", 57),
        # Any other player: 56 + 10 = 66 at most.
        ("Boris", 67),
    ],
)
def test_scores_beyond_the_largest_tiles_are_rejected(name: str, pips: int) -> None:
    # Each at the most on its own: 56 and 66 both need the two 6:6, so no deal gives both.
    largest = results(4, 4, 4, 4) | {name: pips - 1}
    assert play("ding-niu", SEATS, largest)["scores"] == largest
    error = rejected(session("ding-niu", SEATS, [hand(largest | {name: pips})]))
    assert error.path == f"hands[0].results.{name}.pips"


def test_the_two_odd_military_tiles_are_in_the_deck_once() -> None:
    # 2:6 + 3:6 = 8 + 9 = 17.
    out = play("ding-niu", SEATS, results(4, 6, 8, 10) | {"Celine": tiles("2:6", "3:6")})
    assert out["scores"]["Celine"] == 17


def test_the_winner_leads_the_next_hand() -> None:
    document = session("ding-niu", SEATS, [hand(results(10, 6, 6, 10)), hand(results(4, 6, 8, 10))])
    second = score(document)["hands"][1]
    assert second["first"] == "Boris"
    assert second["order"] == ["Boris", "Celine", "Dominik", "Adam"]


def test_the_suanzhang_creator_played_the_blocking_tile_so_cannot_score_all_six() -> None:
    # Any 5 tiles of ding-niu-24 make 56 at most; 60 needs all 6 of Dominik's tiles.
    entered = results(10, 6, 6, 60)
    assert play("ding-niu", SEATS, entered)["scores"]["Dominik"] == 60
    error = rejected(
        session("ding-niu", SEATS, [hand(entered | {"Dominik": special(60, "suanzhang")})])
    )
    assert error.path == "hands[0].results.Dominik.pips"
    assert "SuanZhang creator played the tile that made the block" in error.message
    assert "Dominik" in error.message


def test_the_suanzhang_creator_cannot_enter_six_tiles() -> None:
    six = {"tiles": ["1:1", "1:1", "2:2", "2:2", "1:3", "1:3"], "specials": ["suanzhang"]}
    error = rejected(session("ding-niu", SEATS, [hand(results(10, 6, 6, 0) | {"Dominik": six})]))
    assert error.path == "hands[0].results.Dominik.tiles"
    assert "at most 5 of 6 tiles" in error.message
