"""Generated games for the benchmarks: a long session of the game that gives the engine the most
to check, and hands of the game a tournament defaults to.

The games are chosen by what scoring says of them, not by key, so the benchmarks follow the
registry (today they choose the two games the README's figures name).
"""

from __future__ import annotations

import random
from typing import Any

import scoring
from scoring import SPECIAL_RULES, Direction, Entry, Game, HandEvent, Options, Seat, Special, Tile
from scoring.games import DEFAULT_EVENT_GAME

PLAYERS = ["Anna", "Bob", "Celine", "Dominic"]
EVENT_GAME = DEFAULT_EVENT_GAME
EVENT_PIPS = (2, 12, 34, 18)  # scores that any seat of four at an EVENT_GAME table can make


def richest_game() -> Game:
    """The game with the most specials and hand events among those entered as pips at a table
    of four (the first registered on a tie): the most rules for the engine to apply per hand.
    """
    seats = len(PLAYERS)
    games = [
        g for g in scoring.GAMES.values() if g.entry is Entry.PIPS and seats in g.player_counts
    ]
    return max(games, key=lambda game: len(game.specials) + len(game.events))


def richest_document(hands: int, seed: int = 1) -> dict[str, Any]:
    """A valid session of ``richest_game()`` of ``hands`` hands: passes, tails, redeals and
    blocked hands, as far as the game has them.

    Every hand is dealt from the shuffled deck (``seed``), and every score is the pips of tiles
    of the player's own hand, so all the scores of a hand are true at once: 1 to all but one
    of the tiles dealt (the leader's first tile went to the layout), a tail all it keeps.
    Lead and direction are left to the rules; the generator follows them hand by hand so
    that a tail never lands on the player who leads.
    """
    game = richest_game()
    seats = len(PLAYERS)
    rng = random.Random(seed)
    deck, dealt = list(game.deck(seats).all_tiles()), game.tiles_each(seats)
    redeals = HandEvent.REDEAL in game.events
    blocks = HandEvent.BLOCKED in game.events
    passes = Special.PASS in game.specials
    tail = _tail(game, seats)
    first, direction = PLAYERS[0], Direction.CCW.value
    document_hands: list[dict[str, Any]] = []
    for _ in range(hands):
        roll = rng.random()
        if roll < 0.02 and redeals:
            document_hands.append({HandEvent.REDEAL.value: rng.choice(PLAYERS)})
            continue
        rng.shuffle(deck)
        held = {name: deck[i * dealt : (i + 1) * dealt] for i, name in enumerate(PLAYERS)}
        results: dict[str, Any] = {}
        for name in PLAYERS:
            pool = held[name][1:] if name == first else held[name]
            results[name] = {"pips": _pips(rng.sample(pool, rng.randint(1, dealt - 1)))}
        if roll < 0.12 and passes:
            results[rng.choice(PLAYERS)] = {"pips": 0, "specials": [Special.PASS.value]}
        elif roll < 0.22 and tail:
            special, kept = tail
            who = rng.choice([name for name in PLAYERS if name != first])
            results[who] = {"pips": _pips(held[who][:kept]), "specials": [special.value]}
        hand: dict[str, Any] = {"results": results}
        if blocks:
            hand[HandEvent.BLOCKED.value] = 0.22 <= roll < 0.27
        document_hands.append(hand)
        played = scoring.score(
            {"game": game.key, "seating": PLAYERS, "first": first,
             "hands": [{**hand, "direction": direction}]}
        )["hands"][0]  # fmt: skip
        first, direction = played["next_first"], played["next_direction"]
    return {
        "game": game.key,
        "options": {"stake": "0.50"} if "stake" in game.option_names else {},
        "seating": PLAYERS,
        "first": PLAYERS[0],
        "hands": document_hands,
    }


def _pips(tiles: list[Tile]) -> int:
    return sum(tile.pips for tile in tiles)


def _tail(game: Game, seats: int) -> tuple[Special, int] | None:
    """The first special only a player who did not lead may have, and the tiles its score is
    made of; under the default options, which the document keeps but for the stake."""
    for special in game.seat_specials(seats, leads=False, options=Options()):
        rule = SPECIAL_RULES[special]
        if rule.seat is Seat.TAIL:
            return special, game.tiles_each(seats) - (rule.keeps or 0)
    return None


def event_hand(names: list[str], number: int) -> dict[str, Any]:
    """Hand ``number`` of an EVENT_GAME table seated ``names``: the same pips, one seat on a
    hand."""
    pips = EVENT_PIPS[number % 4 :] + EVENT_PIPS[: number % 4]
    return {
        "first": names[0],
        "direction": Direction.CCW.value,
        "results": {n: {"pips": p} for n, p in zip(names, pips, strict=True)},
    }
