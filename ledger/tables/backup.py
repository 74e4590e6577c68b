"""Export tables to a JSON document and import them into another database, links intact.

The document holds what is stored (tables, seats, hands as entered, every change, the lock,
the organiser link, the owner by user name), its players by name as the scoring contract has
them, since ids are one database's own. Money is derived, so identical hands give identical
totals wherever they are imported; each table's tally and result rows are counted again on
import rather than carried (a tally in an older document is not read). An owner is found
again by user name: where no user has that name, the table comes in without an owner
(``unknown_owners`` names them).

A table's time limit (``ends_at``, ``time_zone``) comes too, from version 4 on (and each change
of where it ends, ``option_changes``, where it has any), and so do groups
(their players, tables and payments, voided ones included). Events come
too (version 4 on): each with its entries, rounds and options, and each table with
its place in one (the event's link, the round and table number), so a tournament survives a
backup whole: its standings, seating and every total. What an organiser could still undo when
the backup was made is not kept (undo works on what was done since). A table exported on its
own (``--table``) comes back as a table of its own.

A version-1 document (made before the lock, organiser link and owner were kept) still
imports: its tables are open, get a new organiser link and no owner.
A table of an older document keeps the defaults it was played under where they have changed
since (``scoring.options.as_played``: Kko-li-but-i-gi's ``payment: each`` before version 3,
Tiu Yu's ``chi_tsun: by_spots`` before version 4), and leaves out what it was played without
(a ``chip`` that a Jie Long, Ce Deng or Tsair Deng table paying by the stake ignored, before
version 5); before version 6, a Ce Deng table paying chips keeps ``doubles: stake`` (its
declared doubles paid 2 x stake x pips in money), and a Jie Long or Tsair Deng table paying
chips leaves out the stake that paid nothing there. Before version 7 a group's usual game's
options held what the group plays for, which now is the group's own (``plays_for``), and its
settings had no history (``changes``).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.dateparse import parse_datetime

from ledger.models import (
    Entry,
    Event,
    Group,
    GroupChange,
    Hand,
    HandChange,
    Payment,
    PaymentVoid,
    Player,
    Round,
    Seat,
    TableChange,
    TableSession,
)
from ledger.tables import results, stored, tally
from scoring import ScoringError
from scoring.options import as_played

FORMAT = "domino-ledger-backup"
VERSION = 7
READABLE = tuple(range(1, VERSION + 1))
# The revision of the rules (scoring.options.RULES) each version's tables were played under.
RULES_OF_VERSION = {1: 1, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 5}


class BackupError(ValueError):
    pass


def _time(text: str) -> datetime:
    """A time of the document, as a row of history is inserted with it (never updated to it
    after: the database refuses that, migration 0040)."""
    time = parse_datetime(text)
    if time is None:
        raise BackupError(f"{text!r} is not a time")
    return time


def export_tables(
    tables: Iterable[TableSession], events: Iterable[Event] = (), groups: Iterable[Group] = ()
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "groups": [_group(group) for group in groups],
        "events": [_event(event) for event in events],
        "tables": [_table(table) for table in tables],
    }


def _group(group: Group) -> dict[str, Any]:
    return {
        "token": group.token,
        "organiser_token": group.organiser_token,
        "name": group.name,
        "game": group.game,
        "options": group.options,
        "plays_for": group.plays_for,
        "created": group.created.isoformat(),
        "players": list(group.players.order_by("pk").values_list("name", flat=True)),
        "payments": [
            {
                "from": payment.payer.name,
                "to": payment.payee.name,
                "amount": str(payment.amount),
                "unit": payment.unit,
                "chip": None if payment.chip is None else str(payment.chip),
                "note": payment.note,
                "device": payment.device,
                "idempotency_key": payment.idempotency_key,
                "request_hash": payment.request_hash,
                "created": payment.created.isoformat(),
                "voided": payment.voided.isoformat() if payment.voided else None,
                "voided_by": payment.void.device if payment.voided else "",
                "void_reason": payment.void.reason if payment.voided else "",
            }
            for payment in group.payments.select_related("payer", "payee", "void")
        ],
        "changes": [
            {
                "before": change.before,
                "after": change.after,
                "device": change.device,
                "at": change.at.isoformat(),
            }
            for change in group.changes.all()
        ],
    }


def _import_group(raw: dict[str, Any], tables: list[dict[str, Any]]) -> Group:
    """The group of ``raw``, its players and payments; ``tables``: the document's tables, for
    the value of a chip of a payment in chips made before it was kept (version 5 and before),
    taken as migration 0037 takes it."""
    options, plays_for = raw["options"], raw.get("plays_for")
    if plays_for is None:  # before version 7 the usual game's options held it (migration 0043)
        plays_for = {key: options[key] for key in ("stake", "chip") if key in options}
        options = {key: value for key, value in options.items() if key not in plays_for}
    group = Group.objects.create(
        token=raw["token"],
        organiser_token=raw["organiser_token"],
        name=raw["name"],
        game=raw["game"],
        options=options,
        plays_for=plays_for,
    )
    Group.objects.filter(pk=group.pk).update(created=parse_datetime(raw["created"]))
    players = {name: Player.for_name(name, group=group) for name in raw["players"]}
    for payment in raw["payments"]:
        made = Payment.objects.create(
            group=group,
            payer=players[payment["from"]],
            payee=players[payment["to"]],
            amount=payment["amount"],
            unit=payment["unit"],
            chip=_chip(raw, tables, payment),
            note=payment["note"],
            device=payment["device"],
            idempotency_key=payment["idempotency_key"],
            request_hash=payment["request_hash"],
            created=_time(payment["created"]),
        )
        if payment["voided"]:  # who and why: since backups of version 5's payment voids
            PaymentVoid.objects.create(
                payment=made,
                device=payment.get("voided_by", ""),
                reason=payment.get("void_reason", ""),
                at=_time(payment["voided"]),
            )
    for change in raw.get("changes", []):  # its settings' history, since version 7
        GroupChange.objects.create(
            group=group,
            before=change["before"],
            after=change["after"],
            device=change["device"],
            at=_time(change["at"]),
        )
    return group


def _event(event: Event) -> dict[str, Any]:
    return {
        "token": event.token,
        "register_token": event.register_token,
        "read_token": event.read_token,
        "name": event.name,
        "game": event.game,
        "options": event.options,
        "rounds": event.rounds,
        "hands_per_round": event.hands_per_round,
        "minutes_per_round": event.minutes_per_round,
        "method": event.method,
        "tie_breakers": event.tie_breakers,
        "seed": event.seed,
        "owner": event.owner.get_username() if event.owner else None,
        "created": event.created.isoformat(),
        "entries": [
            {
                "name": entry.player.name,
                "active": entry.active,
                "created": entry.created.isoformat(),
            }
            for entry in event.entries.select_related("player").order_by("created", "pk")
        ],
        "round_set": [
            {
                "number": round.number,
                "method": round.method,
                "byes": round.byes,
                "started": round.started.isoformat() if round.started else None,
                "ends": round.ends.isoformat() if round.ends else None,
            }
            for round in event.round_set.order_by("number")
        ],
    }


def _table(table: TableSession) -> dict[str, Any]:
    """A table as a backup keeps it: its players by name, as the contract has them (ids are
    this database's own)."""
    hands = table.hands.order_by("number").prefetch_related("changes")
    names = table.seated

    def named(data: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if data is None else stored.by_name(data, names)

    return {
        "token": table.token,
        "read_token": table.read_token,
        "game": table.game,
        "options": table.options,
        "first": table.first,
        "created": table.created.isoformat(),
        "revision": table.revision,
        "locked": table.locked,
        "ends_at": table.ends_at.isoformat() if table.ends_at else None,
        "time_zone": table.time_zone,
        "organiser_token": table.organiser_token,
        "owner": table.owner.get_username() if table.owner else None,
        "seating": list(names.values()),
        **({"group": table.group.token} if table.group else {}),
        **(
            {
                "event": table.round.event.token,
                "round": table.round.number,
                "table_number": table.table_number,
            }
            if table.round is not None
            else {}
        ),
        "hands": [
            {
                "number": hand.number,
                "data": named(hand.data),
                "voided": hand.voided,
                "version": hand.version,
                "device": hand.device,
                "created": hand.created.isoformat(),
                "idempotency_key": hand.idempotency_key,
                "request_hash": hand.request_hash,
                "changes": [
                    {
                        "kind": change.kind,
                        "before": named(change.before),
                        "after": named(change.after),
                        "device": change.device,
                        "at": change.at.isoformat(),
                    }
                    for change in hand.changes.all()
                ],
            }
            for hand in hands
        ],
        # Left out where there are none, as documents before it have none.
        **(
            {"option_changes": [_option_change(change) for change in option_changes]}
            if (option_changes := list(table.option_changes.all()))
            else {}
        ),
    }


def _option_change(change: TableChange) -> dict[str, Any]:
    return {
        "before": change.before,
        "after": change.after,
        "ends_before": change.ends_before.isoformat() if change.ends_before else None,
        "ends_after": change.ends_after.isoformat() if change.ends_after else None,
        "device": change.device,
        "at": change.at.isoformat(),
    }


def import_tables(document: dict[str, Any]) -> list[TableSession]:
    """Store every table of ``document``; all or nothing. Raises BackupError."""
    if document.get("format") != FORMAT or document.get("version") not in READABLE:
        raise BackupError(f"not a {FORMAT} document of version 1 to {VERSION}")
    links = [
        table[key]
        for table in document["tables"]
        for key in ("token", "read_token", "organiser_token")
        if key in table
    ]
    taken = TableSession.objects.filter(
        Q(token__in=links) | Q(read_token__in=links) | Q(organiser_token__in=links)
    ).values_list("token", flat=True)
    if taken:
        raise BackupError(f"{len(taken)} of these tables are already in this database")
    events = document.get("events", [])
    event_links = [event[key] for event in events for key in _EVENT_LINKS]
    if Event.objects.filter(
        Q(token__in=event_links) | Q(register_token__in=event_links) | Q(read_token__in=event_links)
    ).exists():
        raise BackupError("some of these events are already in this database")
    group_links = [raw[key] for raw in document.get("groups", []) for key in _GROUP_LINKS]
    if Group.objects.filter(Q(token__in=group_links) | Q(organiser_token__in=group_links)).exists():
        raise BackupError("some of these groups are already in this database")
    with transaction.atomic():
        played = RULES_OF_VERSION[document["version"]]
        groups = {
            raw["token"]: _import_group(
                _as_played(raw, played), [_as_played(t, played) for t in document["tables"]]
            )
            for raw in document.get("groups", [])
        }
        rounds = {
            (raw["token"], number): made
            for raw in events
            for number, made in _import_event(_as_played(raw, played)).items()
        }
        tables = [
            _import(
                _as_played(table, played),
                rounds.get((table.get("event"), table.get("round"))),
                groups.get(table.get("group", "")),
            )
            for table in document["tables"]
        ]
        for table in tables:  # a table that would not score would break its pages
            names = table.seated
            found = table.hands.order_by("number").values_list(
                "pk", "number", "data", "voided", "version"
            )
            hands = [
                (pk, n, stored.by_name(data, names), voided, v) for pk, n, data, voided, v in found
            ]
            live = [(pk, data) for pk, _, data, voided, _ in hands if not voided]
            try:
                scored = tally.scored(table, [data for _, data in live])
            except ScoringError as error:
                raise BackupError(f"table {table.token} does not score: {error.message}") from None
            # The tally, the result rows and what each hand keeps of its outcome are derived,
            # so a backup does not carry them: they are counted here, at the revision the
            # table came with.
            counted = tally.count(table, [hand[1:] for hand in hands], scored[1])
            table.tally = tally.stored(table, counted, table.revision)
            TableSession.objects.filter(pk=table.pk).update(tally=table.tally)
            results.resync(table, live, scored)
    return tables


def unknown_owners(document: dict[str, Any]) -> list[str]:
    """The owners' user names in ``document`` that no user of this database has."""
    rows = [*document["tables"], *document.get("events", [])]
    names = {row["owner"] for row in rows if row.get("owner")}
    user = get_user_model()
    known = user._default_manager.filter(**{f"{user.USERNAME_FIELD}__in": names})
    return sorted(names - set(known.values_list(user.USERNAME_FIELD, flat=True)))


def _owner(name: str | None) -> User | None:
    if not name:
        return None
    user = get_user_model()
    return user._default_manager.filter(**{user.USERNAME_FIELD: name}).first()


def _known_spellings(
    seating: list[str], event: Event | None, group: Group | None
) -> dict[str, str]:
    """Seated names a tournament or group knows spelled otherwise ("anna" at a table, where its
    entries have "Anna"): {as exported: as known}. A lone table's players are its own."""
    if event is None and group is None:
        return {}
    known = Player.spellings(seating, event=event, group=group)
    return {name: spelled for name, spelled in known.items() if spelled != name}


def _chip(group: dict[str, Any], tables: list[dict[str, Any]], payment: dict[str, Any]) -> Any:
    """What a chip of ``payment`` is worth (None in money): as kept, or for one kept without
    it, the one value the group's chip tables and usual game have; with several, that of the
    latest chip table started before the payment (the earliest if none was); with none, the
    group's usual chip, or 1."""
    if payment["unit"] != Payment.Unit.CHIPS:
        return None
    if payment.get("chip") is not None:
        return payment["chip"]
    started = sorted(
        (_moment(table["created"]), value)
        for table in tables
        if table.get("group") == group["token"]
        for kind, value in [results.pays_in(table["game"], table["options"])]
        if kind == "chips"
    )
    kind, usual = results.pays_in(group["game"], group["options"])
    values = {value for _, value in started} | ({usual} if kind == "chips" else set())
    if len(values) == 1:
        return values.pop()
    if started:
        at = _moment(payment["created"])
        before = [value for created, value in started if created <= at]
        return before[-1] if before else started[0][1]
    return usual if kind == "chips" else 1


def _moment(text: str) -> datetime:
    moment = parse_datetime(text)
    if moment is None:
        raise BackupError(f"not a moment: {text!r}")
    return moment


def _as_played(raw: dict[str, Any], played: int) -> dict[str, Any]:
    """A table of a document of rules revision ``played`` with the defaults it was played
    under written in."""
    return raw | {"options": as_played(raw["game"], raw["options"], played=played)}


_EVENT_LINKS = ("token", "register_token", "read_token")
_GROUP_LINKS = ("token", "organiser_token")


def _import_event(raw: dict[str, Any]) -> dict[int, Round]:
    """Store an event with its entries and rounds; return its rounds by number."""
    event = Event.objects.create(
        **{key: raw[key] for key in _EVENT_LINKS},
        **{key: raw[key] for key in ("name", "game", "options", "rounds", "method", "seed")},
        hands_per_round=raw["hands_per_round"],
        minutes_per_round=raw["minutes_per_round"],
        tie_breakers=raw["tie_breakers"],
        owner=_owner(raw.get("owner")),
    )
    Event.objects.filter(pk=event.pk).update(created=parse_datetime(raw["created"]))
    for entry in raw["entries"]:
        made = Entry.objects.create(
            event=event, player=Player.for_name(entry["name"], event=event), active=entry["active"]
        )
        Entry.objects.filter(pk=made.pk).update(created=parse_datetime(entry["created"]))
    return {
        round["number"]: Round.objects.create(
            event=event,
            number=round["number"],
            method=round["method"],
            byes=round["byes"],
            started=parse_datetime(round["started"]) if round["started"] else None,
            ends=parse_datetime(round["ends"]) if round["ends"] else None,
        )
        for round in raw["round_set"]
    }


def _import(
    raw: dict[str, Any], round: Round | None = None, group: Group | None = None
) -> TableSession:
    kept = {key: raw[key] for key in ("locked", "organiser_token") if key in raw}
    # One person, one name: a tournament's or group's player is seated as it knows them
    # ("anna" at the table is its Anna).
    event = round.event if round is not None else None
    spelling = _known_spellings(raw["seating"], event, group)
    table = TableSession.objects.create(
        token=raw["token"],
        read_token=raw["read_token"],
        game=raw["game"],
        options=raw["options"],
        revision=raw["revision"],
        owner=_owner(raw.get("owner")),
        round=round,
        table_number=raw.get("table_number") if round is not None else None,
        ends_at=parse_datetime(raw["ends_at"]) if raw.get("ends_at") else None,
        time_zone=raw.get("time_zone", ""),
        group=group,
        **kept,
    )
    # auto_now_add ignores given values on create; keep the original times.
    TableSession.objects.filter(pk=table.pk).update(created=parse_datetime(raw["created"]))
    own = table if event is None and group is None else None  # a lone table's own
    ids = {}  # each name as exported: the id of the player seated under it here
    for position, name in enumerate(raw["seating"]):
        player = Player.for_name(spelling.get(name, name), table=own, event=event, group=group)
        Seat.objects.create(session=table, player=player, position=position)
        ids[name] = player.pk
    if raw["first"] not in ids:
        raise BackupError(f"table {raw['token']}: {raw['first']} leads but is not seated")
    table.leader_id = ids[raw["first"]]
    table.save(update_fields=["leader"])
    for raw_hand in raw["hands"]:
        changes = raw_hand.pop("changes")
        created = parse_datetime(raw_hand.pop("created"))
        raw_hand["data"] = _by_id(raw_hand["data"], ids, table, raw_hand["number"])
        hand = Hand.objects.create(session=table, **raw_hand)
        Hand.objects.filter(pk=hand.pk).update(created=created)
        for change in changes:
            at = _time(change.pop("at"))
            for when in ("before", "after"):
                if change[when] is not None:
                    change[when] = _by_id(change[when], ids, table, hand.number)
            HandChange.objects.create(hand=hand, at=at, **change)
    for change in raw.get("option_changes", []):
        ends = {
            when: parse_datetime(change[when]) if change.get(when) else None
            for when in ("ends_before", "ends_after")
        }
        TableChange.objects.create(
            session=table,
            before=change["before"],
            after=change["after"],
            device=change.get("device", ""),
            at=_time(change["at"]),
            **ends,
        )
    return table


def _by_id(
    data: dict[str, Any], ids: dict[str, int], table: TableSession, number: int
) -> dict[str, Any]:
    """A hand of the document as stored here, its players by id."""
    try:
        return stored.by_id(data, ids)
    except KeyError as unknown:
        message = f"table {table.token}, hand {number}: {unknown.args[0]} is not seated"
        raise BackupError(message) from None
