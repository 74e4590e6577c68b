"""Kko-li-but-i-gi: chips to the winner, `each` or `highest`; decks by number of players."""

from __future__ import annotations

import pytest

from scoring import score

from .documents import FOUR, THREE, TWO, hand, nets, play, rejected, session, tiles, whole


@pytest.mark.parametrize(
    ("scores", "first", "payment", "expected"),
    [
        pytest.param(
            [20, 9, 14, 30], "Anna", "each", [-1, 3, -1, -1], id="each: every loser pays 1"
        ),
        pytest.param(
            [20, 9, 35, 31],
            "Anna",
            "highest",
            # Ranking Bob 9, Anna 20, Dominic 31, Celine 35: Celine is last, Dominic is over 30.
            [0, 2, -1, -1],
            id="highest: the last and everyone over 30 pay",
        ),
        pytest.param(
            [20, 9, 35, 30],
            "Anna",
            "highest",
            [0, 1, -1, 0],
            id="highest: exactly 30 does not pay",
        ),
        pytest.param(
            [25, 9, 25, 12],
            "Anna",
            "highest",
            # Anna and Celine tie for last; Celine is the later hand, so she is last.
            [0, 1, -1, 0],
            id="highest: a tie for last puts the later player last",
        ),
        pytest.param(
            [25, 9, 25, 12],
            "Celine",
            "highest",
            # Turn order Celine, Dominic, Anna, Bob: now Anna is the later of the two.
            [-1, 1, 0, 0],
            id="highest: the tie for last follows the turn order",
        ),
        pytest.param(
            [31, 32, 33, 34],
            "Anna",
            "highest",
            # Anna wins at 31 and pays nothing; Dominic is last, Bob and Celine are over 30.
            [3, -1, -1, -1],
            id="highest: a winner over 30 does not pay",
        ),
        pytest.param(
            [40, 9, 40, 20],
            "Anna",
            "highest",
            # Celine last; Anna, tied with her but ranked above, is over 30 and pays too.
            [-1, 2, -1, 0],
            id="highest: a tie for last over 30 makes both pay",
        ),
        pytest.param(
            [9, 9, 14, 30],
            "Anna",
            "each",
            # Tie for first goes to the lower hand, Anna.
            [3, -1, -1, -1],
            id="each: a tie for first goes to the lower hand",
        ),
    ],
)
def test_chip_payments(scores: list[int], first: str, payment: str, expected: list[int]) -> None:
    out = play(
        "kkoribuchigi", FOUR, dict(zip(FOUR, scores, strict=True)), first=first, payment=payment
    )
    assert nets(out) == whole(dict(zip(FOUR, expected, strict=True)))
    assert all(p["amount"] == 1 for p in out["payments"])


def test_highest_is_the_default() -> None:
    scores = {"Anna": 20, "Bob": 9, "Celine": 35, "Dominic": 31}
    default = play("kkoribuchigi", FOUR, scores)
    assert default == play("kkoribuchigi", FOUR, scores, payment="highest")
    assert default != play("kkoribuchigi", FOUR, scores, payment="each")


def test_a_decimal_chip_gives_decimal_strings() -> None:
    out = play(
        "kkoribuchigi", THREE, {"Anna": 20, "Bob": 9, "Celine": 14}, chip="0.75", payment="each"
    )
    # Two losers at 0.75: Bob collects 1.50.
    assert out["net"] == {"Anna": "-0.75", "Bob": "1.50", "Celine": "-0.75"}


def test_with_two_players_the_loser_pays_under_highest() -> None:
    out = play("kkoribuchigi", TWO, {"Anna": 12, "Bob": 9}, payment="highest")
    assert nets(out) == whole({"Anna": -1, "Bob": 1})


@pytest.mark.parametrize(
    ("seating", "first_max", "other_max"),
    [
        # 4 players, chinese-32, 8 each: 12+12+11+11+10+10+10+10 = 86; the first, 7 tiles: 76.
        pytest.param(FOUR, 76, 86, id="4 players chinese-32"),
        # kkori-24 from the top: 11 11 10 10 9 9 8 8 | 7 7 7 7 ...
        # 3 players, 8 each: 22+20+18+16 = 76; the first, 7 tiles: 76 - 8 = 68.
        pytest.param(THREE, 68, 76, id="3 players kkori-24"),
        # 2 players, 12 each: 76 + 28 = 104; the first, 11 tiles: 104 - 7 = 97.
        pytest.param(TWO, 97, 104, id="2 players kkori-24"),
    ],
)
def test_the_largest_scores_follow_the_deck_and_tiles_of_each_table(
    seating: tuple[str, ...], first_max: int, other_max: int
) -> None:
    # Each on its own: the largest scores share the largest tiles, so no deal gives two.
    for name, most in ((seating[0], first_max), (seating[-1], other_max)):
        results = dict.fromkeys(seating, 0) | {name: most}
        assert play("kkoribuchigi", seating, results)["scores"] == results
        error = rejected(session("kkoribuchigi", seating, [hand(results | {name: most + 1})]))
        assert error.path == f"hands[0].results.{name}.pips"


def test_four_players_use_the_double_six() -> None:
    results = {"Anna": 4, "Bob": tiles("6:6", "3:3"), "Celine": 8, "Dominic": 10}
    assert play("kkoribuchigi", FOUR, results)["scores"]["Bob"] == 18


@pytest.mark.parametrize("double", ["3:3", "4:4", "5:5", "6:6"])
@pytest.mark.parametrize("seating", [TWO, THREE], ids=["2 players", "3 players"])
def test_fewer_players_play_without_the_doubles_from_three_to_six(
    seating: tuple[str, ...], double: str
) -> None:
    results = dict.fromkeys(seating, 4) | {"Bob": tiles(double)}
    error = rejected(session("kkoribuchigi", seating, [hand(results)]))
    assert error.path == "hands[0].results.Bob.tiles[0]"
    assert error.message == (
        f"Bob entered {double}, but there is no {double} in this game: "
        "Kko-li-but-i-gi for two or three plays without the 3:3 to 6:6 doubles"
    )
    assert double in error.message


@pytest.mark.parametrize(
    ("seating", "each"),
    [(FOUR, 8), (THREE, 8), (TWO, 12)],
    ids=["4 players", "3 players", "2 players"],
)
def test_a_player_holds_the_tiles_dealt_and_no_more(seating: tuple[str, ...], each: int) -> None:
    # Small tiles present in both decks, two copies each.
    pool = ["1:1", "1:1", "1:3", "1:3", "2:2", "2:2", "1:5", "1:5", "1:6", "1:6", "5:6", "5:6"]
    pool += ["4:6"]
    # The others score 0: 4 pips would need a 4-pip tile or the two 1:1, all in Bob's pool.
    results = dict.fromkeys(seating, 0)
    held = play("kkoribuchigi", seating, results | {"Bob": tiles(*pool[:each])})
    assert held["scores"]["Bob"] > 0
    error = rejected(
        session("kkoribuchigi", seating, [hand(results | {"Bob": tiles(*pool[: each + 1])})])
    )
    assert error.path == "hands[0].results.Bob.tiles"


def test_the_winner_leads_the_next_hand() -> None:
    hands = [hand({"Anna": 20, "Bob": 9, "Celine": 14}), hand({"Anna": 4, "Bob": 4, "Celine": 4})]
    out = score(session("kkoribuchigi", THREE, hands, payment="each"))
    assert out["hands"][1]["first"] == "Bob"
    assert out["hands"][1]["ranking"][0] == "Bob"
    assert out["totals"]["net"] == {"Anna": -2, "Bob": 4, "Celine": -2}
