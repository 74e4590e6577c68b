"""What the API takes and gives for tables. Rules are never checked here: the services call
``scoring``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.utils import timezone
from rest_framework import serializers

from ledger.api.money import HandPaymentOut, Money, OptionsOut, TransferOut, money, options_out
from ledger.api.shapes import (
    EndShape,
    GameField,
    HandField,
    HandResultShape,
    MomentField,
    OptionsField,
    StrictBoolean,
    StrictChar,
    StrictInteger,
)
from ledger.models import Hand, HandChange
from ledger.tables import selectors
from ledger.tables.clock import MOST_MINUTES
from scoring import GAMES, HandResult, hand_document
from scoring.document import end_document
from scoring.options import MOST_HANDS, MOST_POINTS


def valid(serializer: type[serializers.Serializer[dict[str, Any]]], data: Any) -> dict[str, Any]:
    """``data`` as ``serializer`` cleans it, or a 400 with the API's error object."""
    checked = serializer(data=data)
    checked.is_valid(raise_exception=True)
    return dict(checked.validated_data)


class TokenIn(serializers.Serializer[dict[str, Any]]):
    username = StrictChar(max_length=150)
    password = StrictChar(max_length=128, trim_whitespace=False)


class GameOut(serializers.Serializer[dict[str, Any]]):
    key = serializers.CharField()
    title = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField(), help_text="Allowed counts.")
    options = serializers.ListField(child=serializers.CharField(), help_text="Option names.")


def game_data() -> list[dict[str, Any]]:
    return [
        {
            "key": key,
            "title": game.title,
            "players": list(game.player_counts),
            "options": sorted(game.option_names),
        }
        for key, game in GAMES.items()
    ]


class TimeIn(serializers.Serializer[dict[str, Any]]):
    """Where a table ends by time: ``minutes`` from now or a moment ``ends_at``, not both."""

    minutes = StrictInteger(
        min_value=1,
        max_value=MOST_MINUTES,
        required=False,
        help_text="Over after the hand during which this many minutes (from now) pass.",
    )
    ends_at = MomentField(
        required=False,
        allow_null=True,
        help_text="Or over after the hand during which this moment passes (ISO 8601 with "
        "its offset, e.g. 2026-11-25T23:00:00+08:00; without one, on the server's clock), more "
        "than a day from the calendar's ends; null for no time.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "minutes" in attrs and "ends_at" in attrs:
            raise serializers.ValidationError(
                {"ends_at": "send minutes or ends_at, not both: the game ends once"}
            )
        return attrs


def time_end(data: dict[str, Any], kept: datetime | None = None) -> datetime | None:
    """When the table's time runs out, by what ``TimeIn`` took (``kept`` if neither was
    sent)."""
    if "minutes" in data:
        return timezone.now() + timedelta(minutes=data["minutes"])
    return data.get("ends_at", kept)


class SessionIn(TimeIn):
    game = GameField()
    group = StrictChar(
        max_length=32,
        required=False,
        help_text="A group's link: the table seats the group's players and counts in its ledger.",
    )
    options = OptionsField(
        required=False,
        help_text="Left out: the game's usual rules; at a group's table, the group's usual "
        "options (when the game is the group's usual game).",
    )
    seating = serializers.ListField(child=StrictChar(max_length=40), max_length=8)
    first = StrictChar(max_length=40, required=False)


class NextOut(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(help_text="The number the next hand is recorded as.")
    first = serializers.CharField(help_text="Who the rules say leads it.")
    direction = serializers.CharField(help_text="Which way the rules say it goes.")


class StandingOut(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField()
    net = Money()
    score = serializers.IntegerField(help_text="Total points (pips) taken.")
    hands_won = serializers.IntegerField()


NameList = {"type": "array", "items": {"type": "string"}}


class SharedSessionOut(serializers.Serializer[dict[str, Any]]):
    read_token = serializers.CharField(help_text="For a read-only link (/s/<read_token>/).")
    game = serializers.CharField()
    options = OptionsOut()
    seating = serializers.ListField(child=serializers.CharField())
    first = serializers.CharField()
    locked = serializers.BooleanField()
    ends_at = serializers.DateTimeField(
        allow_null=True, help_text="When the table's time runs out (null: no time limit)."
    )
    revision = serializers.IntegerField(help_text="Raised by every change: poll it.")
    hands = serializers.IntegerField(help_text="Hands recorded, voided ones included.")
    next = NextOut()
    standings = StandingOut(many=True)
    settle_up = TransferOut(many=True)
    end = EndShape(
        required=False,
        help_text="Only when the options set play_to or hands, or the time ran out: over or "
        "not, and who wins.",
    )


class SessionOut(SharedSessionOut):
    token = serializers.CharField(help_text="The join token: a player's rights on this table.")
    url = serializers.CharField(help_text="The table's page, for phones.")


class CreatedSessionOut(SessionOut):
    organiser_token = serializers.CharField(
        help_text="Organiser's rights (lock, void, ends): send it as X-Organiser-Token. Shown once."
    )


def shared_data(sheet: selectors.ScoreSheet) -> dict[str, Any]:
    """The table as a read-only link shows it: no join token."""
    session = sheet.session
    return {
        "read_token": session.read_token,
        "game": session.game,
        "options": options_out(session.options),
        "seating": sheet.seating,
        "first": session.first,
        "locked": session.locked,
        # In UTC, as it is read back from the database: a moment just taken is in the server's
        # zone, where one before the zone's first rule has its local mean time (+08:05:43).
        "ends_at": session.ends_at.astimezone(UTC).isoformat() if session.ends_at else None,
        "revision": session.revision,
        "hands": len(sheet.rows),
        "next": {
            "number": sheet.next_number,
            "first": sheet.next_first,
            "direction": sheet.next_direction,
        },
        "standings": [
            {"name": name, "net": money(net), "score": score, "hands_won": won}
            for name, net, score, won in sheet.totals
        ],
        "settle_up": [
            {"from": t.payer, "to": t.payee, "amount": money(t.amount)}
            for t in sheet.result.settle_up
        ],
        **({"end": end_document(sheet.end)} if sheet.end is not None else {}),
    }


def session_data(sheet: selectors.ScoreSheet, url: str) -> dict[str, Any]:
    return {"token": sheet.session.token, "url": url, **shared_data(sheet)}


class SessionListOut(serializers.Serializer[dict[str, Any]]):
    token = serializers.CharField()
    game = serializers.CharField()
    seating = serializers.ListField(child=serializers.CharField())
    locked = serializers.BooleanField()
    created = serializers.DateTimeField()


class HandIn(serializers.Serializer[dict[str, Any]]):
    number = StrictInteger(
        min_value=1, max_value=100_000, help_text="The hand's number: the session's next one."
    )
    hand = HandField()
    device = StrictChar(max_length=40, required=False, default="", allow_blank=True)


class CorrectionIn(serializers.Serializer[dict[str, Any]]):
    hand = HandField()
    version = StrictInteger(min_value=1, help_text="The version you corrected.")
    device = StrictChar(max_length=40, required=False, default="", allow_blank=True)


class VoidIn(serializers.Serializer[dict[str, Any]]):
    version = StrictInteger(min_value=1, help_text="The version you voided.")
    device = StrictChar(max_length=40, required=False, default="", allow_blank=True)


class LockIn(serializers.Serializer[dict[str, Any]]):
    locked = StrictBoolean()


def _end_field(most: int, help_text: str) -> StrictInteger:
    """One of the ends: a JSON whole number from 1 to ``most``, or null for none. Required,
    so that leaving one out never clears it by accident."""
    message = f"expected a whole number from 1 to {most}, or null for none"
    return StrictInteger(
        min_value=1,
        max_value=most,
        allow_null=True,
        help_text=f"{help_text} From 1 to {most}; null for none.",
        error_messages={
            "invalid": message,
            "min_value": message,
            "max_value": message,
            "required": "send it: a whole number, or null for none",
        },
    )


class EndsIn(TimeIn):
    play_to = _end_field(
        MOST_POINTS, "Over after the hand in which a player's total score reaches this."
    )
    hands = _end_field(MOST_HANDS, "Over after this many dealt hands (redeals not counted).")


class StoredHandOut(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    hand = HandField(help_text="As entered, with who led and which way.")
    voided = serializers.BooleanField()
    version = serializers.IntegerField(help_text="Send it back to correct or void the hand.")
    device = serializers.CharField()


class SettledOut(HandResultShape):
    """What a stored hand settled: the engine's entry for it, its amounts written as money."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        amounts = {
            "payments": HandPaymentOut(many=True),
            "net": serializers.DictField(child=Money()),
        }
        return {**super().get_fields(), **amounts}  # in their places among the engine's


class HandOut(StoredHandOut):
    result = SettledOut(allow_null=True, help_text="What it settled; null when voided.")


def stored_hand(hand: Hand | selectors.StoredHand) -> dict[str, Any]:
    """A hand as the API shows it, its players by name."""
    if isinstance(hand, Hand):
        hand = selectors.StoredHand.of(hand)
    return {
        "number": hand.number,
        "hand": hand.data,
        "voided": hand.voided,
        "version": hand.version,
        "device": hand.device,
    }


def settled(hand: HandResult) -> dict[str, Any]:
    """What a hand settled: the engine's entry for it, its amounts written as money."""
    return {
        **hand_document(hand),
        "payments": [
            {
                "from": p.payer,
                "to": p.payee,
                "amount": money(p.amount),
                "multiplier": p.multiplier,
                "reason": p.reason,
            }
            for p in hand.payments
        ],
        "net": {name: money(value) for name, value in hand.net.items()},
    }


def hands_data(sheet: selectors.ScoreSheet) -> list[dict[str, Any]]:
    """Every hand with what it settled, in order."""
    return [
        {**stored_hand(row.hand), "result": None if row.result is None else settled(row.result)}
        for row in sheet.rows
    ]


class ChangeOut(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField()
    kind = serializers.ChoiceField(HandChange.Kind.values)
    before = HandField(allow_null=True)
    after = HandField(allow_null=True)
    device = serializers.CharField()
    at = serializers.DateTimeField()


def change_data(change: selectors.Change) -> dict[str, Any]:
    return {
        "number": change.number,
        "kind": change.kind,
        "before": change.before,
        "after": change.after,
        "device": change.device,
        "at": change.at,
    }


class ConflictOut(serializers.Serializer[dict[str, Any]]):
    error = serializers.CharField()
    path = serializers.CharField()
    hand = StoredHandOut(help_text="The hand as it is stored now.")
