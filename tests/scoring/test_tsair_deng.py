"""Tsair Deng: a pass doubles everybody else's score; ties go to the earliest in turn order."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import score

from .documents import FOUR, THREE, TWO, hand, nets, paid, play, session, special, whole


@pytest.mark.parametrize(
    ("results", "scores", "expected"),
    [
        pytest.param(
            {"Anna": 2, "Bob": 12, "Celine": 34, "Dominic": 18},
            [2, 12, 34, 18],
            [58, 18, -70, -6],
            id="no pass: the Jie Long seed",
        ),
        pytest.param(
            {"Anna": special(0, "pass"), "Bob": 8, "Celine": 12, "Dominic": 20},
            # Doubled: 0, 16, 24, 40; sum 80; net = 80 - 4 x score.
            [0, 16, 24, 40],
            [80, 16, -16, -80],
            id="one pass doubles the others",
        ),
        pytest.param(
            {"Anna": 10, "Bob": 0, "Celine": 6, "Dominic": 4},
            # A bare 0 is a pass: 20, 0, 12, 8; sum 40.
            [20, 0, 12, 8],
            [-40, 40, -8, 8],
            id="a score of 0 is a pass",
        ),
        pytest.param(
            {"Anna": special(0, "pass"), "Bob": 0, "Celine": 10, "Dominic": 6},
            # Two passes still double once: 0, 0, 20, 12; sum 32.
            [0, 0, 20, 12],
            [32, 32, -48, -16],
            id="two passes double once",
        ),
    ],
)
def test_scores_double_when_someone_passes_then_settle_pairwise(
    results: dict[str, object], scores: list[int], expected: list[int]
) -> None:
    out = play("tsair-deng", FOUR, results)
    assert out["scores"] == dict(zip(FOUR, scores, strict=True))
    assert nets(out) == whole(dict(zip(FOUR, expected, strict=True)))
    assert all(p["multiplier"] == 1 for p in out["payments"])


def test_ties_go_to_the_earliest_in_turn_order() -> None:
    # Celine leads: turn order Celine, Dominic, Anna, Bob; Dominic and Anna tie at 8.
    results = {"Anna": 8, "Bob": 20, "Celine": 12, "Dominic": 8}
    out = play("tsair-deng", FOUR, results, first="Celine")
    assert out["ranking"] == ["Dominic", "Anna", "Celine", "Bob"]
    assert out["next_first"] == "Dominic"


def test_a_three_way_tie_goes_to_the_first_player() -> None:
    out = play("tsair-deng", THREE, {"Anna": 10, "Bob": 10, "Celine": 10}, first="Bob")
    assert out["ranking"] == ["Bob", "Celine", "Anna"]
    assert out["payments"] == []


def test_ties_on_doubled_scores_go_to_the_earliest_in_turn_order() -> None:
    out = play("tsair-deng", THREE, {"Anna": 10, "Bob": 10, "Celine": special(0, "pass")})
    assert out["scores"] == {"Anna": 20, "Bob": 20, "Celine": 0}
    assert out["ranking"] == ["Celine", "Anna", "Bob"]


def test_session_totals_add_up_the_doubled_scores() -> None:
    hands = [hand({"Anna": 0, "Bob": 12}), hand({"Anna": 4, "Bob": 6})]
    out = score(session("tsair-deng", TWO, hands))
    # Hand 1: Bob doubled to 24, Anna wins 24; hand 2: Anna wins 2. Scores 0+4, 24+6.
    assert out["totals"]["scores"] == {"Anna": 4, "Bob": 30}
    assert out["totals"]["net"] == {"Anna": 26, "Bob": -26}
    assert out["totals"]["hands_won"] == {"Anna": 2, "Bob": 0}


def test_tsair_deng_breaks_ties_by_the_lower_total_so_far_when_asked() -> None:
    hands = [
        hand({"Anna": 20, "Bob": 6}, first="Anna", direction="ccw"),
        hand({"Anna": 8, "Bob": 8}, first="Anna", direction="ccw"),
    ]
    out = score(session("tsair-deng", TWO, hands, ties="lower_total"))
    assert out["hands"][1]["ranking"] == ["Bob", "Anna"]


def test_tsair_deng_in_chips_pays_the_winner_one_chip_from_each_after_the_pass() -> None:
    out = play("tsair-deng", THREE, {"Anna": 0, "Bob": 5, "Celine": 9}, payment="chips")
    assert paid(out) == {("Bob", "Anna", Decimal(1)), ("Celine", "Anna", Decimal(1))}
    assert out["scores"] == {"Anna": 0, "Bob": 10, "Celine": 18}
