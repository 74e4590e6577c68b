"""Reads of a table: a session with its hands, scored, in a constant number of queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from functools import cached_property
from typing import Any, Literal

from django.contrib.auth.models import AnonymousUser, User
from django.core.paginator import Page, Paginator
from django.db.models import Count, QuerySet, Sum, Value

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
from ledger.tables import clock, money, results, stored, tally
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
    """A stored hand beside what it came to, as its result rows keep it (``None`` when
    voided)."""

    hand: StoredHand
    result: HandResult | None
    # Why each head or tail special its entries prove stands, marked by the form or not: what
    # the saved hand says (its rows' proofs; scoring.Proof.why says them in words).
    why: tuple[scoring.Proof, ...] = ()


@dataclass(frozen=True)
class ScoreSheet:
    """A table's score sheet: its stored hands beside what each came to, the totals, where it
    ends and who leads next, as its result rows keep them (``score_sheet``), or as a save
    settled them (``after_record``)."""

    session: TableSession
    seating: list[str]
    rows: list[Row]
    # What the rows' hands that count came to, in order; the totals of every hand, their
    # settle-up, and where the table stands if it ends
    result: SessionResult
    next_first: str  # who leads the next hand, and which way
    next_direction: str
    # rows holds every hand; else some only: the latest, as ``score_sheet(latest=True)`` and
    # ``after_record`` read them
    every_hand: bool = True

    @property
    def game(self) -> str:
        return self.session.game

    def row(self, number: int) -> Row | None:
        """Hand ``number`` (None: no such hand among the rows)."""
        return next((row for row in self.rows if row.hand.number == number), None)

    @property
    def latest(self) -> list[Row]:
        """The last hands, newest first, for the table page."""
        return self.rows[: -LATEST - 1 : -1]

    @property
    def next_number(self) -> int:
        return self.rows[-1].hand.number + 1 if self.rows else 1

    @cached_property
    def options(self) -> scoring.Options:
        """The table's options as the engine reads them (those left out at their default)."""
        return _options(self.session.game, self.session.options, self.seating)

    @cached_property
    def told(self) -> Told | None:
        """The table's latest correction or void, as its phones are told it once (read where
        the live part is drawn, and nowhere else). A table whose tally says none of its hands
        was ever corrected or voided has nothing to tell, and nothing is read."""
        kept = tally.current_tally(self.session)
        if kept is not None and not kept.corrected:
            return None
        change = latest_change(HandChange.objects.filter(hand__session=self.session))
        if change is None:
            return None
        totals = self.result.totals
        shown = totals.scores if self.points_only else totals.net
        return told(change, self.session.seated, shown, self.points_only)

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

    @property
    def won_from(self) -> dict[tuple[str, str], Decimal]:
        """Who won what from whom in the rows' hands, (payee, payer) before netting: what a
        pairwise summary adds up (scoring.won_from sums their payments)."""
        return scoring.won_from(self.result.hands)


def _options(game: str, options: dict[str, Any], seating: list[str]) -> scoring.Options:
    return scoring.parse_session({"game": game, "options": options, "seating": seating}).options


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


# What the reader reads of a hand: what pages show of it, and what it keeps as a whole.
HAND_FIELDS = (*STORED_FIELDS, *results.LEAD_FIELDS)
# What it reads of each result row that stands: what the hand came to for its player.
ROW_FIELDS = ("hand_id", "player_id", "score", "net", "turn", "rank", "paid", "proof")


@dataclass(frozen=True)
class Told:
    """A correction or void of a hand, as every phone of its table and group is told it once:
    who made it (the name their phone chose), which hand, and how each player's total moved
    (in the table's unit; scores at a table for points only). ``change``: its record's id,
    which a phone keeps once told."""

    change: int
    voided: bool
    number: int
    device: str
    moves: list[tuple[str, Decimal, Decimal]]  # each player whose total moved: before, after


def latest_change(changes: QuerySet[HandChange]) -> HandChange | None:
    """The latest correction or void among ``changes``."""
    told = changes.filter(kind__in=[HandChange.Kind.CORRECT, HandChange.Kind.VOID])
    found: HandChange | None = told.select_related("hand").order_by("-pk").first()
    return found


def told(
    change: HandChange,
    names: Mapping[int, str],
    totals: Mapping[str, Decimal] | Mapping[str, int],
    points: bool,
) -> Told:
    """``change`` told: its rows, written with it (a reversal of what the hand settled and,
    for a correction, what it settles now), move the table's ``totals`` (as they stand) from
    what they were. Where the hand's rows were counted again since (a backup restored), they
    say nothing of the change, and no move is told."""
    rows = Result.objects.filter(hand=change.hand_id, created__gte=change.at).order_by()
    field = "score" if points else "net"
    moved = list(rows.values_list("player").annotate(moved=Sum(field), taken=Count("reverses")))
    taken_back = any(taken for _, _, taken in moved)
    moves = [
        (names[player], Decimal(totals[names[player]]) - amount, Decimal(totals[names[player]]))
        for player, amount, _ in moved
        if taken_back and amount and player in names
    ]
    return Told(
        change=change.pk,
        voided=change.kind == HandChange.Kind.VOID,
        number=change.hand.number,
        device=change.device,
        moves=sorted(moves, key=lambda move: list(names.values()).index(move[0])),
    )


def score_sheet(
    session: TableSession, *, latest: bool = False, number: int | None = None
) -> ScoreSheet:
    """The table's score sheet as its rows keep it: every hand (``latest``: the latest
    ``LATEST``, and hand ``number`` too if asked) beside what it came to, the totals of every
    hand, their settle-up, where the table stands if it ends, and who leads next. What every
    page, API answer, export and share reads.

    Nothing is scored: each hand's outcome is its result rows (each player's score, net,
    place in turn and in the ranking, the payments they made, the proof of a special) and
    what the hand keeps as a whole (who led it and which way, who leads next); the totals are
    the rows summed by the database (ledger.tables.money); where the table ends follows from
    those totals and its options, as the engine finds it (scoring.session_end), and whether
    its time ran out from the last hand that counts. Amounts are written as the table's
    stake writes them (results.written). Three queries besides the table's and its seats',
    whatever the number of hands: its hands, their rows, the totals; and one more for the
    last hand that counts where none of the latest does."""
    names = session.seated
    hands = session.hands.values_list(*HAND_FIELDS)
    if latest:
        found = list(hands.order_by("-number")[:LATEST])
        newest = _newest_counted(found) or _counted_before(session, found)
        if number is not None and all(hand[1] != number for hand in found):
            found += hands.filter(number=number)
        found.sort(key=lambda hand: hand[1])
        rows = Result.objects.filter(hand__in=[hand[0] for hand in found])
    else:
        found = list(hands.order_by("number"))
        newest = _newest_counted(found)
        rows = Result.objects.filter(session=session)
    kept: dict[int, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows.standing().order_by().values_list(*ROW_FIELDS):
        kept[row[0]].append(row)
    places = results.places(session.game, session.options)
    sheet_rows = [_row(hand, kept.get(hand[0], []), names, places) for hand in found]
    totals = money.table_totals(session)
    net = {name: results.written(value, places) for name, value in totals.net.items()}
    totals = replace(totals, net=net)
    played = tuple(row.result for row in sheet_rows if row.result is not None)
    lead = None if newest is None else results.Lead.kept(newest[len(STORED_FIELDS) :], names)
    # The hand during which the time ran out is the last that counts (no hand is taken after
    # it, and a correction keeps it the last): it says so as it was stored.
    time_up = newest is not None and bool(newest[2].get("last"))
    return ScoreSheet(
        session=session,
        seating=list(names.values()),
        rows=sheet_rows,
        result=SessionResult(
            played, totals, scoring.settle_up(totals.net), _end(session, totals, time_up)
        ),
        next_first=lead.next_first if lead else session.first,
        next_direction=lead.next_direction if lead else "ccw",
        every_hand=not latest,
    )


def _newest_counted(hands: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The newest of ``hands`` (read with HAND_FIELDS) that counts, if any."""
    return max((hand for hand in hands if not hand[3]), key=lambda hand: hand[1], default=None)


def _counted_before(session: TableSession, latest: list[tuple[Any, ...]]) -> tuple[Any, ...] | None:
    """The newest hand that counts before the ``latest`` hands, where none of those counts:
    one more query."""
    if not latest:
        return None
    before = session.hands.filter(voided=False, number__lt=min(hand[1] for hand in latest))
    return next(iter(before.order_by("-number").values_list(*HAND_FIELDS)[:1]), None)


def _end(session: TableSession, totals: scoring.Totals, time_up: bool) -> scoring.End | None:
    """Where a table scored whole stands after hands that add up to ``totals`` (None: it has
    no end), as the engine finds it from the same totals (scoring.score_session): over once a
    total reaches the target or the hands were dealt, or once its time ran out during a hand
    (``time_up``)."""
    if not session.scored_whole:
        return None
    options = _options(session.game, session.options, session.seating)
    if not (options.ends or time_up):
        return None
    game = GAMES[session.game]
    return scoring.session_end(game, session.seating, options, totals, time_up=time_up)


def _row(
    hand: tuple[Any, ...],
    rows: list[tuple[Any, ...]],
    names: dict[int, str],
    places: Decimal,
) -> Row:
    """A hand read with HAND_FIELDS beside what it came to: its standing ``rows`` (read with
    ROW_FIELDS) and what it keeps as a whole, its amounts written with ``places``. A voided
    hand came to nothing; so did one that keeps nothing (only a hand changed behind the
    ledger's back: ledger_verify names it)."""
    stored_hand = _stored([hand[: len(STORED_FIELDS)]], names)[0]
    lead = results.Lead.kept(hand[len(STORED_FIELDS) :], names)
    if stored_hand.voided or lead is None:
        return Row(stored_hand, None)
    seating = list(names.values())
    rows = sorted(rows, key=lambda row: (row[4] is None, row[4] or 0, row[1]))
    named = [(results.name_of(names, row[1]), row) for row in rows]
    direction = scoring.Direction(lead.direction)
    if rows:
        order = tuple(name for name, _ in named)
    else:  # a redeal: nobody played, play went round as it would have
        order = scoring.turn_order(tuple(seating), lead.first, direction)
    net = dict.fromkeys(seating, Decimal(0))
    net.update({name: results.written(row[3], places) for name, row in named})
    paid = sorted(
        (item for name, row in named for item in results.paid_of(row[6], name, names)),
        key=lambda item: item.at,
    )
    ranked = sorted((row[5], name) for name, row in named if row[5] is not None)
    result = HandResult(
        first=lead.first,
        direction=direction,
        order=order,
        scores={name: row[2] for name, row in named if row[2] is not None},
        ranking=tuple(name for _, name in ranked),
        payments=tuple(item.payment for item in paid),
        net=net,
        next_first=lead.next_first,
        next_direction=scoring.Direction(lead.next_direction),
    )
    why = tuple(
        proof for name, row in named if (proof := results.proof_of(row[7], name)) is not None
    )
    return Row(stored_hand, result, why)


def after_record(
    session: TableSession,
    hand: Hand,
    played: HandResult,
    why: tuple[scoring.Proof, ...] = (),
    end: scoring.End | None = None,
) -> ScoreSheet:
    """The session as a save left it, from what the save's check found (``why``: the proofs
    it found; ``end``: where a table scored whole stands after it).

    It holds only the saved hand (its row, and totals of that hand alone): enough for the hand
    form and its result panel, which is all a save answers with; the live part of the page
    reads the whole session when it polls.
    """
    return ScoreSheet(
        session=session,
        seating=session.seating,
        rows=[Row(StoredHand.of(hand), played, why)],
        result=SessionResult((played,), scoring.totals(session.seating, [played]), (), end),
        next_first=played.next_first,
        next_direction=played.next_direction,
        every_hand=False,
    )


def after_taken(session: TableSession, hand: Hand) -> ScoreSheet:
    """The table as the next hand's form needs it, once a save found that another phone
    stored its hand, ``hand``, and no hand after it: from that hand and its rows alone (one
    query), like ``after_record``. A hand that cannot tell (voided, at a table scored whole,
    or keeping nothing) is answered from the latest hands (``score_sheet``)."""
    names = session.seated
    lead = results.Lead.kept(hand, names)
    if hand.voided or session.scored_whole or lead is None:
        return score_sheet(session, latest=True)
    read = (*(getattr(hand, field) for field in STORED_FIELDS), *_lead_of(hand))
    rows = hand.results.standing().order_by().values_list(*ROW_FIELDS)
    places = results.places(session.game, session.options)
    row = _row(read, list(rows), names, places)
    played = (row.result,) if row.result is not None else ()
    return ScoreSheet(
        session=session,
        seating=session.seating,
        rows=[row],
        result=SessionResult(played, scoring.totals(session.seating, played), ()),
        next_first=lead.next_first,
        next_direction=lead.next_direction,
        every_hand=False,
    )


def _lead_of(hand: Hand) -> tuple[Any, ...]:
    """What ``hand`` keeps as a whole, as HAND_FIELDS read it."""
    return hand.first_id, hand.direction, hand.next_first_id, hand.next_direction


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
