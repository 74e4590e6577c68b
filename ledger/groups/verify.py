"""Every group's balances as its ledger sums them (``selectors.ledger``: money, chips, points
per player), compared with what the engine gives at its tables plus its payments that stand.
What ``manage.py ledger_verify`` reports of groups, after its tables (ledger.tables.verify).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import Decimal

from ledger.groups import selectors
from ledger.groups.models import Group, Payment
from ledger.tables.models import TableSession
from ledger.tables.results import pays_in
from ledger.tables.verify import Checked, words

# Chips are a table's net divided by its chip's value: compared to this many places, so that
# the last digit of a division that does not end is not a difference.
PLACES = Decimal("0.000001")


def groups(engine: Mapping[int, Checked]) -> Iterator[tuple[Group, list[str]]]:
    """Every group, and where its balances differ from ``engine`` (its tables as checked, by
    table id) plus its payments."""
    for group in Group.objects.order_by("pk"):
        yield group, check(group, engine)


def check(group: Group, engine: Mapping[int, Checked]) -> list[str]:
    stored = selectors.ledger(group)
    at = f"Group {group.name} (#{group.pk})"
    names = {pk: name for name, pk in stored.ids.items()}
    money = dict.fromkeys(stored.players, Decimal(0))
    chips = dict.fromkeys(stored.players, Decimal(0))
    points = dict.fromkeys(stored.players, 0)
    tables = TableSession.objects.filter(group=group).order_by("pk")
    for pk, game, options in tables.values_list("pk", "game", "options"):
        checked = engine.get(pk)
        if checked is None or checked.net is None or checked.scores is None:
            return [f"{at}: not checked: its table {pk} was not scored (above)"]
        if not checked.net.keys() <= names.keys():
            return [f"{at}: not checked: its table {pk} seats someone not of the group"]
        kind, value = pays_in(game, options)
        for player, net in checked.net.items():
            if kind == "money":
                money[names[player]] += net
            elif kind == "chips":
                chips[names[player]] += net / value
        for player, score in checked.scores.items():
            points[names[player]] += score
    paid = group.payments.filter(void=None).values_list("payer", "payee", "amount", "unit")
    for payer, payee, amount, unit in paid:
        balances = money if unit == Payment.Unit.MONEY else chips
        balances[names[payer]] += amount
        balances[names[payee]] -= amount
    said = []
    for name in stored.players:
        for what, kept, given in [
            ("money", stored.money[name], money[name]),
            ("chips", stored.chips[name], chips[name]),
        ]:
            said += _differ(f"{at}: {name}'s {what}", kept.quantize(PLACES), given.quantize(PLACES))
        said += _differ(f"{at}: {name}'s points", stored.points[name], points[name])
    return said


def _differ(at: str, kept: Decimal | int, given: Decimal | int) -> list[str]:
    if words(kept) == words(given):
        return []
    return [f"{at}: stored {words(kept)}, its tables' hands and payments give {words(given)}"]
