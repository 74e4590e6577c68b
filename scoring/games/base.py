"""What every game shares: the table, the checks on a result, ranking and the hand outcome."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from types import MappingProxyType
from typing import ClassVar, NamedTuple

from scoring.errors import Problems, ScoringError
from scoring.model import Entry, Hand, HandEvent, HeadTail, Options, Payment, Result, Special
from scoring.options import ENDS, OPTION_SPECS, OptionSpec
from scoring.text import Phrase
from scoring.tiles import Deck, Tile, check_in_deck, pip_totals
from scoring.whole_hand import Claim, check_scores


@dataclass(frozen=True, slots=True)
class Table:
    """Who plays a hand and in which turn order (``order[0]`` led, the lowest hand)."""

    order: tuple[str, ...]
    options: Options
    path: str  # of the hand, e.g. "hands[3]"
    # A hand checked before (a ledger's stored hand): the players' results are not checked
    # together again (the whole hand, Tiu Yu's catches), so a hand kept under older rules
    # still scores as it did.
    trusted: bool = False

    @property
    def first(self) -> str:
        return self.order[0]

    @property
    def players(self) -> int:
        return len(self.order)

    def result_path(self, name: str, field: str = "") -> str:
        return f"{self.path}.results.{name}" + (f".{field}" if field else "")


class Outcome(NamedTuple):
    """A scored hand before netting: scores, ranking (winner first) and payments."""

    scores: Mapping[str, int]
    ranking: tuple[str, ...]
    payments: tuple[Payment, ...]


_JIE_LONG_DEAL = {2: 16, 3: 10, 4: 8}


@cache
def _plain_totals(game: Game, players: int) -> tuple[frozenset[int], frozenset[int]]:
    """Scores above 0 that need no special: for the player who led, and for the others."""
    deck, dealt = game.deck(players), game.tiles_each(players)
    return pip_totals(deck, 1, dealt - 1), pip_totals(deck, 1, dealt)


class Game:
    """A game of RULES.md. Subclasses set the class attributes and implement ``settle``
    (or ``play``); ``scoring.games.register`` makes one known by its key.

    Everything a form needs comes from here: the names (``title``, ``label``),
    how results are entered (``entry``), the options (``option_specs``), the hand events
    (``events``) and the specials each seat may have (``seat_specials``).
    """

    key: ClassVar[str]
    title: ClassVar[str]  # in English
    # To show, marked for translation: the title, then the name the source texts give in the
    # game's own script, if they give one ("Ce Deng 斜钉").
    label: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    entry: ClassVar[Entry] = Entry.PIPS
    option_names: ClassVar[frozenset[str]] = frozenset({"stake", "next_first", *ENDS})
    specials: ClassVar[frozenset[Special]] = frozenset()
    events: ClassVar[frozenset[HandEvent]] = frozenset({HandEvent.BLOCKED})
    higher_wins: ClassVar[bool] = False
    alternates: ClassVar[bool] = False  # direction flips every dealt hand (Ce Deng)

    @property
    def option_specs(self) -> tuple[OptionSpec, ...]:
        """The options this game accepts, described for a form, in the order to show them."""
        return tuple(spec for name, spec in OPTION_SPECS.items() if name in self.option_names)

    def seat_specials(self, players: int, *, leads: bool, options: Options) -> tuple[Special, ...]:
        """The specials a player may have at a table of ``players``: the one who led the hand
        (``leads``) or another. Ordered for display (by their value). ``check_player``
        refuses every other special, by the same ``SPECIAL_RULES``.

        >>> from scoring import get_game
        >>> get_game("ce-deng").seat_specials(4, leads=False, options=Options())
        (<Special.PASS: 'pass'>, <Special.TAIL_EIGHT: 'tail_eight'>)
        """
        return tuple(
            special
            for special in sorted(self.specials)
            if SPECIAL_RULES[special].allows(leads, options)
        )

    def result_from_tiles(self, tiles: tuple[Tile, ...], specials: frozenset[Special]) -> Result:
        """The result that entering ``tiles`` stands for (``entry`` says which fields)."""
        return Result(pips=sum(tile.pips for tile in tiles), tiles=tiles, specials=specials)

    def deck(self, players: int) -> Deck:
        return Deck.CHINESE_32

    def tiles_each(self, players: int) -> int:
        """Tiles dealt to each player."""
        return _JIE_LONG_DEAL[players]

    def play(self, hand: Hand, table: Table) -> Outcome:
        """Score a played hand: check every result (saying all that is wrong at once), then
        the hand as a whole, then settle (each game's own rules)."""
        self.check_results(hand, table)
        problems = Problems()
        with problems:
            self.check_tiles(hand, table)
        lead_totals, other_totals = _plain_totals(self, table.players)
        flags = {}
        scores = {}
        for name in table.order:
            result = hand.results[name]
            plain = lead_totals if name == table.order[0] else other_totals
            # A plain score that the seat can make needs no further checks: the common case.
            if result.specials or result.tiles is not None or result.pips not in plain:
                with problems:
                    flags[name] = check_player(self, name, result, table)
            else:
                flags[name] = result.specials
            scores[name] = result.pips
        problems.raise_any()
        if not table.trusted:
            check_whole(self, hand, table, flags)
        return self.settle(scores, flags, table)

    def settle(
        self, scores: dict[str, int], flags: Mapping[str, frozenset[Special]], table: Table
    ) -> Outcome:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<game {self.key}>"

    # -- shared steps of a played hand ------------------------------------------------------

    def check_results(self, hand: Hand, table: Table, *, skip: str | None = None) -> None:
        """Every seated player but ``skip`` has exactly one result; nobody else has one."""
        problems = Problems()
        for name in table.order:
            if name != skip and name not in hand.results:
                with problems:
                    raise ScoringError(
                        "the result for {name} is missing", table.result_path(name), name=name
                    )
        if skip is not None and skip in hand.results:
            with problems:
                raise ScoringError(
                    "{name} declared the hand, so {name} has no result to enter",
                    table.result_path(skip),
                    name=skip,
                )
        problems.raise_any()

    def check_tiles(self, hand: Hand, table: Table) -> None:
        """Tiles entered across the hand exist in the deck, no more often than it holds them."""
        if all(result.tiles is None for result in hand.results.values()):
            return
        check_in_deck(
            (
                (name, table.result_path(name, "tiles"), result.tiles)
                for name, result in hand.results.items()
                if result.tiles is not None
            ),
            self.deck(table.players),
        )

    def check_pips(
        self, name: str, result: Result, table: Table, tile_range: tuple[int, int], why: Phrase
    ) -> None:
        """The score is one that ``tile_range`` tiles of the deck can make."""
        low, high = tile_range
        deck = self.deck(table.players)
        if low == high:
            count = Phrase("exactly {count}", count=low)
        elif low == 0:
            count = Phrase("up to {count}", count=high)
        else:
            count = Phrase("{low} to {high}", low=low, high=high)
        if result.tiles is not None:
            if not low <= len(result.tiles) <= high:
                raise ScoringError(
                    "{name} cannot have {tiles} tiles here ({why}): enter {count} tiles",
                    table.result_path(name, "tiles"),
                    name=name,
                    tiles=len(result.tiles),
                    why=why,
                    count=count,
                )
        elif result.pips not in pip_totals(deck, low, high):
            raise ScoringError(
                "{name}'s score of {score} is impossible: no set of {count} tiles "
                "from {deck} adds up to it ({why})",
                table.result_path(name, "pips"),
                name=name,
                score=result.pips,
                count=count,
                deck=deck.words,
                why=why,
            )

    def in_force(self, pips: int, specials: frozenset[Special]) -> frozenset[Special]:
        """The specials a player's result has: those marked, and a pass for a score of 0 in
        a game that knows pass (RULES.md: a 0 is a pass, marked or not)."""
        if Special.PASS in self.specials and pips == 0 and not specials & (LOW | {Special.PASS}):
            return specials | {Special.PASS}
        return specials

    def rank(self, scores: Mapping[str, int], order: Sequence[str]) -> tuple[str, ...]:
        """Best score first; ties go to the earlier player in turn order (sorting is stable)."""
        if self.higher_wins:
            return tuple(sorted(order, key=lambda name: -scores[name]))
        return tuple(sorted(order, key=scores.__getitem__))


class Seat(StrEnum):
    """Which players may have a special, by whether they led the hand."""

    ANY = "any"
    HEAD = "head"  # only the player who led
    TAIL = "tail"  # only a player who did not lead


class SpecialRule(NamedTuple):
    """Who may have a special, and when. The one source of ``check_player`` and
    ``Game.seat_specials`` (a game's ``specials`` say which it knows at all)."""

    seat: Seat = Seat.ANY
    head_tail: HeadTail | None = None  # counts only with this ``head_tail`` option
    keeps: int | None = None  # a head or tail: tiles never played, of those dealt

    def seat_allows(self, leads: bool) -> bool:
        return self.seat is Seat.ANY or (self.seat is Seat.HEAD) == leads

    def options_allow(self, options: Options) -> bool:
        return self.head_tail is None or options.head_tail == self.head_tail

    def allows(self, leads: bool, options: Options) -> bool:
        return self.seat_allows(leads) and self.options_allow(options)


# RULES.md, Ce Deng: tiles counted back from those dealt; head-six and tail-seven only on "6/7".
SPECIAL_RULES: Mapping[Special, SpecialRule] = MappingProxyType(
    {
        Special.PASS: SpecialRule(),
        Special.HEAD_SEVEN: SpecialRule(Seat.HEAD, keeps=1),
        Special.TAIL_EIGHT: SpecialRule(Seat.TAIL, keeps=0),
        Special.HEAD_SIX: SpecialRule(Seat.HEAD, HeadTail.SIX_SEVEN, keeps=2),
        Special.TAIL_SEVEN: SpecialRule(Seat.TAIL, HeadTail.SIX_SEVEN, keeps=1),
        Special.SUANZHANG: SpecialRule(),
    }
)
HEADS = frozenset(s for s, rule in SPECIAL_RULES.items() if rule.seat is Seat.HEAD)
TAILS = frozenset(s for s, rule in SPECIAL_RULES.items() if rule.seat is Seat.TAIL)
LOW = HEADS | TAILS


def check_player(game: Game, name: str, result: Result, table: Table) -> frozenset[Special]:
    """Check one player's result in a played connecting game; return the specials in force.

    A score of 0 in a game that knows ``pass`` is a pass, flagged or not.
    """
    specials = result.specials
    path = table.result_path(name, "specials")
    leads = name == table.first
    for special in sorted(specials):
        rule = SPECIAL_RULES[special]
        if special not in game.specials:
            raise ScoringError(
                "{game} has no {special}: its special results are {known}",
                path,
                special=special.label,
                game=Phrase(game.label),
                known=", ".join(known.label for known in sorted(game.specials)),
            )
        if not rule.seat_allows(leads):
            if rule.seat is Seat.HEAD:
                raise ScoringError(
                    "{name} cannot have {special}: it is only for the player who led, "
                    "and {first} led this hand",
                    path,
                    name=name,
                    special=special.label,
                    first=table.first,
                )
            raise ScoringError(
                "{name} cannot have {special}: it is only for a player who did not lead, "
                "and {name} led this hand",
                path,
                name=name,
                special=special.label,
            )
        if not rule.options_allow(table.options):
            raise ScoringError(
                "{name} cannot have {special}: it counts only when the table plays "
                "head and tail 6/7, and this table plays 7/8",
                path,
                name=name,
                special=special.label,
            )
    kinds = sorted(specials & (LOW | {Special.PASS}))
    if len(kinds) > 1:
        raise ScoringError(
            "{name} cannot have both {one} and {other}",
            path,
            one=kinds[0].label,
            other=kinds[1].label,
            name=name,
        )
    specials = game.in_force(result.pips, specials)
    if Special.PASS in specials and result.pips:
        raise ScoringError(
            "{name} passed, so {name}'s score must be 0, not {score}",
            table.result_path(name, "pips" if result.tiles is None else "tiles"),
            name=name,
            score=result.pips,
        )
    tile_range, why = seat_tiles(game, name, specials, table)
    game.check_pips(name, result, table, tile_range, why)
    return specials


def seat_tiles(
    game: Game, name: str, specials: frozenset[Special], table: Table
) -> tuple[tuple[int, int], Phrase]:
    """How many tiles ``name``'s score is made of (fewest, most), given the specials in force
    (as ``check_player`` returns them), and why."""
    dealt = game.tiles_each(table.players)
    if Special.PASS in specials:
        return (0, 0), Phrase("a pass discards no tiles")
    kinds = sorted(specials & LOW)
    if kinds:
        kept = dealt - (SPECIAL_RULES[kinds[0]].keeps or 0)
        return (kept, kept), Phrase(
            "{special} counts {count} tiles", special=kinds[0].label, count=kept
        )
    if name == table.first:
        return (0, dealt - 1), Phrase("the player who led played one of {dealt} tiles", dealt=dealt)
    return (0, dealt), Phrase("each player holds {dealt} tiles", dealt=dealt)


def check_whole(
    game: Game, hand: Hand, table: Table, flags: Mapping[str, frozenset[Special]]
) -> None:
    """The players' scores together: disjoint tiles of the deck give them all at once
    (``scoring.whole_hand``)."""
    claims = []
    for name in table.order:
        result = hand.results[name]
        (fewest, most), _ = seat_tiles(game, name, flags[name], table)
        claims.append(Claim(name, result.pips, fewest, most, result.tiles))
    check_scores(game.deck(table.players), claims, table.path)
