"""The registry: a game registered from outside scores like the built-in ones, by every path."""

from __future__ import annotations

import importlib
import inspect
import io
import json
import pkgutil
import sys
from decimal import Decimal

import pytest

import scoring.games
from scoring import (
    GAMES,
    Options,
    ScoringError,
    Special,
    get_game,
    parse_session,
    register,
    score_session,
    unregister,
)
from scoring.__main__ import main
from scoring.games import Game
from scoring.games.jie_long import JieLong
from scoring.options import ENDS
from tests.toy_game import Toy

from .documents import THREE, hand, session

DOCUMENT = session("toy", THREE, [hand({"Anna": 12, "Bob": 2, "Celine": 20})], stake="0.50")


def test_a_registered_game_scores_a_document_like_the_built_in_ones(toy: Toy) -> None:
    result = score_session(parse_session(DOCUMENT))
    (played,) = result.hands
    assert played.ranking == ("Bob", "Anna", "Celine")
    assert played.net == {
        "Anna": Decimal("-0.50"),
        "Bob": Decimal("1.00"),
        "Celine": Decimal("-0.50"),
    }
    assert result.totals.hands_won == {"Anna": 0, "Bob": 1, "Celine": 0}


def test_a_registered_game_scores_through_the_command_line_entry_point(
    toy: Toy, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(DOCUMENT).encode("utf-8")))
    monkeypatch.setattr(sys, "stdin", stdin)
    assert main() == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hands"][0]["net"] == {"Anna": "-0.50", "Bob": 1, "Celine": "-0.50"}


def test_a_registered_game_is_checked_by_the_shared_rules(toy: Toy) -> None:
    with pytest.raises(ScoringError) as caught:
        score_session(
            parse_session(session("toy", THREE, [hand({"Anna": 1, "Bob": 2, "Celine": 3})]))
        )
    assert caught.value.path == "hands[0].results.Anna.pips"
    with pytest.raises(ScoringError) as caught:
        parse_session(session("toy", THREE, [], chip=1))
    assert caught.value.path == "options.chip"
    assert "Toy" in caught.value.message


def test_a_registered_game_describes_itself_with_the_defaults(toy: Toy) -> None:
    assert get_game("toy") is toy
    assert list(GAMES)[-1] == "toy"
    assert toy.label == "Toy 玩具"
    assert [spec.name for spec in toy.option_specs] == ["stake", "next_first", *ENDS]
    assert toy.seat_specials(3, leads=True, options=Options()) == (Special.PASS,)
    assert toy.events == {"blocked"}


def test_unregistering_a_game_makes_its_key_unknown_again() -> None:
    register(Toy())
    assert unregister("toy").key == "toy"
    assert "toy" not in GAMES
    with pytest.raises(ScoringError, match="there is no game 'toy'"):
        get_game("toy")


def test_a_key_is_registered_only_once() -> None:
    with pytest.raises(ValueError, match="jie-long"):
        register(JieLong())
    assert isinstance(GAMES["jie-long"], JieLong)


def test_games_is_a_read_only_view_of_the_registry() -> None:
    with pytest.raises(TypeError):
        GAMES["toy"] = Toy()  # type: ignore[index]
    assert "toy" not in GAMES


def test_every_game_module_registers_its_game_by_its_own_key() -> None:
    """Whatever games the package holds, each is registered once, under its key; a new game is
    its module plus one registry line, and this test needs no line of its own."""
    defined = {
        cls.key: cls
        for info in pkgutil.iter_modules(scoring.games.__path__)
        for _, cls in inspect.getmembers(importlib.import_module(f"scoring.games.{info.name}"))
        if inspect.isclass(cls) and issubclass(cls, Game) and cls is not Game
    }
    assert defined, "no game modules found"
    assert set(GAMES) == set(defined)
    assert all(type(game) is defined[key] for key, game in GAMES.items())
