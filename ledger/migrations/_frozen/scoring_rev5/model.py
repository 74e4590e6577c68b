# A frozen copy of scoring/model.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""What goes into the engine and what comes out: frozen dataclasses and enums.

The records made by the thousand (a player's result, a payment, a transfer) are NamedTuples:
as immutable as a frozen dataclass and much cheaper to build, which is what lets a page
rescore a 1,000-hand session from scratch within its budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from typing import NamedTuple

from .text import N_, Phrase
from .tiles import Tile


class Direction(StrEnum):
    """The way play passes round the table; seating is listed counter-clockwise."""

    CCW = "ccw"
    CW = "cw"

    def reverse(self) -> Direction:
        return Direction.CW if self is Direction.CCW else Direction.CCW


class Named(StrEnum):
    """A StrEnum whose members have a name to show, marked for translation.

    In English the name is followed by the one the source texts give in the games' own script,
    where they give one (players know a special by either); an app shows the name in its
    page's language, in that language's script.

    >>> Special.PASS.label, HandEvent.REDEAL.label
    ('pass 通', 'redeal')
    """

    @property
    def label(self) -> Phrase:
        return Phrase(_NAMES[self])


class Special(Named):
    """A player's special result in a hand (RULES.md names which game knows which)."""

    PASS = "pass"
    HEAD_SEVEN = "head_seven"
    TAIL_EIGHT = "tail_eight"
    HEAD_SIX = "head_six"
    TAIL_SEVEN = "tail_seven"
    SUANZHANG = "suanzhang"


class HandEvent(Named):
    """What can become of a dealt hand besides plain play; each is a field of ``Hand``."""

    REDEAL = "redeal"
    DECLARED_DOUBLES = "declared_doubles"
    BLOCKED = "blocked"

    @property
    def has_caller(self) -> bool:
        """The event names the player who called it (``Hand.redeal = "Anna"``)."""
        return self is not HandEvent.BLOCKED


# The sources name pass, head-seven and tail-eight (seed 000) and the SuanZhang (seed 003, and
# RULES.md's 算张) in Chinese; the other names are English only, to be translated.
_NAMES: dict[str, str] = {
    Special.PASS: N_("pass 通"),
    Special.HEAD_SEVEN: N_("head-seven 头七"),
    Special.TAIL_EIGHT: N_("tail-eight 尾八"),
    Special.HEAD_SIX: N_("head-six"),
    Special.TAIL_SEVEN: N_("tail-seven"),
    Special.SUANZHANG: N_("SuanZhang creator 算张"),
    HandEvent.REDEAL: N_("redeal"),
    HandEvent.DECLARED_DOUBLES: N_("declared doubles"),
    HandEvent.BLOCKED: N_("blocked"),
}


class HeadTail(StrEnum):
    SEVEN_EIGHT = "7/8"
    SIX_SEVEN = "6/7"


class ChipPayment(StrEnum):
    """How a hand is paid (option ``payment``; each game takes its own, RULES.md)."""

    PAIRWISE = "pairwise"  # every pair settles the difference (the connecting games' usual)
    CHIPS = "chips"  # every other player pays the hand's winner one chip (connecting games)
    EACH = "each"  # Kko-li-but-i-gi: every loser pays the winner a chip
    HIGHEST = "highest"  # Kko-li-but-i-gi: the last place, and anyone over 30, pays


class Ties(StrEnum):
    """Who wins a hand of tied best scores (Jie Long, Tsair Deng)."""

    TURN_ORDER = "turn_order"  # the earlier in turn order
    LOWER_TOTAL = "lower_total"  # the smaller total score so far, then turn order


class ChiTsun(StrEnum):
    """What the ch'i tsun's two pieces (1:2 and 2:4) mate in Tiu Yu."""

    ITSELF = "itself"  # only each other (seed 004: "an exception")
    BY_SPOTS = "by_spots"  # each other, and also other pieces of the same pips


class Doubles(StrEnum):
    """What Ce Deng's declared doubles pay at a table that pays chips (option ``doubles``)."""

    CHIPS = "chips"  # 2 chips from each other player (rules rev 5)
    STAKE = "stake"  # 2 x stake x their pips, in money (before rules rev 5; pinned tables)


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
    payment: ChipPayment | None = None  # None: the game's usual (``Game.payments[0]``)
    next_first: NextFirst = NextFirst.WINNER
    chi_tsun: ChiTsun = ChiTsun.ITSELF
    doubles: Doubles = Doubles.CHIPS
    ties: Ties = Ties.TURN_ORDER
    play_to: int | None = None  # over after the hand in which a total score reaches it
    hands: int | None = None  # over after this many dealt hands

    @property
    def ends(self) -> bool:
        """Whether the session has an end: a target score or a number of hands."""
        return self.play_to is not None or self.hands is not None

    @property
    def counts_on(self) -> bool:
        """Whether a hand's result depends on the totals before it: a session that ends, or
        ties broken by the lower total."""
        return self.ends or self.ties is Ties.LOWER_TOTAL


class ResultField(NamedTuple):
    """One number a player's result is entered as, for a form to ask for."""

    key: str  # the field of ``Result`` and of the result in the JSON document
    label: str  # English, marked for translation
    help: str  # one line of English, marked for translation
    short: str  # what a form calls its input ("large" for a player's large-fish pips)


class Entry(StrEnum):
    """How a game's results are entered: its numbers, or else the tiles they come from.

    >>> [field.key for field in Entry.FISH.fields], Entry.PIPS.tiles_label
    (['large_fish_pips', 'small_fish_red'], 'Or tap the tiles')
    >>> [field.short for field in Entry.FISH.fields], Entry.FISH.missing
    (['large', 'red'], "Enter %(name)s's fish.")
    """

    PIPS = "pips"  # one pip total per player (the connecting games)
    FISH = "fish"  # large-fish pips and small-fish red spots (Tiu Yu)

    @property
    def fields(self) -> tuple[ResultField, ...]:
        return _ENTRY_FIELDS[self]

    @property
    def tiles_label(self) -> str:
        """What the tile picker offers instead of the numbers."""
        return _TILES_LABELS[self]

    @property
    def missing(self) -> str:
        """What a form says of a player whose result was left empty (``%(name)s``: the player)."""
        return _MISSING[self]


_ENTRY_FIELDS = {
    Entry.PIPS: (
        ResultField(
            "pips",
            N_("Points"),
            N_("The pips of the tiles discarded, and those left in hand if the hand was blocked."),
            "pips",
        ),
    ),
    Entry.FISH: (
        ResultField(
            "large_fish_pips",
            N_("Large fish pips"),
            N_("The pips of the captured tiles of 8 pips or more; each pip counts 2."),
            "large",
        ),
        ResultField(
            "small_fish_red",
            N_("Small fish red spots"),
            N_("The red spots of the captured tiles under 8 pips; rounded up to tens."),
            "red",
        ),
    ),
}
_TILES_LABELS = {
    Entry.PIPS: N_("Or tap the tiles"),
    Entry.FISH: N_("Or tap the captured tiles"),
}
_MISSING = {
    Entry.PIPS: N_("Enter %(name)s's score."),
    Entry.FISH: N_("Enter %(name)s's fish."),
}


class Result(NamedTuple):
    """One player's result in one hand, as entered (``Game.entry`` says which fields).

    Connecting games use ``pips`` (the app adds up ``tiles`` when they are entered instead);
    Tiu Yu uses ``large_fish_pips`` and ``small_fish_red`` (again derived from ``tiles``).
    """

    pips: int = 0
    tiles: tuple[Tile, ...] | None = None
    specials: frozenset[Special] = frozenset()
    large_fish_pips: int = 0
    small_fish_red: int = 0


_NO_EVENT = (None, False)  # a field of ``Hand`` that records no event
_EVENT_FIELDS = tuple((event, event.value) for event in HandEvent)  # looked up once, not per hand


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
    # The session's time ran out while this hand was played, so it is the last (RULES.md,
    # "Sessions": the ledger keeps the clock and marks the hand).
    last: bool = False

    @property
    def events(self) -> tuple[HandEvent, ...]:
        """The events this hand records, in the order of ``HandEvent`` (a valid hand has one
        at most)."""
        return tuple(
            [event for event, field in _EVENT_FIELDS if getattr(self, field) not in _NO_EVENT]
        )


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


class Proof(NamedTuple):
    """A special that a player's entry proves though nobody marked it (RULES.md, Ce Deng: "what
    an entry proves is applied"): only ``tiles`` tiles of the deck can make what was entered."""

    player: str
    special: Special
    tiles: int
    pips: int
    by_tiles: bool  # the tiles were entered (else the pips were)
    # The pips could also come from more tiles, which a special of its own counts (under
    # ``6/7``, a tail-seven's pips from all 8 tiles): they prove at least ``tiles``.
    at_least: bool = False

    @property
    def why(self) -> Phrase:
        """The reason, in the players' words."""
        if self.by_tiles:
            return Phrase(
                "{name} entered {count} tiles, so {name} has {special}",
                name=self.player,
                count=self.tiles,
                special=self.special.label,
            )
        if self.at_least:
            return Phrase(
                "{name}'s {score} pips need at least {count} tiles, so {name} has {special}",
                name=self.player,
                score=self.pips,
                count=self.tiles,
                special=self.special.label,
            )
        return Phrase(
            "{name}'s {score} pips need {count} tiles, so {name} has {special}",
            name=self.player,
            score=self.pips,
            count=self.tiles,
            special=self.special.label,
        )


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
    proven: tuple[Proof, ...] = ()  # specials applied because the entry proves them

    @property
    def winner(self) -> str | None:
        return self.ranking[0] if self.ranking else None


@dataclass(frozen=True, slots=True)
class Totals:
    """What hands add up to: each player's net, score and hands won."""

    net: Mapping[str, Decimal]
    scores: Mapping[str, int]
    hands_won: Mapping[str, int]


class EndReason(StrEnum):
    PLAY_TO = "play_to"  # a player's total reached the target
    HANDS = "hands"  # the number of hands was dealt
    TIME = "time"  # the session's time ran out during its last hand


@dataclass(frozen=True, slots=True)
class End:
    """Where a session with a target stands: over or not, why, and who wins (or leads).

    ``points_to_go``: what the highest total still lacks of ``play_to``; ``hands_to_go``: the
    dealt hands left of ``hands``; each None when the option is not set."""

    over: bool
    reason: EndReason | None
    winner: str  # the winner when over; else who would win if it ended now
    points_to_go: int | None
    hands_to_go: int | None


@dataclass(frozen=True, slots=True)
class SessionResult:
    hands: tuple[HandResult, ...]
    totals: Totals
    settle_up: tuple[Transfer, ...]
    end: End | None = None  # with the option ``play_to`` or ``hands``, or a hand marked last
