# A frozen copy of scoring/tiles.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Tiles, the four decks of RULES.md, red spots, and the totals a set of tiles can make."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from .errors import ScoringError
from .text import Phrase


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One Chinese domino tile, halves ``low <= high``, both 1 to 6 (there are no blanks).

    >>> Tile.parse("6:4")
    Tile(low=4, high=6)
    >>> str(Tile.parse("4:6")), Tile.parse("4:6").pips, Tile.parse("1:4").red_spots
    ('4:6', 10, 5)
    """

    low: int
    high: int

    def __post_init__(self) -> None:
        if not 1 <= self.low <= self.high <= 6:
            raise ValueError(f"no such tile: {self.low}:{self.high}")

    @classmethod
    def parse(cls, text: object, path: str = "") -> Tile:
        """Read ``"a:b"`` (or ``"b:a"``, the same tile); raise ScoringError otherwise."""
        if isinstance(text, str):
            a, sep, b = text.strip().partition(":")
            if sep and len(a) == len(b) == 1 and a in "123456" and b in "123456":
                return _TILES[min(int(a), int(b)), max(int(a), int(b))]
        raise ScoringError(
            '{text} is not a tile: write a tile as two numbers from 1 to 6, like "6:4"',
            path,
            text=repr(text),
        )

    @property
    def pips(self) -> int:
        return self.low + self.high

    @property
    def red_spots(self) -> int:
        """Every 1 half has one red spot and every 4 half has four; nothing else is red."""
        return sum({1: 1, 4: 4}.get(half, 0) for half in (self.low, self.high))

    def __str__(self) -> str:
        return f"{self.low}:{self.high}"


_TILES = {(a, b): Tile(a, b) for a in range(1, 7) for b in range(a, 7)}


def tiles(*texts: str) -> tuple[Tile, ...]:
    """``tiles("1:1", "6:5")`` is shorthand for parsing several tiles."""
    return tuple(Tile.parse(text) for text in texts)


CIVIL = tiles("1:1", "2:2", "3:3", "4:4", "5:5", "6:6", "1:3", "1:5", "1:6", "4:6", "5:6")
MILITARY = tiles("1:2", "1:4", "2:3", "2:4", "2:5", "2:6", "3:4", "3:5", "3:6", "4:5")


class Deck(StrEnum):
    """The decks the games use.

    >>> [(deck.value, deck.size, deck.pips) for deck in Deck]  # doctest: +NORMALIZE_WHITESPACE
    [('chinese-32', 32, 227), ('ding-niu-24', 24, 177), ('kkori-24', 24, 155),
     ('double-64', 64, 454)]
    """

    CHINESE_32 = "chinese-32"
    DING_NIU_24 = "ding-niu-24"
    KKORI_24 = "kkori-24"
    DOUBLE_64 = "double-64"

    @property
    def counts(self) -> Mapping[Tile, int]:
        """How many copies of each tile the deck holds."""
        return _deck_counts(self)

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    @property
    def pips(self) -> int:
        return sum(tile.pips * n for tile, n in self.counts.items())

    @property
    def words(self) -> Phrase:
        """The deck as players know it, for a message: "the Chinese set of 32 tiles"."""
        return _WORDS[self][0]

    @property
    def without(self) -> Phrase | None:
        """What the deck leaves out of the Chinese set, said as a rule of the game."""
        return _WORDS[self][1]

    def all_tiles(self) -> tuple[Tile, ...]:
        """Every physical tile of the deck, copies included, in tile order."""
        return tuple(tile for tile, n in sorted(self.counts.items()) for _ in range(n))


_WORDS = {
    Deck.CHINESE_32: (Phrase("the Chinese set of 32 tiles"), None),
    Deck.DING_NIU_24: (
        Phrase("the 24 tiles of Ding Niu"),
        Phrase("Ding Niu plays without the military tiles other than 2:6 and 3:6"),
    ),
    Deck.KKORI_24: (
        Phrase("the 24 tiles of Kko-li-but-i-gi for two or three"),
        Phrase("Kko-li-but-i-gi for two or three plays without the 3:3 to 6:6 doubles"),
    ),
    Deck.DOUBLE_64: (Phrase("the 64 tiles of Tiu Yu (two Chinese sets)"), None),
}


@cache
def _deck_counts(deck: Deck) -> Mapping[Tile, int]:
    chinese = Counter(dict.fromkeys(CIVIL, 2)) + Counter(MILITARY)
    if deck is Deck.CHINESE_32:
        counts = chinese
    elif deck is Deck.DING_NIU_24:
        dropped = set(MILITARY) - set(tiles("2:6", "3:6"))
        counts = Counter({tile: n for tile, n in chinese.items() if tile not in dropped})
    elif deck is Deck.KKORI_24:
        dropped = set(tiles("3:3", "4:4", "5:5", "6:6"))
        counts = Counter({tile: n for tile, n in chinese.items() if tile not in dropped})
    else:
        counts = chinese + chinese
    return dict(sorted(counts.items()))


@cache
def subset_totals(values: tuple[int, ...], min_count: int, max_count: int) -> frozenset[int]:
    """Every total that between ``min_count`` and ``max_count`` of ``values`` can make.

    Each value may be used once (a deck's copies are separate values). Exact, by dynamic
    programming over bitsets: ``reach[c]`` has bit ``s`` set when ``c`` values sum to ``s``.

    >>> sorted(subset_totals((2, 3, 3), 0, 2))
    [0, 2, 3, 5, 6]
    """
    reach = [1] + [0] * len(values)
    for value in values:
        for count in range(len(values) - 1, -1, -1):
            reach[count + 1] |= reach[count] << value
    mask = 0
    for count in range(min_count, min(max_count, len(values)) + 1):
        mask |= reach[count]
    return frozenset(bit for bit in range(mask.bit_length()) if mask >> bit & 1)


@cache
def pip_totals(deck: Deck, min_tiles: int, max_tiles: int) -> frozenset[int]:
    """The pip totals that ``min_tiles`` to ``max_tiles`` tiles of ``deck`` can make.

    >>> totals = pip_totals(Deck.CHINESE_32, 0, 8)
    >>> 0 in totals, 1 in totals, 2 in totals, max(totals)
    (True, False, True, 86)
    """
    return subset_totals(tuple(tile.pips for tile in deck.all_tiles()), min_tiles, max_tiles)


def check_in_deck(hands: Iterable[tuple[str, str, tuple[Tile, ...]]], deck: Deck) -> None:
    """Raise ScoringError when the tiles entered across a hand are more than ``deck`` holds.

    ``hands`` gives (name, path, tiles) for every player who entered tiles.
    """
    seen: Counter[Tile] = Counter()
    for name, path, entered in hands:
        for i, tile in enumerate(entered):
            held = deck.counts.get(tile, 0)
            if held == 0:
                raise ScoringError(
                    "{name} entered {tile}, but there is no {tile} in this game: {without}",
                    f"{path}[{i}]",
                    name=name,
                    tile=str(tile),
                    without=deck.without,
                )
            seen[tile] += 1
            if seen[tile] > held:
                facts = {"name": name, "tile": str(tile), "times": seen[tile], "deck": deck.words}
                if held == 1:
                    raise ScoringError(
                        "{tile} is entered {times} times in this hand (the last by {name}), "
                        "but there is only one {tile} in {deck}",
                        f"{path}[{i}]",
                        **facts,
                    )
                raise ScoringError(
                    "{tile} is entered {times} times in this hand (the last by {name}), "
                    "but there are only {held} in {deck}",
                    f"{path}[{i}]",
                    held=held,
                    **facts,
                )
