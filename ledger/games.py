"""The engine's games as pages show them: its English through gettext, names in both scripts.

Presentation only: what a game is, how its results are entered, its specials, hand events and
options all come from ``scoring``, so a game registered there needs nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring import GAMES, OPTION_SPECS, HandEvent, Special


@dataclass(frozen=True)
class OptionField:
    """An option as a form shows it, in the page's language."""

    name: str
    label: str
    help: str
    choices: tuple[tuple[str, str], ...]  # empty: a number
    default: str
    whole: bool  # a whole number (else, without choices, an amount of money)


def option_fields() -> list[OptionField]:
    """Every option the engine describes, in the order a form shows them."""
    return [
        OptionField(
            spec.name,
            _(spec.label),
            _(spec.help),
            tuple((value, _(label)) for value, label in spec.choices),
            spec.default,
            spec.most is not None,
        )
        for spec in OPTION_SPECS.values()
    ]


def game_choices() -> list[tuple[str, str]]:
    """The registered games by key, each with both its names (players know either)."""
    return [(key, game.label) for key, game in GAMES.items()]


_NAMED: dict[str, Special | HandEvent] = {
    member.value: member for kind in (Special, HandEvent) for member in kind
}


def special_label(value: str) -> str:
    """A special result or a hand event, by its value as a hand stores it, in both scripts."""
    return _NAMED[value].label
