"""What a phone posts on a group's pages: a new group, a table of it, a payment, its settings."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledger.groups.models import Group, Payment
from ledger.groups.selectors import plays_with
from ledger.groups.services import GROUP_NAME_LENGTH
from ledger.tables.forms import SeatFields
from ledger.web.forms import (
    IDEMPOTENCY_KEY,
    OptionFields,
    engine_message,
    game_options,
    whole_number,
)
from ledger.web.games import game_choices
from scoring import GAMES, ScoringError


class GroupForm(OptionFields):
    """A new group: its name, its usual game and options (the engine checks them)."""

    name = forms.CharField(label=_("Name of the group"), max_length=GROUP_NAME_LENGTH)
    game = forms.ChoiceField(label=_("Usual game"), choices=game_choices)

    def options(self) -> dict[str, str]:
        """The options set for the chosen game; call after ``is_valid()``."""
        return game_options(self.cleaned_data, GAMES[self.cleaned_data["game"]].option_names)

    def add_scoring_error(self, error: ScoringError) -> None:
        """Each problem the engine found beside its field (the name, an option)."""
        for problem in error.errors:
            field = problem.path.removeprefix("options.")
            self.add_error(field if field in self.fields else None, engine_message(problem))


class TableForm(SeatFields):
    """A table of the group: its players in seating order and who leads first; the group's
    usual game and options, or another game with that game's usual rules.

    The group's players are ticked (``seat``: their ids, in the order they sit, which is the
    order the page lists them in); new names typed in the seat fields sit after them."""

    def __init__(self, *args: Any, players: dict[int, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players
        self.fields["seat"] = forms.TypedMultipleChoiceField(
            choices=list(players.items()), coerce=int, required=False
        )
        # The organiser's say: this table's stake, or its chip where the game pays in chips,
        # instead of what the group plays for (the engine checks it).
        self.fields["paid"] = forms.CharField(max_length=30, required=False)

    def seating(self) -> list[str]:
        """The players ticked, in the order sent, then the names typed; call after
        ``is_valid()``."""
        ticked = [self.players[pk] for pk in self.cleaned_data.get("seat", [])]
        return ticked + super().seating()

    def seat_choices(self) -> list[tuple[int, str, bool]]:
        """The group's players as the page offers them, each with whether it is ticked: the
        ticked first, in the order they sit, then the others by name."""
        value = self["seat"].value() or []
        ticked = dict.fromkeys(
            pk for pk in (whole_number(str(v)) for v in value) if pk in self.players
        )
        rest = sorted(
            (pk for pk in self.players if pk not in ticked),
            key=lambda pk: self.players[pk].casefold(),
        )
        return [(pk, self.players[pk], True) for pk in ticked] + [
            (pk, self.players[pk], False) for pk in rest
        ]


class PaymentForm(forms.Form):
    """ "Bob paid Anna 20 in cash": who paid whom, how much, in what, and a note."""

    payer = forms.CharField(label=_("Who paid"), max_length=40)
    payee = forms.CharField(label=_("To whom"), max_length=40)
    amount = forms.CharField(label=_("Amount"), max_length=30)
    unit = forms.ChoiceField(label=_("In"), choices=Payment.Unit.choices, initial="money")
    # What a chip of a payment in chips is worth; left empty, the one value the group's chips
    # have (services.payment_record).
    chip = forms.CharField(label=_("A chip is worth"), max_length=30, required=False)
    note = forms.CharField(label=_("Note"), max_length=80, required=False)
    # Made by the page for each form it shows: a payment sent again with it is stored once.
    key = forms.CharField(required=False)

    def clean_key(self) -> str:
        key: str = self.cleaned_data["key"]
        if not IDEMPOTENCY_KEY.fullmatch(key):
            # Said above the form: the key is not a field anyone sees or types.
            raise forms.ValidationError(
                _(
                    "This form came without its one-time key, which keeps a payment sent twice "
                    "from being counted twice: nothing was saved. Record the payment again."
                )
            )
        return key


class PeriodForm(forms.Form):
    """The period statistics are for (a GET form): all time, this month, or from one day to
    another, both included."""

    ALL, MONTH, BETWEEN = "all", "month", "between"
    period = forms.ChoiceField(
        choices=[(ALL, _("All time")), (MONTH, _("This month")), (BETWEEN, _("Between"))],
        required=False,
    )
    start = forms.DateField(label=pgettext_lazy("first day of a period", "From"), required=False)
    end = forms.DateField(label=pgettext_lazy("last day of a period", "To"), required=False)
    a = forms.IntegerField(required=False, min_value=1)
    b = forms.IntegerField(required=False, min_value=1)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("period") == self.BETWEEN:
            start, end = data.get("start"), data.get("end")
            if start is None and end is None:
                raise forms.ValidationError(_("Give the first day, the last day, or both."))
            if start and end and start > end:
                raise forms.ValidationError(_("The first day comes after the last."))
        return data

    def dates(self, today: date) -> tuple[date | None, date | None]:
        """The first and last day (None: no limit); call after ``is_valid()``."""
        period = self.cleaned_data.get("period") or self.ALL
        if period == self.MONTH:
            return today.replace(day=1), today
        if period == self.BETWEEN:
            return self.cleaned_data.get("start"), self.cleaned_data.get("end")
        return None, None


class SettingsForm(forms.Form):
    """What the organiser changes of a group: its name, its usual game, and what it plays for
    at every game (``stake``, ``chip``: empty, the usual 1), and at one game, where it is
    another (a field named by the game's key: its stake, or its chip where it pays chips)."""

    name = forms.CharField(label=_("Name"), max_length=80)
    game = forms.ChoiceField(label=_("Usual game"), choices=game_choices)
    stake = forms.CharField(label=_("A point's stake"), max_length=30, required=False)
    chip = forms.CharField(label=_("A chip's value"), max_length=30, required=False)

    def __init__(self, data: Any = None, *, group: Group) -> None:
        plays_for = group.plays_for
        initial = {
            "name": group.name,
            "game": group.game,
            "stake": plays_for.get("stake", ""),
            "chip": plays_for.get("chip", ""),
            **{
                game: next(iter(own.values()), "")
                for game, own in plays_for.get("games", {}).items()
            },
        }
        super().__init__(data, initial=initial)
        self.group = group
        self.kinds = {
            game: plays_with(game, group.options if game == group.game else {}) for game in GAMES
        }
        for game in GAMES:
            self.fields[game] = forms.CharField(max_length=30, required=False)

    def settings(self) -> dict[str, Any]:
        """The settings as sent (call after ``is_valid()``): a new usual game takes its own
        usual rules."""
        data = self.cleaned_data
        game = data["game"]
        plays_for: dict[str, Any] = {
            k: data[k].strip() for k in ("stake", "chip") if data[k].strip()
        }
        games = {g: {self.kinds[g]: data[g].strip()} for g in GAMES if data[g].strip()}
        if games:
            plays_for["games"] = games
        options = self.group.options if game == self.group.game else {}
        return {"name": data["name"], "game": game, "options": options, "plays_for": plays_for}

    def game_rows(self) -> list[tuple[str, str, forms.BoundField]]:
        """Each game with what it plays for (``stake`` or ``chip``) and its field."""
        return [(game, self.kinds[game], self[game]) for game in GAMES]
