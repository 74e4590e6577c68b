"""A group's running ledger, summed by the database from its tables' result rows and its
payments: a fixed number of queries however many tables and hands it has."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache

from django.db.models import Count, Q, Sum

import scoring
from ledger.groups.models import Group, Payment
from ledger.tables.models import Player, Result, TableSession
from ledger.web.limits import NoSuchLink
from scoring import GAMES, Transfer


@lru_cache(maxsize=1024)
def _unit(game: str, options: str) -> tuple[str, Decimal]:
    """How a table with ``options`` (as JSON) pays: ("money", stake), ("chips", chip value),
    or ("points", 0) for points only."""
    rules = GAMES[game]
    seating = [f"P{i}" for i in range(rules.player_counts[0])]
    document = {"game": game, "options": json.loads(options), "seating": seating}
    parsed = scoring.parse_session(document).options
    unit = rules.unit(parsed)
    if unit == 0:
        return "points", Decimal(0)
    return ("chips" if rules.pays_chips(parsed) else "money"), unit


@dataclass
class Ledger:
    """What every player of a group stands at, across all its tables and payments: money games
    in money, chip games in chips, points-only tables in points (apart: nothing is owed)."""

    players: list[str]
    money: dict[str, Decimal] = field(default_factory=dict)
    chips: dict[str, Decimal] = field(default_factory=dict)
    points: dict[str, int] = field(default_factory=dict)
    hands: dict[str, int] = field(default_factory=dict)  # hands played, redeals not counted
    won: dict[str, int] = field(default_factory=dict)

    def settle_up(self, unit: str) -> tuple[Transfer, ...]:
        """The fewest transfers that bring everyone to zero in ``unit`` (money or chips)."""
        balances = {name: amount for name, amount in getattr(self, unit).items() if amount}
        return scoring.settle_up(balances)


def ledger(group: Group) -> Ledger:
    """The group's balances: four queries (players, tables, summed rows, payments)."""
    players = dict(Player.objects.filter(group=group).values_list("pk", "name"))
    names = sorted(players.values(), key=str.casefold)
    out = Ledger(
        names,
        money=dict.fromkeys(names, Decimal(0)),
        chips=dict.fromkeys(names, Decimal(0)),
        points=dict.fromkeys(names, 0),
        hands=dict.fromkeys(names, 0),
        won=dict.fromkeys(names, 0),
    )
    tables = TableSession.objects.filter(group=group).values_list("pk", "game", "options")
    units = {pk: _unit(game, json.dumps(options, sort_keys=True)) for pk, game, options in tables}
    sums = (
        Result.objects.filter(session__group=group, current=True)
        .values("session_id", "player_id")
        .annotate(
            net=Sum("net"),
            score=Sum("score"),
            hands=Count("pk"),
            won=Count("pk", filter=Q(won=True)),
        )
    )
    for row in sums:
        name = players[row["player_id"]]
        kind, value = units[row["session_id"]]
        if kind == "money":
            out.money[name] += row["net"]
        elif kind == "chips":
            out.chips[name] += row["net"] / value
        out.points[name] += row["score"] or 0
        out.hands[name] += row["hands"]
        out.won[name] += row["won"]
    for payer, payee, amount, unit in group.payments.filter(voided=None).values_list(
        "payer_id", "payee_id", "amount", "unit"
    ):
        balances = out.money if unit == Payment.Unit.MONEY else out.chips
        balances[players[payer]] += amount
        balances[players[payee]] -= amount
    return out


def group_by_token(token: str) -> Group:
    """The group this link opens, or NoSuchLink (404, and counted by the guess limit)."""
    try:
        return Group.objects.get(token=token)
    except Group.DoesNotExist:
        raise NoSuchLink("No such group") from None
