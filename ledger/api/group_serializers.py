"""What the API takes and gives for groups."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from rest_framework import serializers

from ledger.api.money import Money, MoneyIn, OptionsOut, TransferOut, money, options_out
from ledger.api.shapes import GameField, OptionsField, StrictChar
from ledger.groups import selectors, stats
from ledger.groups.models import Group, Payment


class GroupIn(serializers.Serializer[dict[str, Any]]):
    name = StrictChar(max_length=80)
    game = GameField()
    options = OptionsField(required=False, default=dict)


class PaymentIn(serializers.Serializer[dict[str, Any]]):
    payer = StrictChar(max_length=40, help_text="Who paid (a player of the group).")
    payee = StrictChar(max_length=40, help_text="Who was paid (another player of the group).")
    amount = MoneyIn()
    unit = serializers.ChoiceField(Payment.Unit.values, default=Payment.Unit.MONEY)
    chip = serializers.DecimalField(
        max_digits=14,
        decimal_places=4,
        required=False,
        help_text="With unit chips: what one chip is worth (the amount is whole chips); left "
        "out, the one value the group's chip tables have.",
    )
    note = StrictChar(max_length=80, required=False, default="", allow_blank=True)
    device = StrictChar(max_length=40, required=False, default="", allow_blank=True)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        # "from" and "to" are what a person says ("Bob paid Anna"), but not Python names.
        fields = super().get_fields()
        fields["from"] = fields.pop("payer")
        fields["to"] = fields.pop("payee")
        return fields


class PaymentVoidIn(serializers.Serializer[dict[str, Any]]):
    reason = StrictChar(max_length=80, required=False, default="", allow_blank=True)
    device = StrictChar(
        max_length=40, required=False, default="", allow_blank=True, help_text="Who voids it."
    )


class PaymentOut(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField()
    payer = serializers.CharField()
    payee = serializers.CharField()
    amount = Money()
    unit = serializers.CharField()
    chip = Money(
        allow_null=True, help_text="In chips: what one chip is worth in money; null in money."
    )
    note = serializers.CharField()
    created = serializers.DateTimeField()
    voided = serializers.DateTimeField(allow_null=True)
    voided_by = serializers.CharField(help_text="The name of the phone that voided it.")
    void_reason = serializers.CharField(help_text="Why it was voided, as the organiser said.")

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
    options = OptionsOut()
    players = serializers.ListField(child=serializers.CharField())
    player_ids = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="Name to the player's id in the group (their account: /g/{token}/players/{id}/).",
    )
    balances = serializers.DictField(
        child=Money(),
        help_text="Name to money won (+) or owed (-), payments counted: money tables, and chip "
        "tables at each table's chip value.",
    )
    points = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField()),
        help_text="Game to name to the points taken at that game's tables: scores are added "
        "within one game only (the lowest total wins most games, the highest Tiu Yu).",
    )
    settle_up = TransferOut(many=True, help_text="The fewest payments that settle the money.")
    tables = GroupTableOut(many=True)
    payments = PaymentOut(many=True)


class CreatedGroupOut(GroupOut):
    token = serializers.CharField(help_text="The members' link: read, play, record payments.")
    organiser_token = serializers.CharField(
        help_text="The organiser's rights (void a payment; lock the group's tables, void their "
        "hands): send as X-Organiser-Token. Shown once."
    )


def payment_data(payment: Payment) -> dict[str, Any]:
    return {
        "id": payment.pk,
        "from": payment.payer.name,
        "to": payment.payee.name,
        "amount": money(payment.amount),
        "unit": payment.unit,
        "chip": None if payment.chip is None else money(payment.chip),
        "note": payment.note,
        "created": payment.created.isoformat(),
        "voided": payment.voided.isoformat() if payment.voided else None,
        "voided_by": payment.void.device if payment.voided else "",
        "void_reason": payment.void.reason if payment.voided else "",
    }


def group_data(group: Group) -> dict[str, Any]:
    ledger = selectors.ledger(group)
    return {
        "name": group.name,
        "game": group.game,
        "options": options_out(selectors.table_options(group, group.game)),
        "players": ledger.players,
        "player_ids": ledger.ids,
        "balances": {name: money(value) for name, value in ledger.money.items()},
        "points": ledger.points,
        "settle_up": _transfers(ledger.settle_up()),
        "tables": [
            {
                "token": line.token,
                "game": line.game,
                "seating": line.seating,
                "created": line.created.isoformat(),
            }
            for line in reversed(ledger.tables)  # the first first
        ],
        "payments": [
            payment_data(p) for p in group.payments.select_related("payer", "payee", "void")
        ],
    }


def _transfers(transfers: Any) -> list[dict[str, Any]]:
    return [{"from": t.payer, "to": t.payee, "amount": money(t.amount)} for t in transfers]


class TableMarkOut(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(help_text="1 for the group's first table, and so on.")
    token = serializers.CharField(help_text="The table's join token.")
    day = serializers.DateField(help_text="When the table was started.")
    game = serializers.CharField()
    unit = serializers.ChoiceField(["money", "chips", "points"])
    amount = Money(
        help_text="The player's net there (in chips at a chip table); for points only, "
        'their total score, written as an amount too ("34.00").'
    )
    money = Money(help_text="Their net there in money (chips at the chip's value).")


class DayOut(serializers.Serializer[dict[str, Any]]):
    day = serializers.DateField()
    balance = Money(help_text="Won (+) or lost (-) at the tables from the period's start.")


class PlayerStatsOut(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="The player's id in the group.")
    name = serializers.CharField()
    tables = serializers.IntegerField(help_text="Tables with at least one hand played.")
    hands = serializers.IntegerField(help_text="Hands played (a redeal is not played).")
    won = serializers.IntegerField(help_text="Hands won.")
    won_share = serializers.FloatField(allow_null=True, help_text="won / hands; null: no hand.")
    average_scores = serializers.DictField(
        child=serializers.FloatField(),
        help_text="Game to points per scored hand there: averaged within one game only "
        "(the lowest total wins most games, the highest Tiu Yu); a game without a scored "
        "hand is left out.",
    )
    specials = serializers.DictField(
        child=serializers.IntegerField(), help_text="Each special result to how often."
    )
    best_table = TableMarkOut(allow_null=True, help_text="docs/groups.md says how it is chosen.")
    worst_table = TableMarkOut(allow_null=True)
    money_over_time = DayOut(
        many=True,
        help_text="Money and chip tables (chips at each table's chip value), payments not counted.",
    )


class StatisticsOut(serializers.Serializer[dict[str, Any]]):
    period_from = serializers.DateField(allow_null=True, help_text="null: from the start.")
    period_to = serializers.DateField(allow_null=True, help_text="null: up to now.")
    players = PlayerStatsOut(many=True)

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        fields["from"] = fields.pop("period_from")
        fields["to"] = fields.pop("period_to")
        return fields


class PlaceOut(serializers.Serializer[dict[str, Any]]):
    place = serializers.IntegerField(help_text="1 for the best at a table; equal totals share one.")
    tables = serializers.IntegerField(help_text="How many tables they ended in that place.")


class RatedOut(serializers.Serializer[dict[str, Any]]):
    id = serializers.IntegerField(help_text="The player's id in the group.")
    name = serializers.CharField()
    mu = serializers.FloatField(help_text="The skill the ratings believe the player has.")
    sigma = serializers.FloatField(help_text="How unsure they are of it.")
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the order of the list.")
    tables = serializers.IntegerField(help_text="Tables rated.")
    places = PlaceOut(many=True, help_text="The places behind the rating, the best first.")


class RatingsOut(serializers.Serializer[dict[str, Any]]):
    players = RatedOut(many=True, help_text="Best (highest ordinal) first.")


def _mark(mark: stats.TableMark | None) -> dict[str, Any] | None:
    if mark is None:
        return None
    return {
        "number": mark.number,
        "token": mark.token,
        "day": mark.day.isoformat(),
        "game": mark.game,
        "unit": mark.unit,
        "amount": money(mark.amount),
        "money": money(mark.money),
    }


def statistics_data(group: Group, start: date | None, end: date | None) -> dict[str, Any]:
    return {
        "from": start.isoformat() if start else None,
        "to": end.isoformat() if end else None,
        "players": [
            {
                "id": one.pk,
                "name": one.name,
                "tables": one.tables,
                "hands": one.hands,
                "won": one.won,
                "won_share": one.won_share,
                "average_scores": one.average_scores,
                "specials": one.specials,
                "best_table": _mark(one.best_table),
                "worst_table": _mark(one.worst_table),
                "money_over_time": _days(one.money_over_time),
            }
            for one in stats.player_stats(group, start=start, end=end)
        ],
    }


def _days(points: list[tuple[date, Decimal]]) -> list[dict[str, Any]]:
    return [{"day": day.isoformat(), "balance": money(value)} for day, value in points]


def ratings_data(group: Group) -> dict[str, Any]:
    return {
        "players": [
            {
                "id": one.pk,
                "name": one.name,
                "mu": one.mu,
                "sigma": one.sigma,
                "ordinal": one.ordinal,
                "tables": one.tables,
                "places": [{"place": place, "tables": n} for place, n in one.places],
            }
            for one in stats.ratings(group)
        ]
    }
