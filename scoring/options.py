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

from scoring.model import ChipPayment, HeadTail, NextFirst, Options
from scoring.text import N_

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
                N_("Chip payment"),
                N_(
                    "Usually the last place, and anyone over 30, pays the winner; "
                    "or every loser pays."
                ),
                (
                    (ChipPayment.EACH.value, N_("each loser pays")),
                    (ChipPayment.HIGHEST.value, N_("last and over 30 pay")),
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


# The defaults that changed, with what they were before: a table stored before the change was
# played under the old one, so it keeps it, written into its options.
CHANGED_DEFAULTS: Mapping[str, str] = MappingProxyType({"payment": ChipPayment.EACH.value})


def as_played(option_names: frozenset[str], options: Mapping[str, object]) -> dict[str, object]:
    """The ``options`` of a table stored before the defaults changed (``CHANGED_DEFAULTS``), as
    it was played: each changed option the game takes and the table left unset, set to the
    default it had then.

    >>> as_played(frozenset({"chip", "payment"}), {"chip": "0.50"})
    {'chip': '0.50', 'payment': 'each'}
    >>> as_played(frozenset({"stake"}), {})
    {}
    """
    unset = option_names - options.keys()
    return {**options, **{name: CHANGED_DEFAULTS[name] for name in unset & CHANGED_DEFAULTS.keys()}}
