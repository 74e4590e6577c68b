"""Every write to a table: typed, keyword-only, one transaction each.

The htmx views and the API call these same functions; nothing here computes a rule: every
hand is checked by ``scoring`` before anything is saved.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max, Prefetch

import scoring
from ledger.models import (
    NAME_LENGTH,
    Hand,
    HandChange,
    Player,
    Round,
    Seat,
    TableSession,
)
from ledger.tables import tally
from scoring import names
from scoring.options import ENDS


class HandAlreadyRecorded(Exception):
    """Another phone saved this hand first; ``hand`` is what it saved."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(f"hand {hand.number} is already recorded")
        self.hand = hand


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
) -> TableSession:
    """Start a table session (``owner``: the organiser account starting it, if any;
    ``round`` and ``table_number``: where a tournament seated it).

    Each name is seated as the ledger knows it ("anna" is the Anna of earlier tables), and
    ``first`` as seated. Raises ScoringError (with its path) on anything invalid.
    """
    seating, first = _as_seated(seating, first)
    document = {"game": game, "options": options, "seating": seating, "first": first}
    scoring.score_session(scoring.parse_session(document))
    with transaction.atomic():
        session = TableSession.objects.create(
            game=game,
            options=options,
            first=first,
            owner=owner,
            round=round,
            table_number=table_number,
        )
        for position, name in enumerate(seating):
            Seat.objects.create(session=session, player=Player.for_name(name), position=position)
        empty = tally.Tally.empty(session.seating)  # seated names, as stored
        session.tally = tally.stored(session, empty, session.revision)
        session.save(update_fields=["tally"])
    return session


def _as_seated(seating: list[str], first: str) -> tuple[list[str], str]:
    """The names as a new table stores them: a known player's as the ledger knows it, a new
    one's tidied; and who leads first, as seated."""
    tidied = [names.tidy(name) for name in seating]
    for i, name in enumerate(tidied):
        names.check(name, f"seating[{i}]", NAME_LENGTH)
    known = Player.spellings(tidied)
    seated = [known[name] for name in tidied]
    leader = {names.canonical(name): name for name in seated}.get(names.canonical(first), first)
    return seated, leader


class Recorded(NamedTuple):
    hand: Hand
    played: scoring.HandResult  # the new hand scored, as the save checked it
    replayed: bool = False  # a retry: the hand was stored by an earlier submission


def _live_hands(session: TableSession) -> list[tuple[int, dict[str, Any]]]:
    """(pk, data) of every hand that counts, in order."""
    return list(session.hands.filter(voided=False).order_by("number").values_list("pk", "data"))


def _refuse_if_locked(session: TableSession) -> TableSession:
    """Take the table's row lock, then refuse if the organiser locked it: read under the lock,
    a lock committed a moment ago is seen, and one being made waits for this write. Returns the
    row as locked."""
    table = TableSession.objects.select_for_update().get(pk=session.pk)
    if table.locked:
        raise TableLocked
    return table


def table_lock(*, session: TableSession, locked: bool) -> None:
    """Lock the table (no more hands, corrections or voids) or open it again."""
    with transaction.atomic():
        TableSession.objects.filter(pk=session.pk).update(locked=locked)
        table_changed(session)
    session.locked = locked


def table_ends(
    *, session: TableSession, play_to: int | str | None, hands: int | str | None
) -> None:
    """Set where the table's game ends: a total to play to, a number of hands, either, or
    neither (the organiser raising the target to play on). Raises ScoringError if the new end
    is not a valid option, or comes before hands already played."""
    with transaction.atomic():
        table = _refuse_if_locked(session)
        ends = dict(zip(ENDS, (play_to, hands), strict=True))
        options = {name: value for name, value in table.options.items() if name not in ends}
        table.options = options | {k: v for k, v in ends.items() if v is not None and v != ""}
        # Refused (ScoringError) before anything is saved; ``session`` is left as it was.
        tally.score_table(table, [data for _, data in _live_hands(table)])
        table.save(update_fields=["options"])
        session.options = table.options
        table_changed(session)


def table_recount(*, session: TableSession) -> None:
    """Count the table's tally again from its hands, after a change made outside these
    services (the admin, an import); live pages see a new revision."""
    with transaction.atomic():
        table_changed(session)


def table_changed(session: TableSession, played: scoring.HandResult | None = None) -> None:
    """Raise the table's revision and rewrite its tally (ledger.tables.tally): with ``played``, a
    newly recorded hand, added to it; otherwise every hand counted again.

    The table's row stays locked until the transaction ends, so two phones' saves at one table
    are counted one after the other.
    """
    table = (
        TableSession.objects.select_for_update()
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
        .get(pk=session.pk)
    )
    kept = tally.kept(table) if played is not None else None
    if kept is not None and played is not None:
        kept.add(played)
    else:
        hands = table.hands.order_by("number").values_list("number", "data", "voided", "version")
        kept = tally.count(table, list(hands))
    revision = table.revision + 1
    TableSession.objects.filter(pk=table.pk).update(
        revision=revision, tally=tally.stored(table, kept, revision)
    )


def _request_hash(number: int, data: dict[str, Any]) -> str:
    body = json.dumps([number, data], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _replay(session: TableSession, key: str, request_hash: str) -> Recorded | None:
    """The earlier save of the submission with idempotency ``key``, if there was one."""
    if not key:
        return None
    earlier = session.hands.filter(idempotency_key=key).first()
    if earlier is None:
        return None
    if earlier.request_hash != request_hash:
        raise KeyReused(earlier)
    return Recorded(earlier, _score_new_hand(session, earlier.data)[1], replayed=True)


def hand_record(
    *,
    session: TableSession,
    number: int,
    data: dict[str, Any],
    device: str = "",
    idempotency_key: str = "",
) -> Recorded:
    """Record hand ``number`` (the next one), exactly once.

    A retry with the same ``idempotency_key`` and the same hand returns what the first
    submission stored and stores nothing; the same key with a different hand raises
    KeyReused. Raises ScoringError if the hand is invalid and HandAlreadyRecorded if another
    phone saved that hand first.
    """
    request_hash = _request_hash(number, data) if idempotency_key else ""
    try:
        with transaction.atomic():
            if replay := _replay(session, idempotency_key, request_hash):
                return replay
            _refuse_if_locked(session)
            # Read before the look-up below: a hand another phone commits in between is then
            # found by it, or, if later, refused by the database (IntegrityError below).
            last = session.hands.aggregate(last=Max("number"))["last"] or 0
            existing = session.hands.filter(number=number).first()
            if existing is not None:
                # It may be this very submission, stored by a retry since the look-up above.
                if replay := _replay(session, idempotency_key, request_hash):
                    return replay
                raise HandAlreadyRecorded(existing)
            _refuse_out_of_order(last, number)
            if number > settings.MOST_HANDS_PER_TABLE:
                raise scoring.ScoringError(
                    "this table holds {most} hands, the most one table keeps: "
                    "start a new table to play on",
                    "number",
                    most=settings.MOST_HANDS_PER_TABLE,
                )
            data, played = _score_new_hand(session, data)
            hand = Hand.objects.create(
                session=session,
                number=number,
                data=data,
                device=device,
                idempotency_key=idempotency_key,
                request_hash=request_hash,
            )
            HandChange.objects.create(
                hand=hand, kind=HandChange.Kind.RECORD, after=data, device=device
            )
            table_changed(session, played)
    except IntegrityError:
        # Another save committed between our checks and our insert: a retry of this very
        # submission, or another phone's save of the same hand.
        if replay := _replay(session, idempotency_key, request_hash):
            return replay
        raise HandAlreadyRecorded(session.hands.get(number=number)) from None
    return Recorded(hand, played)


def _refuse_out_of_order(last: int, number: int) -> None:
    """Hands are numbered 1, 2, 3...: only the number after the ``last`` can be recorded."""
    if number != last + 1:
        raise scoring.ScoringError(
            "this table's next hand is hand {next}, not hand {number}",
            "number",
            next=last + 1,
            number=number,
        )


def _score_new_hand(
    session: TableSession, data: dict[str, Any]
) -> tuple[dict[str, Any], scoring.HandResult]:
    """Check a new hand and settle it; return it as it is stored, and its result.

    A hand that records who led and which way is scored on its own: nothing before it can
    change its result, so the 500th save costs what the first did. Otherwise the rules decide
    from the whole session, and what they decided is stored with the hand.
    """
    # A table that ends, or breaks ties by the totals, is scored whole: the hand's result
    # depends on those before it.
    if "first" in data and "direction" in data and not _counts_on(session):
        try:
            played = tally.score_table(session, [data], new=0).hands[0]
        except scoring.ScoringError as error:
            index = session.hands.filter(voided=False).count()
            error.path = error.path.replace("hands[0]", f"hands[{index}]", 1)
            raise
        return as_stored(data, played), played
    hands = [hand for _, hand in _live_hands(session)] + [data]
    played = tally.score_table(session, hands, new=len(hands) - 1).hands[-1]
    data = {**data, "first": played.first, "direction": played.direction.value}
    return as_stored(data, played), played


def _counts_on(session: TableSession) -> bool:
    return bool(session.options.keys() & set(ENDS)) or session.options.get("ties") == str(
        scoring.Ties.LOWER_TOTAL
    )


# A result's numbers, stored as the whole numbers the engine read ("١٢", "12 " and 12.0 are 12).
NUMBERS = frozenset(field.key for entry in scoring.Entry for field in entry.fields)


def as_stored(data: dict[str, Any], played: scoring.HandResult) -> dict[str, Any]:
    """A hand the engine accepted, as it is stored: its numbers as whole numbers, and each
    special its entries prove marked as if it had been entered (RULES.md: what an entry
    proves is applied), so that every page, export and later recount shows and pays it as the
    save did."""
    results: dict[str, dict[str, Any]] = {
        name: {
            key: scoring.whole_number(value) if key in NUMBERS else value
            for key, value in result.items()
        }
        for name, result in data.get("results", {}).items()
    }
    for proof in played.proven:
        result = results[proof.player]
        marked: list[str] = result.get("specials", [])
        results[proof.player] = {**result, "specials": [*marked, proof.special.value]}
    return {**data, "results": results} if results else data


def _hand_for_update(session: TableSession, number: int, version: int) -> Hand:
    current = Hand.objects.select_for_update().get(session=session, number=number)
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
        _refuse_if_locked(session)
        current = _hand_for_update(session, number, version)
        live = _live_hands(session)
        hands = [data if pk == current.pk else other for pk, other in live]
        index = [pk for pk, _ in live].index(current.pk)
        data = as_stored(data, tally.score_table(session, hands, new=index).hands[index])
        before = current.data
        current.data, current.version, current.device = data, current.version + 1, device
        current.save(update_fields=["data", "version", "device"])
        HandChange.objects.create(
            hand=current, kind=HandChange.Kind.CORRECT, before=before, after=data, device=device
        )
        table_changed(session)
    return current


def hand_void(*, session: TableSession, number: int, version: int, device: str = "") -> Hand:
    """Void a hand: it stays in the history and counts for nothing.

    Raises HandVoided if it already is, StaleVersion if the hand changed since ``version``,
    and ScoringError if the hands after it no longer make sense without it.
    """
    with transaction.atomic():
        _refuse_if_locked(session)
        current = _hand_for_update(session, number, version)
        hands = [other for pk, other in _live_hands(session) if pk != current.pk]
        tally.score_table(session, hands)
        current.voided, current.version, current.device = True, current.version + 1, device
        current.save(update_fields=["voided", "version", "device"])
        HandChange.objects.create(
            hand=current, kind=HandChange.Kind.VOID, before=current.data, device=device
        )
        table_changed(session)
    return current
