"""Jie Long: discarded pips, every pair settles the difference (RULES.md)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring import score

from .documents import FOUR, THREE, TWO, hand, money, nets, paid, play, session, tiles, whole

SEED_SCORES = dict(zip(FOUR, [2, 12, 34, 18], strict=True))


def test_seed_example_nets_58_18_minus_70_minus_6() -> None:
    out = play("jie-long", FOUR, SEED_SCORES)
    assert nets(out) == whole({"Anna": 58, "Bob": 18, "Celine": -70, "Dominic": -6})


def test_every_pair_pays_the_plain_difference_once() -> None:
    out = play("jie-long", FOUR, SEED_SCORES)
    # Seed text: Bob pays Anna 10, Celine pays Bob 22 and Dominic 16, and so on.
    assert paid(out) == {
        ("Bob", "Anna", Decimal(10)),  # 12 - 2
        ("Celine", "Anna", Decimal(32)),  # 34 - 2
        ("Dominic", "Anna", Decimal(16)),  # 18 - 2
        ("Celine", "Bob", Decimal(22)),  # 34 - 12
        ("Dominic", "Bob", Decimal(6)),  # 18 - 12
        ("Celine", "Dominic", Decimal(16)),  # 34 - 18
    }
    assert all(p["multiplier"] == 1 for p in out["payments"])


@pytest.mark.parametrize(
    ("seating", "scores", "expected"),
    [
        # net(i) = sum - n x score(i)
        pytest.param(TWO, [2, 12], [10, -10], id="2 players: 14 - 2x2, 14 - 2x12"),
        pytest.param(THREE, [4, 10, 22], [24, 6, -30], id="3 players: sum 36"),
        pytest.param(FOUR, [10, 10, 20, 20], [20, 20, -20, -20], id="4 players: sum 60"),
        pytest.param(FOUR, [7, 7, 7, 7], [0, 0, 0, 0], id="all equal"),
    ],
)
def test_nets_are_the_sum_of_scores_less_n_times_own_score(
    seating: tuple[str, ...], scores: list[int], expected: list[int]
) -> None:
    out = play("jie-long", seating, dict(zip(seating, scores, strict=True)))
    assert nets(out) == whole(dict(zip(seating, expected, strict=True)))


def test_equal_scores_pay_nothing() -> None:
    out = play("jie-long", TWO, {"Anna": 10, "Bob": 10})
    assert out["payments"] == []
    assert nets(out) == whole({"Anna": 0, "Bob": 0})


def test_a_tie_for_the_best_score_goes_to_the_earliest_in_turn_order() -> None:
    # Bob leads: turn order Bob, Celine, Anna; all three score 10.
    out = play("jie-long", THREE, {"Anna": 10, "Bob": 10, "Celine": 10}, first="Bob")
    assert out["order"] == ["Bob", "Celine", "Anna"]
    assert out["ranking"] == ["Bob", "Celine", "Anna"]
    assert out["next_first"] == "Bob"


def test_stake_multiplies_every_payment() -> None:
    out = play("jie-long", FOUR, SEED_SCORES, stake=2)
    assert nets(out) == whole({"Anna": 116, "Bob": 36, "Celine": -140, "Dominic": -12})


def test_a_half_stake_gives_exact_decimal_strings() -> None:
    # 27 - 2 = 25 points at 0.50 = 12.50.
    out = score(session("jie-long", TWO, [hand({"Anna": 2, "Bob": 27})], stake="0.50"))
    assert out["hands"][0]["net"] == {"Anna": "12.50", "Bob": "-12.50"}
    assert out["hands"][0]["payments"][0]["amount"] == "12.50"
    assert out["totals"]["net"] == {"Anna": "12.50", "Bob": "-12.50"}
    assert out["settle_up"] == [{"from": "Bob", "to": "Anna", "amount": "12.50"}]


def test_whole_amounts_from_a_decimal_stake_are_json_integers() -> None:
    # 12 - 2 = 10 points at 0.50 = 5, written as the number 5.
    out = score(session("jie-long", TWO, [hand({"Anna": 2, "Bob": 12})], stake="0.50"))
    assert out["hands"][0]["net"] == {"Anna": 5, "Bob": -5}
    assert type(out["hands"][0]["net"]["Anna"]) is int
    assert type(out["settle_up"][0]["amount"]) is int


def test_a_stake_given_as_a_json_number_with_decimals_is_exact() -> None:
    # 0.1 as a float would drift; the engine must still give exactly 2.5 for 25 points.
    out = score(session("jie-long", TWO, [hand({"Anna": 2, "Bob": 27})], stake=0.1))
    assert money(out["hands"][0]["net"]["Anna"]) == Decimal("2.5")


def test_tiles_are_added_up_and_may_be_written_either_way_round() -> None:
    # 6:6 + 3:3 = 12 + 6 = 18; 6:4 and 4:6 are the same tile, 10 pips each.
    out = play("jie-long", TWO, {"Anna": tiles("6:6", "3:3"), "Bob": tiles("6:4", "4:6")})
    assert out["scores"] == {"Anna": 18, "Bob": 20}


def test_a_blocked_hand_scores_like_any_other() -> None:
    document = session(
        "jie-long", FOUR, [hand(SEED_SCORES, blocked=True), hand(SEED_SCORES, blocked=False)]
    )
    first, second = score(document)["hands"]
    assert nets(first) == nets(second)


@pytest.mark.parametrize(
    ("seating", "first_max", "other_max"),
    [
        # Tiles of chinese-32 from the top: 12 12 11 11 10 10 10 10 | 9 9 | 8 8 8 8 | 7 7 7 7 ...
        # 2 players, 16 each: 86 + 18 + 32 + 7 + 7 = 150; the first led one, 15 tiles: 143.
        pytest.param(TWO, 143, 150, id="2 players"),
        # 3 players, 10 each: 86 + 9 + 9 = 104; the first, 9 tiles: 86 + 9 = 95.
        pytest.param(THREE, 95, 104, id="3 players"),
        # 4 players, 8 each: 86; the first, 7 tiles: 86 - 10 = 76.
        pytest.param(FOUR, 76, 86, id="4 players"),
    ],
)
def test_the_largest_possible_scores_are_accepted(
    seating: tuple[str, ...], first_max: int, other_max: int
) -> None:
    # Each on its own: the largest scores share the largest tiles, so no deal gives two.
    for name, most in ((seating[0], first_max), (seating[-1], other_max)):
        results = dict.fromkeys(seating, 0) | {name: most}
        assert play("jie-long", seating, results)["scores"] == results


def test_the_winner_leads_the_next_hand() -> None:
    hands = [hand({"Anna": 20, "Bob": 12, "Celine": 4}), hand({"Anna": 2, "Bob": 4, "Celine": 6})]
    first, second = score(session("jie-long", THREE, hands))["hands"]
    assert first["next_first"] == "Celine"
    assert second["first"] == "Celine"
    assert second["order"] == ["Celine", "Anna", "Bob"]


def test_direction_stays_counter_clockwise_from_hand_to_hand() -> None:
    hands = [hand(SEED_SCORES), hand(SEED_SCORES), hand(SEED_SCORES)]
    out = score(session("jie-long", FOUR, hands))["hands"]
    assert [h["direction"] for h in out] == ["ccw", "ccw", "ccw"]
    assert [h["next_direction"] for h in out] == ["ccw", "ccw", "ccw"]


def test_a_recorded_first_overrides_the_winner() -> None:
    # Anna won the first hand, but the table says Celine led the second.
    hands = [hand(SEED_SCORES), hand(SEED_SCORES, first="Celine")]
    second = score(session("jie-long", FOUR, hands))["hands"][1]
    assert second["first"] == "Celine"
    assert second["order"] == ["Celine", "Dominic", "Anna", "Bob"]


def test_a_recorded_direction_is_used_for_that_hand() -> None:
    second = score(
        session("jie-long", FOUR, [hand(SEED_SCORES), hand(SEED_SCORES, direction="cw")])
    )["hands"][1]
    assert second["direction"] == "cw"
    assert second["order"] == ["Anna", "Dominic", "Celine", "Bob"]


def test_rotate_passes_the_lead_to_the_next_seat_counter_clockwise() -> None:
    # Celine wins every hand, but the lead goes Anna, Bob, Celine, Dominic, Anna.
    scores = {"Anna": 10, "Bob": 12, "Celine": 2, "Dominic": 14}
    hands = [hand(scores) for _ in range(5)]
    out = score(session("jie-long", FOUR, hands, next_first="rotate"))["hands"]
    assert [h["first"] for h in out] == ["Anna", "Bob", "Celine", "Dominic", "Anna"]
    assert [h["next_first"] for h in out] == ["Bob", "Celine", "Dominic", "Anna", "Bob"]
    assert all(h["ranking"][0] == "Celine" for h in out)


def test_rotate_counts_on_from_a_recorded_first() -> None:
    hands = [hand(SEED_SCORES, first="Dominic"), hand(SEED_SCORES)]
    out = score(session("jie-long", FOUR, hands, next_first="rotate"))["hands"]
    assert out[0]["next_first"] == "Anna"
    assert out[1]["first"] == "Anna"


def test_session_totals_add_up_the_hands() -> None:
    hands = [
        hand({"Anna": 2, "Bob": 12}),
        hand({"Anna": 20, "Bob": 6}),
        hand({"Anna": 4, "Bob": 4}),
    ]
    out = score(session("jie-long", TWO, hands))
    # Nets: +10/-10, then Bob wins 14, then nothing: Anna 10 - 14 = -4.
    assert out["totals"]["net"] == {"Anna": -4, "Bob": 4}
    assert out["totals"]["scores"] == {"Anna": 26, "Bob": 22}
    # Bob won the second hand, so he led the third, and its tie goes to him as the earlier.
    assert out["totals"]["hands_won"] == {"Anna": 1, "Bob": 2}
    assert out["settle_up"] == [{"from": "Anna", "to": "Bob", "amount": 4}]


def test_a_session_without_hands_has_zero_totals_and_nothing_to_settle() -> None:
    out = score(session("jie-long", FOUR, []))
    assert out["hands"] == []
    assert out["totals"]["net"] == dict.fromkeys(FOUR, 0)
    assert out["settle_up"] == []


def test_after_a_hand_recorded_clockwise_play_returns_to_counter_clockwise() -> None:
    hands = [
        hand({"Anna": 2, "Bob": 12, "Celine": 20}, direction="cw"),
        hand({"Anna": 4, "Bob": 6, "Celine": 8}),
    ]

    out = score(session("jie-long", THREE, hands))

    assert [h["direction"] for h in out["hands"]] == ["cw", "ccw"]
    assert out["hands"][0]["next_direction"] == "ccw"


def test_in_chips_every_loser_pays_the_winner_one_chip() -> None:
    out = play(
        "jie-long", FOUR, {"Anna": 2, "Bob": 12, "Celine": 34, "Dominic": 18}, payment="chips"
    )
    assert paid(out) == {(name, "Anna", Decimal(1)) for name in ("Bob", "Celine", "Dominic")}
    assert nets(out) == whole({"Anna": 3, "Bob": -1, "Celine": -1, "Dominic": -1})


def test_the_chip_value_is_what_one_chip_is_worth() -> None:
    out = play("jie-long", TWO, {"Anna": 20, "Bob": 4}, payment="chips", chip="2.50")
    assert paid(out) == {("Anna", "Bob", Decimal("2.50"))}


@pytest.mark.parametrize(("ties", "winner"), [("turn_order", "Anna"), ("lower_total", "Bob")])
def test_a_tied_hand_goes_to_the_smaller_total_so_far_when_the_table_says_so(
    ties: str, winner: str
) -> None:
    # After hand 1, Anna has 30 and Bob 4; in hand 2 they tie at 10, Anna leading.
    hands = [
        hand({"Anna": 30, "Bob": 4}, first="Bob", direction="ccw"),
        hand({"Anna": 10, "Bob": 10}, first="Anna", direction="ccw"),
    ]
    out = score(session("jie-long", TWO, hands, ties=ties))
    assert out["hands"][1]["ranking"][0] == winner
    assert out["hands"][1]["next_first"] == winner
    assert out["totals"]["hands_won"][winner] == 1 + (winner == "Bob")


def test_a_tie_of_equal_totals_too_goes_to_turn_order() -> None:
    hands = [hand({"Anna": 10, "Bob": 10, "Celine": 10}, first="Celine", direction="ccw")]
    out = score(session("jie-long", THREE, hands, ties="lower_total"))
    assert out["hands"][0]["ranking"] == ["Celine", "Anna", "Bob"]
