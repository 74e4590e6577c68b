"""Every write to the ledger: typed, keyword-only, one transaction each.

The htmx views and the API call these same functions; nothing here computes a rule: every
hand is checked by scoring the whole session with ``scoring`` before anything is saved.
"""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F

import scoring
from ledger.models import Hand, HandChange, Player, Seat, TableSession


class HandAlreadyRecorded(Exception):
    """Another phone saved this hand first; ``hand`` is what it saved."""

    def __init__(self, hand: Hand) -> None:
        super().__init__(f"hand {hand.number} is already recorded")
        self.hand = hand


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


def _check(session: TableSession, hands: list[dict[str, Any]]) -> None:
    """Score the session as it would be; a ScoringError stops the change."""
    scoring.score_session(scoring.parse_session(session.document(hands)))


def _live_hands(session: TableSession) -> list[Hand]:
    return list(session.hands.filter(voided=False).order_by("number"))


def _touch(session: TableSession) -> None:
    TableSession.objects.filter(pk=session.pk).update(revision=F("revision") + 1)


def hand_record(
    *, session: TableSession, number: int, data: dict[str, Any], device: str = ""
) -> Hand:
    """Record hand ``number`` (the next one). Raises ScoringError if the hand is invalid and
    HandAlreadyRecorded if another phone saved that hand first."""
    try:
        with transaction.atomic():
            existing = session.hands.filter(number=number).first()
            if existing is not None:
                raise HandAlreadyRecorded(existing)
            _check(session, [hand.data for hand in _live_hands(session)] + [data])
            hand = Hand.objects.create(session=session, number=number, data=data, device=device)
            HandChange.objects.create(
                hand=hand, kind=HandChange.Kind.RECORD, after=data, device=device
            )
            _touch(session)
    except IntegrityError:
        # Another phone's save of this hand committed between our check and our insert.
        raise HandAlreadyRecorded(session.hands.get(number=number)) from None
    return hand


def hand_correct(*, hand: Hand, data: dict[str, Any], version: int, device: str = "") -> Hand:
    """Replace what hand says; everything after it is recomputed when shown.

    Raises StaleVersion if the hand changed since ``version`` and ScoringError if the
    corrected session is invalid (for example, a later hand's special no longer fits).
    """
    with transaction.atomic():
        current = Hand.objects.select_for_update().get(pk=hand.pk)
        if current.version != version:
            raise StaleVersion(current)
        hands = [
            data if other.pk == current.pk else other.data for other in _live_hands(current.session)
        ]
        _check(current.session, hands)
        before = current.data
        current.data, current.version, current.device = data, current.version + 1, device
        current.save(update_fields=["data", "version", "device"])
        HandChange.objects.create(
            hand=current, kind=HandChange.Kind.CORRECT, before=before, after=data, device=device
        )
        _touch(current.session)
    return current


def hand_void(*, hand: Hand, version: int, device: str = "") -> Hand:
    """Void a hand: it stays in the history and counts for nothing.

    Raises StaleVersion if the hand changed since ``version``, and ScoringError if the
    hands after it no longer make sense without it.
    """
    with transaction.atomic():
        current = Hand.objects.select_for_update().get(pk=hand.pk)
        if current.version != version:
            raise StaleVersion(current)
        hands = [other.data for other in _live_hands(current.session) if other.pk != current.pk]
        _check(current.session, hands)
        current.voided, current.version, current.device = True, current.version + 1, device
        current.save(update_fields=["voided", "version", "device"])
        HandChange.objects.create(
            hand=current, kind=HandChange.Kind.VOID, before=current.data, device=device
        )
        _touch(current.session)
    return current
