"""Every group's balances as its ledger sums them (``selectors.ledger``: money, chip tables at
their chip's value, and points per game per player), compared with what the engine gives at
its tables plus its payments that stand. What ``manage.py ledger_verify`` reports of groups,
after its tables (ledger.tables.verify).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from decimal import Decimal

from ledger.groups import selectors
from ledger.groups.models import Group
from ledger.tables.models import TableSession
from ledger.tables.results import pays_in
from ledger.tables.verify import Checked, words
from scoring import GAMES

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
    points: dict[tuple[str, str], int] = defaultdict(int)  # by (game, name): within one game
    tables = TableSession.objects.filter(group=group).order_by("pk")
    for pk, game, options in tables.values_list("pk", "game", "options"):
        checked = engine.get(pk)
        if checked is None or checked.net is None or checked.scores is None:
            return [f"{at}: not checked: its table {pk} was not scored (above)"]
        if not checked.net.keys() <= names.keys():
            return [f"{at}: not checked: its table {pk} seats someone not of the group"]
        kind, _ = pays_in(game, options)
        for player, net in checked.net.items():
            # The engine settles chips at the chip's value: money, as the group adds it.
            if kind != "points":
                money[names[player]] += net
        for player, score in checked.scores.items():
            points[game, names[player]] += score
    for payment in group.payments.filter(void=None):
        money[names[payment.payer_id]] += payment.worth
        money[names[payment.payee_id]] -= payment.worth
    said = []
    for name in stored.players:
        kept, given = stored.money[name].quantize(PLACES), money[name].quantize(PLACES)
        said += _differ(f"{at}: {name}'s money", kept, given)
        for game in GAMES:
            kept_points = stored.points.get(game, {}).get(name, 0)
            said += _differ(f"{at}: {name}'s points at {game}", kept_points, points[game, name])
    return said


def _differ(at: str, kept: Decimal | int, given: Decimal | int) -> list[str]:
    if words(kept) == words(given):
        return []
    return [f"{at}: stored {words(kept)}, its tables' hands and payments give {words(given)}"]
