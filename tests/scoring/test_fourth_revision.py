"""The rules' fourth revision: points only pays nothing, declared doubles included; a ``chip``
belongs to ``payment: "chips"``; one reason for a session's end where several meet; a special
whose pips more tiles could make is proven "at least"."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import GAMES, ChipPayment, score

from .documents import FOUR, THREE, hand, nets, play, rejected, session

# Celine's 8 doubles: the others hold the rest of the deck (test_ce_deng.DECLARED).
DECLARED = {
    "declared_doubles": "Celine",
    "results": {"Anna": {"pips": 50}, "Bob": {"pips": 61}, "Dominic": {"pips": 48}},
}
# The games that pay by the stake, or chips instead (Jie Long, Ce Deng, Tsair Deng).
STAKE_GAMES = sorted(
    key
    for key, game in GAMES.items()
    if "stake" in game.option_names and ChipPayment.CHIPS in game.payments
)


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"payment": "chips", "chip": "0"}, id="chips at chip 0"),
        pytest.param({"stake": "0"}, id="pairwise at stake 0"),
        pytest.param(
            {"payment": "chips", "chip": "0", "stake": "2", "doubles": "stake"},
            id="chips at 0, stake 2, doubles by the stake as before rev 5",
        ),
    ],
)
def test_points_only_pays_nothing_for_declared_doubles(options: dict[str, str]) -> None:
    out = score(session("ce-deng", FOUR, [DECLARED], **options))
    assert out["hands"][0]["payments"] == []
    assert set(nets(out["hands"][0]).values()) == {0}
    assert out["hands"][0]["ranking"][0] == "Celine"  # the holder still wins the hand


def test_declared_doubles_at_a_chip_table_played_before_rev_5_still_pay_by_the_stake() -> None:
    out = score(session("ce-deng", FOUR, [DECLARED], payment="chips", chip="3", doubles="stake"))
    assert nets(out["hands"][0])["Celine"] == 2 * (50 + 61 + 48)


@pytest.mark.parametrize("game", STAKE_GAMES)
@pytest.mark.parametrize(
    "options",
    [
        {"chip": "2"},
        {"chip": "0"},
        {"chip": "1", "payment": "pairwise"},
        {"chip": "2", "stake": "1"},
    ],
    ids=str,
)
def test_a_chip_without_chips_is_refused_naming_it(game: str, options: dict[str, str]) -> None:
    error = rejected(session(game, THREE, [], **options))
    assert error.path == "options.chip"
    assert 'payment "chips"' in error.message


@pytest.mark.parametrize("game", STAKE_GAMES)
def test_a_chip_with_chips_is_taken(game: str) -> None:
    results = {"Anna": 2, "Bob": 12, "Celine": 34}
    out = play(game, THREE, results, payment="chips", chip="0.50")
    assert nets(out)["Anna"] > 0


@pytest.mark.parametrize("game", ["kkoribuchigi", "ding-niu"])
def test_the_chip_games_take_a_chip_as_before(game: str) -> None:
    seating = FOUR
    assert score(session(game, seating, [], chip="2"))["totals"]["net"]["Anna"] == 0


def _ended(last: bool, **options: Any) -> str:
    # Anna's total reaches 60 in the second hand, which is also the second dealt.
    hands = [hand(dict(zip(THREE, each, strict=True))) for each in ((30, 25, 20), (30, 12, 33))]
    hands[1]["last"] = last
    out = score({**session("jie-long", THREE, hands), "options": options})
    reason: str = out["end"]["reason"]
    return reason


@pytest.mark.parametrize(
    ("last", "options", "reason"),
    [
        pytest.param(True, {"play_to": 60, "hands": 2}, "play_to", id="all three: the target"),
        pytest.param(True, {"play_to": 60}, "play_to", id="target and time: the target"),
        pytest.param(False, {"play_to": 60, "hands": 2}, "play_to", id="target and hands"),
        pytest.param(True, {"hands": 2}, "hands", id="hands and time: the hands"),
        pytest.param(True, {"play_to": 500}, "time", id="the time alone"),
    ],
)
def test_one_hand_ending_a_session_for_several_reasons_gives_the_first(
    last: bool, options: dict[str, Any], reason: str
) -> None:
    assert _ended(last, **options) == reason


def _proven(results: dict[str, int], **options: str) -> dict[str, Any]:
    out = play(
        "ce-deng", FOUR, {"Anna": 5, "Bob": 4, "Celine": 3, "Dominic": 6} | results, **options
    )
    proof: dict[str, Any] = out["proven"][0]
    return proof


def test_under_6_7_a_tail_seven_from_pips_says_at_least_7_tiles() -> None:
    proof = _proven({"Bob": 70}, head_tail="6/7")
    assert (proof["special"], proof["tiles"]) == ("tail_seven", 7)
    assert proof["why"] == "Bob's 70 pips need at least 7 tiles, so Bob has tail-seven"


def test_under_6_7_a_head_six_from_pips_says_at_least_6_tiles() -> None:
    proof = _proven({"Anna": 60}, head_tail="6/7")
    assert proof["why"] == "Anna's 60 pips need at least 6 tiles, so Anna has head-six"


@pytest.mark.parametrize("options", [{}, {"head_tail": "6/7"}], ids=["7/8", "6/7"])
def test_a_tail_eight_from_pips_needs_all_8_tiles_not_at_least(options: dict[str, str]) -> None:
    proof = _proven({"Bob": 80}, **options)
    assert proof["why"] == "Bob's 80 pips need 8 tiles, so Bob has tail-eight 尾八"
