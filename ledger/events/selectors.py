"""Reads of a tournament: its tables, history, standings and settlements, in few queries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import combinations, groupby
from typing import Any

from django.http import Http404

import scoring
from ledger.limits import NoSuchLink
from ledger.models import Event, Hand, Round, Seat, TableSession
from ledger.tables import tally
from scoring import Payment
from scoring.names import canonical


@dataclass(frozen=True)
class History:
    """What earlier rounds did, for seating the next (ledger.events.seating)."""

    met: Counter[frozenset[str]]
    led: Counter[str]
    byes: Counter[str]


@dataclass
class Standing:
    name: str
    active: bool
    net: Decimal = Decimal(0)
    hands_won: int = 0
    points: int = 0  # total score (pips) taken: fewer is better
    hands: int = 0
    byes: int = 0
    rounds: dict[int, tuple[int | None, Decimal]] = field(default_factory=dict)  # table, net
    place: int = 0


@dataclass(frozen=True)
class Standings:
    rows: list[Standing]
    tables: list[TableState]


@dataclass(frozen=True)
class TableState:
    round: int
    number: int
    token: str
    read_token: str
    seating: list[str]
    recorded: int  # hands recorded, voided ones included
    counted: int  # hands that count
    corrected: bool  # a hand was corrected or voided


TIE_BREAKERS = {
    "hands_won": lambda row: -row.hands_won,
    "fewest_points": lambda row: row.points,
}


@dataclass(frozen=True, slots=True)
class EventTable:
    """A table of an event as standings read it: plain values, which Python frees as soon as
    a page is done with them. (Model instances with their seats prefetched point at each other,
    and wait for the garbage collector; at 150 tables that made a full collection's pause felt.)
    """

    pk: int
    round: int
    number: int
    token: str
    read_token: str
    game: str
    options: dict[str, Any]
    first: str
    revision: int
    tally: dict[str, Any]
    seating: list[str]

    document = TableSession.document


def event_tables(event: Event) -> list[EventTable]:
    """Every table of the event by round and number, in two queries."""
    seating: dict[int, list[str]] = {}
    for session_id, name in (
        Seat.objects.filter(session__round__event=event)
        .order_by("session_id", "position")
        .values_list("session_id", "player__name")
    ):
        seating.setdefault(session_id, []).append(name)
    return [
        EventTable(*row, seating.get(row[0], []))
        for row in TableSession.objects.filter(round__event=event)
        .order_by("round__number", "table_number")
        .values_list(
            "pk",
            "round__number",
            "table_number",
            "token",
            "read_token",
            "game",
            "options",
            "first",
            "revision",
            "tally",
        )
    ]


def event_history(event: Event) -> History:
    met: Counter[frozenset[str]] = Counter()
    led: Counter[str] = Counter()
    for table in event_tables(event):
        names = table.seating
        met.update(frozenset(pair) for pair in combinations(names, 2))
        led[table.first] += 1
    byes = Counter(name for round in event.round_set.all() for name in round.byes)
    return History(met, led, byes)


def _hands(tables: list[EventTable]) -> dict[int, tally.StoredHands]:
    """Every hand of each table, in order, in one query."""
    hands: dict[int, tally.StoredHands] = {t.pk: [] for t in tables}
    for session_id, number, data, voided, version in (
        Hand.objects.filter(session__in=[t.pk for t in tables])
        .order_by("number")
        .values_list("session_id", "number", "data", "voided", "version")
    ):
        hands[session_id].append((number, data, voided, version))
    return hands


def _tallies(tables: list[EventTable]) -> list[tally.Tally]:
    """Each table's kept tally; tables without a current one are counted from their hands."""
    kept = [tally.kept(t) for t in tables]
    stale = [t for t, k in zip(tables, kept, strict=True) if k is None]
    if not stale:
        return [k for k in kept if k is not None]
    hands = _hands(stale)
    return [k or tally.count(t, hands[t.pk]) for t, k in zip(tables, kept, strict=True)]


def standings(event: Event) -> Standings:
    """Every player's standing as if every table finished now, in at most five queries: the
    event's tables with their tallies (ledger.tables.tally), their seats, the hands of any table
    whose tally is not current, rounds and entries."""
    tables = event_tables(event)
    rows = {
        canonical(name): Standing(name, active)
        for name, active in event.entries.values_list("player__name", "active")
    }
    h2h: dict[str, Counter[str]] = {}  # name -> what they won from each opponent
    states = []
    for table, counted in zip(tables, _tallies(tables), strict=True):
        seating = table.seating
        for name in seating:
            row = rows.setdefault(canonical(name), Standing(name, False))
            row.net += counted.net[name]
            row.hands_won += counted.hands_won[name]
            row.points += counted.points[name]
            row.hands += counted.counted
            row.rounds[table.round] = (table.number, counted.net[name])
        for (payee, payer), value in counted.owed.items():
            h2h.setdefault(payee, Counter())[payer] += value
            h2h.setdefault(payer, Counter())[payee] -= value
        states.append(
            TableState(
                table.round,
                table.number,
                table.token,
                table.read_token,
                seating,
                counted.recorded,
                counted.counted,
                counted.corrected,
            )
        )
    for round in event.round_set.all():
        for name in round.byes:
            row = rows.setdefault(canonical(name), Standing(name, False))
            row.byes += 1
            row.rounds[round.number] = (None, Decimal(0))
    ordered = _rank(list(rows.values()), event.tie_breakers, h2h)
    return Standings(ordered, states)


def settlements(event: Event) -> Iterator[tuple[int, int, int, Payment]]:
    """Every payment of the event: (round, table, hand, payment), table by table."""
    tables = event_tables(event)
    hands = _hands(tables)
    for table in tables:
        live = [(number, data) for number, data, voided, _ in hands[table.pk] if not voided]
        result = scoring.score_session(
            scoring.parse_session(table.document([data for _, data in live]))
        )
        for (number, _), hand in zip(live, result.hands, strict=True):
            for payment in hand.payments:
                yield table.round, table.number, number, payment


def _rank(
    rows: list[Standing], tie_breakers: list[str], h2h: dict[str, Counter[str]]
) -> list[Standing]:
    """Best first: net, then the event's tie-breakers in order, then the name."""

    def key(row: Standing) -> tuple[Any, ...]:
        return (-row.net, *(TIE_BREAKERS[t](row) for t in tie_breakers if t in TIE_BREAKERS))

    rows.sort(key=lambda row: (*key(row), row.name.casefold()))
    if "head_to_head" in tie_breakers:
        # Among players level on everything before it: what each won from the others.
        position = tie_breakers.index("head_to_head")
        before = [t for t in tie_breakers[:position] if t in TIE_BREAKERS]

        def level(row: Standing) -> tuple[Any, ...]:
            return (-row.net, *(TIE_BREAKERS[t](row) for t in before))

        ranked: list[Standing] = []
        for _, group in groupby(rows, key=level):
            tied = list(group)
            names = {row.name for row in tied}
            won = {
                row.name: sum(v for other, v in h2h.get(row.name, {}).items() if other in names)
                for row in tied
            }
            ranked += sorted(tied, key=lambda row: -won[row.name])  # stable: keeps the rest
        rows = ranked
    for place, row in enumerate(rows, start=1):
        row.place = place
    return rows


def event_by_token(token: str) -> Event:
    return _event(token=token)


def event_by_register_token(token: str) -> Event:
    return _event(register_token=token)


def event_by_read_token(token: str) -> Event:
    return _event(read_token=token)


def _event(**lookup: str) -> Event:
    try:
        return Event.objects.get(**lookup)
    except Event.DoesNotExist:
        raise NoSuchLink("No such event") from None


def event_round(token: str, number: int) -> Round:
    """Round ``number`` of the event the organiser's ``token`` opens, or 404."""
    try:
        return Round.objects.get(event__token=token, number=number)
    except Round.DoesNotExist:
        if not Event.objects.filter(token=token).exists():
            raise NoSuchLink("No such event") from None
        raise Http404("No such round") from None
