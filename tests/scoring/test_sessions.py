"""Sessions for points only, and sessions to a target: a total to reach or a number of hands
(RULES.md, "Sessions")."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import GAMES, ScoringError, parse_session, score, score_session

from .documents import FOUR, THREE, TWO, hand, rejected, session


def to_target(game: str, seating: Any, played: list[Any], /, **options: Any) -> dict[str, Any]:
    """A session document with ``options``, ``hands`` among them (``session`` takes that name
    for the list of hands)."""
    return {**session(game, seating, played), "options": options}


def jie_long(*scores: tuple[int, int, int], **options: Any) -> dict[str, Any]:
    """Hands of Anna, Bob and Celine, Anna leading the first."""
    hands = [hand(dict(zip(THREE, each, strict=True))) for each in scores]
    return to_target("jie-long", THREE, hands, **options)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_points_only_pays_nothing_and_keeps_the_scores(key: str) -> None:
    game = GAMES[key]
    money = "stake" if "stake" in game.option_names else "chip"
    seating = FOUR if 4 in game.player_counts else TWO
    results = (
        {name: {"large_fish_pips": 0, "small_fish_red": 0} for name in seating}
        | {seating[0]: {"large_fish_pips": 16, "small_fish_red": 0}}
        if key == "tiu-yu"
        else dict(zip(seating, (4, 10, 12, 20), strict=False))
    )
    played = score(to_target(key, seating, [hand(results)], **{money: 0}))
    assert all(value == 0 for value in played["totals"]["net"].values())
    assert played["hands"][0]["payments"] == []
    assert played["settle_up"] == []
    assert sum(played["totals"]["scores"].values()) > 0
    assert "end" not in played  # no target: it goes on


def test_a_session_to_a_total_ends_with_the_hand_that_reaches_it() -> None:
    out = score(jie_long((10, 25, 30), (20, 12, 33), stake=0, play_to=60))
    assert out["totals"]["scores"] == {"Anna": 30, "Bob": 37, "Celine": 63}
    assert out["end"] == {"over": True, "reason": "play_to", "winner": "Anna"}


def test_while_it_goes_on_the_end_says_who_leads_and_what_is_left() -> None:
    out = score(jie_long((10, 25, 30), play_to=60, hands=5))
    assert out["end"] == {"over": False, "leader": "Anna", "points_to_go": 30, "hands_to_go": 4}
    assert score(jie_long(play_to=60))["end"] == {
        "over": False,
        "leader": "Anna",
        "points_to_go": 60,
    }


def test_a_session_of_so_many_hands_ends_after_them_and_redeals_do_not_count() -> None:
    document = to_target(
        "ce-deng",
        THREE,
        [{"redeal": "Bob"}, hand({"Anna": 12, "Bob": 20, "Celine": 30})],
        hands=1,
    )
    assert score(document)["end"] == {"over": True, "reason": "hands", "winner": "Anna"}
    document["options"]["hands"] = 2
    assert score(document)["end"]["hands_to_go"] == 1
    document = {
        **document,
        "options": {"hands": 1},
        "hands": [*document["hands"], {"redeal": "Bob"}],
    }
    assert rejected(document).path == "hands[2]"  # nor a redeal, once it is over


def test_the_first_end_reached_ends_it() -> None:
    out = score(jie_long((10, 25, 30), (20, 12, 33), play_to=1000, hands=2))
    assert out["end"] == {"over": True, "reason": "hands", "winner": "Anna"}
    out = score(jie_long((10, 25, 70), play_to=60, hands=2))
    assert out["end"] == {"over": True, "reason": "play_to", "winner": "Anna"}


def test_a_tie_goes_to_more_hands_won_then_to_the_earlier_seat() -> None:
    # Anna and Bob both total 30; Bob won two hands, Anna one.
    out = score(jie_long((10, 8, 30), (10, 8, 30), (10, 14, 30), play_to=90))
    assert out["totals"]["scores"] == {"Anna": 30, "Bob": 30, "Celine": 90}
    assert out["totals"]["hands_won"] == {"Anna": 1, "Bob": 2, "Celine": 0}
    assert out["end"]["winner"] == "Bob"
    # Equal hands won too: the earlier seat.
    out = score(jie_long((10, 12, 30), (12, 10, 30), play_to=60))
    assert out["end"]["winner"] == "Anna"


def test_tiu_yu_s_winner_has_the_most_points() -> None:
    fish = {"large_fish_pips": 16, "small_fish_red": 0}
    nothing = {"large_fish_pips": 0, "small_fish_red": 0}
    document = to_target("tiu-yu", TWO, [hand({"Anna": nothing, "Bob": fish})], play_to=30)
    assert score(document)["end"] == {"over": True, "reason": "play_to", "winner": "Bob"}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"play_to": 60}, "reached 60, and Anna won. Raise the target"),
        ({"hands": 2}, "all 2 hands were played, and Anna won. Raise the number of hands"),
    ],
)
def test_a_hand_after_the_end_is_refused(options: dict[str, int], words: str) -> None:
    document = jie_long((10, 25, 30), (20, 12, 33), (2, 3, 4), **options)
    error = rejected(document)
    assert error.path == "hands[2]"
    assert words in error.message
    assert "play_to" not in error.message


def test_hands_checked_before_are_not_checked_together_again() -> None:
    impossible = hand(dict.fromkeys(FOUR, 86) | {"Anna": 76})
    parsed = parse_session(session("jie-long", FOUR, [impossible, impossible]))
    assert score_session(parsed, new=()).totals.scores["Bob"] == 172
    with pytest.raises(ScoringError) as refused:
        score_session(parsed, new=(1,))
    assert refused.value.path == "hands[1]"
    with pytest.raises(ScoringError):
        score_session(parsed)  # every hand is new


# -- ends by time: the ledger marks the hand during which the time ran out ("last") ----------


def test_a_hand_marked_last_ends_the_session_with_the_best_total_as_winner() -> None:
    document = jie_long((10, 25, 30), (20, 12, 33))
    document["hands"][1]["last"] = True
    assert score(document)["end"] == {"over": True, "reason": "time", "winner": "Anna"}


def test_without_a_hand_marked_last_a_session_with_no_target_has_no_end() -> None:
    assert "end" not in score(jie_long((10, 25, 30), (20, 12, 33)))


def test_a_hand_after_the_last_is_refused_and_says_to_extend_the_time() -> None:
    document = jie_long((10, 25, 30), (20, 12, 33), (2, 3, 4))
    document["hands"][1]["last"] = True
    error = rejected(document)
    assert error.path == "hands[2]"
    assert "its time ran out, and Anna won. Extend the time to play on" in error.message


def test_a_target_reached_in_the_last_hand_is_the_reason_given() -> None:
    document = jie_long((10, 25, 30), (20, 12, 33), play_to=60)
    document["hands"][1]["last"] = True
    assert score(document)["end"]["reason"] == "play_to"


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_last_is_true_or_false(value: object) -> None:
    document = jie_long((10, 25, 30))
    document["hands"][0]["last"] = value
    error = rejected(document)
    assert (error.path, error.message) == ("hands[0].last", "last is true or false")


def test_a_redeal_cannot_be_the_last_hand() -> None:
    redeal = {"redeal": "Anna", "last": True}
    error = rejected(session("ce-deng", FOUR, [redeal]))
    assert error.path == "hands[0].last"
    assert "a redeal is not a hand played" in error.message
