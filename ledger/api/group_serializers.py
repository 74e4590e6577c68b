"""What the API takes and gives for groups."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from ledger.api.shapes import AmountField, GameField, OptionsField, StrictChar, TransferShape
from ledger.groups import selectors
from ledger.groups.models import Group, Payment
from scoring.document import amount


class GroupIn(serializers.Serializer[dict[str, Any]]):
    name = StrictChar(max_length=80)
    game = GameField()
    options = OptionsField(required=False, default=dict)


class PaymentIn(serializers.Serializer[dict[str, Any]]):
    payer = StrictChar(max_length=40, help_text="Who paid (a player of the group).")
    payee = StrictChar(max_length=40, help_text="Who was paid (another player of the group).")
    amount = serializers.DecimalField(
        max_digits=14, decimal_places=4, help_text="More than 0, at most 4 decimal places."
    )
    unit = serializers.ChoiceField(Payment.Unit.values, default=Payment.Unit.MONEY)
    note = StrictChar(max_length=80, required=False, default="", allow_blank=True)
    device = StrictChar(max_length=40, required=False, default="", allow_blank=True)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # "from" and "to" are what a person says ("Bob paid Anna"), but not Python names.
        fields = super().get_fields()
        fields["from"] = fields.pop("payer")
        fields["to"] = fields.pop("payee")
        return fields


class PaymentOut(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    payer = serializers.CharField()
    payee = serializers.CharField()
    amount = AmountField()
    unit = serializers.CharField()
    note = serializers.CharField()
    created = serializers.DateTimeField()
    voided = serializers.DateTimeField(allow_null=True)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["from"] = fields.pop("payer")
        fields["to"] = fields.pop("payee")
        return fields


class GroupTableOut(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField(help_text="The table's join token.")
    game = serializers.CharField()
    seating = serializers.ListField(child=serializers.CharField())
    created = serializers.DateTimeField()


class GroupOut(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    game = serializers.CharField()
    options = serializers.DictField()
    players = serializers.ListField(child=serializers.CharField())
    balances = serializers.DictField(
        child=AmountField(), help_text="Name to money won (+) or owed (-), payments counted."
    )
    chips = serializers.DictField(child=AmountField(), help_text="The same for chip games.")
    points = serializers.DictField(
        child=serializers.IntegerField(), help_text="Points taken, every table."
    )
    settle_up = TransferShape(many=True, help_text="The fewest payments that settle the money.")
    settle_up_chips = TransferShape(many=True)
    tables = GroupTableOut(many=True)
    payments = PaymentOut(many=True)


class CreatedGroupOut(GroupOut):
    token = serializers.CharField(help_text="The members' link: read, play, record payments.")
    organiser_token = serializers.CharField(
        help_text="The organiser's rights (void a payment): send as X-Organiser-Token. Shown once."
    )


def payment_data(payment: Payment) -> dict[str, Any]:
    return {
        "id": payment.pk,
        "from": payment.payer.name,
        "to": payment.payee.name,
        "amount": amount(payment.amount),
        "unit": payment.unit,
        "note": payment.note,
        "created": payment.created.isoformat(),
        "voided": payment.voided.isoformat() if payment.voided else None,
    }


def group_data(group: Group) -> dict[str, Any]:
    ledger = selectors.ledger(group)
    tables = group.tables.order_by("created").prefetch_related("seats__player")
    return {
        "name": group.name,
        "game": group.game,
        "options": group.options,
        "players": ledger.players,
        "balances": {name: amount(value) for name, value in ledger.money.items()},
        "chips": {name: amount(value) for name, value in ledger.chips.items()},
        "points": ledger.points,
        "settle_up": _transfers(ledger.settle_up("money")),
        "settle_up_chips": _transfers(ledger.settle_up("chips")),
        "tables": [
            {
                "token": table.token,
                "game": table.game,
                "seating": table.seating,
                "created": table.created.isoformat(),
            }
            for table in tables
        ],
        "payments": [payment_data(p) for p in group.payments.select_related("payer", "payee")],
    }


def _transfers(transfers: Any) -> list[dict[str, Any]]:
    return [{"from": t.payer, "to": t.payee, "amount": amount(t.amount)} for t in transfers]
