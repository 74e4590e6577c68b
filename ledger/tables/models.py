"""A table: its players (known by one name however it is typed), its seats, its hands as
entered, and every change to them."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledger.amounts import AmountField
from ledger.players.models import GameField, Player, new_token
from ledger.tables import stored
from scoring import Ties
from scoring.options import ENDS

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser


class Tables(models.QuerySet["TableSession"]):
    def with_seats(self) -> Tables:
        """The tables with their seats and players read in one more query, in seat order, for
        ``seated``: what a page listing many tables needs."""
        seats = models.Prefetch(
            "seats",
            queryset=Seat.objects.select_related("player").order_by("position"),
            to_attr="seats_in_order",
        )
        return self.prefetch_related(seats)


class TableSession(models.Model):
    """One table playing one game, hand after hand, reachable only through its tokens."""

    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    read_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    # Opens the organiser's rights (lock the table, void hands) on another device.
    organiser_token = models.CharField(
        max_length=32, unique=True, default=new_token, editable=False
    )
    locked = models.BooleanField(default=False, help_text="Takes no more hands or changes.")
    # The organiser account that started it through the API, if any: it has the organiser's
    # rights on the table without the organiser token.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tables",
    )
    game = GameField()
    options = models.JSONField(default=dict, blank=True)
    # Who leads the first hand: one of the seated players (null only while a new table is
    # being seated, in the transaction that starts it).
    leader = models.ForeignKey(
        "Player", null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    # Ends by time (RULES.md, "Sessions"): the hand saved once this has passed is the last.
    ends_at = models.DateTimeField(null=True, blank=True, help_text="When its time runs out.")
    # The zone of the phone that set the time, to show it as that clock does ("" for the
    # server's).
    time_zone = models.CharField(max_length=64, blank=True, default="")
    # Raised by every saved change; live pages poll it to learn whether anything is new.
    revision = models.PositiveIntegerField(default=0)
    # What standings need of the table, rewritten with every change (ledger.tables.tally).
    tally = models.JSONField(default=dict, blank=True, editable=False)
    # A table of a tournament round (ledger.events), and its number in the round.
    round = models.ForeignKey(
        "ledger.Round", null=True, blank=True, on_delete=models.CASCADE, related_name="tables"
    )
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # A table a group started: it seats the group's players, and counts in its ledger.
    group = models.ForeignKey(
        "ledger.Group", null=True, blank=True, on_delete=models.CASCADE, related_name="tables"
    )
    # The key its start was sent with (a form's, the API's Idempotency-Key): a double tap, a
    # retry or a replay with it lands here, and nothing more is started (services.session_create).
    idempotency_key = models.CharField(max_length=64, blank=True, default="", editable=False)
    request_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    # Who sent the key (ledger.web.rights.sender: an account, an organiser token, a browser, an
    # address; tokens hashed): a key is theirs, as a hand's key is its table's. Another sender's
    # same key and body start a table of their own and learn nothing of this one.
    sender = models.CharField(max_length=80, blank=True, default="", editable=False)

    objects = Tables.as_manager()

    class Meta:
        ordering = ["-created"]
        constraints = [
            models.UniqueConstraint(
                fields=["sender", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="table_sender_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    def organised_by(self, user: AbstractBaseUser | AnonymousUser) -> bool:
        """``user`` is the organiser account that started the table, or the tournament that
        seated it."""
        event = self.round.event if self.round is not None else None
        accounts = {self.owner_id, event.owner_id if event else None} - {None}
        return bool(user.is_authenticated) and user.pk in accounts

    @cached_property
    def seated(self) -> dict[int, str]:
        """Each seated player's id and name, in seat order: read once per table read (and
        again after ``refresh_from_db``), from the seats read with it (``with_seats``) if they
        were, else in one light read.

        That read looks each name up by its player's key rather than joining the players: a
        hall's tables are made minutes before their hands, before PostgreSQL's statistics know
        of them, and a join was then planned as a read of every player."""
        if hasattr(self, "seats_in_order"):  # set by Tables.with_seats
            return {seat.player_id: seat.player.name for seat in self.seats_in_order}
        name = Player.objects.filter(pk=models.OuterRef("player_id")).order_by().values("name")
        return dict(self.seats.values_list("player_id", models.Subquery(name)))

    @property
    def seating(self) -> list[str]:
        return list(self.seated.values())

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.pop("seated", None)  # a tournament's swap before its round moves seats
        super().refresh_from_db(*args, **kwargs)

    @property
    def first(self) -> str:
        """The name of the player who leads the first hand."""
        return "" if self.leader_id is None else self.seated[self.leader_id]

    @property
    def scored_whole(self) -> bool:
        """A hand's result here depends on the hands before it: the table ends (by a total, a
        number of hands or time), or breaks ties by the totals so far. Elsewhere a stored hand,
        which records who led and which way, scores on its own."""
        return (
            self.ends_at is not None
            or bool(self.options.keys() & set(ENDS))
            or self.options.get("ties") == str(Ties.LOWER_TOTAL)
        )

    def named(self, data: dict[str, Any]) -> dict[str, Any]:
        """A hand as stored (players by id), as the engine reads it (by name)."""
        return stored.by_name(data, self.seated)

    def by_id(self, data: dict[str, Any]) -> dict[str, Any]:
        """A hand the engine accepted (players by name), as it is stored (by id)."""
        return stored.by_id(data, {name: pk for pk, name in self.seated.items()})

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
    # RESTRICT: a player cannot go while seated, but goes with their table.
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
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

    # No index of its own: the unique (session, number) index below begins with it, and a
    # second one costs every save a write and let the planner read a table's every hand where
    # one was wanted. PROTECT: a table with hands is kept, with what they paid (a hand is
    # voided, never deleted); one with none goes when asked (services.table_delete).
    session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="hands", db_index=False
    )
    number = models.PositiveIntegerField(help_text="1 for the session's first hand.")
    # The hand in the scoring contract's format, its players by id (ledger.tables.stored).
    data = models.JSONField(help_text="The hand as the scoring contract takes it, players by id.")
    voided = models.BooleanField(default=False)
    version = models.PositiveIntegerField(default=1)
    device = models.CharField(max_length=40, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # Made by the phone's form for each hand it submits: a retry with the same key gets the
    # original result back and stores nothing new.
    idempotency_key = models.CharField(max_length=64, blank=True, default="")
    request_hash = models.CharField(max_length=64, blank=True, default="")
    # What the engine made of the hand as a whole, written with its result rows
    # (ledger.tables.results) and read by every page with them: who led it and which way, and
    # who leads the next hand and which way. A redeal has no rows, and these still say where
    # play goes on. Null and empty only for a hand voided before they were kept.
    first = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    direction = models.CharField(max_length=3, blank=True, default="")
    next_first = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.RESTRICT, related_name="+"
    )
    next_direction = models.CharField(max_length=3, blank=True, default="")

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

    @property
    def named(self) -> dict[str, Any]:
        """``data`` with its players by name, as the engine reads it (a hand read through its
        table's ``hands`` has that table, seats read, as its ``session``)."""
        return self.session.named(self.data)


class HandChange(models.Model):
    """Every change to a hand, kept forever: what it was, what it became, when, from where."""

    class Kind(models.TextChoices):
        RECORD = "record", _("recorded")
        CORRECT = "correct", _("corrected")
        VOID = "void", _("voided")

    # PROTECT: a hand's history goes with nothing (its hand cannot go either).
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="changes")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The hand before and after, as stored (players by id).
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    device = models.CharField(max_length=40, blank=True)
    # Now, or a backup's time: the row is never updated to set it (migration 0040).
    at = models.DateTimeField(default=timezone.now, editable=False, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.hand} at {self.at:%H:%M}"


class TableChange(models.Model):
    """A change to how a table ends (the organiser raising the target, say), kept so that its
    history shows it beside the hands' changes: the options and time before and after."""

    # A table deleted (only one with no hands: one started by mistake) takes these with it.
    session = models.ForeignKey(
        TableSession, on_delete=models.CASCADE, related_name="option_changes"
    )
    before = models.JSONField(default=dict, blank=True)  # the options, as stored
    after = models.JSONField(default=dict, blank=True)
    ends_before = models.DateTimeField(null=True, blank=True)
    ends_after = models.DateTimeField(null=True, blank=True)
    device = models.CharField(max_length=40, blank=True)
    # Now, or a backup's time: the row is never updated to set it (migration 0040).
    at = models.DateTimeField(default=timezone.now, editable=False, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"options of {self.session} changed at {self.at:%H:%M}"


class Results(models.QuerySet["Result"]):
    def standing(self) -> Results:
        """The rows that say how each hand stands now: neither a reversal nor reversed."""
        return self.filter(reverses=None, reversal=None)


class Result(models.Model):
    """One player's outcome of one hand as the engine settled it: their score, what they won
    or paid and to whom, their place in turn and in the ranking, their specials (as entered,
    and as the entry proved, with the proof), in the unit the table pays in.

    Written in the transaction that records, corrects or voids a hand (ledger.tables.results),
    so balances and statistics are sums and counts in the database, not re-scoring. Append
    only: a change that alters an outcome adds a reversal of each of its rows (the same row,
    its score, net and amounts negated, pointing at the row it reverses) and the new outcome's
    rows, so the rows of a table sum to its money at every moment and the old stay as history.
    A redeal has no rows: nobody played (its hand still says who leads next).
    """

    class Unit(models.TextChoices):
        MONEY = "money", _("money")
        CHIPS = "chips", _("chips")
        POINTS = "points", _("points")

    # No index of its own: the (session, unit) index below begins with it. PROTECT, both:
    # money rows are deleted with nothing (a table or group with them is refused).
    session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="results", db_index=False
    )
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="results")
    # As the hand shows it (doubled in Tsair Deng, fish points in Tiu Yu; 0 for the holder of
    # declared doubles); None only where the engine gives the player no score.
    score = models.IntegerField(null=True, blank=True)
    # As the engine settles it: money at a table that pays a stake, the chips at the chip's
    # value at a chips table, 0 at a table that plays for points only (its scores count).
    net = AmountField()
    unit = models.CharField(max_length=6, choices=Unit.choices, default=Unit.MONEY)
    won = models.BooleanField(default=False, help_text="Ranked first in the hand.")
    specials = models.JSONField(default=list, blank=True)
    # What the player won from each other player in the hand, before netting: {payer's id:
    # amount as text}. The pairwise summary and the head-to-heads add these up.
    won_from = models.JSONField(default=dict, blank=True)
    # The player's place in the hand's turn order (1 for who led) and in its ranking (1 for
    # the winner; None where the engine ranks nobody).
    turn = models.PositiveSmallIntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # Each payment the player made in the hand, as the engine settled it, before netting:
    # [{"at": its place among the hand's payments, "to": payee's id, "amount": as text,
    # "multiplier": 1, "reason": "difference"}]. What a hand's page, the API and the payments
    # exports show of who paid whom.
    paid = models.JSONField(default=list, blank=True)
    # Why a head or tail special of the player's stands where the entry alone proves it
    # (scoring.Proof: {"special", "tiles", "pips", "by_tiles", "at_least"}), else None: what
    # a saved hand says, in words made from these when shown.
    proof = models.JSONField(null=True, blank=True)
    # The row this one takes back, when a correction or a void changed the hand's outcome.
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversal"
    )
    created = models.DateTimeField(auto_now_add=True)

    objects = Results.as_manager()

    class Meta:
        ordering = ["hand__number", "pk"]
        indexes = [models.Index(fields=["session", "unit"], name="result_session_unit")]

    def __str__(self) -> str:
        return f"{self.player} in {self.hand}: {self.net}"
