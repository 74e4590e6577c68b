"""What the API takes and gives for tournaments."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from rest_framework import serializers

from ledger.api.money import Money, OptionsOut, money, options_out
from ledger.api.shapes import (
    GameField,
    OptionsField,
    StrictChar,
    StrictInteger,
)
from ledger.events import selectors
from ledger.models import Event, default_tie_breakers
from ledger.web.converters import Token


class EventIn(serializers.Serializer[dict[str, Any]]):
    name = StrictChar(max_length=80)
    game = GameField()
    options = OptionsField(required=False, default=dict)
    rounds = StrictInteger(min_value=1, max_value=50)
    hands_per_round = StrictInteger(min_value=1, max_value=500, required=False, allow_null=True)
    minutes_per_round = StrictInteger(min_value=1, max_value=600, required=False, allow_null=True)
    method = serializers.ChoiceField(Event.Method.values, default=Event.Method.MIXING)
    tie_breakers = serializers.ListField(
        child=serializers.ChoiceField(default_tie_breakers()), required=False, max_length=3
    )


class NameIn(serializers.Serializer[dict[str, Any]]):
    name = StrictChar(max_length=40)


class EntryIn(serializers.Serializer[dict[str, Any]]):
    """One player by ``name``, or every player of a ``group``: one of the two."""

    name = StrictChar(max_length=40, required=False)
    group = StrictChar(
        max_length=64,
        required=False,
        validators=[RegexValidator(f"^{Token.regex}$")],
        help_text="A group's token (its link's last part): registers every player of the group.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("name" in attrs) == ("group" in attrs):
            raise serializers.ValidationError("send a name or a group (one of the two)")
        return attrs


class SwapIn(serializers.Serializer[dict[str, Any]]):
    first = StrictChar(max_length=40)
    second = StrictChar(max_length=40)


class EventStandingOut(serializers.Serializer[dict[str, Any]]):
    place = serializers.IntegerField()
    name = serializers.CharField()
    net = Money()
    hands_won = serializers.IntegerField()
    points = serializers.IntegerField()
    hands = serializers.IntegerField()
    byes = serializers.IntegerField()
    active = serializers.BooleanField()


class RoundTableOut(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    seating = serializers.ListField(child=serializers.CharField(), help_text="Seat 0 leads.")
    hands = serializers.IntegerField(help_text="Hands that count so far.")
    read_token = serializers.CharField(help_text="The table's read-only link token.")


class OrganiserTableOut(RoundTableOut):
    token = serializers.CharField(help_text="The table's join token (for the table card).")


class RoundOut(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    method = serializers.CharField()
    started = serializers.DateTimeField(allow_null=True)
    ends = serializers.DateTimeField(allow_null=True)
    byes = serializers.ListField(child=serializers.CharField())
    tables = RoundTableOut(many=True)


class OrganiserRoundOut(RoundOut):
    tables = OrganiserTableOut(many=True)


class ResultsOut(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    game = serializers.CharField()
    rounds = serializers.IntegerField()
    standings = EventStandingOut(many=True, help_text="Everyone registered, best first.")
    played = RoundOut(many=True, help_text="The rounds seated so far.")


class EventOut(ResultsOut):
    token = serializers.CharField(help_text="The organiser's token: keep it.")
    register_token = serializers.CharField(help_text="For players to register themselves.")
    read_token = serializers.CharField(help_text="For the read-only results.")
    options = OptionsOut()
    method = serializers.CharField()
    tie_breakers = serializers.ListField(child=serializers.CharField())
    hands_per_round = serializers.IntegerField(allow_null=True)
    minutes_per_round = serializers.IntegerField(allow_null=True)
    played = OrganiserRoundOut(many=True, help_text="The rounds seated so far.")


class EntriesOut(EventOut):
    """The event, and what registering a group did."""

    added = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="With group: who it registered."
    )
    already_registered = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="With group: who was registered before (left as they were).",
    )


def results_data(event: Event, *, organiser: bool) -> dict[str, Any]:
    standings = selectors.standings(event)
    rounds = []
    for this_round in event.round_set.all():
        tables = []
        for table in (t for t in standings.tables if t.round == this_round.number):
            shown: dict[str, Any] = {
                "number": table.number,
                "seating": table.seating,
                "hands": table.counted,
                "read_token": table.read_token,
            }
            tables.append({**shown, "token": table.token} if organiser else shown)
        rounds.append(
            {
                "number": this_round.number,
                "method": this_round.method,
                "started": this_round.started,
                "ends": this_round.ends,
                "byes": this_round.byes,
                "tables": tables,
            }
        )
    rows = [
        {
            "place": row.place,
            "name": row.name,
            "net": money(row.net),
            "hands_won": row.hands_won,
            "points": row.points,
            "hands": row.hands,
            "byes": row.byes,
            "active": row.active,
        }
        for row in standings.rows
    ]
    out: dict[str, Any] = {
        "name": event.name,
        "game": event.game,
        "rounds": event.rounds,
        "standings": rows,
        "played": rounds,
    }
    if organiser:
        out |= {
            "token": event.token,
            "register_token": event.register_token,
            "read_token": event.read_token,
            "options": options_out(event.options),
            "method": event.method,
            "tie_breakers": event.tie_breakers,
            "hands_per_round": event.hands_per_round,
            "minutes_per_round": event.minutes_per_round,
        }
    return out
