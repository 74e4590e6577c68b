"""Benchmark the whole-hand check (scoring.whole_hand, scoring.catches): the slowest hands it
can find, for every game, table size and kind of hand.

For each game and number of players it times hands dealt from a real deck (plain, blocked,
passes, heads and tails, Ding Niu's SuanZhang, declared doubles, Tiu Yu's catches as tiles and
as totals), near misses (a real hand with one score moved a little, often impossible), then
climbs: it moves the scores of the slowest hands found and keeps what is slower still, until
its share of ``seconds`` is spent.

A hand is timed as a one-hand session scored through scoring's public API
(``score_session``), with the check's remembered answers forgotten first (the worst case: a
hand never seen; the tables of sums built for a deck are kept, as a running server keeps
them), best of ``runs``, with the garbage collector off. Beside it, in the same run, the
ceiling: the same hand scored again at once, the check's answers still remembered (it asks its
search nothing, and every other check and the scoring run as before), so the ratio is what the
search costs. The slowest hands found at each table are timed again with three times the runs,
and the worst of those is reported: on a shared machine a hand can look slow only because
the machine was busy.
"""

from __future__ import annotations

import gc
import random
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import scoring
from scoring import Deck, Session, Tile, catches, pip_totals, whole_hand

NAMES = ("Anna", "Bob", "Celine", "Dominic")
NUMBERS = ("pips", "large_fish_pips", "small_fish_red")  # what a near miss moves
CONFIRM = 5  # the slowest hands found at a table, timed again
CEILING = "scoring it again with the check's answers remembered"


@dataclass(frozen=True)
class Table:
    """One kind of hand to look for slow ones in: a game, its players, what can happen."""

    game: str
    players: int
    kinds: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        extra = " (head-6/tail-7)" if self.options else ""
        return f"{self.game}, {self.players} players{extra}"


TABLES = (
    *(Table("jie-long", n, ("plain", "blocked")) for n in (2, 3, 4)),
    *(Table("ce-deng", n, ("plain", "specials", "blocked", "declared")) for n in (2, 3, 4)),
    Table("ce-deng", 4, ("specials",), {"head_tail": "6/7"}),
    *(Table("tsair-deng", n, ("plain", "specials")) for n in (2, 3, 4)),
    *(Table("kkoribuchigi", n, ("plain", "blocked")) for n in (2, 3, 4)),
    Table("ding-niu", 4, ("plain", "specials", "blocked")),
    *(Table("tiu-yu", n, ("tiles", "totals")) for n in (2, 3)),
)


@dataclass(order=True)
class Timing:
    took: float  # ms, the check's answers forgotten first
    warm: float  # ms, the same hand scored again, its answers remembered (the ceiling)
    table: str = field(compare=False)
    hand: dict[str, Any] = field(compare=False)
    refused: bool = field(compare=False)


def run(*, seconds: float, runs: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    share = seconds / len(TABLES)
    every: list[Timing] = []
    confirmed: list[Timing] = []
    gc.disable()  # a collection in the middle of a hand is noise, not the check
    try:
        for table in TABLES:
            found = _search(table, rng, share, runs)
            every += found
            # The slowest hands again, three times as many runs each: on a shared machine a
            # hand can look slow only because the machine was busy when it was timed.
            again = [_time(table, t.hand, 3 * runs) for t in sorted(found)[-CONFIRM:]]
            confirmed += again
            worst = max(again)
            yield (
                f"{table.label}: {len(found)} hands, worst {worst.took:.2f} ms "
                f"({_ratio(worst)} of {CEILING}), "
                f"median {statistics.median(t.took for t in found):.2f} ms"
            )
    finally:
        gc.enable()
    worst = max(confirmed)
    median = statistics.median(t.took for t in every)
    median_warm = statistics.median(t.warm for t in every)
    yield (
        f"all: {len(every)} hands, {sum(t.refused for t in every)} of them refused; "
        f"median {median:.2f} ms ({median / median_warm:.1f}x of {CEILING}, "
        f"{median_warm:.2f} ms)"
    )
    yield (
        f"worst {worst.took:.2f} ms ({_ratio(worst)} of {CEILING}, {worst.warm:.2f} ms), "
        f"{'refused' if worst.refused else 'accepted'}: {worst.table}, {_said(worst.hand)}"
    )


def _ratio(timing: Timing) -> str:
    return f"{timing.took / timing.warm:.1f}x"


def _said(hand: dict[str, Any]) -> str:
    """The hand in a line: who holds declared doubles, then each result."""
    parts = [f"{hand['declared_doubles']} declared doubles"] if "declared_doubles" in hand else []
    parts += [f"{name} {result}" for name, result in hand["results"].items()]
    return "; ".join(parts) + (" (blocked)" if hand.get("blocked") else "")


def _search(table: Table, rng: random.Random, seconds: float, runs: int) -> list[Timing]:
    """Real hands, near misses and scores drawn within each seat's limits for a third of the
    time, then the climb."""
    found: list[Timing] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end - 2 * seconds / 3 or len(found) < 10:
        hand = _deal(table, rng)
        found.append(_time(table, hand, runs))
        found.append(_time(table, _nudged(table, hand, rng), runs))
        found.append(_time(table, _drawn(table, hand, rng), runs))
    while time.perf_counter() < end:
        slow = sorted(found, reverse=True)[:10]
        hand = _nudged(table, rng.choice(slow).hand, rng)
        found.append(_time(table, hand, runs))
    return found


def _time(table: Table, hand: dict[str, Any], runs: int) -> Timing:
    document = {
        "game": table.game,
        "seating": list(NAMES[: table.players]),
        "first": NAMES[0],
        "hands": [hand],
        "options": table.options,
    }
    try:
        session = scoring.parse_session(document)
    except scoring.ScoringError:
        session = None
    if session is None:
        return Timing(0.0, 1.0, table.label, hand, True)
    took, refused = _best(session, runs, forget=True)
    warm, _ = _best(session, runs, forget=False)  # right after: the answers are remembered
    return Timing(took, warm, table.label, hand, refused)


def _best(session: Session, runs: int, *, forget: bool) -> tuple[float, bool]:
    """The best time of ``runs`` scorings of ``session`` (ms), ``forget``: each with the
    check's remembered answers forgotten first; and whether it was refused."""
    best, refused = float("inf"), False
    for _ in range(runs):
        if forget:
            whole_hand.clear_caches()
            catches.clear_caches()
        start = time.perf_counter()
        try:
            scoring.score_session(session)
        except scoring.ScoringError:
            refused = True
        best = min(best, (time.perf_counter() - start) * 1000)
    return best, refused


# -- hands dealt from a real deck ---------------------------------------------------------------


def _deal(table: Table, rng: random.Random) -> dict[str, Any]:
    kind = rng.choice(table.kinds)
    names = NAMES[: table.players]
    if table.game == "tiu-yu":
        return _catches(names, rng, as_tiles=kind == "tiles")
    if kind == "declared":
        return _declared_doubles(names, rng)
    game = scoring.GAMES[table.game]
    deck = list(game.deck(table.players).all_tiles())
    rng.shuffle(deck)
    dealt = game.tiles_each(table.players)
    specials = {special.value for special in game.specials}
    results: dict[str, Any] = {}
    for i, name in enumerate(names):  # the first name leads
        held = deck[i * dealt : (i + 1) * dealt]
        flags: list[str] = []
        scored = rng.sample(held[1:] if i == 0 else held, rng.randint(0, dealt - (i == 0)))
        if kind == "specials" and rng.random() < 0.5:
            choice = rng.choice(sorted(specials))
            keeps = {"head_seven": 1, "head_six": 2, "tail_eight": 0, "tail_seven": 1}
            if choice == "pass":
                scored, flags = [], [choice]
            elif choice in keeps and choice.startswith("head" if i == 0 else "tail"):
                if choice in {"head_seven", "tail_eight"} or table.options:
                    scored, flags = held[keeps[choice] :], [choice]
            elif choice == "suanzhang" and not any("specials" in r for r in results.values()):
                flags = [choice]
        results[name] = _entered(scored, flags, rng)
    hand: dict[str, Any] = {"results": results}
    if kind == "blocked":
        hand["blocked"] = True
    return hand


def _entered(scored: list[Tile], flags: list[str], rng: random.Random) -> dict[str, Any]:
    result: dict[str, Any] = (
        {"tiles": [str(tile) for tile in scored]}
        if rng.random() < 0.2
        else {"pips": sum(tile.pips for tile in scored)}
    )
    if flags:
        result["specials"] = flags
    return result


def _declared_doubles(names: tuple[str, ...], rng: random.Random) -> dict[str, Any]:
    deck = list(Deck.CHINESE_32.all_tiles())
    doubles = [tile for tile in deck if tile.low == tile.high]
    for tile in rng.sample(doubles, 8):
        deck.remove(tile)
    rng.shuffle(deck)
    holder = rng.choice(names)
    others = [name for name in names if name != holder]
    return {
        "declared_doubles": holder,
        "results": {
            name: _entered(deck[i * 8 : (i + 1) * 8], [], rng) for i, name in enumerate(others)
        },
    }


def _catches(names: tuple[str, ...], rng: random.Random, *, as_tiles: bool) -> dict[str, Any]:
    """Mated pairs of one double-64 deck: tiles of equal pips, 1:2 with 2:4."""
    by_group: dict[int, list[Tile]] = {}
    for tile in Deck.DOUBLE_64.all_tiles():
        by_group.setdefault(tile.pips, []).append(tile)
    pairs: list[list[Tile]] = []
    for group in by_group.values():
        rng.shuffle(group)
        pairs += [group[i : i + 2] for i in range(0, len(group) - 1, 2)]
    rng.shuffle(pairs)
    results: dict[str, Any] = {}
    for name in names:
        caught = [tile for pair in pairs[: rng.randint(0, 12)] for tile in pair]
        del pairs[: len(caught) // 2]
        if as_tiles:
            results[name] = {"tiles": [str(tile) for tile in caught]}
        else:
            results[name] = {
                "large_fish_pips": sum(t.pips for t in caught if catches.is_large_fish(t)),
                "small_fish_red": sum(t.red_spots for t in caught if not catches.is_large_fish(t)),
            }
    return {"results": results}


def _nudged(table: Table, hand: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``hand`` with a number or two moved, mostly a little: a near miss, often impossible.
    Tiles entered become their totals first."""
    results = {name: dict(result) for name, result in hand["results"].items()}
    for name in rng.sample(sorted(results), min(len(results), rng.choice((1, 1, 2)))):
        result = results[name]
        if "tiles" in result:
            taken = [Tile.parse(text) for text in result.pop("tiles")]
            if table.game == "tiu-yu":
                large = [tile for tile in taken if catches.is_large_fish(tile)]
                result["large_fish_pips"] = sum(tile.pips for tile in large)
                result["small_fish_red"] = sum(t.red_spots for t in taken if t not in large)
            else:
                result["pips"] = sum(tile.pips for tile in taken)
        key = rng.choice([key for key in NUMBERS if key in result])
        step = rng.choice((-6, -4, -2, -1, 1, 2, 4, 6, -15, 15))
        result[key] = max(0, result[key] + step)
    return {**hand, "results": results}


def _drawn(table: Table, hand: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``hand`` with every plain score drawn anew among those the seat can make on its own,
    half the time among its 15 highest: hands that press on the deck from every side."""
    game = scoring.GAMES[table.game]
    deck, dealt = game.deck(table.players), game.tiles_each(table.players)
    results = {}
    for i, (name, result) in enumerate(hand["results"].items()):
        if "pips" in result and not result.get("specials"):
            seat = sorted(pip_totals(deck, 0, dealt - 1 if i == 0 else dealt))
            result = {"pips": rng.choice(seat if rng.random() < 0.5 else seat[-15:])}
        elif "large_fish_pips" in result:
            result = {
                "large_fish_pips": rng.choice(sorted(catches.large_totals())),
                "small_fish_red": rng.randint(0, 48),
            }
        results[name] = result
    return {**hand, "results": results}
