"""Every write to a table: typed, keyword-only, one transaction each.

The htmx views and the API call these same functions; nothing here computes a rule: every
hand is checked by ``scoring`` before anything is saved.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, IntegerField, OuterRef, Subquery, Value
from django.utils.translation import gettext as _

import scoring
from ledger import changes
from ledger.kept import Kept as Kept  # raised here, below so that ledger.web catches it too
from ledger.models import (
    NAME_LENGTH,
    Event,
    Group,
    Hand,
    HandChange,
    Player,
    Round,
    Seat,
    TableChange,
    TableSession,
)
from ledger.tables import checks, clock, results, selectors, stored, tally
from scoring import names
from scoring.options import ENDS


class HandAlreadyRecorded(Exception):
    """Another phone saved this hand first; ``hand`` is what it saved. ``last``: no hand after
    it was stored when it was found."""

    def __init__(self, hand: Hand, *, last: bool = False) -> None:
        super().__init__(f"hand {hand.number} is already recorded")
        self.hand = hand
        self.last = last


class KeyReused(Exception):
    """The idempotency key was used for a different submission; ``hand`` is what it saved."""

    def __init__(self, hand: Hand) -> None:
        super().__init__("this idempotency key was already used for a different hand")
        self.hand = hand


class HandVoided(Exception):
    """The hand was voided: it counts for nothing and cannot be voided again or corrected (a
    hand played again is recorded as a new hand)."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(f"hand {hand.number} is voided")
        self.hand = hand


class TableLocked(Exception):
    """The organiser locked the table: it takes no more hands or changes."""


class StartKeyReused(Exception):
    """The idempotency key started a table that was asked for differently: nothing was
    started."""


class NotLone(Exception):
    """What only a lone table does (play again from its own page, start a group) asked of a
    tournament's or a group's table, or of a locked one; ``message`` says why in the reader's
    language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StaleVersion(Exception):
    """The hand changed since the phone loaded it; ``hand`` is its current state."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(f"hand {hand.number} has changed since it was loaded")
        self.hand = hand


def session_create(
    *,
    game: str,
    options: dict[str, Any],
    seating: list[str],
    first: str,
    owner: User | None = None,
    round: Round | None = None,
    table_number: int | None = None,
    ends_at: datetime | None = None,
    time_zone: str = "",
    group: Group | None = None,
    idempotency_key: str = "",
    sender: str = "",
    asked: object = None,
) -> TableSession:
    """Start a table session (``owner``: the organiser account starting it, if any;
    ``round`` and ``table_number``: where a tournament seated it; ``ends_at``: when its time
    runs out, set on a phone in ``time_zone``).

    A lone table's players are its own; a tournament's or a ``group``'s table seats its
    players, each name as it knows them ("anna" is the Anna who registered), and ``first`` as
    seated. Raises ScoringError (with its path) on anything invalid.

    A table starts once per ``idempotency_key`` of its ``sender`` (ledger.web.rights.sender):
    every send of theirs with it (a double tap, a retry, a replay) gets the table the first
    started, and nothing more is started; another sender's same key is another key. ``asked``
    is what the send asked for, as it came (by default the table as given), and where (a
    group's, say): lots drawn and times counted from now on its way here differ from send to
    send, what was asked does not. The same key with something else asked raises
    StartKeyReused.
    """
    event = round.event if round is not None else None
    seating, first = _as_seated(seating, first, event, group)
    document = {"game": game, "options": options, "seating": seating, "first": first}
    scoring.score_session(scoring.parse_session(document))
    key = idempotency_key
    request_hash = _asked_hash(document if asked is None else asked) if key else ""
    if earlier := _started(key, sender, request_hash):
        return earlier
    try:
        with transaction.atomic():
            changes.stored_on_commit(TableSession)
            session = TableSession.objects.create(
                game=game,
                options=options,
                owner=owner,
                round=round,
                table_number=table_number,
                ends_at=ends_at,
                time_zone=time_zone,
                group=group,
                idempotency_key=key,
                request_hash=request_hash,
                sender=sender if key else "",
            )
            own = session if event is None and group is None else None  # a lone table's own
            for position, name in enumerate(seating):
                player = Player.for_name(name, table=own, event=event, group=group)
                Seat.objects.create(session=session, player=player, position=position)
                if name == first:
                    session.leader = player
            empty = tally.Tally()
            session.tally = tally.stored(session, empty, session.revision)
            session.save(update_fields=["leader", "tally"])
    except IntegrityError:
        # Another send with the key started it meanwhile: on PostgreSQL this insert waited
        # for that one to commit; SQLite lets one writer in at a time.
        if earlier := _started(key, sender, request_hash):
            return earlier
        raise
    return session


def _asked_hash(asked: object) -> str:
    body = json.dumps(asked, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(body.encode()).hexdigest()


def _started(key: str, sender: str, request_hash: str) -> TableSession | None:
    """The table an earlier send of ``sender``'s with ``key`` started, if any (StartKeyReused
    if it asked for another)."""
    found = TableSession.objects.filter(sender=sender, idempotency_key=key)
    earlier = found.first() if key else None
    if earlier is not None and earlier.request_hash != request_hash:
        raise StartKeyReused
    if earlier is not None:
        changes.stored_on_commit(TableSession)  # what was asked is stored: a send again says so
    return earlier


def _as_seated(
    seating: list[str], first: str, event: Event | None, group: Group | None
) -> tuple[list[str], str]:
    """The names as a new table stores them: tidied, and in a tournament or group as it knows
    them; and who leads first, as seated."""
    tidied = [names.tidy(name) for name in seating]
    for i, name in enumerate(tidied):
        names.check(name, f"seating[{i}]", NAME_LENGTH)
    circle = event is not None or group is not None
    known = (
        Player.spellings(tidied, event=event, group=group)
        if circle
        else {name: name for name in tidied}
    )
    seated = [known[name] for name in tidied]
    leader = {names.canonical(name): name for name in seated}.get(names.canonical(first), first)
    return seated, leader


class Recorded(NamedTuple):
    hand: Hand
    played: scoring.HandResult  # the new hand scored, as the save checked it
    replayed: bool = False  # a retry: the hand was stored by an earlier submission
    why: tuple[scoring.Proof, ...] = ()  # why its proven specials stand (results.proofs)
    end: scoring.End | None = None  # where a table scored whole stands after it


def _refuse_if_locked(session: TableSession) -> TableSession:
    """Take the table's row lock, then refuse if the organiser locked it: read under the lock,
    a lock committed a moment ago is seen, and one being made waits for this write. Returns the
    row as locked."""
    table = TableSession.objects.select_for_update().get(pk=session.pk)
    if table.locked:
        raise TableLocked
    return table


def table_again(
    *,
    table: TableSession,
    owner: User | None = None,
    idempotency_key: str = "",
    sender: str = "",
) -> TableSession:
    """A new lone table with the lone ``table``'s players in the seats they had, its game and
    options, led first by who led it first (as a group's table is played again). Its time
    limit is not carried over: it was a time of that evening. Once per ``idempotency_key``, as
    ``session_create`` says. Raises NotLone for a tournament's or a group's table (their
    tournament or group starts their tables) and for a locked one."""
    check_lone(table)
    return session_create(
        game=table.game,
        options=table.options,
        seating=table.seating,
        first=table.first,
        owner=owner,
        idempotency_key=idempotency_key,
        sender=sender,
        asked={"again": table.pk},
    )


def check_lone(table: TableSession) -> None:
    """Raise NotLone unless ``table`` is a lone table that is not locked."""
    if table.round_id is not None:
        raise NotLone(_("A tournament's table is not played again here: its tournament seats it."))
    if table.group_id is not None:
        raise NotLone(_("This table belongs to a group: its group starts its next table."))
    if table.locked:
        raise NotLone(_("This table is locked by its organiser: nothing was started."))


def table_lock(*, session: TableSession, locked: bool) -> None:
    """Lock the table (no more hands, corrections or voids) or open it again."""
    with transaction.atomic():
        changes.stored_on_commit(TableSession)
        TableSession.objects.filter(pk=session.pk).update(locked=locked)
        table_changed(session)
    session.locked = locked


def table_ends(
    *,
    session: TableSession,
    play_to: int | str | None,
    hands: int | str | None,
    ends_at: datetime | None,
    device: str = "",
) -> None:
    """Set where the table's game ends: a total to play to, a number of hands, a time, any of
    them, or none (the organiser raising the target to play on). A time still to come plays
    on after the hand during which the old time ran out: that hand is no longer the last.
    Raises ScoringError if the new end is not a valid option, or comes before hands already
    played."""
    with transaction.atomic():
        changes.stored_on_commit(TableSession)
        table = _refuse_if_locked(session)
        before, ends_before = table.options, table.ends_at
        ends = dict(zip(ENDS, (play_to, hands), strict=True))
        options = {name: value for name, value in table.options.items() if name not in ends}
        table.options = options | {k: v for k, v in ends.items() if v is not None and v != ""}
        table.ends_at = ends_at
        live = checks.live_hands(table)
        unmarked = [] if clock.time_up(ends_at) else [pk for pk, data in live if data.get("last")]
        # Refused (ScoringError) before anything is saved; ``session`` is left as it was.
        tally.score_table(
            table, [_without_last(data) if pk in unmarked else data for pk, data in live]
        )
        table.save(update_fields=["options", "ends_at"])
        if (_as_text(before), ends_before) != (_as_text(table.options), table.ends_at):
            TableChange.objects.create(
                session=table,
                before=before,
                after=table.options,
                ends_before=ends_before,
                ends_after=table.ends_at,
                device=device,
            )
        for hand in Hand.objects.select_for_update().filter(pk__in=unmarked):
            before, hand.data = hand.data, _without_last(hand.data)
            hand.version += 1
            # The change's record first: the database takes a hand's new version only once
            # its record is there (migration 0040).
            HandChange.objects.create(
                hand=hand,
                kind=HandChange.Kind.CORRECT,
                before=before,
                after=hand.data,
                device=device,
            )
            hand.save(update_fields=["data", "version"])
        session.options, session.ends_at = table.options, table.ends_at
        table_changed(session)


def _as_text(options: dict[str, Any]) -> dict[str, str]:
    """Options compared as a form sends them (a target stored as 100 is the "100" sent again)."""
    return {name: str(value) for name, value in options.items()}


def _without_last(data: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in data.items() if key != "last"}


def why_table_kept(session: TableSession) -> str | None:
    """Why the table cannot be deleted, if it cannot: it has hands (the models PROTECT them
    and their rows, so nothing else deletes them either)."""
    if session.hands.exists():
        message = _(
            "{table} has hands recorded: it is kept, with what they paid and their history."
        )
        return message.format(table=session)
    return None


def table_delete(*, session: TableSession) -> None:
    """Delete a table that has no hands (one started by mistake); one with hands raises Kept.
    Under the table's lock: a hand being saved meanwhile waits, and then finds no table."""
    with transaction.atomic():
        changes.stored_on_commit(TableSession)
        table = TableSession.objects.select_for_update().get(pk=session.pk)
        if refused := why_table_kept(table):
            raise Kept(refused)
        table.delete()


def table_remove(*, session: TableSession) -> None:
    """The organiser removes a table that has no hands (a stray *Play again*, one started by
    mistake): ``table_delete``, and a group's page no longer lists it. A tournament's table is
    kept (its round seated its players there), and so is one with hands: both raise Kept."""
    with transaction.atomic():
        table = TableSession.objects.select_for_update().get(pk=session.pk)
        if table.round_id is not None:
            raise Kept(_("A tournament's table is kept: its round seated its players there."))
        group = table.group_id
        table_delete(session=table)
        if group is not None:
            Group.objects.filter(pk=group).update(revision=F("revision") + 1)
            changes.on_commit(changes.group_changed, Group, group=group)


def table_recount(*, session: TableSession) -> None:
    """Count the table's tally again from its hands, after a change made outside these
    services (an import, a benchmark's hands stored directly, the admin's change of a table
    with no hands yet); live pages see a new revision."""
    with transaction.atomic():
        changes.stored_on_commit(TableSession)
        table_changed(session)


def table_changed(session: TableSession, locked: TableSession | None = None) -> None:
    """Raise the table's revision and rewrite its tally (ledger.tables.tally), every hand
    counted again, and bring the result rows up to date (ledger.tables.results). ``locked``:
    the table's row as the caller locked it in this transaction, if it did. (A newly recorded
    hand is added to the tally as kept instead: ``hand_record``.)

    The table's row stays locked until the transaction ends, so two phones' saves at one table
    are counted one after the other. The database announces the new revision when the
    transaction commits (on PostgreSQL; migration 0042).
    """
    table = locked or TableSession.objects.select_for_update().get(pk=session.pk)
    fields = ("pk", "number", "data", "voided", "version", *results.LEAD_FIELDS)
    rows = list(table.hands.order_by("number").values_list(*fields))
    names = table.seated
    named = [(pk, n, stored.by_name(data, names), voided, v) for pk, n, data, voided, v, *_ in rows]
    live = [(pk, data) for pk, _, data, voided, _ in named if not voided]
    leads = {row[0]: results.Lead.kept(row[5:], names) for row in rows}  # the fields after these
    # Scored once, for the tally and the result rows both.
    scored = tally.scored(table, [data for _, data in live])
    hands = [(n, data, voided, v) for _, n, data, voided, v in named]
    kept = tally.count(table, hands, scored[1])
    results.resync(table, live, scored, leads)
    _revise(session, table, tally.stored(table, kept, table.revision + 1))


def _revise(session: TableSession, table: TableSession, kept: dict[str, Any]) -> None:
    """Write the table's next revision, with ``kept`` as its tally (``tally.stored`` at
    ``table.revision + 1``), under the table's lock (``table``: its row as locked), and
    ``session`` as it now is; the database announces the new revision (migration 0042)."""
    TableSession.objects.filter(pk=table.pk).update(revision=F("revision") + 1, tally=kept)
    session.revision, session.tally = table.revision + 1, kept


def _request_hash(number: int, data: dict[str, Any]) -> str:
    body = json.dumps([number, data], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _replayed(session: TableSession, earlier: Hand, request_hash: str) -> Recorded:
    """A submission sent again: what its first send stored, as its rows keep it (KeyReused
    if the key came with another hand)."""
    if earlier.request_hash != request_hash:
        raise KeyReused(earlier)
    changes.stored_on_commit(Hand)  # what was asked is stored: a send again says so
    sheet = selectors.after_taken(session, earlier)
    row = sheet.row(earlier.number)
    if row is None or row.result is None:  # voided since: what it settled when it was saved
        checked = checks.new_hand(session, _without_last(session.named(earlier.data)))
        return Recorded(earlier, checked.played, replayed=True, why=checked.why)
    return Recorded(earlier, row.result, replayed=True, why=row.why, end=sheet.end)


def _locked_for_save(session: TableSession, key: str) -> tuple[TableSession, int, int | None]:
    """The table's row under its lock (refused if the organiser locked it, as
    ``_refuse_if_locked``), in one read with what a save must know of its hands: the newest
    one's number (0: none), and the number of the one sent under ``key``, if any."""
    hands = Hand.objects.filter(session=OuterRef("pk")).order_by("-number").values("number")
    keyed = hands.filter(idempotency_key=key).exclude(idempotency_key="")
    table = (
        TableSession.objects.select_for_update()
        .annotate(
            last=Subquery(hands[:1]),
            keyed=Subquery(keyed[:1]) if key else Value(None, IntegerField()),
        )
        .get(pk=session.pk)
    )
    if table.locked:
        raise TableLocked
    annotated = vars(table)  # what was read with the row, which are not its fields
    return table, annotated["last"] or 0, annotated["keyed"]


def _stored_before(
    session: TableSession, number: int, key: str, request_hash: str, *, by_key: bool = False
) -> Recorded | int:
    """What was stored before this submission: the submission itself (``key``), or hand
    ``number`` from another phone (HandAlreadyRecorded), in one read with the table's last
    hand (selectors.stored_before). A hand keeps its number once stored, so when a table's
    phones all press save, all but the first are answered by this read: before the table's
    lock where the table as read says the hand may be stored (checks.next_number), or under
    it. A
    submission sent again is hand ``number`` under its key; ``by_key`` also finds the key
    under another number (KeyReused). Returns the last hand's number (0: none) when neither
    is stored."""
    found = selectors.stored_before(session, number, key if by_key else "")
    if mine := next((hand for hand in found if key and hand.idempotency_key == key), None):
        return _replayed(session, mine, request_hash)
    last = max((hand.number for hand in found), default=0)
    if taken := next((hand for hand in found if hand.number == number), None):
        raise HandAlreadyRecorded(taken, last=last == number)
    return last


def hand_record(
    *,
    session: TableSession,
    number: int,
    data: dict[str, Any],
    device: str = "",
    idempotency_key: str = "",
    checked: checks.Checked | None = None,
) -> Recorded:
    """Record hand ``number`` (the next one), exactly once: ``data`` as ``checked``
    (checks.sent) by the form or the API before, or else here. It is checked again only where
    the table moved since (``Checked.still_holds``).

    A retry with the same ``idempotency_key`` and the same hand returns what the first
    submission stored and stores nothing; the same key with a different hand raises
    KeyReused. Raises ScoringError if the hand is invalid and HandAlreadyRecorded if another
    phone saved that hand first.
    """
    key = idempotency_key
    request_hash = _request_hash(number, data) if key else ""
    following = checks.next_number(session)
    if following is None or number < following:  # answered without waiting for the lock
        earlier = _stored_before(session, number, key, request_hash)
        if isinstance(earlier, Recorded):
            return earlier
    try:
        with transaction.atomic():
            changes.stored_on_commit(Hand)
            locked = _revised_as_checked(
                session, number, data, checked, key, request_hash
            ) or _as_locked(session, number, data, key, request_hash, checked)
            if isinstance(locked, Recorded):
                return locked
            table, checked, counted = locked
            hand = Hand.objects.create(
                session=session,
                number=number,
                data=checked.kept,
                device=device,
                idempotency_key=key,
                request_hash=request_hash,
                **results.lead_fields(session, checked.played),
            )
            HandChange.objects.create(
                hand=hand, kind=HandChange.Kind.RECORD, after=hand.data, device=device
            )
            if counted:  # its rows added to the table's
                results.add(
                    results.rows(session, hand.pk, checked.stored, checked.played, checked.why)
                )
            else:  # every hand counted again, this one with them
                table_changed(session, locked=table)
    except IntegrityError:
        # The key was sent before with another hand (KeyReused), or another save committed
        # between our checks and our insert (one that did not take the table's lock: the
        # admin's, say).
        found = _stored_before(session, number, key, request_hash, by_key=True)
        if isinstance(found, Recorded):
            return found
        raise
    return Recorded(hand, checked.played, why=checked.why, end=checked.end)


class _Locked(NamedTuple):
    """The table under its lock, ready for its next hand."""

    table: TableSession  # its row as locked
    checked: checks.Checked  # the hand, as checked for the table as it is now
    # Its tally and revision written already, the new hand added as kept; else every hand is
    # counted again once it is stored (the last hand, whose table is over; a tally not kept).
    counted: bool


def _revised_as_checked(
    session: TableSession,
    number: int,
    data: dict[str, Any],
    checked: checks.Checked | None,
    key: str,
    request_hash: str,
) -> _Locked | Recorded | None:
    """Where the table is still as the hand's check read it (its revision) and the hand is
    its next, not its last: one statement takes the table's lock and writes its tally and next
    revision, with the new hand added as kept. None where the table as read cannot tell: the
    save then reads it under its lock (``_as_locked``).

    Where that statement finds the table moved (it waited for the save that moved it), what
    was stored meanwhile is read before the lock is asked for: when a table's phones all press
    save, the others are told the first one's hand (HandAlreadyRecorded) without queueing for
    the lock one by one, and a retry gets what it stored."""
    kept = tally.current_tally(session)
    if (
        checked is None
        or kept is None
        or checked.entered != data
        or not checked.still_holds(session)
        or "last" in checked.stored
        or number != kept.recorded + 1
        or number > settings.MOST_HANDS_PER_TABLE
    ):
        return None
    kept.add()
    revision = session.revision + 1
    counted = tally.stored(session, kept, revision)
    as_read = TableSession.objects.filter(pk=session.pk, revision=session.revision, locked=False)
    if not as_read.update(revision=revision, tally=counted):
        earlier = _stored_before(session, number, key, request_hash)
        return earlier if isinstance(earlier, Recorded) else None
    session.revision, session.tally = revision, counted
    return _Locked(session, checked, counted=True)


def _as_locked(
    session: TableSession,
    number: int,
    data: dict[str, Any],
    key: str,
    request_hash: str,
    checked: checks.Checked | None,
) -> _Locked | Recorded:
    """The table under its lock, as it is now: the hand sent before (a retry), or refused
    (another phone's, a number out of order, a table full or locked), or checked again where
    the table moved since ``checked``; the tally and revision written where they can be."""
    table, last, keyed = _locked_for_save(session, key)
    if keyed is not None or 1 <= number <= last:
        found = _stored_before(session, number, key, request_hash, by_key=True)
        if isinstance(found, Recorded):
            return found
    _refuse_out_of_order(last, number)
    if number > settings.MOST_HANDS_PER_TABLE:
        raise scoring.ScoringError(
            "this table holds {most} hands, the most one table keeps: start a new table to play on",
            "number",
            most=settings.MOST_HANDS_PER_TABLE,
        )
    table.seated = session.seated  # read once, with the table
    if checked is None or checked.entered != data or not checked.still_holds(table):
        checked = checks.new_hand(table, data)
    # The last hand is counted with the rest, so the tally knows the table is over.
    kept = None if "last" in checked.stored else tally.current_tally(table)
    if kept is not None:
        kept.add()
        _revise(session, table, tally.stored(table, kept, table.revision + 1))
    return _Locked(table, checked, counted=kept is not None)


def _refuse_out_of_order(last: int, number: int) -> None:
    """Hands are numbered 1, 2, 3...: only the number after the ``last`` can be recorded."""
    if number != last + 1:
        raise scoring.ScoringError(
            "this table's next hand is hand {next}, not hand {number}",
            "number",
            next=last + 1,
            number=number,
        )


def _hand_for_update(session: TableSession, number: int, version: int) -> Hand:
    # Through the table's hands, so that the hand's ``session`` is the table already read.
    current = session.hands.select_for_update().get(number=number)
    if current.voided:
        raise HandVoided(current)
    if current.version != version:
        raise StaleVersion(current)
    return current


def hand_correct(
    *, session: TableSession, number: int, data: dict[str, Any], version: int, device: str = ""
) -> Hand:
    """Replace what hand says; everything after it is recomputed when shown.

    Raises HandVoided for a voided hand, StaleVersion if the hand changed since ``version``
    and ScoringError if the corrected hand is invalid.
    """
    with transaction.atomic():
        changes.stored_on_commit(Hand)
        _refuse_if_locked(session)
        checks.refuse_last(data, "hand")
        current = _hand_for_update(session, number, version)
        # A correction does not move the end: the hand during which the time ran out stays
        # the last.
        data = {**data, "last": True} if current.data.get("last") else data
        live = checks.live_hands(session)
        hands = [data if pk == current.pk else other for pk, other in live]
        index = [pk for pk, _ in live].index(current.pk)
        data = checks.as_stored(data, tally.score_table(session, hands, new=index).hands[index])
        before = current.data
        current.data, current.version = session.by_id(data), current.version + 1
        current.device = device
        # The record first, as ``table_ends`` writes it.
        HandChange.objects.create(
            hand=current,
            kind=HandChange.Kind.CORRECT,
            before=before,
            after=current.data,
            device=device,
        )
        current.save(update_fields=["data", "version", "device"])
        table_changed(session)
    return current


def hand_void(*, session: TableSession, number: int, version: int, device: str = "") -> Hand:
    """Void a hand: it stays in the history and counts for nothing.

    Raises HandVoided if it already is, StaleVersion if the hand changed since ``version``,
    and ScoringError if the hands after it no longer make sense without it.
    """
    with transaction.atomic():
        changes.stored_on_commit(Hand)
        _refuse_if_locked(session)
        current = _hand_for_update(session, number, version)
        hands = [other for pk, other in checks.live_hands(session) if pk != current.pk]
        tally.score_table(session, hands)
        HandChange.objects.create(
            hand=current, kind=HandChange.Kind.VOID, before=current.data, device=device
        )
        current.voided, current.version, current.device = True, current.version + 1, device
        current.save(update_fields=["voided", "version", "device"])
        table_changed(session)
    return current
