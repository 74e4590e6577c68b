# A frozen copy of scoring/games/__init__.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""The registry of games: one line per game.

``GAMES`` is a read-only view of it. ``register`` adds a game (a test registers a toy one,
and ``unregister`` takes it away again).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeVar

from ..errors import ScoringError
from ..games.base import SPECIAL_RULES, Game, Seat, SpecialRule
from ..games.ce_deng import CeDeng
from ..games.ding_niu import DingNiu
from ..games.jie_long import JieLong
from ..games.kkoribuchigi import Kkoribuchigi
from ..games.tiu_yu import TiuYu
from ..games.tsair_deng import TsairDeng

G = TypeVar("G", bound=Game)

_REGISTRY: dict[str, Game] = {}
GAMES: Mapping[str, Game] = MappingProxyType(_REGISTRY)


def register(game: G) -> G:
    """Make ``game`` known by its key, after those already known; return it.

    A key can be registered once: a second game with the same key is a ValueError.
    """
    if game.key in _REGISTRY:
        raise ValueError(f"a game is already registered as {game.key!r}: {_REGISTRY[game.key]}")
    _REGISTRY[game.key] = game
    return game


def unregister(key: str) -> Game:
    """Forget the game registered as ``key`` (a KeyError if there is none); return it."""
    return _REGISTRY.pop(key)


for _game in (JieLong(), CeDeng(), TsairDeng(), Kkoribuchigi(), DingNiu(), TiuYu()):
    register(_game)

# The game a form preselects for a new table and for a new tournament (any game may be chosen).
DEFAULT_TABLE_GAME = CeDeng.key
DEFAULT_EVENT_GAME = JieLong.key


def get_game(key: str) -> Game:
    """The game called ``key``, or a ScoringError naming the games there are."""
    try:
        return GAMES[key]
    except KeyError:
        raise ScoringError(
            "there is no game {key}; the games are {games}",
            "game",
            key=repr(key),
            games=", ".join(GAMES),
        ) from None


__all__ = [
    "DEFAULT_EVENT_GAME",
    "DEFAULT_TABLE_GAME",
    "GAMES",
    "SPECIAL_RULES",
    "Game",
    "Seat",
    "SpecialRule",
    "get_game",
    "register",
    "unregister",
]
