"""A new tournament as the organiser types it; a drop and a swap as the organiser chooses them;
a group's link as the organiser pastes it."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext, gettext_lazy

from ledger.events.selectors import Places
from ledger.groups import selectors as group_selectors
from ledger.links import NoSuchLink
from ledger.models import Event, Group
from ledger.web.converters import Token
from ledger.web.forms import OptionFields, engine_message, game_options
from ledger.web.games import game_choices
from scoring import GAMES, ScoringError

TIE_BREAKERS = [
    ("hands_won", gettext_lazy("more hands won")),
    ("fewest_points", gettext_lazy("fewer points taken")),
    ("head_to_head", gettext_lazy("head-to-head")),
    ("", gettext_lazy("none")),
]


class EventForm(OptionFields):
    """A new tournament: name, game and options, rounds, their length, the seating method."""

    name = forms.CharField(max_length=80)
    game = forms.ChoiceField(choices=game_choices)
    rounds = forms.IntegerField(min_value=1, max_value=50, initial=3)
    hands_per_round = forms.IntegerField(min_value=1, max_value=500, required=False)
    minutes_per_round = forms.IntegerField(min_value=1, max_value=600, required=False)
    method = forms.ChoiceField(choices=Event.Method.choices, initial=Event.Method.MIXING)
    tie_1 = forms.ChoiceField(choices=TIE_BREAKERS, initial="hands_won", required=False)
    tie_2 = forms.ChoiceField(choices=TIE_BREAKERS, initial="fewest_points", required=False)
    tie_3 = forms.ChoiceField(choices=TIE_BREAKERS, initial="head_to_head", required=False)

    def event(self) -> dict[str, Any]:
        """What ``services.event_create`` takes; call after ``is_valid()``."""
        data = self.cleaned_data
        ties = [data[f"tie_{i}"] for i in (1, 2, 3)]
        return {
            "name": data["name"],
            "game": data["game"],
            "options": game_options(data, GAMES[data["game"]].option_names),
            "rounds": data["rounds"],
            "hands_per_round": data["hands_per_round"],
            "minutes_per_round": data["minutes_per_round"],
            "method": data["method"],
            # In the order chosen, each once, "none" left out.
            "tie_breakers": list(dict.fromkeys(t for t in ties if t)),
        }

    def add_scoring_error(self, error: ScoringError) -> None:
        for problem in error.errors:
            field = problem.path.removeprefix("options.")
            self.add_error(field if field in self.fields else None, engine_message(problem))


class ChosenForm(forms.Form):
    """Players chosen from lists: what the organiser sent, or why not, in one line."""

    def error_text(self) -> str:
        return " ".join(str(error) for errors in self.errors.values() for error in errors)


def _player_field(choices: list[Any], label: str) -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=[("", gettext("choose a player")), *choices],
        label=label,
        error_messages={
            "required": gettext("Choose a player from the list."),
            "invalid_choice": gettext("%(value)s is not a player to choose here."),
        },
    )


class DropForm(ChosenForm):
    """One of the players still in the event, to drop out."""

    def __init__(self, data: Any, *, names: list[str]) -> None:
        super().__init__(data)
        self.fields["name"] = _player_field([(name, name) for name in names], gettext("Name"))


class SwapForm(ChosenForm):
    """Two players of a round not yet begun, chosen by table (or bye, or not in the round)."""

    def __init__(self, data: Any = None, *, places: Places) -> None:
        super().__init__(data, auto_id="swap-%s")
        self.places = places
        groups: list[Any] = [
            (gettext("Table %(n)s") % {"n": number}, [(name, name) for name in names])
            for number, names in places.tables
        ]
        if places.byes:
            groups.append((gettext("bye"), [(name, name) for name in places.byes]))
        if places.outside:
            groups.append((gettext("Not in this round"), [(n, n) for n in places.outside]))
        self.fields["first"] = _player_field(groups, gettext("Swap"))
        self.fields["second"] = _player_field(groups, gettext("with"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("first"), data.get("second")
        if not first or not second:
            return data
        outside = set(self.places.outside)
        table = self.places.table_of(first)
        if first == second:
            raise forms.ValidationError(gettext("Choose two different players."))
        if first in outside and second in outside:
            raise forms.ValidationError(
                gettext("At least one of the two must be in the round (seated, or with a bye).")
            )
        if table is not None and table == self.places.table_of(second):
            message = gettext("{a} and {b} are at the same table: a swap would change nothing.")
            raise forms.ValidationError(message.format(a=first, b=second))
        return data


def link_token(text: str) -> str | None:
    """The token in a pasted link: its last path segment that can be one, query and fragment
    left out; or the token itself, pasted alone.

    >>> link_token("https://example.org/g/Ab_9-x/?from=chat#top"), link_token(" Ab_9-x ")
    ('Ab_9-x', 'Ab_9-x')
    >>> link_token("a link?") is None
    True
    """
    path = re.split(r"[?#]", text.strip(), maxsplit=1)[0]
    return next(
        (part for part in reversed(path.split("/")) if re.fullmatch(Token.regex, part)), None
    )


class GroupLinkForm(forms.Form):
    """A group's link (https://host/g/<token>/) or its token: cleaned, the group it opens."""

    link = forms.CharField(max_length=300)
    # Set when the link matched no group: a guess, which the guess limit counts.
    wrong_link = False

    def clean_link(self) -> Group:
        token = link_token(self.cleaned_data["link"])
        if token is not None:
            try:
                return group_selectors.group_by_token(token)
            except NoSuchLink:
                self.wrong_link = True
        message = gettext("No group has this link: copy it again from the group's page.")
        raise forms.ValidationError(message)
