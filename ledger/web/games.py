"""The engine's games as pages show them: its English through gettext, names included.

Presentation only: what a game is, how its results are entered, its specials, hand events and
options all come from ``scoring``, so a game registered there needs nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from scoring import GAMES, OPTION_SPECS, HandEvent, OptionSpec, Special


@dataclass(frozen=True)
class OptionField:
    """An option as a form shows it, in the page's language."""

    name: str
    label: str
    help: str
    # (value, label, the games that take it: "" for every game that takes the option); empty: a
    # number
    choices: tuple[tuple[str, str, str], ...]
    default: str
    whole: bool  # a whole number (else, without choices, an amount of money)
    # A number's limits and step as a number input takes them ("" for choices).
    least: str = ""
    most: str = ""
    step: str = ""


def option_fields() -> list[OptionField]:
    """Every option the engine describes, in the order a form shows them."""
    return [
        OptionField(
            spec.name,
            _(spec.label),
            _(spec.help),
            tuple(
                (value, _(label), _games_taking(spec.name, value)) for value, label in spec.choices
            ),
            spec.default,
            spec.most is not None,
            *_limits(spec),
        )
        for spec in OPTION_SPECS.values()
    ]


def _games_taking(option: str, value: str) -> str:
    """The keys of the games that take ``value`` of ``option``, where they differ ("" where
    every game that takes the option takes every value)."""
    games = [game for game in GAMES.values() if option in game.option_names]
    taking = [game.key for game in games if value in game.option_values(option)]
    return "" if len(taking) == len(games) else " ".join(taking)


def _limits(spec: OptionSpec) -> tuple[str, str, str]:
    """The least, most and step of a number option: whole from 1, or an amount from 0."""
    if spec.most is not None:
        return "1", str(spec.most), "1"
    if spec.amount is not None:
        return "0", str(spec.amount.most), str(Decimal(1).scaleb(-spec.amount.places))
    return "", "", ""


def game_choices() -> list[tuple[str, str]]:
    """The registered games by key, each by its name in the page's language."""
    return [(key, _(game.label)) for key, game in GAMES.items()]


_NAMED: dict[str, Special | HandEvent] = {
    member.value: member for kind in (Special, HandEvent) for member in kind
}


def special_label(value: str) -> str:
    """A special result or a hand event, by its value as a hand stores it, in the page's
    language."""
    return _(_NAMED[value].label)


@dataclass(frozen=True)
class GameSummary:
    key: str
    title: str  # in the page's language ("Ce Deng 斜钉" in English)
    players: str  # "4", "2–3"
    most: int  # the most players: what "players" agrees with ("1 player", "2–3 players")


def game_list() -> list[GameSummary]:
    """The games the ledger scores, with the player counts each allows."""
    summaries = []
    for game in GAMES.values():
        counts = game.player_counts
        players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        summaries.append(GameSummary(game.key, _(game.label), players, counts[-1]))
    return summaries
