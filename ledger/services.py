"""Every write to the ledger: typed, keyword-only, one transaction each.

The htmx views and the API call these same functions; nothing here computes a rule: every
hand is checked by ``scoring`` before anything is saved.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import F

import scoring
from ledger.models import Hand, HandChange, Player, Seat, TableSession


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


class TableLocked(Exception):
    """The organiser locked the table: it takes no more hands or changes."""


class StaleVersion(Exception):
    """The hand changed since the phone loaded it; ``hand`` is its current state."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(f"hand {hand.number} has changed since it was loaded")
        self.hand = hand


def session_create(
    *, game: str, options: dict[str, Any], seating: list[str], first: str
) -> TableSession:
    """Start a table session. Raises ScoringError (with its path) on anything invalid."""
    document = {"game": game, "options": options, "seating": seating, "first": first}
    scoring.score_session(scoring.parse_session(document))
    with transaction.atomic():
        session = TableSession.objects.create(game=game, options=options, first=first)
        for position, name in enumerate(seating):
            player = Player.objects.filter(name__iexact=name).first()
            if player is None:
                player = Player.objects.create(name=name)
            Seat.objects.create(session=session, player=player, position=position)
    return session


def _check(session: TableSession, hands: list[dict[str, Any]]) -> scoring.SessionResult:
    """Score the session as it would be; a ScoringError stops the change."""
    return scoring.score_session(scoring.parse_session(session.document(hands)))


class Recorded(NamedTuple):
    hand: Hand
    played: scoring.HandResult  # the new hand scored, as the save checked it
    replayed: bool = False  # a retry: the hand was stored by an earlier submission


def _live_hands(session: TableSession) -> list[tuple[int, dict[str, Any]]]:
    """(pk, data) of every hand that counts, in order."""
    return list(session.hands.filter(voided=False).order_by("number").values_list("pk", "data"))


def _refuse_if_locked(session: TableSession) -> None:
    if TableSession.objects.filter(pk=session.pk, locked=True).exists():
        raise TableLocked


def table_lock(*, session: TableSession, locked: bool) -> None:
    """Lock the table (no more hands, corrections or voids) or open it again."""
    with transaction.atomic():
        TableSession.objects.filter(pk=session.pk).update(locked=locked)
        _touch(session)
    session.locked = locked


def _touch(session: TableSession) -> None:
    TableSession.objects.filter(pk=session.pk).update(revision=F("revision") + 1)


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
            existing = session.hands.filter(number=number).first()
            if existing is not None:
                # It may be this very submission, stored by a retry since the look-up above.
                if replay := _replay(session, idempotency_key, request_hash):
                    return replay
                raise HandAlreadyRecorded(existing)
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
            _touch(session)
    except IntegrityError:
        # Another save committed between our checks and our insert: a retry of this very
        # submission, or another phone's save of the same hand.
        if replay := _replay(session, idempotency_key, request_hash):
            return replay
        raise HandAlreadyRecorded(session.hands.get(number=number)) from None
    return Recorded(hand, played)


def _score_new_hand(
    session: TableSession, data: dict[str, Any]
) -> tuple[dict[str, Any], scoring.HandResult]:
    """Check a new hand and settle it; return it as it is stored, and its result.

    A hand that records who led and which way is scored on its own: nothing before it can
    change its result, so the 500th save costs what the first did. Otherwise the rules decide
    from the whole session, and what they decided is stored with the hand.
    """
    if "first" in data and "direction" in data:
        try:
            return data, _check(session, [data]).hands[0]
        except scoring.ScoringError as error:
            index = session.hands.filter(voided=False).count()
            error.path = error.path.replace("hands[0]", f"hands[{index}]", 1)
            raise
    played = _check(session, [hand for _, hand in _live_hands(session)] + [data]).hands[-1]
    return {**data, "first": played.first, "direction": played.direction.value}, played


def _hand_for_update(session: TableSession, number: int, version: int) -> Hand:
    current = Hand.objects.select_for_update().get(session=session, number=number)
    if current.version != version:
        raise StaleVersion(current)
    return current


def hand_correct(
    *, session: TableSession, number: int, data: dict[str, Any], version: int, device: str = ""
) -> Hand:
    """Replace what hand says; everything after it is recomputed when shown.

    Raises StaleVersion if the hand changed since ``version`` and ScoringError if the
    corrected hand is invalid.
    """
    with transaction.atomic():
        _refuse_if_locked(session)
        current = _hand_for_update(session, number, version)
        hands = [data if pk == current.pk else other for pk, other in _live_hands(session)]
        _check(session, hands)
        before = current.data
        current.data, current.version, current.device = data, current.version + 1, device
        current.save(update_fields=["data", "version", "device"])
        HandChange.objects.create(
            hand=current, kind=HandChange.Kind.CORRECT, before=before, after=data, device=device
        )
        _touch(session)
    return current


def hand_void(*, session: TableSession, number: int, version: int, device: str = "") -> Hand:
    """Void a hand: it stays in the history and counts for nothing.

    Raises StaleVersion if the hand changed since ``version``, and ScoringError if the
    hands after it no longer make sense without it.
    """
    with transaction.atomic():
        _refuse_if_locked(session)
        current = _hand_for_update(session, number, version)
        hands = [other for pk, other in _live_hands(session) if pk != current.pk]
        _check(session, hands)
        current.voided, current.version, current.device = True, current.version + 1, device
        current.save(update_fields=["voided", "version", "device"])
        HandChange.objects.create(
            hand=current, kind=HandChange.Kind.VOID, before=current.data, device=device
        )
        _touch(session)
    return current
