# A frozen copy of scoring/options.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""What a form needs to know of each session option: its label, help, choices, default, limits.

``Options`` (in model.py) holds a session's values; this module describes them for a person
choosing them. The document reader takes the amount limits from here, so what a form offers
and what the engine accepts cannot drift apart. Labels and help are English, marked with
``N_`` for the app to translate.

>>> OPTION_SPECS["head_tail"].choices[1], OPTION_SPECS["head_tail"].default
(('6/7', '6/7 (stricter)'), '7/8')
>>> OPTION_SPECS["stake"].amount
Amount(most=Decimal('1000000000'), places=4)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import NamedTuple

from .model import ChipPayment, ChiTsun, Doubles, HeadTail, NextFirst, Options, Ties
from .text import N_

_DEFAULTS = Options()


class Amount(NamedTuple):
    """The amounts of money an option accepts: 0 (points only: nothing is paid) or more, at
    most ``most``, with at most ``places`` decimal places."""

    most: Decimal
    places: int


AMOUNT = Amount(Decimal(10) ** 9, 4)
# The options that end a session, which every game takes (RULES.md, "Sessions").
ENDS = ("play_to", "hands")
MOST_POINTS = 100_000  # a target beyond any evening's play
MOST_HANDS = 1_000


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of ``Options``, described for a form: either ``choices``, (value as the
    document writes it, English label) pairs, an ``amount`` of money, or a whole number from 1
    to ``most`` that may be left out (``Options`` then holds None)."""

    name: str
    label: str
    help: str
    choices: tuple[tuple[str, str], ...] = ()
    amount: Amount | None = None
    most: int | None = None

    @property
    def default(self) -> str:
        """The value ``Options`` takes when a session leaves the option out, as text ("" for
        none)."""
        value = getattr(_DEFAULTS, self.name)
        return "" if value is None else str(value)

    @property
    def values(self) -> tuple[str, ...]:
        """The values the option may take (empty for an amount)."""
        return tuple(value for value, _ in self.choices)


OPTION_SPECS: Mapping[str, OptionSpec] = MappingProxyType(
    {
        spec.name: spec
        for spec in (  # in the order a form shows them
            OptionSpec(
                "stake",
                N_("Stake"),
                N_(
                    "Money per point of difference (usually 1); 0 counts points only, nothing paid."
                ),
                amount=AMOUNT,
            ),
            OptionSpec(
                "chip",
                N_("Chip value"),
                N_("What one chip is worth (usually 1); 0 counts points only, nothing paid."),
                amount=AMOUNT,
            ),
            OptionSpec(
                "head_tail",
                N_("Head and tail"),
                N_(
                    "Usually 7/8: a head-seven or tail-eight pays double; "
                    "6/7 also counts head-six and tail-seven."
                ),
                (
                    (HeadTail.SEVEN_EIGHT.value, N_("7/8 (usual)")),
                    (HeadTail.SIX_SEVEN.value, N_("6/7 (stricter)")),
                ),
            ),
            OptionSpec(
                "redeal_doubles",
                N_("Redeal at"),
                N_("Usually a player dealt 7 doubles may ask for a redeal; some tables allow 6."),
                (("7", N_("7 doubles (usual)")), ("6", N_("6 doubles"))),
            ),
            OptionSpec(
                "payment",
                N_("Payment"),
                N_(
                    "Usually every pair settles the difference, or in Kko-li-but-i-gi the last "
                    "place and anyone over 30 pay the winner a chip; or chips from every loser."
                ),
                (
                    (ChipPayment.PAIRWISE.value, N_("every pair settles the difference")),
                    (ChipPayment.CHIPS.value, N_("each loser pays the winner a chip")),
                    (ChipPayment.HIGHEST.value, N_("last and over 30 pay")),
                    (ChipPayment.EACH.value, N_("each loser pays")),
                ),
            ),
            OptionSpec(
                "doubles",
                N_("Declared doubles"),
                N_(
                    "At a table that pays chips, declared doubles usually take 2 chips from "
                    "each other player; tables played before kept 2 x stake x pips in money."
                ),
                (
                    (Doubles.CHIPS.value, N_("2 chips from each player (usual)")),
                    (Doubles.STAKE.value, N_("2 x stake x pips, in money")),
                ),
            ),
            OptionSpec(
                "ties",
                N_("Tied hands"),
                N_(
                    "Usually a tie for the best score goes to the earlier player in turn "
                    "order; or to the smaller total so far."
                ),
                (
                    (Ties.TURN_ORDER.value, N_("the earlier in turn order (usual)")),
                    (Ties.LOWER_TOTAL.value, N_("the smaller total so far")),
                ),
            ),
            OptionSpec(
                "chi_tsun",
                N_("Ch'i tsun"),
                N_(
                    "Usually 1:2 and 2:4 mate only each other; some tables let them also mate "
                    "other tiles of the same pips."
                ),
                (
                    (ChiTsun.ITSELF.value, N_("only each other (usual)")),
                    (ChiTsun.BY_SPOTS.value, N_("also by their pips")),
                ),
            ),
            OptionSpec(
                "next_first",
                N_("Next lead"),
                N_(
                    "Usually the hand's winner leads the next; or the lead passes to the next seat."
                ),
                (
                    (NextFirst.WINNER.value, N_("the winner")),
                    (NextFirst.ROTATE.value, N_("the next seat")),
                ),
            ),
            OptionSpec(
                "play_to",
                N_("Play to"),
                N_("Over after the hand in which someone's total reaches this; empty: no target."),
                most=MOST_POINTS,
            ),
            OptionSpec(
                "hands",
                N_("Hands"),
                N_("Over after this many hands (redeals not counted); empty: no limit."),
                most=MOST_HANDS,
            ),
        )
    }
)


# The revision of RULES.md this engine plays.
RULES = 5
# The defaults that changed, by the revision of the rules that changed them: the games, the
# option, what it was before, and the option and value of the tables it changed for (None: every
# table of the games). A table stored before a change was played under the old default, so it
# keeps it, written into its options.
CHANGED_DEFAULTS: tuple[tuple[int, frozenset[str], str, str, tuple[str, str] | None], ...] = (
    (2, frozenset({"kkoribuchigi"}), "payment", ChipPayment.EACH.value, None),
    (3, frozenset({"tiu-yu"}), "chi_tsun", ChiTsun.BY_SPOTS.value, None),
    # Ce Deng's declared doubles at a chips table paid 2 x stake x pips in money until rev 5.
    (
        5,
        frozenset({"ce-deng"}),
        "doubles",
        Doubles.STAKE.value,
        ("payment", ChipPayment.CHIPS.value),
    ),
)
# The options that were ignored until a revision of the rules refused them, by that revision:
# the games, the option, and the option and value under which it counted (``counts``: it
# counted only where the option had that value; else only where it had another). A table
# stored before was played without it, so it is left out.
IGNORED_UNTIL: tuple[tuple[int, frozenset[str], str, tuple[str, str, bool]], ...] = (
    (
        4,
        frozenset({"jie-long", "ce-deng", "tsair-deng"}),
        "chip",
        ("payment", ChipPayment.CHIPS.value, True),
    ),
    # At a chips table the stake paid only Ce Deng's declared doubles, which keep it (above).
    (
        5,
        frozenset({"jie-long", "tsair-deng"}),
        "stake",
        ("payment", ChipPayment.CHIPS.value, False),
    ),
)


def as_played(
    game: str, options: Mapping[str, object], *, played: int, now: int = RULES
) -> dict[str, object]:
    """The ``options`` of a ``game`` table stored under the rules of revision ``played``, as
    it was played under the rules of revision ``now``: each option whose default changed in
    between and that the table left unset, set to the default it had then; each option that
    was ignored then and is refused now, left out.

    >>> as_played("kkoribuchigi", {"chip": "0.50"}, played=1)
    {'chip': '0.50', 'payment': 'each'}
    >>> as_played("tiu-yu", {}, played=2), as_played("tiu-yu", {}, played=3)
    ({'chi_tsun': 'by_spots'}, {})
    >>> as_played("kkoribuchigi", {}, played=2), as_played("jie-long", {}, played=1)
    ({}, {})
    >>> as_played("ce-deng", {"stake": "2", "chip": "5"}, played=3)
    {'stake': '2'}
    >>> as_played("ce-deng", {"chip": "5", "payment": "chips"}, played=3)
    {'chip': '5', 'payment': 'chips', 'doubles': 'stake'}
    >>> as_played("ce-deng", {"chip": "5", "payment": "chips"}, played=3, now=4)
    {'chip': '5', 'payment': 'chips'}
    >>> as_played("jie-long", {"payment": "chips", "stake": "2"}, played=4)
    {'payment': 'chips'}
    >>> as_played("jie-long", {"stake": "2"}, played=4), as_played("ce-deng", {}, played=4)
    ({'stake': '2'}, {})
    """

    def applies(where: tuple[str, str] | None) -> bool:
        return where is None or options.get(where[0]) == where[1]

    ignored = {
        name
        for revision, games, name, (by, value, counts) in IGNORED_UNTIL
        if game in games and played < revision <= now and (options.get(by) == value) != counts
    }
    return {
        **{name: value for name, value in options.items() if name not in ignored},
        **{
            name: was
            for revision, games, name, was, where in CHANGED_DEFAULTS
            if game in games and played < revision <= now and name not in options and applies(where)
        },
    }
