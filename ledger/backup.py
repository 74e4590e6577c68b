"""Export tables to a JSON document and import them into another database, links intact.

The document holds what is stored (tables, seats, hands as entered, every change); money is
derived, so identical hands give identical totals wherever they are imported.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.dateparse import parse_datetime

from ledger.models import Hand, HandChange, Player, Seat, TableSession

FORMAT = "domino-ledger-backup"
VERSION = 1


class BackupError(ValueError):
    pass


def export_tables(tables: Iterable[TableSession]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "tables": [_table(table) for table in tables],
    }


def _table(table: TableSession) -> dict[str, Any]:
    hands = table.hands.order_by("number").prefetch_related("changes")
    return {
        "token": table.token,
        "read_token": table.read_token,
        "game": table.game,
        "options": table.options,
        "first": table.first,
        "created": table.created.isoformat(),
        "revision": table.revision,
        "seating": table.seating,
        "hands": [
            {
                "number": hand.number,
                "data": hand.data,
                "voided": hand.voided,
                "version": hand.version,
                "device": hand.device,
                "created": hand.created.isoformat(),
                "idempotency_key": hand.idempotency_key,
                "request_hash": hand.request_hash,
                "changes": [
                    {
                        "kind": change.kind,
                        "before": change.before,
                        "after": change.after,
                        "device": change.device,
                        "at": change.at.isoformat(),
                    }
                    for change in hand.changes.all()
                ],
            }
            for hand in hands
        ],
    }


def import_tables(document: dict[str, Any]) -> list[TableSession]:
    """Store every table of ``document``; all or nothing. Raises BackupError."""
    if document.get("format") != FORMAT or document.get("version") != VERSION:
        raise BackupError(f"not a {FORMAT} document of version {VERSION}")
    tokens = [table["token"] for table in document["tables"]]
    taken = TableSession.objects.filter(token__in=tokens).values_list("token", flat=True)
    if taken:
        raise BackupError(f"{len(taken)} of these tables are already in this database")
    with transaction.atomic():
        return [_import(table) for table in document["tables"]]


def _import(raw: dict[str, Any]) -> TableSession:
    table = TableSession.objects.create(
        token=raw["token"],
        read_token=raw["read_token"],
        game=raw["game"],
        options=raw["options"],
        first=raw["first"],
        revision=raw["revision"],
    )
    # auto_now_add ignores given values on create; keep the original times.
    TableSession.objects.filter(pk=table.pk).update(created=parse_datetime(raw["created"]))
    for position, name in enumerate(raw["seating"]):
        player, _ = Player.objects.get_or_create(name__iexact=name, defaults={"name": name})
        Seat.objects.create(session=table, player=player, position=position)
    for raw_hand in raw["hands"]:
        changes = raw_hand.pop("changes")
        created = parse_datetime(raw_hand.pop("created"))
        hand = Hand.objects.create(session=table, **raw_hand)
        Hand.objects.filter(pk=hand.pk).update(created=created)
        for change in changes:
            at = parse_datetime(change.pop("at"))
            made = HandChange.objects.create(hand=hand, **change)
            HandChange.objects.filter(pk=made.pk).update(at=at)
    return table
