"""The scoring contract (CONTRACT.md) as OpenAPI shapes, for the schema and its docs.

These serializers describe; they never validate. What a client sends in the contract's format
goes to ``scoring`` untouched, so the API refuses exactly what ``python -m scoring`` refuses,
with the same message and path.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scoring import (
    GAMES,
    ChipPayment,
    ChiTsun,
    Direction,
    EndReason,
    Entry,
    HandEvent,
    HeadTail,
    NextFirst,
    Special,
    Ties,
)
from scoring.options import MOST_HANDS, MOST_POINTS


@extend_schema_field(
    {
        "oneOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?\d+(\.\d+)?$"}],
        "description": 'A JSON number when whole, otherwise a decimal string such as "12.50" '
        "(the engine's contract; the ledger's answers write every amount as a string).",
        "example": 24,
    }
)
class ContractAmount(serializers.JSONField):
    """An amount of the result document, as ``python -m scoring`` writes it (CONTRACT.md)."""


@extend_schema_field(
    {
        "oneOf": [{"type": "number"}, {"type": "string"}],
        "description": 'An amount, 0 or more: a JSON number or a decimal string such as "0.50". '
        "0: the session counts points only, and nothing is paid.",
        "example": 1,
    }
)
class MoneyInput(serializers.JSONField):
    pass


def _count_input(most: int, description: str) -> dict[str, Any]:
    return {
        "oneOf": [
            {"type": "integer", "minimum": 1, "maximum": most},
            {"type": "string", "pattern": r"^[0-9]+$"},
        ],
        "description": f"{description} A whole number from 1 to {most} (or its digits as a "
        "string); leave it out for none.",
        "example": 10,
    }


@extend_schema_field(
    _count_input(MOST_POINTS, "Over after the hand in which a player's total score reaches this.")
)
class PlayToInput(serializers.JSONField):
    pass


@extend_schema_field(
    _count_input(MOST_HANDS, "Over after this many dealt hands (a redeal is not counted).")
)
class HandsInput(serializers.JSONField):
    pass


class GameField(serializers.ChoiceField):
    """A game's key: one of the games registered when the request comes (a serializer makes
    its fields anew for each request, so a game registered later is known)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(list(GAMES), **kwargs)


class ResultShape(serializers.Serializer[dict[str, Any]]):
    """One player's result in a hand: the numbers its game's entry asks for (``pips``, or the
    two fish totals), or the ``tiles`` they come from, and any special flags."""

    tiles = serializers.ListField(
        child=serializers.RegexField(r"^[0-6]:[0-6]$"), required=False, help_text='e.g. "6:6"'
    )
    specials = serializers.ListField(
        child=serializers.ChoiceField([s.value for s in Special]), required=False
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        numbers: dict[str, serializers.Field[Any, Any, Any, Any]] = {
            field.key: serializers.IntegerField(min_value=0, required=False, help_text=field.help)
            for entry in Entry
            for field in entry.fields
        }
        return {**numbers, **super().get_fields()}


class HandShape(serializers.Serializer[dict[str, Any]]):
    """A hand as played: everyone's result, or a hand event (a redeal, declared doubles) in a
    game that has it."""

    first = serializers.CharField(required=False, help_text="Who led; the rules decide if absent.")
    direction = serializers.ChoiceField(
        [d.value for d in Direction], required=False, help_text="Which way play went."
    )
    results = serializers.DictField(child=ResultShape(), required=False)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        results = fields.pop("results")
        events: dict[str, serializers.Field[Any, Any, Any, Any]] = {
            event.value: serializers.CharField(
                required=False, help_text=f"Who called the {event.label}."
            )
            if event.has_caller
            else serializers.BooleanField(required=False)
            for event in HandEvent
        }
        last = serializers.BooleanField(
            required=False,
            help_text="The time ran out during this hand: the session is over after it. A "
            "table marks it by its own clock: send it only to /score.",
        )
        return {**fields, **events, "last": last, "results": results}


class OptionsShape(serializers.Serializer[dict[str, Any]]):
    stake = MoneyInput(required=False)
    chip = MoneyInput(
        required=False,
        help_text="One chip's value: Kko-li-but-i-gi and Ding Niu; in Jie Long, Ce Deng and "
        'Tsair Deng only with payment "chips" (refused without it).',
    )
    head_tail = serializers.ChoiceField([h.value for h in HeadTail], required=False)
    redeal_doubles = serializers.ChoiceField([6, 7], required=False)
    payment = serializers.ChoiceField(
        [p.value for p in ChipPayment],
        required=False,
        help_text="pairwise or chips in Jie Long, Ce Deng and Tsair Deng (usually pairwise); "
        "highest or each in Kko-li-but-i-gi (usually highest).",
    )
    ties = serializers.ChoiceField(
        [t.value for t in Ties], required=False, help_text="Jie Long and Tsair Deng."
    )
    chi_tsun = serializers.ChoiceField(
        [c.value for c in ChiTsun], required=False, help_text="Tiu Yu: what 1:2 and 2:4 mate."
    )
    next_first = serializers.ChoiceField([n.value for n in NextFirst], required=False)
    play_to = PlayToInput(required=False)
    hands = HandsInput(required=False)


class SessionShape(serializers.Serializer[dict[str, Any]]):
    game = GameField()
    options = OptionsShape(required=False)
    seating = serializers.ListField(
        child=serializers.CharField(), help_text="Distinct names, counter-clockwise."
    )
    first = serializers.CharField(required=False, help_text="Who leads the first hand.")
    hands = HandShape(many=True, required=False)


class TransferShape(serializers.Serializer[dict[str, Any]]):
    # "from" is a Python keyword: the field is named in the mapping below.
    to = serializers.CharField()
    amount = ContractAmount()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return {"from": serializers.CharField(), **super().get_fields()}


class PaymentShape(TransferShape):
    multiplier = serializers.IntegerField()
    reason = serializers.CharField()


class ProofShape(serializers.Serializer[dict[str, Any]]):
    player = serializers.CharField()
    special = serializers.ChoiceField([s.value for s in Special])
    tiles = serializers.IntegerField(help_text="The tiles the entry needs.")
    why = serializers.CharField()


class HandResultShape(serializers.Serializer[dict[str, Any]]):
    first = serializers.CharField()
    direction = serializers.ChoiceField([d.value for d in Direction])
    order = serializers.ListField(child=serializers.CharField())
    scores = serializers.DictField(child=serializers.IntegerField())
    ranking = serializers.ListField(child=serializers.CharField())
    payments = PaymentShape(many=True)
    net = serializers.DictField(child=ContractAmount())
    next_first = serializers.CharField()
    next_direction = serializers.ChoiceField([d.value for d in Direction])
    proven = ProofShape(
        many=True,
        required=False,
        help_text="Only when an entry proves a special nobody marked, which is then applied.",
    )


class TotalsShape(serializers.Serializer[dict[str, Any]]):
    net = serializers.DictField(child=ContractAmount())
    scores = serializers.DictField(child=serializers.IntegerField())
    hands_won = serializers.DictField(child=serializers.IntegerField())


class EndShape(serializers.Serializer[dict[str, Any]]):
    """Where a session with ``play_to`` or ``hands`` stands: over, with why and who won; or
    not yet, with who leads and what is left to play."""

    over = serializers.BooleanField()
    reason = serializers.ChoiceField(
        [r.value for r in EndReason],
        required=False,
        help_text="When over: play_to (a total reached the target), hands (all were dealt) or "
        "time (it ran out during the hand marked last).",
    )
    winner = serializers.CharField(required=False, help_text="When over: who won.")
    leader = serializers.CharField(
        required=False, help_text="While it goes on: who would win if it ended now."
    )
    points_to_go = serializers.IntegerField(
        required=False,
        help_text="While it goes on, with play_to: what the highest total still lacks of it.",
    )
    hands_to_go = serializers.IntegerField(
        required=False, help_text="While it goes on, with hands: the dealt hands left."
    )


class ScoreShape(serializers.Serializer[dict[str, Any]]):
    hands = HandResultShape(many=True)
    totals = TotalsShape()
    settle_up = TransferShape(many=True)
    end = EndShape(
        required=False,
        help_text="Only when the options set play_to or hands, or a hand is marked last.",
    )


class ProblemShape(serializers.Serializer[dict[str, Any]]):
    error = serializers.CharField(help_text="What is wrong, in words a player understands.")
    path = serializers.CharField(help_text='Where, e.g. "hands[1].results.Bob.pips"; "" if none.')


class ErrorShape(ProblemShape):
    # "errors" is a serializer's own attribute: the field is named in the mapping below.
    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        listed = ProblemShape(
            many=True, help_text="Everything found wrong; the first is repeated as error and path."
        )
        return {**super().get_fields(), "errors": listed}


# DRF's fields take "1" for 1, 0 for false and 12 for "12"; the schema promises JSON types, so
# what the API takes is held to them.


class StrictChar(serializers.CharField):
    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class MomentField(serializers.DateTimeField):
    """A moment more than a day from the calendar's ends, so that it can be turned into any
    time zone (none is a day from UTC): DRF turns it into the server's (reading one without
    an offset in it), and a table's pages show it in its phone's. Within a day of the ends it
    is refused, as DRF refuses an aware moment it cannot turn, rather than raised as the
    OverflowError (a 500) DRF lets out of a naive one, or a page would."""

    def to_internal_value(self, value: Any) -> datetime:
        try:
            moment = super().to_internal_value(value)
        except OverflowError:
            self.fail("overflow")
        if not _FIRST_MOMENT <= moment <= _LAST_MOMENT:
            self.fail("overflow")
        return moment


_FIRST_MOMENT = datetime.min.replace(tzinfo=UTC) + timedelta(days=1)
_LAST_MOMENT = datetime.max.replace(tzinfo=UTC) - timedelta(days=1)


class StrictInteger(serializers.IntegerField):
    def to_internal_value(self, data: object) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBoolean(serializers.BooleanField):
    def to_internal_value(self, data: object) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class _ObjectField(serializers.JSONField):
    """A JSON object in the contract's format, passed to the engine as it came."""

    def to_internal_value(self, data: object) -> dict[str, Any] | list[dict[str, Any]]:
        if not isinstance(data, dict):
            raise serializers.ValidationError("expected an object ({...})")
        return super().to_internal_value(data)


@extend_schema_field(HandShape)
class HandField(_ObjectField):
    pass


@extend_schema_field(OptionsShape)
class OptionsField(_ObjectField):
    pass
