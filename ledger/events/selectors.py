"""Reads of a tournament: its tables, history, standings and settlements, in few queries."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from ledger.events import seating
from ledger.events.standings import Standing, rank
from ledger.links import NoSuchLink
from ledger.models import Event, Hand, Result, Round, Seat, TableSession
from ledger.tables import money, results, stored, tally
from ledger.tables import selectors as table_selectors
from scoring import Payment, Totals
from scoring.names import canonical

# The projector shows up to 3 columns of 14 standings: 42 players to a screen, in type that
# reads across a hall, on a 1280×720 projector as on larger ones (ledger.css sizes it to the
# screen's height). More players take more screens, shown in turn.
PROJECTOR_COLUMNS = 3
PROJECTOR_ROWS = 14


@dataclass(frozen=True)
class History:
    """What earlier rounds did, for seating the next (ledger.events.seating)."""

    met: Counter[frozenset[str]]
    led: Counter[str]
    byes: Counter[str]


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
    time_up: bool  # its time ran out, and the hand being played then was saved: it is over


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
    leader_id: int | None
    revision: int
    tally: dict[str, Any]
    seated: dict[int, str]  # each seated player's id and name, in seat order

    document = TableSession.document

    @property
    def first(self) -> str:
        return "" if self.leader_id is None else self.seated[self.leader_id]

    @property
    def seating(self) -> list[str]:
        return list(self.seated.values())


def event_tables(event: Event) -> list[EventTable]:
    """Every table of the event by round and number, in two queries."""
    seated: dict[int, dict[int, str]] = {}
    for session_id, player, name in (
        Seat.objects.filter(session__round__event=event)
        .order_by("session_id", "position")
        .values_list("session_id", "player_id", "player__name")
    ):
        seated.setdefault(session_id, {})[player] = name
    rows = (
        TableSession.objects.filter(round__event=event)
        .order_by("round__number", "table_number")
        .values_list(
            "pk",
            "round__number",
            "table_number",
            "token",
            "read_token",
            "game",
            "options",
            "leader_id",
            "revision",
            "tally",
        )  # fmt: skip
    )
    return [
        EventTable(
            pk,
            in_round,
            number or 0,
            token,
            read,
            game,
            options,
            leader,
            revision,
            doc,
            seated.get(pk, {}),
        )  # fmt: skip
        for pk, in_round, number, token, read, game, options, leader, revision, doc in rows
    ]


def event_history(event: Event) -> History:
    tables = event_tables(event)
    met = seating.met_counts(table.seating for table in tables)
    led = Counter(table.first for table in tables)
    byes = Counter(name for round in event.round_set.all() for name in round.byes)
    return History(met, led, byes)


def _hands(tables: list[EventTable]) -> dict[int, tally.StoredHands]:
    """Every hand of each table, in order, in one query."""
    hands: dict[int, tally.StoredHands] = {t.pk: [] for t in tables}
    seated = {t.pk: t.seated for t in tables}
    for session_id, number, data, voided, version in (
        Hand.objects.filter(session__in=[t.pk for t in tables])
        .order_by("number")
        .values_list("session_id", "number", "data", "voided", "version")
    ):
        named = stored.by_name(data, seated[session_id])  # as the engine reads it
        hands[session_id].append((number, named, voided, version))
    return hands


def _tallies_kept_or_counted(tables: list[EventTable]) -> list[tally.Tally]:
    """Each table's kept tally; tables without a current one are counted from their hands."""
    kept = [tally.current_tally(t) for t in tables]
    stale = [t for t, k in zip(tables, kept, strict=True) if k is None]
    if not stale:
        return [k for k in kept if k is not None]
    hands = _hands(stale)
    return [k or tally.count(t, hands[t.pk]) for t, k in zip(tables, kept, strict=True)]


@dataclass(frozen=True, slots=True)
class Counted:
    """What standings need of a table: its money as its rows sum it, and its hands counted."""

    totals: Totals
    won_from: dict[tuple[str, str], Decimal]
    counted: int


def standings(event: Event) -> Standings:
    """Every player's standing as if every table finished now, in at most six queries: the
    event's tables with their tallies (ledger.tables.tally), their seats, their money
    (ledger.tables.money: sums, and who won what from whom), the hands of any table whose
    tally is not current, rounds and entries."""
    tables = event_tables(event)
    tallies = _tallies_kept_or_counted(tables)
    totals = money.totals(tables)
    won_from = money.won_from(tables) if "head_to_head" in event.tie_breakers else {}
    rows = rank(
        event.entries.values_list("player__name", "active"),
        [
            (t.round, t.number, t.seating, Counted(totals[t.pk], won_from.get(t.pk, {}), c.counted))
            for t, c in zip(tables, tallies, strict=True)
        ],
        [(round.number, round.byes) for round in event.round_set.all()],
        event.tie_breakers,
    )
    states = [
        TableState(
            t.round,
            t.number,
            t.token,
            t.read_token,
            t.seating,
            counted.recorded,
            counted.counted,
            counted.corrected,
            counted.time_up,
        )  # fmt: skip
        for t, counted in zip(tables, tallies, strict=True)
    ]
    return Standings(rows, states)


@dataclass(frozen=True)
class RoundTables:
    """A round with each of its tables' state: finished, not begun, playing or running late."""

    round: Round
    tables: list[dict[str, Any]]


def round_tables(event: Event, rounds: list[Round], standings: Standings) -> list[RoundTables]:
    """Each round of ``rounds`` with its tables as ``standings`` counted them."""
    now = timezone.now()
    out = []
    for this_round in rounds:
        tables = []
        for table in (t for t in standings.tables if t.round == this_round.number):
            per_round = event.hands_per_round or 0
            finished = (per_round > 0 and table.counted >= per_round) or table.time_up
            late = not finished and this_round.ends is not None and now > this_round.ends
            if finished:
                state = gettext("finished")
            elif this_round.started is None:
                state = gettext("not begun")
            else:
                state = gettext("running late") if late else gettext("playing")
            tables.append({"table": table, "state": state, "late": late, "finished": finished})
        out.append(RoundTables(this_round, tables))
    return out


@dataclass(frozen=True)
class Places:
    """Who may swap in a round not yet begun: each table's players by table number, those with
    a bye, and the active players in neither (a substitute, a late arrival)."""

    tables: list[tuple[int, list[str]]]
    byes: list[str]
    outside: list[str]

    def table_of(self, name: str) -> int | None:
        """The number of the table ``name`` sits at, or None."""
        return next((number for number, names in self.tables if name in names), None)


def round_places(event: Event, this_round: Round) -> Places:
    """The round's places, in two queries."""
    tables: dict[int, list[str]] = {}
    for number, name in (
        Seat.objects.filter(session__round=this_round)
        .order_by("session__table_number", "position")
        .values_list("session__table_number", "player__name")
    ):
        tables.setdefault(number or 0, []).append(name)
    placed = {canonical(name) for names in tables.values() for name in names}
    placed |= {canonical(name) for name in this_round.byes}
    outside = [name for name in active_names(event) if canonical(name) not in placed]
    return Places(list(tables.items()), list(this_round.byes), outside)


def active_names(event: Event) -> list[str]:
    """The players still in the event, by name."""
    entries = event.entries.filter(active=True).order_by("player__name")
    return list(entries.values_list("player__name", flat=True))


@dataclass(frozen=True)
class Board:
    """One screen of the projector: up to ``PROJECTOR_COLUMNS`` columns of standings."""

    columns: list[list[Standing]]
    number: int  # this screen's, from 1
    count: int

    @property
    def next(self) -> int:
        """The screen shown after this one (the first after the last)."""
        return self.number % self.count + 1


def board(rows: list[Standing], number: int | None) -> Board:
    """Screen ``number`` of the standings (the first for none, or one past the last), in as
    few columns as hold its players, shared evenly, so that a small event fills the screen
    too (its type grows with fewer rows: ledger.css)."""
    size = PROJECTOR_COLUMNS * PROJECTOR_ROWS
    count = max(1, -(-len(rows) // size))
    number = number if number is not None and 1 <= number <= count else 1
    shown = rows[(number - 1) * size : number * size]
    # As few columns as hold them, shared evenly: the rows then fill the screen's height.
    tall = max(1, -(-len(shown) // max(1, -(-len(shown) // PROJECTOR_ROWS))))
    columns = [shown[i : i + tall] for i in range(0, len(shown), tall)]
    return Board(columns, number, count)


@dataclass(frozen=True)
class Seating:
    """One screen of the projector while a round has no hand yet: who sits where."""

    round: int
    tables: list[TableState]
    byes: list[str]
    number: int  # this screen's, from 1
    count: int

    @property
    def next(self) -> int:
        return self.number % self.count + 1


SEATING_TABLES = 12  # tables on one screen of the seating


def seating_board(standings: Standings, round: Round | None, number: int | None) -> Seating | None:
    """Screen ``number`` of the seating of the latest round while none of its tables has a
    hand yet (just seated, or just begun); None once play is under way, or with no round."""
    if round is None:
        return None
    tables = [t for t in standings.tables if t.round == round.number]
    if not tables or any(t.recorded for t in tables):
        return None
    count = -(-len(tables) // SEATING_TABLES)
    number = number if number is not None and 1 <= number <= count else 1
    shown = tables[(number - 1) * SEATING_TABLES : number * SEATING_TABLES]
    return Seating(round.number, shown, list(round.byes), number, count)


def settlements(event: Event) -> Iterator[tuple[int, int, int, Payment]]:
    """Every payment of the event: (round, table, hand, payment), table by table, hand by
    hand, as the result rows that stand keep them (each player's ``paid``), in one query
    besides the tables'."""
    tables = event_tables(event)
    paid: dict[int, dict[int, list[results.Paid]]] = {t.pk: defaultdict(list) for t in tables}
    seated = {t.pk: t.seated for t in tables}
    rows = Result.objects.filter(session__in=list(seated)).standing().order_by()
    for pk, number, player, kept in rows.values_list("session", "hand__number", "player", "paid"):
        names = seated[pk]
        paid[pk][number] += results.paid_of(kept, results.name_of(names, player), names)
    for table in tables:
        for number, made in sorted(paid[table.pk].items()):
            for _, payment in sorted(made, key=lambda item: item.at):
                yield table.round, table.number, number, payment


def mark(event: Event) -> str:
    """What changes whenever one of the event's tables does (ledger.tables.selectors.marks)."""
    return table_selectors.marks("round__event", [event.pk])[event.pk]


def watched(token: str) -> tuple[int, str]:
    """The event a stream of its results' link (``read_token``) watches, and its mark now."""
    event = _event(read_token=token)
    return event.pk, mark(event)


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
