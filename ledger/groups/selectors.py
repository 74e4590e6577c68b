"""A group's running ledger, summed by the database from its tables' result rows and its
payments: a fixed number of queries however many tables and hands it has."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Sum
from django.utils import timezone

import scoring
from ledger.groups.models import Group, Payment
from ledger.links import NoSuchLink
from ledger.players.models import Player
from ledger.tables import money
from ledger.tables import selectors as table_selectors
from ledger.tables.models import Hand, Result, Seat, TableSession
from ledger.tables.results import pays_in
from scoring import GAMES, Transfer


@dataclass
class TableLine:
    """One table of the group as its ledger counts it: what each player won or paid there, in
    the table's unit (money; chips as a number of chips; points only: the score), and in money
    (``money``: what it adds to the balance; nothing at a table for points only)."""

    pk: int
    token: str
    game: str
    created: datetime
    unit: str  # money, chips or points
    value: Decimal = Decimal(0)  # what a point or a chip is worth there; 0 for points only
    seating: list[str] = field(default_factory=list)
    hands: int = 0
    net: dict[str, Decimal] = field(default_factory=dict)
    money: dict[str, Decimal] = field(default_factory=dict)


# Tables started this close after one another are one evening, past midnight too; a longer
# gap (a night's sleep, a day) begins another.
EVENING_GAP = timedelta(hours=6)


def evenings(tables: list[TableLine]) -> list[list[TableLine]]:
    """``tables`` (the latest first) by evening, the latest first: an evening is tables each
    started within ``EVENING_GAP`` of the one before, past midnight or not."""
    found: list[list[TableLine]] = []
    for line in tables:
        if found and found[-1][-1].created - line.created <= EVENING_GAP:
            found[-1].append(line)
        else:
            found.append([line])
    return found


@dataclass(frozen=True)
class Finding:
    """What closing an evening found at one of its tables: ``open`` (it still takes hands),
    ``gap`` (``missing``: hand numbers not among its hands), ``short`` (locked before its end)."""

    table: TableLine
    kind: str
    missing: tuple[int, ...] = ()


def evening_findings(evening: list[TableLine]) -> list[Finding]:
    """What to look at before an evening is settled, its tables the oldest first."""
    tables = TableSession.objects.in_bulk([line.pk for line in evening])
    numbers: dict[int, set[int]] = {line.pk: set() for line in evening}
    for pk, number in Hand.objects.filter(session__in=tables).values_list("session", "number"):
        numbers[pk].add(number)
    found = []
    for line in reversed(evening):
        table, played = tables[line.pk], numbers[line.pk]
        end = table_selectors.score_sheet(table, latest=True).end
        over = end is not None and end.over
        if not table.locked and not over:
            found.append(Finding(line, "open"))
        if missing := tuple(sorted(set(range(1, max(played, default=0) + 1)) - played)):
            found.append(Finding(line, "gap", missing))
        if table.locked and end is not None and not over:
            found.append(Finding(line, "short"))
    return found


def is_tonight(evening: list[TableLine]) -> bool:
    """Whether ``evening`` is still going on: its latest table began within an evening's gap."""
    return bool(evening) and timezone.now() - evening[0].created <= EVENING_GAP


@dataclass
class Ledger:
    """What every player of a group stands at, across all its tables and payments: one amount
    of money (``money``), money tables' nets plus chip tables' at each table's own chip value,
    plus payments (chips at theirs); points-only tables add nothing to it."""

    players: list[str]
    money: dict[str, Decimal] = field(default_factory=dict)
    # The scores each player took, added within one game only (by game key, in the registry's
    # order): the lowest total wins in most games, the highest in Tiu Yu, so scores of two
    # games are never added together (rules rev 5).
    points: dict[str, dict[str, int]] = field(default_factory=dict)
    hands: dict[str, int] = field(default_factory=dict)  # hands played, redeals not counted
    won: dict[str, int] = field(default_factory=dict)
    tables: list[TableLine] = field(default_factory=list)  # the latest first
    ids: dict[str, int] = field(default_factory=dict)  # each player's pk, for links

    def last_evening(self) -> list[TableLine]:
        """The tables of the latest evening (``evenings``), the latest first."""
        return next(iter(evenings(self.tables)), [])

    def evening_money(self, evening: list[TableLine]) -> list[tuple[str, Decimal]]:
        """Who is up or down over ``evening``'s tables, in money, the biggest winner first
        (tables for points only count nothing)."""
        totals: dict[str, Decimal] = {}
        for line in evening:
            for name, amount in line.money.items():
                totals[name] = totals.get(name, Decimal(0)) + amount
        return sorted(totals.items(), key=lambda item: (-item[1], item[0].casefold()))

    def points_of(self, name: str) -> list[tuple[str, int]]:
        """The games ``name`` played in the group, each with their points there."""
        return [(game, scores[name]) for game, scores in self.points.items() if name in scores]

    def settle_up(self) -> tuple[Transfer, ...]:
        """The fewest transfers, in money, that bring everyone to zero."""
        return scoring.settle_up({name: amount for name, amount in self.money.items() if amount})

    @property
    def pays(self) -> bool:
        """Whether anything is owed in the group: a table that pays, or a payment."""
        return any(line.unit != "points" for line in self.tables) or any(self.money.values())


@dataclass(frozen=True)
class AccountPayment:
    """A payment on one player's account: what it moved on their balance, in its unit (paying
    raises a balance, receiving lowers it, as ``ledger`` counts them); None once voided."""

    payment: Payment
    amount: Decimal | None


def account_hands(group: Group, player: Player) -> dict[int, list[tuple[int, Decimal, bool]]]:
    """What each hand ``player`` played at the group's tables came to for them, by table id:
    (number, net in the table's unit, voided), in the order played; the rows' sums, a
    correction's or void's reversals counted, so a table's hands add up to its figure."""
    rows = (
        Result.objects.filter(session__group=group, player=player)
        .order_by()
        .values_list("session", "hand__number", "hand__voided")
        .annotate(net=Sum("net"))
    )
    found: dict[int, list[tuple[int, Decimal, bool]]] = {}
    for table, number, voided, net in sorted(rows):
        found.setdefault(table, []).append((number, net, voided))
    return found


def account_payments(group: Group, player: Player) -> list[AccountPayment]:
    """Every payment ``player`` made or received in ``group``, the oldest first, voided ones too."""
    payments = (
        group.payments.filter(payer=player) | group.payments.filter(payee=player)
    ).select_related("payer", "payee", "void")
    return [
        AccountPayment(
            p,
            None if p.voided else p.worth if p.payer_id == player.pk else -p.worth,
        )
        for p in payments.order_by("created", "pk")
    ]


def ledger(group: Group) -> Ledger:
    """The group's balances and each table's part in them: five queries (players, tables,
    seats, summed rows, payments)."""
    players = dict(Player.objects.filter(group=group).values_list("pk", "name"))
    names = sorted(players.values(), key=str.casefold)
    out = Ledger(
        names,
        money=dict.fromkeys(names, Decimal(0)),
        hands=dict.fromkeys(names, 0),
        won=dict.fromkeys(names, 0),
        ids={name: pk for pk, name in players.items()},
    )
    tables = TableSession.objects.filter(group=group).values_list(
        "pk", "token", "game", "options", "created"
    )
    units = {}
    lines = {}
    for pk, token, game, options, created in tables:
        units[pk] = pays_in(game, options)
        lines[pk] = TableLine(pk, token, game, created, *units[pk])
    seats = Seat.objects.filter(session__group=group).order_by("session", "position")
    for session, player in seats.values_list("session_id", "player_id"):
        lines[session].seating.append(players[player])
    for (session, player), sums in money.sums(lines).items():
        name = players[player]
        kind, value = units[session]
        line = lines[session]
        line.hands = max(line.hands, sums.hands)
        # A chip table's rows keep its chips at the chip's value: money, as a money table's.
        if kind == "money":
            line.net[name] = sums.net
        elif kind == "chips":
            line.net[name] = sums.net / value
        else:
            line.net[name] = Decimal(sums.score)
        if kind != "points":
            out.money[name] += sums.net
            line.money[name] = sums.net
        scores = out.points.setdefault(line.game, {})
        scores[name] = scores.get(name, 0) + sums.score
        out.hands[name] += sums.hands
        out.won[name] += sums.won
    # The group's own key read too: read through the group, each payment is given the group,
    # by that key (a query a payment where it was left out).
    for payment in group.payments.filter(void=None).only(
        "group", "payer", "payee", "amount", "unit", "chip"
    ):
        out.money[players[payment.payer_id]] += payment.worth
        out.money[players[payment.payee_id]] -= payment.worth
    out.tables = list(lines.values())
    order = list(GAMES)
    out.points = {
        game: dict(sorted(out.points[game].items(), key=lambda item: item[0].casefold()))
        for game in sorted(out.points, key=order.index)
    }
    return out


PLAYS_FOR = ("stake", "chip")  # what a table's options say it plays for (Group.plays_for)


def table_options(
    group: Group, game: str, options: Mapping[str, Any] | None = None, paid: str = ""
) -> dict[str, Any]:
    """The options a new table of ``game`` in the group plays under: ``options`` as given, else
    the group's usual rules at its usual game and the game's own at another; and what the group
    plays for at that game, unless ``options`` say it: the stake, or the chip where the game
    pays in chips. ``paid``: this table's own stake or chip instead (its organiser's say)."""
    chosen = dict(group.options if options is None and game == group.game else options or {})
    if any(key in chosen for key in PLAYS_FOR):
        return chosen
    key = plays_with(game, chosen)
    value = paid or group.plays_for.get("games", {}).get(game, {}).get(key)
    value = value or group.plays_for.get(key)
    return {**chosen, key: value} if value else chosen


def plays_with(game: str, rules: Mapping[str, Any]) -> str:
    """What a table of ``game`` under ``rules`` (its options but what it plays for) plays for:
    "chip" where it pays chips, else "stake"."""
    return "chip" if pays_in(game, rules)[0] == "chips" else "stake"


def chip_values(group: Group, tables: list[TableLine] | None = None) -> list[Decimal]:
    """The values of a chip at the group's tables that pay chips, and of its usual game's if it
    pays chips, the smallest first: what a payment in chips may be worth. ``tables``: the
    group's ledger's, where it was read (no query then)."""
    usual = pays_in(group.game, table_options(group, group.game))
    values = {value for kind, value in [usual] if kind == "chips"}
    paid: list[tuple[str, Decimal]]
    if tables is None:
        found = TableSession.objects.filter(group=group).values_list("game", "options")
        paid = [pays_in(game, options) for game, options in found]
    else:
        paid = [(line.unit, line.value) for line in tables]
    values |= {value for kind, value in paid if kind == "chips"}
    return sorted(values)


def players(group: Group) -> dict[int, str]:
    """The group's players, by id: those a new table of it may seat by a tap."""
    return dict(Player.objects.filter(group=group).values_list("pk", "name"))


def group_by_token(token: str) -> Group:
    """The group this link opens, or NoSuchLink (404, and counted by the guess limit)."""
    try:
        return Group.objects.get(token=token)
    except Group.DoesNotExist:
        raise NoSuchLink("No such group") from None


def mark(group: Group) -> str:
    """What changes whenever one of the group's tables does (ledger.tables.selectors.marks)."""
    return table_selectors.marks("group", [group.pk])[group.pk]


def watched(token: str) -> tuple[int, str]:
    """The group a stream of its link watches, and its mark now."""
    group = group_by_token(token)
    return group.pk, mark(group)


def moved_on(group: Group, table: int) -> TableSession | None:
    """The group's latest table started after ``table`` with one of its players at it: where
    the group went on from it (None: nowhere yet, or ``table`` is not the group's). Tables
    played beside it by others are not where its players went."""
    players = Seat.objects.filter(session=table, session__group=group).values("player")
    later = TableSession.objects.filter(group=group, pk__gt=table, seats__player__in=players)
    return later.order_by("-created", "-pk").first()


def evening(group: Group, ledger: Ledger) -> list[tuple[TableLine, str]]:
    """The group's last evening (``Ledger.last_evening``), the latest first, each with its
    read-only summary's token."""
    lines = ledger.last_evening()
    tokens = dict(
        TableSession.objects.filter(group=group, pk__in=[line.pk for line in lines]).values_list(
            "pk", "read_token"
        )
    )
    return [(line, tokens[line.pk]) for line in lines]
