"""What goes into the engine and what comes out: frozen dataclasses and enums.

The records made by the thousand (a player's result, a payment, a transfer) are NamedTuples:
as immutable as a frozen dataclass at a third of the cost to build, which is what lets a page
rescore a 1,000-hand session from scratch within its budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import NamedTuple

from scoring.tiles import Tile


class Direction(StrEnum):
    """The way play passes round the table; seating is listed counter-clockwise."""

    CCW = "ccw"
    CW = "cw"

    def reverse(self) -> Direction:
        return Direction.CW if self is Direction.CCW else Direction.CCW


class Special(StrEnum):
    """A player's special result in a hand (RULES.md names which game knows which)."""

    PASS = "pass"  # 通
    HEAD_SEVEN = "head_seven"  # 头七
    TAIL_EIGHT = "tail_eight"  # 尾八
    HEAD_SIX = "head_six"
    TAIL_SEVEN = "tail_seven"
    SUANZHANG = "suanzhang"  # 算张


class HeadTail(StrEnum):
    SEVEN_EIGHT = "7/8"
    SIX_SEVEN = "6/7"


class ChipPayment(StrEnum):
    EACH = "each"
    HIGHEST = "highest"


class NextFirst(StrEnum):
    WINNER = "winner"
    ROTATE = "rotate"


@dataclass(frozen=True, slots=True)
class Options:
    """A session's options; each game accepts only the ones RULES.md gives it."""

    stake: Decimal = Decimal(1)
    chip: Decimal = Decimal(1)
    head_tail: HeadTail = HeadTail.SEVEN_EIGHT
    redeal_doubles: int = 7
    payment: ChipPayment = ChipPayment.EACH
    next_first: NextFirst = NextFirst.WINNER


class Result(NamedTuple):
    """One player's result in one hand, as entered.

    Connecting games use ``pips`` (the app adds up ``tiles`` when they are entered instead);
    Tiu Yu uses ``large_fish_pips`` and ``small_fish_red`` (again derived from ``tiles``).
    """

    pips: int = 0
    tiles: tuple[Tile, ...] | None = None
    specials: frozenset[Special] = frozenset()
    large_fish_pips: int = 0
    small_fish_red: int = 0


@dataclass(frozen=True, slots=True)
class Hand:
    """One dealt hand: the results, or a hand-level event instead of them.

    ``first`` and ``direction`` record what happened at the table; ``None`` lets the rules
    decide (the previous hand's winner, and Ce Deng's alternation).
    """

    results: Mapping[str, Result] = field(default_factory=dict)
    first: str | None = None
    direction: Direction | None = None
    blocked: bool = False
    redeal: str | None = None
    declared_doubles: str | None = None


@dataclass(frozen=True, slots=True)
class Session:
    game: str
    seating: tuple[str, ...]
    first: str
    hands: tuple[Hand, ...] = ()
    options: Options = Options()


class Payment(NamedTuple):
    """One payment of a hand, before netting: ``payer`` gives ``payee`` ``amount``."""

    payer: str
    payee: str
    amount: Decimal
    multiplier: int
    reason: str


class Transfer(NamedTuple):
    """One transfer of a settle-up."""

    payer: str
    payee: str
    amount: Decimal


class HandResult(NamedTuple):
    first: str
    direction: Direction
    order: tuple[str, ...]
    scores: Mapping[str, int]
    ranking: tuple[str, ...]
    payments: tuple[Payment, ...]
    net: Mapping[str, Decimal]
    next_first: str
    next_direction: Direction

    @property
    def winner(self) -> str | None:
        return self.ranking[0] if self.ranking else None


@dataclass(frozen=True, slots=True)
class Totals:
    net: Mapping[str, Decimal]
    scores: Mapping[str, int]
    hands_won: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class SessionResult:
    hands: tuple[HandResult, ...]
    totals: Totals
    settle_up: tuple[Transfer, ...]
