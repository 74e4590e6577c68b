"""Each hand's outcome per player as rows (``Result``), written in the hand's transaction and
kept equal to what the engine computes from the hands. Rows are only ever added.

A new hand adds its rows. A correction or a void can change more than its own hand (with ties
to the lower total, a later tie may now go the other way), so the table's rows are brought up
to date from a scoring of the whole table: each hand whose outcome changed gets a reversal of
each of its standing rows and the rows of its new outcome; the rest are left as they are.

The rows of a hand, in each unit, sum to zero (each outcome the engine settles does, and so
does its reversal), and the rows of a voided hand are all taken back: the database refuses a
commit that breaks either, however the rows were written, and any edit or deletion of a row
(migration 0040_insert_only_history, on PostgreSQL and SQLite).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import Sum
from django.db.models.functions import Abs

import scoring
from ledger.amounts import MOST
from ledger.tables.models import Result, TableSession
from ledger.tables.stored import specials_of
from scoring import GAMES


class Outcome(NamedTuple):
    """What a row says of one player in one hand."""

    score: int | None
    net: Decimal
    won: bool
    specials: tuple[str, ...]
    # What they won from each other player before netting, (payer, amount) by name: what a
    # pairwise summary and a head-to-head add up (scoring.won_from).
    won_from: tuple[tuple[str, Decimal], ...] = ()


def pays_in(game: str, options: Mapping[str, Any]) -> tuple[Result.Unit, Decimal]:
    """How a table of ``game`` with ``options`` pays: in money (and its stake), in chips (and
    the chip's value), or in points only (and 0)."""
    return _pays_in(game, json.dumps(options, sort_keys=True))


@lru_cache(maxsize=1024)
def _pays_in(game: str, options: str) -> tuple[Result.Unit, Decimal]:
    rules = GAMES[game]
    seating = [f"P{i}" for i in range(rules.player_counts[0])]
    document = {"game": game, "options": json.loads(options), "seating": seating}
    parsed = scoring.parse_session(document).options
    value = rules.unit(parsed)
    if value == 0:
        return Result.Unit.POINTS, Decimal(0)
    return (Result.Unit.CHIPS if rules.pays_chips(parsed) else Result.Unit.MONEY), value


def add(new: list[Result]) -> None:
    """Store ``new`` rows of one table, unless SQLite could no longer add up a player's rows
    there: it sums 64-bit integers and raises past them, where PostgreSQL sums as numeric.
    Each player's rows at a table, taken without their signs (a reversal as much as the row it
    takes back), stay within ``amounts.MOST``, so their sum in any order does too; a change
    that would pass it is refused (ScoringError: a 400, or the form's message; the transaction
    stores nothing). Only stakes near the largest (10^9) come near it, after about a thousand
    of the costliest hands."""
    if connection.vendor != "postgresql" and new:
        adding: dict[int, Decimal] = defaultdict(Decimal)
        for row in new:
            adding[row.player_id] += abs(row.net)
        held = dict(
            Result.objects.filter(session_id=new[0].session_id, player__in=adding)
            .order_by()
            .values_list("player")
            .annotate(held=Sum(Abs("net")))
        )
        if any(held.get(player, 0) + more > MOST for player, more in adding.items()):
            raise scoring.ScoringError(
                "this table's amounts would pass {most}, the most the database adds up for "
                "one player at one table: start a new table to play on",
                "hand",
                most=MOST,
            )
    Result.objects.bulk_create(new)


def outcomes(game: str, data: Mapping[str, Any], played: scoring.HandResult) -> dict[str, Outcome]:
    """Each player's outcome of a hand as stored (``data``) and settled (``played``); none for
    a redeal. Specials are those marked or proven (stored with the hand), a 0's pass, and
    declared doubles for their holder."""
    if data.get("redeal") is not None:
        return {}
    entered = data.get("results", {})
    holder = data.get("declared_doubles")
    won_from: dict[str, list[tuple[str, Decimal]]] = defaultdict(list)
    for (payee, payer), value in sorted(scoring.won_from([played]).items()):
        won_from[payee].append((payer, value))
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
            tuple(won_from[name]),
        )
        for name, net in played.net.items()
    }


def outcome(row: Result, names: Mapping[int, str]) -> Outcome:
    """What ``row`` says, its players by name (``names``: the table's ``seated``)."""
    won_from = tuple(sorted((names[int(pk)], Decimal(value)) for pk, value in row.won_from.items()))
    return Outcome(row.score, row.net, row.won, tuple(row.specials), won_from)


def _players(session: TableSession) -> dict[str, int]:
    return {name: pk for pk, name in session.seated.items()}


def _rows(
    session: TableSession,
    hand_pk: int,
    players: Mapping[str, int],
    found: Mapping[str, Outcome],
) -> list[Result]:
    unit, _ = pays_in(session.game, session.options)
    return [
        Result(
            session=session,
            hand_id=hand_pk,
            player_id=players[name],
            score=outcome.score,
            net=outcome.net,
            unit=unit,
            won=outcome.won,
            specials=list(outcome.specials),
            won_from={str(players[payer]): str(value) for payer, value in outcome.won_from},
        )
        for name, outcome in found.items()
    ]


def reversal(row: Result) -> Result:
    """The row that takes ``row`` back: the same outcome, its score and net negated."""
    return Result(
        session_id=row.session_id,
        hand_id=row.hand_id,
        player_id=row.player_id,
        score=None if row.score is None else -row.score,
        net=-row.net,
        unit=row.unit,
        won=row.won,
        specials=row.specials,
        won_from={payer: str(-Decimal(value)) for payer, value in row.won_from.items()},
        reverses=row,
    )


def rows(
    session: TableSession,
    hand: int,
    data: Mapping[str, Any],
    played: scoring.HandResult,
) -> list[Result]:
    """The rows of a newly recorded hand (``data``: as the engine read it); ``hand``: its id."""
    return _rows(session, hand, _players(session), outcomes(session.game, data, played))


def resync(
    session: TableSession,
    live: Iterable[tuple[int, dict[str, Any]]],
    result: scoring.SessionResult | None = None,
) -> None:
    """Bring the table's rows up to date with the engine: ``live`` is (pk, data by name) of
    every hand that counts, in order (``result``: those hands scored already, if they were).
    Rows of a voided hand, or of an outcome that changed, are reversed; changed and missing
    outcomes get new rows."""
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
    have: dict[int, dict[str, tuple[Result, Outcome]]] = {}
    for row in Result.objects.filter(session=session).standing():
        have.setdefault(row.hand_id, {})[names.get(row.player_id, "")] = (row, outcome(row, names))
    new: list[Result] = []
    for pk in have.keys() | wanted.keys():
        standing = {name: outcome for name, (_, outcome) in have.get(pk, {}).items()}
        if standing != wanted.get(pk, {}):
            new += [reversal(row) for row, _ in have.get(pk, {}).values()]
            new += _rows(session, pk, players, wanted.get(pk, {}))
    add(new)
