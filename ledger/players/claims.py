"""Whose phone it is: a phone claims one player of a circle ("I am Bob"), and is told which
names another phone has claimed (two phones may be Bob's: it is said, not refused). A claim
names who did what from that phone; it gives no right. The phone keeps its claims in its Django
session (ledger.web.me); the rows here are only what other phones are told."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from ledger.players.models import Claim, Player


def claim(*, player: Player, phone: str) -> None:
    """``phone`` is ``player``'s from now on, and no longer another player's of the circle."""
    with transaction.atomic():
        release(phone=phone, circle=player, keep=player.pk)
        Claim.objects.update_or_create(player=player, phone=phone)


def release(*, phone: str, circle: Player, keep: int | None = None) -> None:
    """``phone`` is nobody's in the circle of ``circle`` (a player of it), but ``keep``'s."""
    mine = Claim.objects.filter(_in_circle_of(circle), phone=phone)
    if keep is not None:
        mine = mine.exclude(player_id=keep)
    mine.delete()


def claimed_elsewhere(players: Iterable[int], phone: str) -> set[int]:
    """Which of ``players`` a phone other than ``phone`` has claimed."""
    others = Claim.objects.filter(player_id__in=list(players)).exclude(phone=phone)
    return set(others.values_list("player_id", flat=True))


def circle(player: Player) -> str:
    """The circle ``player`` is in, as a phone's claims are kept by (ledger.web.me): "g12"."""
    field, pk = _circle_of(player)
    return f"{field[0]}{pk}"


def _in_circle_of(player: Player) -> Q:
    """The claims of players of ``player``'s circle."""
    field, pk = _circle_of(player)
    return Q(**{f"player__{field}": pk})


def _circle_of(player: Player) -> tuple[str, int]:
    """The field that holds ``player``'s circle, and its id: a player is in exactly one."""
    for field in ("group_id", "event_id", "table_id"):
        if (pk := getattr(player, field)) is not None:
            return field, pk
    raise ValueError(f"{player} is in no circle")
