"""A group of regulars: its players (a circle, as a lone table's or a tournament's), the tables
it starts, and the payments its players record between them."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.amounts import AmountField
from ledger.players.models import GameField, Player, new_token


class Group(models.Model):
    """Friends who play again and again: one circle of players across all its tables."""

    name = models.CharField(max_length=80)
    game = GameField(help_text="Its usual game.")
    # Its usual game's rules but what it plays for (services.table_options puts that in).
    options = models.JSONField(default=dict, blank=True, help_text="Its usual game's rules.")
    # What it plays for, at every game (issue 47): "stake" (money a point) and "chip" (money a
    # chip), and "games": {game: {"stake": ...} or {"chip": ...}} where a game plays for
    # another; amounts written as a table's options write them; one left out is the engine's
    # usual 1. A table takes the stake or the chip, whichever its game pays in.
    plays_for = models.JSONField(default=dict, blank=True, help_text="What it plays for.")
    # The members' link reads and plays; the organiser's also voids payments and hands.
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    organiser_token = models.CharField(
        max_length=32, unique=True, default=new_token, editable=False
    )
    created = models.DateTimeField(auto_now_add=True)
    # Rises with each change to it that is not a table's (groups.services: a payment recorded
    # or voided): its page's mark has it, so the page shows them by push.
    revision = models.PositiveIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name


class Payment(models.Model):
    """Money (or chips) one player paid another outside the hands: "Bob paid Anna 20 in cash".
    It moves their balances; it is never deleted or edited, only voided (a ``PaymentVoid``
    row), and a retry with the same idempotency key records nothing more."""

    class Unit(models.TextChoices):
        MONEY = "money", _("money")
        CHIPS = "chips", _("chips")

    # PROTECT: a group with payments, voided ones too, is kept (services.group_delete).
    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="payments")
    payer = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="paid")
    payee = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="received")
    amount = AmountField()
    unit = models.CharField(max_length=5, choices=Unit.choices, default=Unit.MONEY)
    # A payment in chips: the money one of its chips is worth (a group's chip tables may each
    # have their own), so the group's balance, one amount of money, counts it at that value.
    chip = AmountField(null=True, blank=True)
    note = models.CharField(max_length=80, blank=True)
    device = models.CharField(max_length=40, blank=True)
    idempotency_key = models.CharField(max_length=64, blank=True, default="")
    request_hash = models.CharField(max_length=64, blank=True, default="")
    # Now, or a backup's time: the row is never updated to set it (migration 0040).
    created = models.DateTimeField(default=timezone.now, editable=False, blank=True)

    class Meta:
        ordering = ["created", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="payment_idempotency_key_unique",
            ),
            models.CheckConstraint(condition=models.Q(amount__gt=0), name="payment_positive"),
            models.CheckConstraint(
                condition=~models.Q(payer=models.F("payee")), name="payment_between_two"
            ),
            # A payment in chips says what a chip of it is worth; one in money has no chip.
            models.CheckConstraint(
                condition=models.Q(unit="money", chip=None)
                | models.Q(unit="chips", chip__isnull=False, chip__gt=0),
                name="payment_chip_with_chips",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.payer} paid {self.payee} {self.amount} {self.unit}"

    @property
    def worth(self) -> Decimal:
        """What it moves on the balances, in money: its amount, or its chips at their value."""
        amount: Decimal = self.amount
        if self.unit == self.Unit.CHIPS:
            chip: Decimal | None = self.chip
            return amount * (chip if chip is not None else Decimal(0))
        return amount

    @property
    def voided(self) -> datetime | None:
        """When it was voided, or None (read with ``select_related("void")`` for a list)."""
        try:
            return self.void.at
        except PaymentVoid.DoesNotExist:
            return None


class PaymentVoid(models.Model):
    """A payment's void: who voided it (their phone's name, or the admin's account), when and
    why. Its own row, so the payment itself is never edited; one at most per payment."""

    payment = models.OneToOneField(Payment, on_delete=models.PROTECT, related_name="void")
    device = models.CharField(max_length=40, blank=True, help_text="Who voided it.")
    reason = models.CharField(max_length=80, blank=True, help_text="Why.")
    at = models.DateTimeField(default=timezone.now, editable=False, blank=True)

    def __str__(self) -> str:
        return f"void of {self.payment}"


class GroupChange(models.Model):
    """A change of the group's settings by its organiser (its name, usual game and rules, what
    it plays for): as they were and as they became (``settings`` of groups.services), who
    changed them (their phone's name) and when. The group's history: insert-only, and deleted
    only with a group that has no payments and no hands (migration 0044)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="changes")
    before = models.JSONField()
    after = models.JSONField()
    device = models.CharField(max_length=40, blank=True, help_text="Who changed them.")
    at = models.DateTimeField(default=timezone.now, editable=False, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"change of {self.group}"
