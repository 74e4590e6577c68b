"""Reads that need care: what pages show, gathered in one place."""

from __future__ import annotations

from dataclasses import dataclass

from scoring import GAMES


@dataclass(frozen=True)
class GameSummary:
    key: str
    title: str
    players: str


def game_list() -> list[GameSummary]:
    """The games the ledger scores, with the player counts each allows."""
    summaries = []
    for game in GAMES.values():
        counts = game.player_counts
        players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        summaries.append(GameSummary(game.key, game.title, players))
    return summaries
