"""The rules' fifth revision, one table, one unit: Ce Deng's declared doubles at a chips table
pay 2 chips from each other player; a stake at a chips table is refused; a table played before
keeps what it paid (``doubles: stake``, pinned by ``as_played``)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring import score
from scoring.options import as_played

from .documents import FOUR, THREE, nets, paid, rejected, session
from .test_properties import SETTINGS, ce_deng_sessions

# Celine's 8 doubles: the others hold the rest of the deck (test_ce_deng.DECLARED).
DECLARED = {
    "declared_doubles": "Celine",
    "results": {"Anna": {"pips": 50}, "Bob": {"pips": 61}, "Dominic": {"pips": 48}},
}
OTHERS = ("Anna", "Bob", "Dominic")


def test_declared_doubles_at_a_chips_table_pay_two_chips_from_each_other_player() -> None:
    # The audit's table: 0.50 a chip. It paid 2 x 1 x pips in money (318 to Celine).
    out = score(session("ce-deng", FOUR, [DECLARED], payment="chips", chip="0.50"))["hands"][0]
    assert paid(out) == {(name, "Celine", Decimal(1)) for name in OTHERS}
    assert nets(out) == {
        "Anna": Decimal(-1),
        "Bob": Decimal(-1),
        "Celine": Decimal(3),
        "Dominic": Decimal(-1),
    }
    assert out["ranking"][0] == "Celine"
    # The pips entered still count as the others' scores.
    assert out["scores"] == {"Anna": 50, "Bob": 61, "Dominic": 48, "Celine": 0}


def test_a_chips_table_played_before_keeps_its_declared_doubles_by_the_stake() -> None:
    options = as_played("ce-deng", {"payment": "chips", "chip": "0.50"}, played=4)
    assert options == {"payment": "chips", "chip": "0.50", "doubles": "stake"}
    out = score(session("ce-deng", FOUR, [DECLARED], **options))["hands"][0]
    assert nets(out)["Celine"] == 2 * (50 + 61 + 48)


@pytest.mark.parametrize("game", ["jie-long", "ce-deng", "tsair-deng"])
@pytest.mark.parametrize("stake", ["1", "0", "2.50"])
def test_a_stake_at_a_chips_table_is_refused_naming_it(game: str, stake: str) -> None:
    error = rejected(session(game, THREE, [], payment="chips", chip="0.50", stake=stake))
    assert error.path == "options.stake"
    assert "pays only chips" in str(error)


@pytest.mark.parametrize(
    "options",
    [{"doubles": "chips"}, {"doubles": "stake"}, {"doubles": "chips", "payment": "pairwise"}],
    ids=str,
)
def test_what_doubles_pay_is_refused_at_a_table_that_pays_by_the_stake(
    options: dict[str, Any],
) -> None:
    error = rejected(session("ce-deng", FOUR, [DECLARED], **options))
    assert error.path == "options.doubles"


def test_jie_long_and_tsair_deng_chips_tables_played_before_lose_the_stake_that_paid_nothing():
    for game in ("jie-long", "tsair-deng"):
        kept = as_played(game, {"payment": "chips", "chip": "2", "stake": "3"}, played=4)
        assert kept == {"payment": "chips", "chip": "2"}
        assert as_played(game, {"stake": "3"}, played=4) == {"stake": "3"}
    # A Ce Deng chips table keeps its stake: its declared doubles paid by it.
    kept = as_played("ce-deng", {"payment": "chips", "stake": "3"}, played=4)
    assert kept == {"payment": "chips", "stake": "3", "doubles": "stake"}
    assert as_played("ce-deng", {"stake": "3"}, played=4) == {"stake": "3"}


@SETTINGS
@given(ce_deng_sessions(), st.sampled_from(["1", "0.50", "0", "2.25"]))
def test_at_a_chips_table_every_declared_doubles_hand_pays_two_chips_each(
    document: dict[str, Any], chip: str
) -> None:
    options = {**document["options"], "payment": "chips", "chip": chip}
    del options["stake"]
    out = score({**document, "options": options})
    for given_hand, out_hand in zip(document["hands"], out["hands"], strict=True):
        if "declared_doubles" not in given_hand:
            continue
        holder = given_hand["declared_doubles"]
        each = 2 * Decimal(chip)
        expected = dict.fromkeys(document["seating"], -each)
        expected[holder] = each * (len(document["seating"]) - 1)
        assert nets(out_hand) == expected
        assert out_hand["ranking"][0] == holder
