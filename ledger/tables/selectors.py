"""Reads of a table: a session with its hands, scored, in a constant number of queries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from functools import cached_property
from typing import Any, Literal, NamedTuple, Protocol

from django.contrib.auth.models import AnonymousUser, User
from django.core.paginator import Page, Paginator
from django.db.models import Count, Sum, Value

import scoring
from ledger.links import NoSuchLink
from ledger.models import (
    Event,
    Group,
    Hand,
    HandChange,
    Player,
    Result,
    TableChange,
    TableSession,
)
from ledger.tables import clock, money, stored, tally
from ledger.tables.results import pays_in
from scoring import GAMES, HandResult, SessionResult

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
    # Why each head or tail special its entries prove stands, marked by the form or not: what
    # the saved hand says (filled in by ``ScoreSheet.row``).
    why: tuple[scoring.Proof, ...] = ()


@dataclass(frozen=True)
class ScoreSheet:
    """A table's score sheet: every stored hand beside what scoring made of it, and the totals."""

    session: TableSession
    seating: list[str]
    rows: list[Row]
    result: SessionResult
    # rows holds every hand, and result scored them all; else some only (result: those hands,
    # and the totals of all): the latest, as ``latest_sheet`` and ``after_record`` read them, or
    # none, as ``read_for_summary`` gives the summary its totals
    every_hand: bool = True

    @property
    def game(self) -> str:
        return self.session.game

    def row(self, number: int) -> Row | None:
        """Hand ``number`` with the reasons for its proven specials (None: no such hand)."""
        row = next((row for row in self.rows if row.hand.number == number), None)
        if row is None or row.result is None:
            return row
        document = {"game": self.game, "seating": self.seating, "hands": [row.hand.data]}
        session = scoring.parse_session(document)
        # The table's options as the engine reads them (those stored before a rules change
        # as they were played then).
        session = replace(session, options=self.options)
        return replace(row, why=scoring.explain(session, session.hands[0], row.result))

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
    def unit(self) -> str:
        """What the table pays in: money, chips or points (only)."""
        return pays_in(self.session.game, self.session.options)[0]

    @property
    def value(self) -> Decimal:
        """What a point or a chip is worth here (0: points only)."""
        return pays_in(self.session.game, self.session.options)[1]

    @property
    def net(self) -> dict[str, Decimal]:
        """What each player stands at in the table's unit (chips as chips, points only: the
        total score), as a list of tables shows it (ledger.web.display.outcome); empty while
        all are at 0, as before the first hand."""
        t = self.result.totals
        kind, value = pays_in(self.session.game, self.session.options)
        if not any(t.net.values()) and not any(t.scores.values()):
            return {}
        if kind == "points":
            return {name: Decimal(t.scores[name]) for name in self.seating}
        divisor = value if kind == "chips" else Decimal(1)
        return {name: t.net[name] / divisor for name in self.seating}

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
    return _session(token=token)


def session_by_read_token(token: str) -> TableSession:
    """The session a read-only link shows, or 404."""
    return _session(read_token=token)


def _session(**link: str) -> TableSession:
    try:
        return TableSession.objects.get(**link)
    except TableSession.DoesNotExist:
        raise NoSuchLink("No such table") from None


def stored_before(session: TableSession, number: int, key: str = "") -> list[Hand]:
    """What was stored before a send of hand ``number`` (services.hand_record): the table's
    hands from the one before it on, so hand ``number`` and the newest hand if it is among
    them; else the newest alone. With a ``key``, the hand sent under it too.

    The hands from ``number - 1`` on are one range of the unique index of a table's numbers:
    when a table's phones all press save that is one or two hands, at hand 1,000 as at hand 10
    (a phone some hands behind reads those hands). The key's hand is found by its own unique
    index (its partial condition repeated, so SQLite uses it too). Read through the table's
    hands, each hand's ``session`` is ``session`` as read, its seats with it."""
    hands = session.hands.order_by()
    found = list(hands.filter(number__gte=number - 1))
    if not found and number > 1:  # a send ahead of the table: its newest hand, if any
        found = list(hands.order_by("-number")[:1])
    if key:
        found += hands.filter(idempotency_key=key).exclude(idempotency_key="")
    return found


def rescored_sheet(session: TableSession) -> ScoreSheet:
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


def latest_sheet(session: TableSession, number: int | None = None) -> ScoreSheet:
    """The table as its page and live part show it, at a cost that does not grow with the
    hands played: the totals as its result rows sum them (ledger.tables.money) and the latest
    hands, each scored on its own as it records who led and which way. ``number``: a hand to
    have among the rows too (one just corrected, say).

    It holds the latest rows only, and the totals of every hand; what needs every hand (the
    summary, an export, a preview) reads ``rescored_sheet``. So does a table scored whole
    (``TableSession.scored_whole``), and one whose latest hands are all voided while an
    earlier one counts."""
    if session.scored_whole:
        return rescored_sheet(session)
    names = session.seated
    latest = _stored(session.hands.order_by("-number").values_list(*STORED_FIELDS)[:LATEST], names)
    # The next hand's leader is the last counted hand's to give: among these, if any counts.
    if all(hand.voided for hand in latest) and session.hands.filter(voided=False).exists():
        return rescored_sheet(session)
    if number is not None and all(hand.number != number for hand in latest):
        asked = session.hands.filter(number=number).values_list(*STORED_FIELDS)
        latest = [*latest, *_stored(asked, names)]
    hands = sorted(latest, key=lambda hand: hand.number)
    live = [hand for hand in hands if not hand.voided]
    if any({"first", "direction"} - hand.data.keys() for hand in live):
        return rescored_sheet(session)  # stored before hands recorded who led: they need the rest
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


def read_for_summary(
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
        whole = rescored_sheet(session)
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
    that cannot tell (voided, or at a table scored whole) is answered from ``latest_sheet``."""
    data = hand.named
    if hand.voided or session.scored_whole or {"first", "direction"} - data.keys():
        return latest_sheet(session)
    return after_record(session, hand, tally.score_table(session, [data]).hands[0])


def revision(token: str) -> int | None:
    """The session's revision, for the live poll that every phone makes every few seconds."""
    try:
        return TableSession.objects.values_list("revision", flat=True).get(token=token)
    except TableSession.DoesNotExist:
        return None


def watched(token: str) -> tuple[int, int]:
    """The table a stream watches, and its revision now, or 404: every phone opens a stream."""
    try:
        return TableSession.objects.values_list("pk", "revision").get(token=token)
    except TableSession.DoesNotExist:
        raise NoSuchLink("No such table") from None


def revisions(tables: list[int]) -> dict[int, int]:
    """The revisions of ``tables`` now, by id (for the streams: ledger.web.push)."""
    return dict(TableSession.objects.filter(pk__in=tables).values_list("pk", "revision"))


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


@dataclass(frozen=True, slots=True)
class OptionsChange:
    """A change to how a table ends as its history shows it: the options before and after,
    and the time each ran out at, as the table's clock reads it ("" for none)."""

    pk: int
    before: dict[str, Any]
    after: dict[str, Any]
    ends_before: str
    ends_after: str
    device: str
    at: datetime
    kind: str = "options"

    @classmethod
    def of(cls, change: TableChange, time_zone: str) -> OptionsChange:
        ends_before, ends_after = (
            "" if at is None else clock.shown(at, clock.zone(time_zone)).strftime("%H:%M")
            for at in (change.ends_before, change.ends_after)
        )
        return cls(
            change.pk,
            change.before,
            change.after,
            ends_before,
            ends_after,
            change.device,
            change.at,
        )


def changes_page(
    session: TableSession, page: str | None, per_page: int
) -> Page[Change | OptionsChange]:
    """One page of the session's changes, to its hands and to how it ends, newest first (a
    number out of range: the nearest page), in four queries whatever the table's size."""
    to_hands = HandChange.objects.filter(hand__session=session).annotate(table=Value(False))
    to_table = TableChange.objects.filter(session=session).annotate(table=Value(True))
    merged = (
        to_hands.order_by()
        .values_list("at", "pk", "table")
        .union(to_table.order_by().values_list("at", "pk", "table"), all=True)
    )
    shown = Paginator(merged.order_by("-at", "-pk"), per_page).get_page(page)
    keys = list(shown)
    hands = HandChange.objects.select_related("hand").in_bulk(
        [pk for _, pk, table in keys if not table]
    )
    tables = TableChange.objects.in_bulk([pk for _, pk, table in keys if table])
    names = session.seated
    paginator: Paginator[Any] = shown.paginator  # a page of the same numbers, of changes
    found: list[Change | OptionsChange] = [
        OptionsChange.of(tables[pk], session.time_zone) if table else Change.of(hands[pk], names)
        for _, pk, table in keys
    ]
    return Page(found, shown.number, paginator)


def changes(session: TableSession, number: int | None = None) -> list[Change]:
    """Every change to the session's hands (or to hand ``number``), oldest first, one query."""
    found = HandChange.objects.filter(hand__session=session).select_related("hand")
    if number is not None:
        found = found.filter(hand__number=number)
    names = session.seated
    return [Change.of(change, names) for change in found.order_by("at", "pk")]
