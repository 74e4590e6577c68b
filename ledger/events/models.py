"""A tournament: its entries, its rounds (each seating tables of ``ledger.tables``), its
standings' tie-breakers."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ledger.migrations._frozen.models_0005 import default_tie_breakers
from ledger.players.models import GameField, Player, new_token

# ``default_tie_breakers`` is a default that migrations name by its path, so it lives with
# their frozen code (ledger/migrations/_frozen/__init__.py); it is imported here for the model.
__all__ = ["Entry", "Event", "Round", "default_tie_breakers"]


class Event(models.Model):
    """A tournament: many tables of one game over several rounds, with standings."""

    class Method(models.TextChoices):
        MIXING = "mixing", _("mixing: fewest repeat table-mates")
        STANDINGS = "standings", _("standings: strongest together")

    name = models.CharField(max_length=80)
    game = GameField()
    options = models.JSONField(default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(help_text="How many rounds the event plays.")
    hands_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    minutes_per_round = models.PositiveSmallIntegerField(null=True, blank=True)
    method = models.CharField(max_length=10, choices=Method.choices, default=Method.MIXING)
    # After net: "hands_won" (more first), "fewest_points" (points taken), "head_to_head".
    tie_breakers = models.JSONField(default=default_tie_breakers, blank=True)
    seed = models.CharField(max_length=40, default=new_token, help_text="Makes round 1 repeatable.")
    # Organiser's link; players register themselves through the register link; anyone with the
    # results link reads the standings.
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    register_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    read_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
    )
    created = models.DateTimeField(auto_now_add=True)
    # The organiser's changes that can still be undone, latest last (events.services.event_undo):
    # a round seated, a swap, a drop. Emptied when a round begins.
    undo = models.JSONField(default=list, blank=True, editable=False)
    # Rises with each of the organiser's changes (events.services): its pages' mark has it, so
    # a page holding the event's stream shows a round seated or begun, a swap, a drop.
    revision = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player registered in an event; one who drops out stays, inactive, with their results."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="entries")
    active = models.BooleanField(default=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_player_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class Round(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    method = models.CharField(max_length=10, choices=Event.Method.choices)
    byes = models.JSONField(default=list, blank=True, help_text="Who sat out (scores 0).")
    started = models.DateTimeField(null=True, blank=True)
    ends = models.DateTimeField(null=True, blank=True, help_text="When the time limit is up.")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_unique")
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.event}"
