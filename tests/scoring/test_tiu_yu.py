"""Tiu Yu: large fish 2 a pip, small fish by red spots rounded up to tens; the highest collects."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import score

from .documents import THREE, TWO, hand, nets, paid, play, session, tiles, whole


def fish(large: int, red: int) -> dict[str, int]:
    return {"large_fish_pips": large, "small_fish_red": red}


def test_the_example_scores_from_captured_tiles() -> None:
    out = play(
        "tiu-yu",
        TWO,
        {"Anna": tiles("6:5", "5:6", "1:4", "1:4"), "Bob": tiles("1:2", "2:4")},
        first="Bob",
    )
    # Anna: 11 + 11 = 22 large pips x2 = 44; 1:4 has 5 red spots, twice = 10 -> 10. Total 54.
    # Bob: 1:2 and 2:4 (the ch'i tsun) are small; 1 + 4 red = 5 -> 10.
    assert out["scores"] == {"Anna": 54, "Bob": 10}
    assert nets(out) == whole({"Anna": 44, "Bob": -44})


def test_totals_score_the_same_as_the_tiles_they_come_from() -> None:
    from_tiles = play(
        "tiu-yu", TWO, {"Anna": tiles("6:5", "5:6", "1:4", "1:4"), "Bob": tiles("1:2", "2:4")}
    )
    from_totals = play("tiu-yu", TWO, {"Anna": fish(22, 10), "Bob": fish(0, 5)})
    assert from_totals["scores"] == from_tiles["scores"]
    assert from_totals["net"] == from_tiles["net"]


@pytest.mark.parametrize(
    ("red", "points"),
    [(0, 0), (1, 10), (9, 10), (10, 10), (11, 20), (20, 20), (21, 30), (48, 50)],
)
def test_small_fish_round_up_to_a_multiple_of_ten(red: int, points: int) -> None:
    out = play("tiu-yu", TWO, {"Anna": fish(0, red), "Bob": fish(0, 0)})
    assert out["scores"]["Anna"] == points


@pytest.mark.parametrize(
    ("large", "points"),
    # The double-64 large fish: 8 x8, 9 x4, 10 x8, 11 x4, 12 x4 = 64+36+80+44+48 = 272 pips.
    # Caught in mated pairs: 16 (two 8s), 18 (two 9s), 34 (two 8s and two 9s).
    [(0, 0), (16, 32), (18, 36), (34, 68), (272, 544)],
)
def test_large_fish_count_two_points_a_pip(large: int, points: int) -> None:
    out = play("tiu-yu", TWO, {"Anna": fish(large, 0), "Bob": fish(0, 0)})
    assert out["scores"]["Anna"] == points


@pytest.mark.parametrize(
    ("captured", "points"),
    [
        # Each caught with a mate (the same pips), as fish are caught.
        pytest.param(
            ["4:4", "2:6"], 32, id="4:4 has 8 pips: a large fish, its red spots do not count"
        ),
        pytest.param(["2:6", "3:5"], 32, id="2:6 has 8 pips: large"),
        pytest.param(["4:6", "5:5"], 40, id="4:6: large, 10 x2"),
        pytest.param(["6:6", "6:6"], 48, id="6:6: large, never a small fish"),
        pytest.param(["1:6", "2:5"], 10, id="1:6 has 7 pips: small, 1 red -> 10"),
        pytest.param(["1:1", "1:1"], 10, id="1:1: 2 red, twice -> 10"),
        pytest.param(
            ["3:3", "3:3", "2:2", "2:2", "2:5", "2:5"], 0, id="small fish without red spots score 0"
        ),
        pytest.param(
            ["1:4", "2:3", "2:4", "1:2", "3:4", "2:5"], 20, id="5 + 4 + 1 + 4 = 14 red -> 20"
        ),
        pytest.param(
            ["4:5", "3:6", "1:4", "2:3"], 46, id="4:5 and 3:6 large 18 x2, 1:4 five red -> 10"
        ),
    ],
)
def test_which_tiles_are_large_fish_and_which_spots_are_red(
    captured: list[str], points: int
) -> None:
    out = play("tiu-yu", TWO, {"Anna": tiles(*captured), "Bob": tiles()})
    assert out["scores"]["Anna"] == points


def test_every_other_player_pays_the_winner_the_difference() -> None:
    # Anna 44 + 10 = 54; Bob 0 + 10 = 10; Celine 0 + 30 = 30.
    out = play("tiu-yu", THREE, {"Anna": fish(22, 10), "Bob": fish(0, 5), "Celine": fish(0, 25)})
    assert out["scores"] == {"Anna": 54, "Bob": 10, "Celine": 30}
    # Bob pays 54 - 10 = 44, Celine 54 - 30 = 24; Bob and Celine settle nothing between them.
    assert paid(out) == {("Bob", "Anna", Decimal(44)), ("Celine", "Anna", Decimal(24))}
    assert nets(out) == whole({"Anna": 68, "Bob": -44, "Celine": -24})


def test_the_stake_multiplies_the_difference_exactly() -> None:
    out = play(
        "tiu-yu",
        THREE,
        {"Anna": fish(22, 10), "Bob": fish(0, 5), "Celine": fish(0, 25)},
        stake="0.10",
    )
    # 44 x 0.10 = 4.40, 24 x 0.10 = 2.40.
    assert out["net"] == {"Anna": "6.80", "Bob": "-4.40", "Celine": "-2.40"}


def test_a_tie_for_the_highest_goes_to_the_earliest_in_turn_order() -> None:
    # Bob leads: turn order Bob, Celine, Anna. Bob 15 red -> 20, Celine 11 red -> 20, Anna 10.
    out = play(
        "tiu-yu",
        THREE,
        {"Anna": fish(0, 5), "Bob": fish(0, 15), "Celine": fish(0, 11)},
        first="Bob",
    )
    assert out["ranking"] == ["Bob", "Celine", "Anna"]
    # Celine, level with the winner, pays nothing; Anna pays 20 - 10.
    assert paid(out) == {("Anna", "Bob", Decimal(10))}
    assert out["next_first"] == "Bob"


def test_all_equal_pays_nothing() -> None:
    out = play("tiu-yu", THREE, {name: fish(16, 3) for name in THREE})
    assert out["payments"] == []
    assert out["ranking"] == list(THREE)


def test_the_highest_score_leads_the_next_hand() -> None:
    hands = [
        hand({"Anna": fish(0, 5), "Bob": fish(0, 15), "Celine": fish(20, 15)}),
        hand({"Anna": fish(0, 0), "Bob": fish(0, 0), "Celine": fish(0, 0)}),
    ]
    out = score(session("tiu-yu", THREE, hands))
    assert out["hands"][1]["first"] == "Celine"
    assert out["hands"][1]["direction"] == "ccw"
    assert out["totals"]["scores"] == {"Anna": 10, "Bob": 20, "Celine": 60}
