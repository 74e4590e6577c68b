"""A new tournament as the organiser types it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from ledger.forms import OptionFields, engine_message, game_options
from ledger.games import game_choices
from ledger.models import Event
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
