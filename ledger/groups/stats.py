"""A group's statistics, head-to-heads and ratings, computed on read from its tables' current
result rows (docs/groups.md, "Statistics and ratings").

Sums and counts are the database's, in a fixed number of queries however many tables and hands
the group has. Nothing is stored: asking again, with nothing new played, gives the same numbers.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Sum
from django.utils import timezone
from openskill.models import PlackettLuce, PlackettLuceRating

from ledger.amounts import readable_amount
from ledger.groups.models import Group
from ledger.players.models import Player
from ledger.tables.models import Result, TableSession
from ledger.tables.results import pays_in
from scoring import GAMES

# What a table's result is counted in: money (a money table's, and a chip table's chips at
# their chip's value), else points; best and worst tables are looked for in this order.
COUNTED = ("money", "points")


@dataclass(frozen=True)
class TableMark:
    """One table as a player's best or worst: what they made there, in the table's unit."""

    number: int  # 1 for the group's first table, in the order they were started
    pk: int
    token: str
    day: date  # when the table was started, on the server's clock
    created: datetime  # the instant it was started, for its name (ledger.web.display.when)
    game: str
    unit: str  # money, chips or points
    amount: Decimal  # their net in money or in chips; for points only, their total score
    value: Decimal = Decimal(0)  # what a chip (or a point) is worth there; 0 for points only

    @property
    def money(self) -> Decimal:
        """Their net there in money (chips at the chip's value); 0 for points only."""
        if self.unit == "points":
            return Decimal(0)
        return readable_amount(self.amount * self.value) if self.unit == "chips" else self.amount


@dataclass
class PlayerStats:
    """One player of a group over a period (or all time)."""

    pk: int
    name: str
    tables: int = 0  # tables with at least one hand they played
    hands: int = 0  # hands they played (a redeal is not played)
    won: int = 0
    won_share: float | None = None  # won / hands, to 4 places; None without hands
    # Points per scored hand, to 2 places, by game (in the registry's order): a score is
    # averaged within its game only, never with a game won the other way (Tiu Yu's highest).
    average_scores: dict[str, float] = field(default_factory=dict)
    specials: dict[str, int] = field(default_factory=dict)  # kind -> how often
    best_table: TableMark | None = None
    worst_table: TableMark | None = None
    # What they won (+) or lost (-) at the tables, summed day by day: payments do not count,
    # they settle what was won, they win nothing. From 0 at the start of the period.
    # In money: chip tables count their chips at each table's chip value.
    money_over_time: list[tuple[date, Decimal]] = field(default_factory=list)

    @property
    def money(self) -> Decimal:
        """Their net at money tables over the period: the last of ``money_over_time``."""
        return self.money_over_time[-1][1] if self.money_over_time else Decimal(0)


def ranked(played: list[PlayerStats]) -> list[PlayerStats]:
    """``played`` by what they won, the most first: money (chips at their value), then hands
    won; by name among equals. Who played no hand in the period comes last."""
    return sorted(
        played,
        key=lambda one: (not one.hands, -one.money, -one.won, one.name.casefold()),
    )


@dataclass(frozen=True)
class Side:
    """One of two players at the hands they played together."""

    name: str
    won: int  # of those hands
    money: Decimal  # their net at those hands, on money and chip tables (chips at their value)
    points: dict[str, int]  # their total score at those hands, by game (within one game only)


@dataclass(frozen=True)
class Passed:
    """What passed between two players at the hands both played at tables that pay (money, and
    chips at each table's chip value), from the pairwise payments each hand settled
    (``Result.won_from``)."""

    unit: str  # money
    hands: int  # hands both played at tables that pay
    a_from_b: Decimal  # what a won from b there, in money
    b_from_a: Decimal

    @property
    def balance(self) -> Decimal:
        """What a won from b less what b won from a: positive where a came out ahead."""
        return readable_amount(self.a_from_b - self.b_from_a)

    @property
    def amount(self) -> Decimal:
        """What passed on balance, whichever way."""
        return abs(self.balance)


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the hands both played: each one's whole net there (to and from
    everyone at the table), and what passed between the two of them alone."""

    hands: int
    tables: int
    a: Side
    b: Side
    passed: tuple[Passed, ...] = ()  # in money, where they shared a hand at a table that pays
    points_hands: int = 0  # hands both played at tables for points only: nothing passes there

    @property
    def units(self) -> tuple[str, ...]:
        """The units they played for together (money), as each side's net is given."""
        return tuple(one.unit for one in self.passed)


@dataclass(frozen=True)
class Rated:
    """A player's rating after replaying every table of the group (Plackett-Luce)."""

    pk: int
    name: str
    mu: float  # the skill the ratings believe in
    sigma: float  # how unsure they are of it
    ordinal: float  # mu - 3 * sigma: a skill they almost surely have; the order of the list
    tables: int  # tables rated
    # The places behind it: (place, how often), the best first; equal totals share a place.
    places: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class _Table:
    number: int
    pk: int
    token: str
    game: str
    created: datetime
    unit: str
    value: Decimal  # what one point or chip is worth; 0 for points only

    @property
    def counted(self) -> str:
        """What its results count in: money (a chip table's rows keep its chips at the chip's
        value), or points."""
        return "points" if self.unit == "points" else "money"

    def amount(self, net: Decimal, score: int) -> Decimal:
        """A player's result here in the table's unit."""
        if self.unit == "chips":
            return readable_amount(net / self.value)
        return readable_amount(net) if self.unit == "money" else Decimal(score)

    def standing(self, net: Decimal, score: int) -> Decimal:
        """How good that result is, higher better: the net where the table pays; for points
        only, the total score, fewer better unless the game counts the higher as the winner."""
        if self.unit != "points":
            return net
        return Decimal(score if GAMES[self.game].higher_wins else -score)


def _tables(group: Group) -> dict[int, _Table]:
    found = TableSession.objects.filter(group=group).order_by("created", "pk")
    tables = {}
    for number, (pk, token, game, options, created) in enumerate(
        found.values_list("pk", "token", "game", "options", "created"), start=1
    ):
        kind, value = pays_in(game, options)
        tables[pk] = _Table(number, pk, token, game, created, kind, value)
    return tables


def _rows(group: Group, start: date | None, end: date | None) -> QuerySet[Result]:
    """The rows that count, of hands played from ``start`` to ``end`` (days on the server's
    clock, both included). Bounded by the instants the days begin, not by each row's day: no
    function runs per row (SQLite would call one in Python for each of 40,000 rows).

    The calendar's first and last days bound nothing: no hand is played before or after them,
    and the midnight after 9999-12-31 is past what a date can hold (as, east of UTC, is the
    first day's midnight in UTC)."""
    rows = Result.objects.filter(session__group=group).standing()
    if start is not None and start > date.min:
        rows = rows.filter(hand__created__gte=_midnight(start))
    if end is not None and end < date.max:
        rows = rows.filter(hand__created__lt=_midnight(end + timedelta(days=1)))
    return rows


def _midnight(day: date) -> datetime:
    return timezone.make_aware(datetime.combine(day, time.min))


# Named apart from the fields they sum: an annotation named "score" would hide the field.
_SUMS: dict[str, Any] = {
    "total": Sum("net"),
    "points": Sum("score"),
    "scored": Count("score"),
    "hands": Count("pk"),
    "wins": Count("pk", filter=Q(won=True)),
}


def player_stats(
    group: Group, *, start: date | None = None, end: date | None = None
) -> list[PlayerStats]:
    """Every player of the group over the hands played from ``start`` to ``end`` (both
    included; None: no bound), by name. Four queries (players, tables, sums by table and
    player, specials by player).

    Best and worst table: among the player's money and chip tables if they played any in the
    period (compared in money, chips at each table's chip value), else their points-only
    tables, the one with the highest (lowest) net, or for points only the best (worst) total
    score as the game counts it; the earlier table on a tie. Each is given with the player's
    net there (chips in chips, with the chip's value) or total score.
    """
    players = dict(Player.objects.filter(group=group).values_list("pk", "name"))
    tables = _tables(group)
    out = {pk: PlayerStats(pk, name) for pk, name in players.items()}
    rows = _rows(group, start, end)
    # An evening's table counts on the day it began, past midnight too.
    by_table = rows.values("session_id", "player_id").annotate(**_SUMS).order_by()
    net_at: dict[tuple[int, int], Decimal] = defaultdict(Decimal)  # by (player, table)
    score_at: dict[tuple[int, int], int] = defaultdict(int)
    over_time: dict[tuple[int, str], dict[date, Decimal]] = defaultdict(dict)
    score_sums: dict[tuple[int, str], int] = defaultdict(int)  # by (player, game)
    scored: dict[tuple[int, str], int] = defaultdict(int)
    for row in by_table:
        stats, table = out[row["player_id"]], tables[row["session_id"]]
        stats.hands += row["hands"]
        stats.won += row["wins"]
        score_sums[row["player_id"], table.game] += row["points"] or 0
        scored[row["player_id"], table.game] += row["scored"]
        net_at[row["player_id"], table.pk] += row["total"]
        score_at[row["player_id"], table.pk] += row["points"] or 0
        if table.counted == "money":
            days = over_time[row["player_id"], "money"]
            day = timezone.localdate(table.created)
            days[day] = days.get(day, Decimal(0)) + row["total"]
    for player, stats in out.items():
        played = [
            (table, net_at[player, pk], score_at[player, pk])
            for pk, table in tables.items()
            if (player, pk) in net_at
        ]
        stats.tables = len(played)
        stats.best_table, stats.worst_table = _best_and_worst(played)
    specials = rows.exclude(specials=[]).values("player_id", "specials").annotate(n=Count("pk"))
    for row in specials.order_by():
        counts = out[row["player_id"]].specials
        for kind in row["specials"]:
            counts[kind] = counts.get(kind, 0) + row["n"]
    for player, stats in out.items():
        if stats.hands:
            stats.won_share = round(stats.won / stats.hands, 4)
        stats.average_scores = {
            game: round(score_sums[player, game] / scored[player, game], 2)
            for game in GAMES
            if scored.get((player, game))
        }
        stats.specials = dict(sorted(stats.specials.items()))
        stats.money_over_time = _running(over_time.get((player, "money"), {}))
    return sorted(out.values(), key=lambda stats: stats.name.casefold())


def _best_and_worst(
    played: list[tuple[_Table, Decimal, int]],
) -> tuple[TableMark | None, TableMark | None]:
    """The best and worst of ``played`` (table, net, score), in the order the tables were
    started: max and min keep the first of equals, so the earlier table wins a tie."""
    counted = next((c for c in COUNTED if any(t.counted == c for t, _, _ in played)), None)
    these = [one for one in played if one[0].counted == counted]
    if not these:
        return None, None
    best = max(these, key=lambda one: one[0].standing(one[1], one[2]))
    worst = min(these, key=lambda one: one[0].standing(one[1], one[2]))
    return _mark(*best), _mark(*worst)


def _mark(table: _Table, net: Decimal, score: int) -> TableMark:
    day = timezone.localdate(table.created)
    amount = table.amount(net, score)
    return TableMark(
        table.number,
        table.pk,
        table.token,
        day,
        table.created,
        table.game,
        table.unit,
        amount,
        table.value,
    )


def _running(days: dict[date, Decimal]) -> list[tuple[date, Decimal]]:
    total, points = Decimal(0), []
    for day in sorted(days):
        total += days[day]
        points.append((day, readable_amount(total)))
    return points


def head_to_head(
    group: Group, a: Player, b: Player, *, start: date | None = None, end: date | None = None
) -> HeadToHead:
    """``a`` and ``b`` over the hands both played from ``start`` to ``end`` (both included):
    how many, how often each won, each one's net and points at them, and what passed between
    the two (the sums of their rows' ``won_from``, one of the other). Three queries."""
    if a.group_id != group.pk or b.group_id != group.pk or a.pk == b.pk:
        raise ValueError("a head-to-head is between two players of the group")
    tables = _tables(group)
    other = Result.objects.standing().filter(hand=OuterRef("hand"), player__in=[a, b])
    shared = (
        _rows(group, start, end)
        .filter(player__in=[a, b])
        .filter(Exists(other.exclude(player=OuterRef("player"))))
        .order_by()
    )
    rows = list(shared.values("session_id", "player_id").annotate(**_SUMS))
    hands: dict[str, int] = defaultdict(int)
    for row in rows:
        if row["player_id"] == a.pk:
            hands[tables[row["session_id"]].counted] += row["hands"]
    return HeadToHead(
        hands=sum(hands.values()),
        tables=len({row["session_id"] for row in rows}),
        a=_side(a, [row for row in rows if row["player_id"] == a.pk], tables),
        b=_side(b, [row for row in rows if row["player_id"] == b.pk], tables),
        passed=_passed(a, b, shared, tables, hands),
        points_hands=hands["points"],
    )


def _passed(
    a: Player,
    b: Player,
    shared: QuerySet[Result],
    tables: dict[int, _Table],
    hands: dict[str, int],
) -> tuple[Passed, ...]:
    """What ``a`` won from ``b`` and ``b`` from ``a`` in the ``shared`` rows, by unit. Each
    row keeps what its player won from each other player before netting, by the payer's id;
    summed here as the table's summary sums them (ledger.tables.money.won_from)."""
    won: dict[int, Decimal] = defaultdict(Decimal)  # by payee, in money
    for table, player, flows in shared.values_list("session_id", "player_id", "won_from"):
        if tables[table].counted == "money":
            payer = b.pk if player == a.pk else a.pk
            won[player] += Decimal(flows.get(str(payer), 0))
    if not hands["money"]:
        return ()
    return (
        Passed("money", hands["money"], readable_amount(won[a.pk]), readable_amount(won[b.pk])),
    )


def _side(player: Player, rows: list[dict[str, Any]], tables: dict[int, _Table]) -> Side:
    money = sum(
        (row["total"] for row in rows if tables[row["session_id"]].counted == "money"),
        Decimal(0),
    )
    points: dict[str, int] = {}
    for row in rows:
        game = tables[row["session_id"]].game
        points[game] = points.get(game, 0) + (row["points"] or 0)
    order = list(GAMES)
    return Side(
        name=player.name,
        won=sum(row["wins"] for row in rows),
        money=readable_amount(money),
        points=dict(sorted(points.items(), key=lambda item: order.index(item[0]))),
    )


def ratings(group: Group) -> list[Rated]:
    """Every player who played a table of the group, rated by replaying its tables in the
    order they were started, best (highest ordinal) first. Three queries.

    One table is one match, ranked by its final totals: by net where it pays, by total score
    (as the game counts it) for points only; equal totals tie. A table's hands are not
    independent matches (the same players, a running total, often an end), and rated per
    table a rating does not swing with every hand. Tables without a played hand are skipped.
    """
    players = dict(Player.objects.filter(group=group).values_list("pk", "name"))
    tables = _tables(group)
    totals = (
        Result.objects.filter(session__group=group)
        .standing()
        .values("session_id", "player_id")
        .annotate(total=Sum("net"), points=Sum("score"))
        .order_by()
    )
    standings: dict[int, dict[int, Decimal]] = defaultdict(dict)
    for row in totals:
        table = tables[row["session_id"]]
        standings[table.pk][row["player_id"]] = table.standing(row["total"], row["points"] or 0)
    model = PlackettLuce()
    rated: dict[int, PlackettLuceRating] = {}
    counted: dict[int, int] = defaultdict(int)
    places: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for pk in tables:  # in the order they were started
        standing = standings.get(pk, {})
        if len(standing) < 2:
            continue
        seated = sorted(standing)
        teams = [[rated.get(player) or model.rating()] for player in seated]
        # 1 for the best, equal totals an equal rank (1, 2, 2, 4).
        ranks = [
            1.0 + sum(other > standing[player] for other in standing.values()) for player in seated
        ]
        for player, (rating,) in zip(seated, model.rate(teams, ranks=ranks), strict=True):
            rated[player] = rating
            counted[player] += 1
        for player, rank in zip(seated, ranks, strict=True):
            places[player][int(rank)] += 1
    found = [
        Rated(
            pk,
            players[pk],
            r.mu,
            r.sigma,
            r.ordinal(),
            counted[pk],
            tuple(sorted(places[pk].items())),
        )
        for pk, r in rated.items()
    ]
    return sorted(found, key=lambda one: (-one.ordinal, one.name.casefold()))
