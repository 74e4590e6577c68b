"""What the ledger stores: table sessions, their seats, hands as entered, and every change.

Money is never stored: it is derived from the hands by ``scoring`` each time it is shown.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import models
from django.db.models.functions import Lower

from scoring import GAMES

TOKEN_BYTES = 16  # 128 bits: a link nobody can guess


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class Player(models.Model):
    """A name known to the ledger, suggested when a new table is set up."""

    name = models.CharField(max_length=40)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(Lower("name"), name="player_name_unique")]
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class TableSession(models.Model):
    """One table playing one game, hand after hand, reachable only through its tokens."""

    GAME_CHOICES = [(key, game.title) for key, game in GAMES.items()]

    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    read_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    # Opens the organiser's rights (lock the table, void hands) on another device.
    organiser_token = models.CharField(
        max_length=32, unique=True, default=new_token, editable=False
    )
    locked = models.BooleanField(default=False, help_text="Takes no more hands or changes.")
    game = models.CharField(max_length=20, choices=GAME_CHOICES)
    options = models.JSONField(default=dict, blank=True)
    first = models.CharField(max_length=40, help_text="Who led the first hand.")
    created = models.DateTimeField(auto_now_add=True)
    # Raised by every saved change; live pages poll it to learn whether anything is new.
    revision = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    @property
    def seating(self) -> list[str]:
        return [seat.player.name for seat in self.seats.all()]

    def document(self, hands: list[dict[str, Any]]) -> dict[str, Any]:
        """The session as the scoring contract's input document."""
        return {
            "game": self.game,
            "options": self.options,
            "seating": self.seating,
            "first": self.first,
            "hands": hands,
        }


class Seat(models.Model):
    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text="Counter-clockwise from 0.")

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["session", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["session", "player"], name="seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.position}"


class Hand(models.Model):
    """One hand as entered at the table, in the scoring contract's hand format."""

    session = models.ForeignKey(TableSession, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(help_text="1 for the session's first hand.")
    data = models.JSONField(help_text="The hand as the scoring contract takes it.")
    voided = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    device = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Made by the phone's form for each hand it submits: a retry with the same key gets the
    # original result back and stores nothing new.
    idempotency_key = models.CharField(max_length=64, blank=True, default="")
    request_hash = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["number"]
        constraints = [
            # Two phones saving the same hand: the database keeps exactly one.
            models.UniqueConstraint(fields=["session", "number"], name="hand_number_unique"),
            models.UniqueConstraint(
                fields=["session", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="hand_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of {self.session}"


class HandChange(models.Model):
    """Every change to a hand, kept forever: what it was, what it became, when, from where."""

    class Kind(models.TextChoices):
        RECORD = "record", "recorded"
        CORRECT = "correct", "corrected"
        VOID = "void", "voided"

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    device = models.CharField(max_length=40, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.hand} at {self.at:%H:%M}"
