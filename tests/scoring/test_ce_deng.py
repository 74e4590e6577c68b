"""Ce Deng: pass, head and tail multipliers, redeals, declared doubles, alternating direction."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from scoring import score

from .documents import (
    FOUR,
    THREE,
    TWO,
    hand,
    nets,
    paid,
    play,
    rejected,
    session,
    special,
    tiles,
    whole,
)

# Handy scores (chinese-32 pips, smallest first: 2 2 3 4 4 4 4 5 ...):
#   head_seven 30 = 7 tiles 2+2+3+4+4+4+11;  tail_eight 40 = 8 tiles 2+2+3+4+4+4+10+11;
#   head_six 19 = 6 tiles 2+2+3+4+4+4 (the least);  tail_seven 23 = 7 tiles 2+2+3+4+4+4+4.

PAIRS = [
    # (results of Anna, who leads, and Bob; (payer, payee, amount, multiplier))
    pytest.param(
        {"Anna": 10, "Bob": 30}, ("Bob", "Anna", 20, 1), id="normal-normal: 30-10 = 20 x1"
    ),
    pytest.param(
        {"Anna": special(30, "head_seven"), "Bob": special(40, "tail_eight")},
        ("Bob", "Anna", 10, 1),
        id="low-low: 40-30 = 10 x1",
    ),
    pytest.param(
        {"Anna": special(30, "head_seven"), "Bob": 20},
        ("Anna", "Bob", 20, 2),
        id="low-normal, the head pays: (30-20) x2",
    ),
    pytest.param(
        {"Anna": special(30, "head_seven"), "Bob": 50},
        ("Bob", "Anna", 40, 2),
        id="low-normal, the normal player pays the head: (50-30) x2",
    ),
    pytest.param(
        {"Anna": 10, "Bob": special(40, "tail_eight")},
        ("Bob", "Anna", 60, 2),
        id="normal-low, the tail pays: (40-10) x2",
    ),
    pytest.param(
        {"Anna": 60, "Bob": special(40, "tail_eight")},
        ("Anna", "Bob", 40, 2),
        id="normal-low, the normal player pays the tail: (60-40) x2",
    ),
    pytest.param(
        {"Anna": 10, "Bob": special(0, "pass")},
        ("Anna", "Bob", 20, 2),
        id="pass-normal: 10 x2",
    ),
    pytest.param(
        {"Anna": special(30, "head_seven"), "Bob": special(0, "pass")},
        ("Anna", "Bob", 120, 4),
        id="pass-low, head pays the pass: 30 x4",
    ),
    pytest.param(
        {"Anna": special(0, "pass"), "Bob": special(40, "tail_eight")},
        ("Bob", "Anna", 160, 4),
        id="pass-low, the first player passes and the tail pays: 40 x4",
    ),
]


@pytest.mark.parametrize(("results", "payment"), PAIRS)
def test_the_pair_multiplier_applies_whichever_of_the_two_pays(
    results: dict[str, Any], payment: tuple[str, str, int, int]
) -> None:
    out = play("ce-deng", TWO, results)
    payer, payee, amount, times = payment
    assert [(p["from"], p["to"], p["amount"], p["multiplier"]) for p in out["payments"]] == [
        (payer, payee, amount, times)
    ]
    assert nets(out) == whole({payee: amount, payer: -amount})


def test_two_pass_players_pay_each_other_nothing_and_both_collect_double() -> None:
    results = {"Anna": special(0, "pass"), "Bob": special(0, "pass"), "Celine": 10}
    out = play("ce-deng", THREE, results)
    # Celine pays each pass 10 x2 = 20; the passes, both at 0, pay nothing between them.
    assert paid(out) == {("Celine", "Anna", Decimal(20)), ("Celine", "Bob", Decimal(20))}
    assert nets(out) == whole({"Anna": 20, "Bob": 20, "Celine": -40})


def test_two_tails_settle_at_the_plain_difference_and_double_with_the_normal_player() -> None:
    results = {
        "Anna": 10,
        "Bob": special(40, "tail_eight"),
        "Celine": special(50, "tail_eight"),
    }
    out = play("ce-deng", THREE, results)
    # Bob-Celine x1: 10; Anna-Bob x2: 60; Anna-Celine x2: 80.
    assert paid(out) == {
        ("Celine", "Bob", Decimal(10)),
        ("Bob", "Anna", Decimal(60)),
        ("Celine", "Anna", Decimal(80)),
    }
    assert nets(out) == whole({"Anna": 140, "Bob": -50, "Celine": -90})


def test_the_contract_example_pays_each_pair_with_its_multiplier() -> None:
    results = {
        "Anna": special(0, "pass"),
        "Bob": 12,
        "Celine": special(34, "tail_eight"),
        "Dominic": tiles("6:6", "3:3"),
    }
    out = play("ce-deng", FOUR, results)
    assert {(p["from"], p["to"], p["amount"], p["multiplier"]) for p in out["payments"]} == {
        ("Bob", "Anna", 24, 2),  # pass-normal: 12 x2
        ("Celine", "Anna", 136, 4),  # pass-low: 34 x4
        ("Dominic", "Anna", 36, 2),  # pass-normal: 18 x2
        ("Celine", "Bob", 44, 2),  # low-normal: (34-12) x2
        ("Dominic", "Bob", 6, 1),  # normal-normal: 18-12
        ("Celine", "Dominic", 32, 2),  # low-normal: (34-18) x2
    }
    assert nets(out) == whole({"Anna": 196, "Bob": 26, "Celine": -212, "Dominic": -10})


@pytest.mark.parametrize("first", ["Anna", "Bob"])
def test_a_score_of_zero_is_a_pass_whether_flagged_or_not(first: str) -> None:
    other = "Bob" if first == "Anna" else "Anna"
    flagged = play("ce-deng", TWO, {first: 10, other: special(0, "pass")}, first=first)
    bare = play("ce-deng", TWO, {first: 10, other: 0}, first=first)
    assert bare["payments"] == flagged["payments"]
    assert nets(bare) == whole({other: 20, first: -20})  # 10 x2


SIX_SEVEN = [
    pytest.param(
        {"Anna": special(19, "head_six"), "Bob": 30},
        ("Bob", "Anna", 22, 2),
        id="head_six is low: (30-19) x2",
    ),
    pytest.param(
        {"Anna": 10, "Bob": special(23, "tail_seven")},
        ("Bob", "Anna", 26, 2),
        id="tail_seven is low: (23-10) x2",
    ),
    pytest.param(
        {"Anna": special(30, "head_seven"), "Bob": 20},
        ("Anna", "Bob", 20, 2),
        id="head_seven still counts: (30-20) x2",
    ),
    pytest.param(
        {"Anna": special(19, "head_six"), "Bob": special(0, "pass")},
        ("Anna", "Bob", 76, 4),
        id="pass-head_six: 19 x4",
    ),
    pytest.param(
        # Not 19 and 23: both are the least their tiles make, from the same smallest tiles.
        {"Anna": special(30, "head_six"), "Bob": special(34, "tail_seven")},
        ("Bob", "Anna", 4, 1),
        id="head_six-tail_seven: 34-30 x1",
    ),
]


@pytest.mark.parametrize(("results", "payment"), SIX_SEVEN)
def test_head_six_and_tail_seven_are_low_under_the_6_7_option(
    results: dict[str, Any], payment: tuple[str, str, int, int]
) -> None:
    out = play("ce-deng", TWO, results, head_tail="6/7")
    assert [(p["from"], p["to"], p["amount"], p["multiplier"]) for p in out["payments"]] == [
        payment
    ]


@pytest.mark.parametrize(
    ("results", "path"),
    [
        ({"Anna": special(19, "head_six"), "Bob": 30}, "hands[0].results.Anna.specials"),
        ({"Anna": 10, "Bob": special(23, "tail_seven")}, "hands[0].results.Bob.specials"),
    ],
    ids=["head_six", "tail_seven"],
)
@pytest.mark.parametrize("options", [{}, {"head_tail": "7/8"}], ids=["default", "7/8"])
def test_head_six_and_tail_seven_are_rejected_under_the_7_8_rule(
    results: dict[str, Any], path: str, options: dict[str, str]
) -> None:
    error = rejected(session("ce-deng", TWO, [hand(results)], **options))
    assert error.path == path
    assert "6/7" in error.message


@pytest.mark.parametrize(
    ("results", "path"),
    [
        # 6 tiles make at least 19, 7 tiles at least 23.
        ({"Anna": special(18, "head_six"), "Bob": 30}, "hands[0].results.Anna.pips"),
        ({"Anna": 10, "Bob": special(22, "tail_seven")}, "hands[0].results.Bob.pips"),
    ],
    ids=["head_six 18", "tail_seven 22"],
)
def test_a_head_six_or_tail_seven_score_must_be_made_of_that_many_tiles(
    results: dict[str, Any], path: str
) -> None:
    error = rejected(session("ce-deng", TWO, [hand(results)], head_tail="6/7"))
    assert error.path == path
    assert "impossible" in error.message


def test_a_blocked_hand_keeps_the_special_multipliers() -> None:
    results = {"Anna": 10, "Bob": special(40, "tail_eight")}
    out = score(session("ce-deng", TWO, [hand(results, blocked=True)]))["hands"][0]
    assert nets(out) == whole({"Anna": 60, "Bob": -60})  # (40-10) x2


CELINE_WINS = {"Anna": 10, "Bob": 12, "Celine": 4, "Dominic": 20}
ANNA_WINS = {"Anna": 2, "Bob": 12, "Celine": 34, "Dominic": 18}


def test_direction_alternates_every_dealt_hand_starting_counter_clockwise() -> None:
    out = score(session("ce-deng", FOUR, [hand(ANNA_WINS)] * 4))["hands"]
    assert [h["direction"] for h in out] == ["ccw", "cw", "ccw", "cw"]
    assert [h["next_direction"] for h in out] == ["cw", "ccw", "cw", "ccw"]
    assert out[1]["order"] == ["Anna", "Dominic", "Celine", "Bob"]


def test_a_redeal_changes_nothing_and_keeps_lead_and_direction() -> None:
    played = [hand(CELINE_WINS), hand(ANNA_WINS)]
    with_redeal = [played[0], {"redeal": "Bob"}, played[1]]
    plain = score(session("ce-deng", FOUR, played))
    out = score(session("ce-deng", FOUR, with_redeal))
    redeal = out["hands"][1]
    # Celine won the first hand; the second dealt hand is clockwise from her.
    assert redeal["first"] == "Celine"
    assert redeal["direction"] == "cw"
    assert redeal["order"] == ["Celine", "Bob", "Anna", "Dominic"]
    assert redeal["scores"] == {}
    assert redeal["ranking"] == []
    assert redeal["payments"] == []
    assert redeal["net"] == dict.fromkeys(FOUR, 0)
    assert (redeal["next_first"], redeal["next_direction"]) == ("Celine", "cw")
    assert out["hands"][2] == plain["hands"][1]
    assert out["totals"] == plain["totals"]
    assert out["settle_up"] == plain["settle_up"]


def test_a_redeal_before_the_first_hand_keeps_it_counter_clockwise() -> None:
    out = score(session("ce-deng", FOUR, [{"redeal": "Dominic"}, hand(ANNA_WINS)]))["hands"]
    assert [h["direction"] for h in out] == ["ccw", "ccw"]
    assert out[1]["next_direction"] == "cw"


def test_the_redeal_doubles_variant_is_accepted_and_scores_the_same() -> None:
    hands = [hand(CELINE_WINS), {"redeal": "Bob"}, hand(ANNA_WINS)]
    assert score(session("ce-deng", FOUR, hands, redeal_doubles=6)) == score(
        session("ce-deng", FOUR, hands)
    )


# Celine's 8 doubles leave the others the rest of the deck: 227 less 40 to 72 pips, so the
# three add up to an odd number from 155 to 187 (here 159: Celine holds 68).
DECLARED = {
    "declared_doubles": "Celine",
    "results": {"Anna": {"pips": 50}, "Bob": {"pips": 61}, "Dominic": {"pips": 48}},
}


def test_declared_doubles_others_pay_the_holder_twice_their_own_pips() -> None:
    out = score(session("ce-deng", FOUR, [DECLARED]))
    first = out["hands"][0]
    # 2 x 50 = 100, 2 x 61 = 122, 2 x 48 = 96; Celine collects 318.
    assert {(p["from"], p["to"], p["amount"], p["multiplier"]) for p in first["payments"]} == {
        ("Anna", "Celine", 100, 2),
        ("Bob", "Celine", 122, 2),
        ("Dominic", "Celine", 96, 2),
    }
    assert nets(first) == whole({"Anna": -100, "Bob": -122, "Celine": 318, "Dominic": -96})
    assert first["ranking"][0] == "Celine"
    assert out["totals"]["hands_won"]["Celine"] == 1


def test_declared_doubles_pay_with_the_stake() -> None:
    out = score(session("ce-deng", FOUR, [DECLARED], stake="0.25"))["hands"][0]
    # 2 x 0.25 = 0.50 a pip: 25, 30.50, 24; Celine 79.50.
    assert out["net"] == {"Anna": -25, "Bob": "-30.50", "Celine": "79.50", "Dominic": -24}


def test_the_holder_of_declared_doubles_leads_the_next_hand() -> None:
    out = score(session("ce-deng", FOUR, [DECLARED, hand(ANNA_WINS)]))["hands"]
    assert out[0]["next_first"] == "Celine"
    assert out[1]["first"] == "Celine"
    # Declared doubles were dealt (unlike a redeal), so the next hand turns clockwise.
    assert out[1]["direction"] == "cw"
    assert out[1]["order"] == ["Celine", "Bob", "Anna", "Dominic"]


def test_a_recorded_first_and_direction_override_the_derived_ones() -> None:
    hands = [hand(CELINE_WINS), hand(ANNA_WINS, first="Dominic", direction="ccw"), hand(ANNA_WINS)]
    out = score(session("ce-deng", FOUR, hands))["hands"]
    assert (out[1]["first"], out[1]["direction"]) == ("Dominic", "ccw")
    assert out[1]["order"] == ["Dominic", "Anna", "Bob", "Celine"]
    # Play goes on from what happened: Anna won, and the next hand alternates to clockwise.
    assert (out[2]["first"], out[2]["direction"]) == ("Anna", "cw")


def test_head_seven_belongs_to_whoever_led_the_hand() -> None:
    # Celine wins the first hand and leads the second: her head_seven stands.
    second = {"Anna": 10, "Bob": 12, "Celine": special(30, "head_seven"), "Dominic": 20}
    out = score(session("ce-deng", FOUR, [hand(CELINE_WINS), hand(second)]))["hands"][1]
    assert out["first"] == "Celine"
    # Celine (low) against each normal player: Anna 2 x 20, Bob 2 x 18, Dominic 2 x 10.
    assert nets(out)["Celine"] == Decimal(-96)


def test_head_seven_follows_a_recorded_first() -> None:
    results = {"Anna": 10, "Bob": 12, "Celine": 4, "Dominic": special(30, "head_seven")}
    out = score(session("ce-deng", FOUR, [hand(results, first="Dominic")]))["hands"][0]
    assert out["first"] == "Dominic"
    # Without the record, Anna led, and Dominic's head_seven is on the wrong player.
    error = rejected(session("ce-deng", FOUR, [hand(results)]))
    assert error.path == "hands[0].results.Dominic.specials"


def test_rotate_passes_the_lead_to_the_next_seat_while_direction_alternates() -> None:
    out = score(
        session("ce-deng", FOUR, [hand(CELINE_WINS), hand(CELINE_WINS)], next_first="rotate")
    )["hands"]
    assert out[0]["next_first"] == "Bob"
    assert (out[1]["first"], out[1]["direction"]) == ("Bob", "cw")
    assert out[1]["order"] == ["Bob", "Anna", "Dominic", "Celine"]
    assert out[1]["next_first"] == "Celine"


def test_rotate_keeps_the_lead_over_a_redeal() -> None:
    hands = [hand(CELINE_WINS), {"redeal": "Anna"}, hand(CELINE_WINS)]
    out = score(session("ce-deng", FOUR, hands, next_first="rotate"))["hands"]
    assert [h["first"] for h in out] == ["Anna", "Bob", "Bob"]


@pytest.mark.parametrize("seating", [TWO, THREE], ids=["2 players", "3 players"])
def test_fewer_players_still_hold_8_tiles_each(seating: tuple[str, ...]) -> None:
    # 8 tiles: at most 86; the first player, 7 tiles: at most 76 (see test_jie_long). Each on
    # their own: both are made of the largest tiles, so no deal gives both at once.
    for name, most in ((seating[0], 76), (seating[-1], 86)):
        results = dict.fromkeys(seating, 2) | {name: most}
        assert play("ce-deng", seating, results)["scores"] == results
        error = rejected(session("ce-deng", seating, [hand(results | {name: most + 1})]))
        assert error.path == f"hands[0].results.{name}.pips"


# -- what an entry proves is applied (RULES.md, rules rev 3) ---------------------------------
# Chinese-32's largest tiles: 6:6 12, 6:6 12, 5:6 11, 5:6 11, 5:5 10, 5:5 10, 4:6 10, 4:6 10:
# any 6 make 66 at most, any 7 make 76, all 8 make 86. Under 6/7, any 5 make 56.

PROOFS = [
    pytest.param({"Bob": 80}, {}, "Bob", "tail_eight", id="80 pips need all 8 of Bob's tiles"),
    pytest.param({"Bob": 77}, {}, "Bob", "tail_eight", id="77: one more than any 7 tiles"),
    pytest.param({"Anna": 67}, {}, "Anna", "head_seven", id="67 after the lead: all 7 left"),
    pytest.param(
        {"Bob": tiles("1:1", "1:1", "1:3", "1:3", "2:2", "2:2", "3:3", "3:3")},
        {},
        "Bob",
        "tail_eight",
        id="8 tiles entered",
    ),
    pytest.param({"Bob": 70}, {"head_tail": "6/7"}, "Bob", "tail_seven", id="6/7: 70 needs 7"),
    pytest.param({"Anna": 60}, {"head_tail": "6/7"}, "Anna", "head_six", id="6/7: 60 needs 6"),
]


@pytest.mark.parametrize(("entered", "options", "who", "proven"), PROOFS)
def test_what_an_entry_proves_is_applied_though_not_marked(
    entered: dict[str, Any], options: dict[str, str], who: str, proven: str
) -> None:
    results: dict[str, Any] = {"Anna": 5, "Bob": 4, "Celine": 3, "Dominic": 6} | entered
    out = play("ce-deng", FOUR, results, first="Anna", **options)
    marked = play(
        "ce-deng",
        FOUR,
        results | {who: {**_as_result(results[who]), "specials": [proven]}},
        first="Anna",
        **options,
    )
    assert nets(out) == nets(marked)
    assert [(p["player"], p["special"]) for p in out["proven"]] == [(who, proven)]
    assert who in out["proven"][0]["why"]


def _as_result(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {"pips": value}


def test_the_reference_example_pays_bobs_proven_tail_eight_double() -> None:
    out = play("ce-deng", ("A", "B", "C", "D"), {"A": 20, "B": 80, "C": 30, "D": 10}, first="A")
    assert nets(out) == whole({"A": 120, "B": -360, "C": 70, "D": 170})
    assert out["proven"][0]["why"] == "B's 80 pips need 8 tiles, so B has tail-eight 尾八"


@pytest.mark.parametrize(
    ("results", "fields"),
    [
        pytest.param({"Bob": 76}, {}, id="76: 7 tiles can make it"),
        pytest.param({"Anna": 66}, {}, id="66 after the lead: 6 tiles can make it"),
        pytest.param({"Bob": 80}, {"blocked": True}, id="blocked: unplayed tiles count too"),
        pytest.param({"Bob": special(80, "tail_eight")}, {}, id="already marked"),
    ],
)
def test_nothing_is_applied_where_fewer_tiles_could_make_the_entry(
    results: dict[str, Any], fields: dict[str, Any]
) -> None:
    entered = {"Anna": 5, "Bob": 4, "Celine": 3, "Dominic": 6} | results
    out = score(session("ce-deng", FOUR, [hand(entered, **fields)], first="Anna"))
    assert "proven" not in out["hands"][0]


def test_a_proven_special_follows_the_seat_rules() -> None:
    # 80 from the leader cannot be: the leader played one of 8 tiles, so 7 at most (76).
    error = rejected(
        session("ce-deng", FOUR, [hand({"Anna": 80, "Bob": 4, "Celine": 3, "Dominic": 5})])
    )
    assert error.path == "hands[0].results.Anna.pips"


# -- chips instead of differences (payment: chips, rules rev 3) ------------------------------


def test_in_chips_every_loser_pays_the_winner_a_chip_times_the_pairs_multiplier() -> None:
    results = {
        "Anna": 10,
        "Bob": special(40, "tail_eight"),
        "Celine": special(0, "pass"),
        "Dominic": 20,
    }
    out = play("ce-deng", FOUR, results, first="Anna", payment="chips", chip="0.50")
    # Celine passed and wins: normal-pass x2, low-pass x4.
    assert paid(out) == {
        ("Anna", "Celine", Decimal("1.00")),
        ("Bob", "Celine", Decimal("2.00")),
        ("Dominic", "Celine", Decimal("1.00")),
    }
    assert out["ranking"][0] == "Celine"


def test_declared_doubles_by_the_stake_keep_their_own_payment_under_chips() -> None:
    # A chips table played before the rules' fifth revision (``doubles: stake``).
    chips = score(session("ce-deng", FOUR, [DECLARED], payment="chips", doubles="stake"))
    pairwise = score(session("ce-deng", FOUR, [DECLARED]))
    assert chips["hands"][0]["net"] == pairwise["hands"][0]["net"]
