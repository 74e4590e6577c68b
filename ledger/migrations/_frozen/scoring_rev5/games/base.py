# A frozen copy of scoring/games/base.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""What every game shares: the table, the checks on a result, ranking and the hand outcome."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from functools import cache
from types import MappingProxyType
from typing import ClassVar, NamedTuple

from ..errors import Problems, ScoringError
from ..model import (
    ChipPayment,
    Entry,
    Hand,
    HandEvent,
    HeadTail,
    Options,
    Payment,
    Proof,
    Result,
    Special,
    Ties,
)
from ..options import ENDS, OPTION_SPECS, OptionSpec
from ..text import Phrase
from ..tiles import Deck, Tile, check_in_deck, pip_totals
from ..whole_hand import Claim, check_scores


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
    # Each player's total score before this hand, where the options need it (``ties``).
    so_far: Mapping[str, int] | None = None

    @property
    def first(self) -> str:
        return self.order[0]

    @property
    def players(self) -> int:
        return len(self.order)

    def result_path(self, name: str, field: str = "") -> str:
        return f"{self.path}.results.{name}" + (f".{field}" if field else "")


class Outcome(NamedTuple):
    """A scored hand before netting: scores, ranking (winner first) and payments, and the
    specials applied because the entries prove them."""

    scores: Mapping[str, int]
    ranking: tuple[str, ...]
    payments: tuple[Payment, ...]
    proven: tuple[Proof, ...] = ()


_JIE_LONG_DEAL = {2: 16, 3: 10, 4: 8}


@cache
def _plain_totals(game: Game, players: int) -> tuple[frozenset[int], frozenset[int]]:
    """Scores above 0 that need no special: for the player who led, and for the others."""
    deck, dealt = game.deck(players), game.tiles_each(players)
    return pip_totals(deck, 1, dealt - 1), pip_totals(deck, 1, dealt)


@cache
def _proofs(
    game: Game, players: int, leads: bool, options: Options
) -> tuple[tuple[Special, int, int], ...]:
    """(special, tiles it counts, the most pips one tile fewer can make) for each head or tail
    special a seat may have, most tiles first: an entry of more pips than that proves it."""
    deck, dealt = game.deck(players), game.tiles_each(players)
    found = []
    for special in game.seat_specials(players, leads=leads, options=options):
        if special in LOW:
            tiles = dealt - (SPECIAL_RULES[special].keeps or 0)
            found.append((special, tiles, max(pip_totals(deck, tiles - 1, tiles - 1))))
    return tuple(sorted(found, key=lambda proof: -proof[1]))


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
    # The values of the option ``payment`` the game takes, its usual first (none: no option).
    payments: ClassVar[tuple[ChipPayment, ...]] = ()

    def option_values(self, name: str) -> tuple[str, ...]:
        """The values of option ``name`` (one with choices) that this game takes, its usual
        first where the option has no one default.

        >>> from scoring import get_game
        >>> get_game("ce-deng").option_values("payment")
        ('pairwise', 'chips')
        """
        if name == "payment":
            return tuple(payment.value for payment in self.payments)
        return OPTION_SPECS[name].values

    def payment(self, options: Options) -> ChipPayment | None:
        """How this game pays a hand under ``options``: as set, or the game's usual."""
        return options.payment or (self.payments[0] if self.payments else None)

    def pays_chips(self, options: Options) -> bool:
        """Whether this game pays in chips under ``options`` (else in money, by the stake)."""
        return "stake" not in self.option_names or self.payment(options) is ChipPayment.CHIPS

    def unit(self, options: Options) -> Decimal:
        """What one point (or one chip) is worth at this table: the stake, or the chip where
        the game pays in chips. 0: points only."""
        return options.chip if self.pays_chips(options) else options.stake

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
        proven = () if hand.blocked or table.trusted else self.prove(hand, table)
        flags = {}
        scores = {}
        for name in table.order:
            result = hand.results[name]
            for proof in proven:
                if proof.player == name:
                    result = result._replace(specials=result.specials | {proof.special})
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
        outcome = self.settle(scores, flags, table)
        return outcome._replace(proven=proven) if proven else outcome

    def proofs(
        self, players: int, *, leads: bool, options: Options
    ) -> tuple[tuple[Special, int, int], ...]:
        """What proves each head or tail special a seat may have, most tiles first: (special,
        the tiles it counts, the most pips one tile fewer can make). An entry of that many
        tiles, or of more pips, proves it (a form can tick it as the number is typed).

        >>> from scoring import get_game
        >>> get_game("ce-deng").proofs(4, leads=False, options=Options())
        ((<Special.TAIL_EIGHT: 'tail_eight'>, 8, 76),)
        """
        return _proofs(self, players, leads, options)

    def prove(self, hand: Hand, table: Table) -> tuple[Proof, ...]:
        """The head and tail specials that the entries of a played, unblocked hand prove
        though nobody marked them (RULES.md, Ce Deng): a player whose entry only as many tiles
        as the special names can make has it, the way a 0 is a pass.

        >>> from scoring import get_game
        >>> table = Table(("A", "B", "C", "D"), Options(), "hands[0]")
        >>> hand = Hand({"A": Result(20), "B": Result(80), "C": Result(30), "D": Result(10)})
        >>> [(p.player, p.special.value, p.tiles) for p in get_game("ce-deng").prove(hand, table)]
        [('B', 'tail_eight', 8)]
        """
        return tuple(
            proof
            for name in table.order
            if not hand.results[name].specials & (LOW | {Special.PASS})
            and (proof := self._proof(name, hand.results[name], table)) is not None
        )

    def explain(self, hand: Hand, table: Table) -> tuple[Proof, ...]:
        """Why each head or tail special of a played, unblocked hand stands where the entry
        alone proves it, marked or not: what a saved hand says, whether the number or the
        form (which ticks it as the number is typed) marked it. A special marked that the
        entry does not prove is the players' word, and has no reason to give.

        >>> from scoring import get_game
        >>> table = Table(("A", "B", "C", "D"), Options(), "hands[0]")
        >>> marked = Result(80, specials=frozenset({Special.TAIL_EIGHT}))
        >>> hand = Hand({"A": Result(20), "B": marked, "C": Result(30), "D": Result(10)})
        >>> [str(p.why) for p in get_game("ce-deng").explain(hand, table)]
        ["B's 80 pips need 8 tiles, so B has tail-eight 尾八"]
        """
        if hand.blocked or hand.redeal is not None:
            return ()
        found = []
        for name in table.order:
            result = hand.results.get(name)
            if result is None or Special.PASS in result.specials:
                continue
            proof = self._proof(name, result, table)
            marked = result.specials & LOW
            if proof is not None and (not marked or proof.special in marked):
                found.append(proof)
        return tuple(found)

    def _proof(self, name: str, result: Result, table: Table) -> Proof | None:
        """The head or tail special that ``result``'s entry alone proves, if any."""
        proofs = _proofs(self, table.players, name == table.first, table.options)
        for i, (special, tiles, beyond) in enumerate(proofs):
            if result.tiles is None and result.pips > beyond:
                # A special with more tiles before it could have made these pips too.
                return Proof(name, special, tiles, result.pips, False, at_least=i > 0)
            if result.tiles is not None and len(result.tiles) == tiles:
                return Proof(name, special, tiles, result.pips, by_tiles=True)
        return None

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

    def tie_order(self, table: Table) -> tuple[str, ...]:
        """The order in which tied scores are ranked: turn order, or with ``ties:
        lower_total`` (RULES.md, Tsair Deng) the smaller total so far first, then turn order.

        >>> from scoring import get_game
        >>> table = Table(("A", "B", "C"), Options(ties=Ties.LOWER_TOTAL), "hands[1]",
        ...               so_far={"A": 30, "B": 10, "C": 30})
        >>> get_game("jie-long").tie_order(table)
        ('B', 'A', 'C')
        """
        if table.options.ties is not Ties.LOWER_TOTAL or table.so_far is None:
            return table.order
        so_far = table.so_far
        return tuple(sorted(table.order, key=lambda name: so_far.get(name, 0)))

    def in_chips(
        self,
        ranking: tuple[str, ...],
        table: Table,
        multiplier: Callable[[str, str], tuple[int, str]] | None = None,
    ) -> tuple[Payment, ...]:
        """``payment: chips`` (RULES.md, seed 001): every other player pays the hand's winner
        one chip, times the pair's ``multiplier`` where the game has one."""
        winner, *losers = ranking
        chip = table.options.chip
        found = []
        for name in losers:
            times, reason = multiplier(winner, name) if multiplier else (1, "chip")
            found.append(
                Payment(name, winner, chip * times, times, "chip" if times == 1 else reason)
            )
        return tuple(found)

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
    if Special.SUANZHANG in specials:
        # RULES.md, Ding Niu: the creator played the tile that made the block.
        return (0, dealt - 1), Phrase(
            "the SuanZhang creator played the tile that made the block, so at most {most} "
            "of {dealt} tiles are left",
            most=dealt - 1,
            dealt=dealt,
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
