"""The registry of games: one line per game."""

from __future__ import annotations

from collections.abc import Mapping

from scoring.errors import ScoringError
from scoring.games.base import Game
from scoring.games.ce_deng import CeDeng
from scoring.games.ding_niu import DingNiu
from scoring.games.jie_long import JieLong
from scoring.games.kkoribuchigi import Kkoribuchigi
from scoring.games.tiu_yu import TiuYu
from scoring.games.tsair_deng import TsairDeng

GAMES: Mapping[str, Game] = {
    game.key: game
    for game in (JieLong(), CeDeng(), TsairDeng(), Kkoribuchigi(), DingNiu(), TiuYu())
}


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


__all__ = ["GAMES", "Game", "get_game"]
