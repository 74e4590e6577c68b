"""All that is wrong with a document is said at once: ``errors`` lists every problem, the first
of them repeated as ``error`` and ``path`` (CONTRACT.md)."""

from __future__ import annotations

from scoring import score

from .documents import FOUR, THREE, hand, rejected, session, special


def paths(document: dict[str, object]) -> list[str]:
    error = rejected(document)
    listed = [e.path for e in error.errors]
    assert listed[0] == error.path and error.as_dict()["errors"][0]["path"] == error.path
    return listed


def test_every_player_s_problem_in_a_hand_is_named() -> None:
    document = session(
        "ce-deng",
        FOUR,
        [hand({"Anna": 1, "Bob": special(12, "pass"), "Celine": 34, "Dominic": 18})],
    )
    assert paths(document) == ["hands[0].results.Anna.pips", "hands[0].results.Bob.pips"]


def test_every_missing_result_is_named() -> None:
    document = session("jie-long", FOUR, [hand({"Anna": 2, "Bob": 12})])
    assert paths(document) == ["hands[0].results.Celine", "hands[0].results.Dominic"]


def test_problems_of_the_fields_are_named_across_options_and_hands() -> None:
    document = session(
        "jie-long",
        THREE,
        [
            hand({"Anna": -1, "Bob": 12, "Celine": 4}),
            hand({"Anna": 2, "Bob": {"pips": "x"}, "Celine": 4}),
        ],
        stake="-1",
        next_first="left",
    )
    assert paths(document) == [
        "options.stake",
        "options.next_first",
        "hands[0].results.Anna.pips",
        "hands[1].results.Bob.pips",
    ]


def test_the_whole_hand_is_checked_once_every_player_passes_on_their_own() -> None:
    # Each of 86 is possible alone; four of them are not (the deck holds 227 pips).
    impossible = session("jie-long", FOUR, [hand(dict.fromkeys(FOUR, 86) | {"Anna": 76})])
    assert paths(impossible) == ["hands[0]"]
    # A player's own problem is said first, and the whole hand waits for it to be fixed.
    both = session("jie-long", FOUR, [hand(dict.fromkeys(FOUR, 86) | {"Anna": 1})])
    assert paths(both) == ["hands[0].results.Anna.pips"]


def test_a_good_document_still_scores() -> None:
    document = session("jie-long", THREE, [hand({"Anna": 2, "Bob": 12, "Celine": 4})])
    assert score(document)["totals"]["scores"] == {"Anna": 2, "Bob": 12, "Celine": 4}
