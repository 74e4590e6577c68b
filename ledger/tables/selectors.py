"""Reads of a table: a session with its hands, scored, in a constant number of queries."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from functools import cached_property
from typing import Any, Literal, NamedTuple, Protocol, TypeVar

import psycopg
from django.contrib.auth.models import AnonymousUser, User
from django.core.paginator import Page, Paginator
from django.db import connection, models
from django.db.models import Count, Sum
from django.db.models.sql import Query
from django.utils.translation import gettext as _

import scoring
from ledger.links import NoSuchLink
from ledger.models import Event, Group, Hand, HandChange, Player, Result, Seat, TableSession
from ledger.tables import clock, money, statements, stored, tally
from scoring import GAMES, HandResult, SessionResult


@dataclass(frozen=True)
class GameSummary:
    key: str
    title: str  # in the page's language ("Ce Deng 斜钉" in English)
    players: str


def game_list() -> list[GameSummary]:
    """The games the ledger scores, with the player counts each allows."""
    summaries = []
    for game in GAMES.values():
        counts = game.player_counts
        players = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        summaries.append(GameSummary(game.key, _(game.label), players))
    return summaries


LATEST = 10


@dataclass(frozen=True, slots=True)
class StoredHand:
    """What pages need of a stored hand, read without building model instances."""

    pk: int
    number: int
    data: dict[str, Any]
    voided: bool
    version: int
    device: str

    @classmethod
    def of(cls, hand: Hand) -> StoredHand:
        return cls(hand.pk, hand.number, hand.named, hand.voided, hand.version, hand.device)


STORED_FIELDS = ("pk", "number", "data", "voided", "version", "device")


def _stored(values: Iterable[Any], names: Mapping[int, str]) -> list[StoredHand]:
    """Hands as ``values_list(*STORED_FIELDS)`` reads them, their players by name (``names``:
    the table's ``seated``)."""
    return [StoredHand(pk, n, stored.by_name(data, names), *rest) for pk, n, data, *rest in values]


@dataclass(frozen=True, slots=True)
class Row:
    """A stored hand beside what scoring made of it (``None`` when voided)."""

    hand: StoredHand
    result: HandResult | None


@dataclass(frozen=True)
class ScoreSheet:
    """A table's score sheet: every stored hand beside what scoring made of it, and the totals."""

    session: TableSession
    seating: list[str]
    rows: list[Row]
    result: SessionResult
    # rows holds every hand, and result scored them all; else some only (result: those hands,
    # and the totals of all): the latest, as ``glance`` and ``after_record`` read them, or
    # none, as ``hands_as_kept`` gives the summary its totals
    every_hand: bool = True

    @property
    def game(self) -> str:
        return self.session.game

    def row(self, number: int) -> Row | None:
        return next((row for row in self.rows if row.hand.number == number), None)

    @property
    def latest(self) -> list[Row]:
        """The last hands, newest first, for the table page."""
        return self.rows[: -LATEST - 1 : -1]

    @property
    def next_number(self) -> int:
        return self.rows[-1].hand.number + 1 if self.rows else 1

    @property
    def last(self) -> HandResult | None:
        return self.result.hands[-1] if self.result.hands else None

    @property
    def next_first(self) -> str:
        return self.last.next_first if self.last else self.session.first

    @property
    def next_direction(self) -> str:
        return self.last.next_direction if self.last else "ccw"

    @cached_property
    def options(self) -> scoring.Options:
        """The table's options as the engine reads them (those left out at their default)."""
        document = {"game": self.session.game, "options": self.session.options}
        return scoring.parse_session({**document, "seating": self.seating}).options

    @property
    def points_only(self) -> bool:
        """A stake or chip of 0 (the one the game pays with): nothing is paid, the total scores
        are the result."""
        return GAMES[self.session.game].unit(self.options) == 0

    @property
    def end(self) -> scoring.End | None:
        """Where a table that plays to a target stands (None: it has no end)."""
        return self.result.end

    @property
    def time_end(self) -> clock.TimeEnd | None:
        """When a table that ends by time runs out of it (None: it has no time limit)."""
        return clock.time_end(self.session.ends_at, self.session.time_zone)

    @property
    def highest(self) -> tuple[str, int]:
        """The highest total and whose it is (the earlier seat on a tie): the nearest to the
        target."""
        scores = self.result.totals.scores
        name = max(self.seating, key=scores.__getitem__)
        return name, scores[name]

    @property
    def totals(self) -> list[tuple[str, Decimal, int, int]]:
        """(name, net, total score, hands won) per seat, in seating order."""
        t = self.result.totals
        return [(name, t.net[name], t.scores[name], t.hands_won[name]) for name in self.seating]


def names_at_tables_of(user: User | AnonymousUser) -> list[str]:
    """The names at the tables ``user`` (an organiser account) started, the first 200: the
    names the new-table form suggests to them. Nobody else's names are published."""
    if not user.is_authenticated:
        return []
    players = Player.objects.filter(seats__session__owner=user).order_by("name")
    return list(players.values_list("name", flat=True).distinct()[:200])


def session_by_token(token: str) -> TableSession:
    """The session this link opens, or 404: without the token a session cannot be found."""
    return _session("token", token)


def session_by_read_token(token: str) -> TableSession:
    """The session a read-only link shows, or 404."""
    return _session("read_token", token)


def session_for_send(token: str, number: int, key: str) -> tuple[TableSession, list[Hand]]:
    """The session this link opens (or 404) and, in the same read, what was stored before a
    send of hand ``number`` under ``key`` (stored_before): every phone of a table sends each
    hand, and three sends of four are answered by what this one read found."""
    if connection.vendor not in _JSON:
        session = _session("token", token)
        return session, stored_before(session, number, key)
    session = _session("token", token, sent=(number, key or None))
    found = json.loads(session.stored_at or "[]")  # type: ignore[attr-defined]
    return session, [_hand(row, session) for row in found]


def stored_before(session: TableSession, number: int, key: str) -> list[Hand]:
    """What was stored before a send of hand ``number`` under ``key`` (services.hand_record):
    hand ``number``, the table's newest hand and the hand sent under that key, those found."""
    [found] = statements.together([_stored_before(session, number, key)])
    return _stored_hands(session, found)


def locked_for_send(
    session: TableSession, number: int, key: str
) -> tuple[TableSession, list[Hand]]:
    """The table's row, locked until the transaction ends, and what was stored before a send
    (``stored_before``) read under that lock, in one round trip: the read comes after the lock
    was had, so it finds a save that the lock waited for."""
    lock = f"SELECT * FROM {TableSession._meta.db_table} WHERE id = %s"
    if connection.features.has_select_for_update:
        lock += " " + connection.ops.for_update_sql()
    table, found = statements.together([(lock, [session.pk]), _stored_before(session, number, key)])
    return _made(TableSession, table)[0], _stored_hands(session, found)


def _stored_before(session: TableSession, number: int, key: str) -> statements.Statement:
    sql = _STORED.format(hand=Hand._meta.db_table, table="%s")
    return sql, [session.pk, number, session.pk, session.pk, key or None]


def _stored_hands(session: TableSession, found: statements.Found) -> list[Hand]:
    hands = _made(Hand, found)
    for hand in hands:
        hand.session = session  # the table as read, its seats with it
    return hands


# A table's row, and its seats as one more column, [[position, player id, name], ...]: nearly
# every request of a table's needs them (the form, the engine's names), so they come in the
# table's query rather than in a second round trip to the database. Raw SQL: every phone's
# every send reads a table, and the ORM's building of this query cost more than the read.
# Each name is looked up by its player's key, not joined: a join leaves the plan to the
# statistics, and while they lag behind a hall's tables created minutes before, PostgreSQL
# joined by reading every player (1.6 ms a read at 5,000 tables, against 0.1). A send's read
# has one column more, what was stored before it (_STORED), each hand as a JSON object.
_SESSION = (
    "SELECT t.*, (SELECT {agg}({row}(s.position, s.player_id,"
    " (SELECT p.name FROM {player} p WHERE p.id = s.player_id)))"
    " FROM {seat} s WHERE s.session_id = t.id) AS seats_at{stored}"
    " FROM {table} t WHERE t.{column} = %s"
)
_JSON = {
    "postgresql": ("jsonb_agg", "jsonb_build_array"),
    "sqlite": ("json_group_array", "json_array"),
}
_STORED_AT = ", (SELECT {agg}({hand}) FROM ({stored}) h) AS stored_at"

# What was stored before a send (stored_before): hand ``number``, the table's newest hand and
# the hand sent under the send's key, each found by a unique index (the key's partial one: its
# condition repeated, so SQLite uses it too), so the read costs the same at hand 1,000 as at
# hand 10. Raw SQL: building it with the ORM (a subquery in an OR) cost four times the read.
# ``table``: the table's id, a parameter or the table read with it.
_STORED = (
    "SELECT * FROM {hand} WHERE session_id = {table} AND number = %s UNION ALL SELECT * FROM"
    " (SELECT * FROM {hand} WHERE session_id = {table} ORDER BY number DESC LIMIT 1) newest"
    " UNION ALL SELECT * FROM {hand} WHERE session_id = {table}"
    " AND idempotency_key = %s AND NOT (idempotency_key = '')"
)


def session_sql(column: str, *, stored: bool = False) -> str:
    """The read of a table by ``column``, on this database (PostgreSQL or SQLite); ``stored``:
    with what was stored before a send, its parameters (number, key) before ``column``'s."""
    agg, row = _JSON[connection.vendor]
    stored_at = ""
    if stored:
        hands = _STORED.format(hand=Hand._meta.db_table, table="t.id")
        as_json = "to_jsonb(h)" if connection.vendor == "postgresql" else _sqlite_object(Hand, "h")
        stored_at = _STORED_AT.format(agg=agg, hand=as_json, stored=hands)
    return _SESSION.format(
        agg=agg,
        row=row,
        seat=Seat._meta.db_table,
        player=Player._meta.db_table,
        table=TableSession._meta.db_table,
        column=column,
        stored=stored_at,
    )


def _sqlite_object(model: type[models.Model], alias: str) -> str:
    """A row of ``model``'s as SQLite's JSON object, its JSON columns as JSON, not as text."""

    def value(field: models.Field[Any, Any]) -> str:
        column = f"{alias}.{field.column}"
        return f"json({column})" if isinstance(field, models.JSONField) else column

    pairs = ", ".join(f"'{field.column}', {value(field)}" for field in model._meta.concrete_fields)
    return f"json_object({pairs})"


def _hand(row: dict[str, Any], session: TableSession) -> Hand:
    """A hand read as a JSON object (session_sql), as the ORM would have read it."""
    fields = Hand._meta.concrete_fields
    values = []
    for field in fields:
        value = row[field.column]
        if isinstance(field, models.DateTimeField):  # PostgreSQL's ISO form, or SQLite's (UTC)
            value = datetime.fromisoformat(value)
            value = value if value.tzinfo else value.replace(tzinfo=UTC)
        elif isinstance(field, models.BooleanField):  # SQLite's 0 or 1
            value = bool(value)
        values.append(value)
    hand = Hand.from_db(connection.alias, [field.attname for field in fields], values)
    hand.session = session
    return hand


M = TypeVar("M", bound=models.Model)


def _made(model: type[M], found: statements.Found) -> list[M]:
    """The rows of ``model``'s that a statement read (all its columns, and maybe more: those
    are set on each as attributes), as Django's ``raw()`` makes them. Its own way cost a
    table's send more than the read itself: it matches every field with every column, once per
    field."""
    columns, rows = found
    fields = model._meta.concrete_fields
    at = {column: position for position, column in enumerate(columns)}
    by_column = {field.column: field for field in fields}
    compiler = connection.ops.compiler("SQLCompiler")(Query(model), connection, connection.alias)
    cols = [by_column[c].get_col(model._meta.db_table) if c in by_column else None for c in columns]
    converted: Iterable[Any] = rows
    if converters := compiler.get_converters(cols):  # type: ignore[arg-type]  # None: not a field
        converted = compiler.apply_converters(rows, converters)
    names = [field.attname for field in fields]
    more = [(column, position) for column, position in at.items() if column not in by_column]
    made = []
    for row in converted:
        instance = model.from_db(connection.alias, names, [row[at[f.column]] for f in fields])
        for column, position in more:
            setattr(instance, column, row[position])
        made.append(instance)
    return made


def _session(column: str, value: str, sent: tuple[int, str | None] | None = None) -> TableSession:
    if connection.vendor not in _JSON:
        try:
            return TableSession.objects.get(**{column: value})
        except TableSession.DoesNotExist:
            raise NoSuchLink("No such table") from None
    sql = session_sql(column, stored=sent is not None)
    [found] = statements.together([(sql, [*(sent or ()), value])])
    return _session_made(found)


def _session_made(found: statements.Found) -> TableSession:
    """The table read by ``session_sql``, its seats with it; 404 if none was found."""
    session = next(iter(_made(TableSession, found)), None)
    if session is None:
        raise NoSuchLink("No such table")
    seats = json.loads(session.seats_at or "[]")  # type: ignore[attr-defined]
    session.__dict__["seated"] = {pk: name for _, pk, name in sorted(seats)}
    return session


# A table's latest hands, found by its link: read with the table, in the same round trip.
_LATEST = (
    "SELECT * FROM {hand} WHERE session_id = (SELECT id FROM {table} WHERE token = %s)"
    f" ORDER BY number DESC LIMIT {LATEST}"
)


def session_glanced(token: str) -> tuple[TableSession, list[StoredHand] | None]:
    """The table this link opens (or 404) and its latest hands, as ``glance`` takes them, in
    one round trip: what its page and its live part show after every change."""
    if connection.vendor not in _JSON:
        return session_by_token(token), None
    latest = _LATEST.format(hand=Hand._meta.db_table, table=TableSession._meta.db_table)
    table, hands = statements.together([(session_sql("token"), [token]), (latest, [token])])
    session = _session_made(table)
    return session, [StoredHand.of(hand) for hand in _stored_hands(session, hands)]


def scored(session: TableSession) -> ScoreSheet:
    """Every hand of ``session``, voided ones included, each scored by the engine from
    scratch, and the totals as the result rows sum them (ledger.tables.money)."""
    hands = _stored(session.hands.order_by("number").values_list(*STORED_FIELDS), session.seated)
    live = [hand for hand in hands if not hand.voided]
    played = tally.score_table(session, [hand.data for hand in live])
    by_pk = dict(zip((hand.pk for hand in live), played.hands, strict=True))
    totals = money.table_totals(session)
    return ScoreSheet(
        session=session,
        seating=session.seating,
        rows=[Row(hand, by_pk.get(hand.pk)) for hand in hands],
        result=SessionResult(played.hands, totals, scoring.settle_up(totals.net), played.end),
    )


def glance(
    session: TableSession, number: int | None = None, latest: list[StoredHand] | None = None
) -> ScoreSheet:
    """The table as its page and live part show it, at a cost that does not grow with the
    hands played: the totals as its result rows sum them (ledger.tables.money) and the latest
    hands, each scored on its own as it records who led and which way. ``number``: a hand to
    have among the rows too (one just corrected, say); ``latest``: the latest hands, if read
    with the table (``session_glanced``).

    It holds the latest rows only, and the totals of every hand; what needs every hand (the
    summary, an export, a preview) reads ``scored``. So does a table scored whole
    (``TableSession.scored_whole``), and one whose latest hands are all voided while an
    earlier one counts."""
    if session.scored_whole:
        return scored(session)
    names = session.seated
    if latest is None:
        newest = session.hands.order_by("-number").values_list(*STORED_FIELDS)[:LATEST]
        latest = _stored(newest, names)
    # The next hand's leader is the last counted hand's to give: among these, if any counts.
    if all(hand.voided for hand in latest) and session.hands.filter(voided=False).exists():
        return scored(session)
    if number is not None and all(hand.number != number for hand in latest):
        asked = session.hands.filter(number=number).values_list(*STORED_FIELDS)
        latest = [*latest, *_stored(asked, names)]
    hands = sorted(latest, key=lambda hand: hand.number)
    live = [hand for hand in hands if not hand.voided]
    if any({"first", "direction"} - hand.data.keys() for hand in live):
        return scored(session)  # stored before hands recorded who led: they need the rest
    played = tally.score_table(session, [hand.data for hand in live]).hands
    by_pk = dict(zip((hand.pk for hand in live), played, strict=True))
    totals = money.table_totals(session)
    return ScoreSheet(
        session=session,
        seating=session.seating,
        rows=[Row(hand, by_pk.get(hand.pk)) for hand in hands],
        result=SessionResult(played, totals, scoring.settle_up(totals.net)),
        every_hand=False,
    )


class Played(Protocol):
    """What showing a hand needs of what it came to: a HandResult, or a ``Kept``."""

    @property
    def first(self) -> str: ...
    @property
    def direction(self) -> str: ...
    @property
    def scores(self) -> Mapping[str, int]: ...
    @property
    def net(self) -> Mapping[str, Decimal]: ...


@dataclass(frozen=True, slots=True)
class Kept:
    """What a hand came to as its result rows keep it (``Result``): who led, which way, each
    player's score and net. Enough to show the hand, as the summary does; not to settle it."""

    first: str
    direction: str
    scores: dict[str, int]
    net: dict[str, Decimal]


class Shown(NamedTuple):
    hand: StoredHand
    result: Played | None  # None: voided


def hands_as_kept(
    session: TableSession,
) -> tuple[ScoreSheet, list[Shown], dict[tuple[str, str], Decimal]]:
    """The summary's reading: the table's totals and where it ends (a sheet with no rows),
    every hand with what it came to (None when voided), and who won what from whom
    (scoring.won_from).

    What each hand came to, the totals and who won what from whom are read from the result
    rows (ledger.tables.money), with no scoring: the summary grows with the hands it shows,
    not by scoring them again. A table scored whole (``TableSession.scored_whole``), whose
    end the rows do not say, and one with hands stored before hands recorded who led, are
    scored instead. Four queries besides the table's."""
    names = session.seated
    hands = _stored(session.hands.order_by("number").values_list(*STORED_FIELDS), names)
    led = all({"first", "direction"} <= hand.data.keys() for hand in hands if not hand.voided)
    if session.scored_whole or not led:
        whole = scored(session)
        shown = [Shown(row.hand, row.result) for row in whole.rows]
        return whole, shown, scoring.won_from(whole.result.hands)
    outcomes: dict[int, tuple[dict[str, int], dict[str, Decimal]]] = {}
    rows = Result.objects.filter(session=session).standing()
    for hand_pk, player, score, net in rows.values_list("hand_id", "player_id", "score", "net"):
        scores, nets = outcomes.setdefault(hand_pk, ({}, {}))
        if score is not None:
            scores[names[player]] = score
        nets[names[player]] = net
    nobody = {name: Decimal(0) for name in names.values()}  # a redeal: nobody played
    shown = [
        Shown(hand, None)
        if hand.voided
        else Shown(
            hand,
            Kept(hand.data["first"], hand.data["direction"], *outcomes.get(hand.pk, ({}, nobody))),
        )
        for hand in hands
    ]
    totals = money.table_totals(session)
    sheet = ScoreSheet(
        session,
        list(names.values()),
        [],
        SessionResult((), totals, scoring.settle_up(totals.net)),
        every_hand=False,
    )
    return sheet, shown, money.won_from([session])[session.pk]


def after_record(session: TableSession, hand: Hand, played: HandResult) -> ScoreSheet:
    """The session as a save left it, from the scoring the save already did.

    It holds only the saved hand (its row, and totals of that hand alone): enough for the hand
    form and its result panel, which is all a save answers with; the live part of the page
    reads the whole session when it polls.
    """
    return ScoreSheet(
        session=session,
        seating=session.seating,
        rows=[Row(StoredHand.of(hand), played)],
        result=SessionResult((played,), scoring.totals(session.seating, [played]), ()),
        every_hand=False,
    )


def after_taken(session: TableSession, hand: Hand) -> ScoreSheet:
    """The table as the next hand's form needs it, once a save found that another phone
    stored its hand, ``hand``, and no hand after it: from that hand alone, scored on its own
    as it records who led and which way, with no further read (like ``after_record``). A hand
    that cannot tell (voided, or at a table scored whole) is answered from ``glance``."""
    data = hand.named
    if hand.voided or session.scored_whole or {"first", "direction"} - data.keys():
        return glance(session)
    return after_record(session, hand, tally.score_table(session, [data]).hands[0])


def revision(token: str) -> int | None:
    """The session's revision, for the live poll that every phone makes every few seconds."""
    row = _read_by_token("revision", token)
    return None if row is None else int(row[0])


def watched(token: str) -> tuple[int, int]:
    """The table a stream watches, and its revision now, or 404: every phone opens a stream."""
    row = _read_by_token("id, revision", token)
    if row is None:
        raise NoSuchLink("No such table")
    return int(row[0]), int(row[1])


def revisions(tables: list[int]) -> dict[int, int]:
    """The revisions of ``tables`` now, by id (for the streams: ledger.web.push)."""
    return dict(TableSession.objects.filter(pk__in=tables).values_list("pk", "revision"))


def _read_by_token(columns: str, token: str) -> tuple[Any, ...] | None:
    """One indexed read of a table's ``columns``, skipping the ORM, whose query building costs
    several times the read. On PostgreSQL it goes to the kept connection itself (Django's
    cursor added a quarter to the poll's read: 75 to 93 us of CPU) and is its own check of it:
    if the connection died (the database restarted), it is closed and the read is made once
    more through Django, which connects afresh."""
    sql = f"SELECT {columns} FROM {TableSession._meta.db_table} WHERE token = %s"
    if connection.vendor == "postgresql" and connection.connection is not None:
        try:
            row: tuple[Any, ...] | None = connection.connection.execute(sql, [token]).fetchone()
            return row
        except psycopg.Error:
            connection.close()  # and read below, through Django, on a new connection
    with connection.cursor() as cursor:
        cursor.execute(sql, [token])
        row = cursor.fetchone()
    return row


NO_TABLES = "0.0"
MarkedBy = Literal["round__event", "group"]


def marks(by: MarkedBy, pks: Iterable[int]) -> dict[int, str]:
    """For each event (``by="round__event"``) or group (``by="group"``) in ``pks``, a mark that
    changes whenever one of its tables does: how many tables it has and the sum of their
    revisions (every change raises a table's revision: services.table_changed), and its own
    revision, which its other changes raise (an organiser's, a payment: events.services,
    groups.services). Two reads, stored nowhere. Live pages show it and fetch their live parts
    only when it is not the one they show; on SQLite the streams compare it (ledger.web.push)."""
    pks = list(pks)
    rows = (
        TableSession.objects.filter(**{f"{by}__in": pks})
        .order_by()
        .values(by)
        .annotate(tables=Count("pk"), revisions=Sum("revision"))
        .values_list(by, "tables", "revisions")
    )
    found = {pk: f"{tables}.{revisions}" for pk, tables, revisions in rows}
    # and its own changes: a round begun, a player dropped, a payment (its revision)
    own = dict(_OWNERS[by].objects.filter(pk__in=pks).values_list("pk", "revision"))
    return {pk: f"{found.get(pk, NO_TABLES)}.{own.get(pk, 0)}" for pk in pks}


_OWNERS: dict[MarkedBy, type[Event] | type[Group]] = {"round__event": Event, "group": Group}


def preview(sheet: ScoreSheet, data: dict[str, Any]) -> HandResult:
    """What ``data`` would give as the next hand, nothing saved. Raises ScoringError."""
    hands = [row.hand.data for row in sheet.rows if not row.hand.voided] + [data]
    return tally.score_table(sheet.session, hands, new=len(hands) - 1).hands[-1]


@dataclass(frozen=True, slots=True)
class Change:
    """A change to a hand as pages show it: the hand before and after, players by name."""

    pk: int
    number: int  # the hand's
    kind: str
    label: str  # the kind, in the page's language
    before: dict[str, Any] | None
    after: dict[str, Any] | None
    device: str
    at: datetime

    @classmethod
    def of(cls, change: HandChange, names: dict[int, str]) -> Change:
        before, after = (
            None if data is None else stored.by_name(data, names)
            for data in (change.before, change.after)
        )
        number, label = change.hand.number, change.get_kind_display()
        return cls(change.pk, number, change.kind, label, before, after, change.device, change.at)


def changes_page(session: TableSession, page: str | None, per_page: int) -> Page[Change]:
    """One page of the session's changes, newest first (a number out of range: the nearest
    page), in two queries whatever the table's size."""
    found = HandChange.objects.filter(hand__session=session).select_related("hand")
    shown = Paginator(found.order_by("-at", "-pk"), per_page).get_page(page)
    names = session.seated
    paginator: Paginator[Any] = shown.paginator  # a page of the same numbers, of Change
    return Page([Change.of(change, names) for change in shown], shown.number, paginator)


def changes(session: TableSession, number: int | None = None) -> list[Change]:
    """Every change to the session's hands (or to hand ``number``), oldest first, one query."""
    found = HandChange.objects.filter(hand__session=session).select_related("hand")
    if number is not None:
        found = found.filter(hand__number=number)
    names = session.seated
    return [Change.of(change, names) for change in found.order_by("at", "pk")]
