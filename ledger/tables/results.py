"""Each hand's outcome per player as rows (``Result``), written in the hand's transaction and
kept equal to what the engine computes from the hands.

A new hand adds its rows. A correction or a void can change more than its own hand (with ties
to the lower total, a later tie may now go the other way), so the table's rows are brought up
to date from a scoring of the whole table: each hand whose outcome changed has its rows marked
replaced and new ones written; the rest are left as they are.

Every row of a hand, current and replaced, sums to zero (each outcome the engine settles
does): on PostgreSQL a deferred trigger refuses a commit that breaks this, however the rows
were written (migration 0027_result_balanced). Elsewhere ``resync`` checks each hand whose rows
it replaced or wrote before the transaction commits; a new hand's rows, one outcome of the
engine written with it in one statement, need no read to know that.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from decimal import Decimal
from typing import Any, NamedTuple

from django.db import IntegrityError, connection
from django.db.models import Expression
from django.utils import timezone

import scoring
from ledger.tables.models import Result, TableSession
from ledger.tables.stored import specials_of


class Outcome(NamedTuple):
    """What a row says of one player in one hand."""

    score: int | None
    net: Decimal
    won: bool
    specials: tuple[str, ...]


class Unbalanced(IntegrityError):
    """A hand's result rows do not sum to zero: what PostgreSQL's trigger raises at commit, said
    before it on a database without one. Always a bug (or a row written behind the services'
    back): the transaction is rolled back."""


def refuse_unbalanced(hands: Collection[int]) -> None:
    """Raise Unbalanced if the rows of any of ``hands`` (ids), current and replaced, do not sum
    to zero. PostgreSQL checks this itself when the transaction commits: only another database
    is asked here."""
    if connection.vendor == "postgresql" or not hands:
        return
    totals: dict[int, Decimal] = defaultdict(Decimal)
    for hand, net in Result.objects.filter(hand_id__in=hands).values_list("hand_id", "net"):
        totals[hand] += net
    if unbalanced := sorted((hand, total) for hand, total in totals.items() if total):
        hand, total = unbalanced[0]
        raise Unbalanced(f"the result rows of hand {hand} sum to {total}, not 0")


def outcomes(game: str, data: Mapping[str, Any], played: scoring.HandResult) -> dict[str, Outcome]:
    """Each player's outcome of a hand as stored (``data``) and settled (``played``); none for
    a redeal. Specials are those marked or proven (stored with the hand), a 0's pass, and
    declared doubles for their holder."""
    if data.get("redeal") is not None:
        return {}
    entered = data.get("results", {})
    holder = data.get("declared_doubles")
    return {
        name: Outcome(
            played.scores.get(name),
            net,
            played.winner == name,
            tuple(
                sorted(
                    specials_of(game, entered.get(name, {}))
                    + (["declared_doubles"] if name == holder else [])
                )
            ),
        )
        for name, net in played.net.items()
    }


def _players(session: TableSession) -> dict[str, int]:
    return {name: pk for pk, name in session.seated.items()}


def _rows(
    session: TableSession,
    hand_pk: int | Expression,
    players: Mapping[str, int],
    found: Mapping[str, Outcome],
) -> list[Result]:
    return [
        Result(
            session=session,
            hand_id=hand_pk,
            player_id=players[name],
            score=outcome.score,
            net=outcome.net,
            won=outcome.won,
            specials=list(outcome.specials),
        )
        for name, outcome in found.items()
    ]


def rows(
    session: TableSession,
    hand: int | Expression,
    data: Mapping[str, Any],
    played: scoring.HandResult,
) -> list[Result]:
    """The rows of a newly recorded hand (``data``: as the engine read it); ``hand``: its id, or
    an expression that finds it."""
    return _rows(session, hand, _players(session), outcomes(session.game, data, played))


def resync(
    session: TableSession,
    live: Iterable[tuple[int, dict[str, Any]]],
    result: scoring.SessionResult | None = None,
) -> None:
    """Bring the table's rows up to date with the engine: ``live`` is (pk, data by name) of
    every hand that counts, in order (``result``: those hands scored already, if they were).
    Rows of a voided hand, or of an outcome that changed, are marked replaced; changed and
    missing outcomes get new rows."""
    live = list(live)
    if result is None:
        document = session.document([data for _, data in live])
        result = scoring.score_session(scoring.parse_session(document), new=())
    players = _players(session)
    names = {player: name for name, player in players.items()}
    wanted = {
        pk: outcomes(session.game, data, played)
        for (pk, data), played in zip(live, result.hands, strict=True)
    }
    have: dict[int, dict[str, tuple[int, Outcome]]] = {}
    for row in Result.objects.filter(session=session, current=True):
        outcome = Outcome(row.score, row.net, row.won, tuple(row.specials))
        have.setdefault(row.hand_id, {})[names.get(row.player_id, "")] = (row.pk, outcome)
    stale, new, changed = [], [], []
    for pk in have.keys() | wanted.keys():
        current = {name: outcome for name, (_, outcome) in have.get(pk, {}).items()}
        if current != wanted.get(pk, {}):
            stale += [row_pk for row_pk, _ in have.get(pk, {}).values()]
            new += _rows(session, pk, players, wanted.get(pk, {}))
            changed.append(pk)
    Result.objects.filter(pk__in=stale).update(current=False, replaced=timezone.now())
    Result.objects.bulk_create(new)
    refuse_unbalanced(changed)


def tidy(value: Decimal) -> Decimal:
    """A sum of stored amounts as money reads: the database gives sums with the column's four
    places on PostgreSQL ("12.5000") and as it likes on SQLite ("12.5"), so neither is what a
    person wants. Whole stays whole, cents keep two places, smaller parts what they need.

    >>> [str(tidy(Decimal(v))) for v in ("12.5000", "12.5", "-3.0000", "0.1250", "7E+1")]
    ['12.50', '12.50', '-3', '0.125', '70']
    """
    exact = value.quantize(_STORED)  # the column's places: no float dust from SQLite's sums
    if exact == exact.to_integral_value():
        return exact.quantize(Decimal(1))
    short = exact.normalize()
    exponent = short.as_tuple().exponent
    return short if isinstance(exponent, int) and exponent <= -2 else short.quantize(_CENTS)


_STORED = Decimal("0.0001")  # the places of Result's amounts
_CENTS = Decimal("0.01")
