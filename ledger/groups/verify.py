"""Every group's payments and their voids, and its balances as its ledger sums them
(``selectors.ledger``, what its page shows: money, chip tables at their chip's value, and points
per game per player). A payment is of a positive amount between two players of its group, in
whole chips at the chip's value it records if in chips, voided at most once. The balances equal
what its tables' result rows add up to plus its payments that stand, and what the engine gives
at its tables plus those payments; together they sum to zero. What ``manage.py ledger_verify``
reports of groups, after its tables (ledger.tables.verify), in words an operator reads.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping
from datetime import datetime
from decimal import Decimal
from typing import NamedTuple

from django.utils import timezone

from ledger.groups import selectors
from ledger.groups.models import Group, Payment, PaymentVoid
from ledger.players.models import Player
from ledger.tables.models import TableSession
from ledger.tables.results import pays_in
from ledger.tables.verify import Checked, words
from scoring import GAMES

# Chips are a table's net divided by its chip's value: compared to this many places, so that
# the last digit of a division that does not end is not a difference.
PLACES = Decimal("0.000001")


class CheckedGroup(NamedTuple):
    group: Group
    payments: int
    differences: list[str]


class StoredPayment(NamedTuple):
    pk: int
    payer: int
    payee: int
    amount: Decimal
    unit: str
    chip: Decimal | None
    created: datetime

    @property
    def worth(self) -> Decimal:
        """What it moves on the balances (Payment.worth)."""
        return self.amount * (self.chip or 0) if self.unit == Payment.Unit.CHIPS else self.amount


def groups(engine: Mapping[int, Checked]) -> Iterator[CheckedGroup]:
    """Every group, and where its payments are not what a payment can be and its balances
    differ from its tables (``engine``: as checked, by table id) and payments."""
    for group in Group.objects.order_by("pk"):
        yield check(group, engine)


def check(group: Group, engine: Mapping[int, Checked]) -> CheckedGroup:
    at = f"Group {group.name} (#{group.pk})"
    members = dict(Player.objects.filter(group=group).values_list("pk", "name"))
    columns = ("pk", "payer", "payee", "amount", "unit", "chip", "created")
    payments = [StoredPayment(*p) for p in group.payments.order_by("pk").values_list(*columns)]
    voided = PaymentVoid.objects.filter(payment__group=group)
    voids = Counter(voided.values_list("payment", flat=True))
    named = {p.payer for p in payments} | {p.payee for p in payments}
    others = dict(Player.objects.filter(pk__in=named - members.keys()).values_list("pk", "name"))
    said = []
    for payment in payments:
        said += _payment(at, payment, voids[payment.pk], members, others)
    said += _balances(at, group, engine, [p for p in payments if not voids[p.pk]])
    return CheckedGroup(group, len(payments), said)


def _payment(
    at: str,
    payment: StoredPayment,
    voids: int,
    members: Mapping[int, str],
    others: Mapping[int, str],
) -> list[str]:
    """What is wrong with one payment: each a line naming it as the group's page lists it."""

    def name(pk: int) -> str:
        return members.get(pk) or others.get(pk) or f"player #{pk}"

    day = f"{timezone.localtime(payment.created):%d/%m/%Y}"
    amount = payment.amount
    shown = f"{amount.normalize():f}" if payment.unit == Payment.Unit.CHIPS else words(amount)
    paid = f"{name(payment.payer)} paid {name(payment.payee)} {shown} {payment.unit}"
    where = f"{at}: payment #{payment.pk} ({paid} on {day})"
    wrong = []
    if payment.amount <= 0:
        wrong.append("its amount is not above 0")
    if payment.payer == payment.payee:
        wrong.append("its payer is its payee")
    for role, pk in (("payer", payment.payer), ("payee", payment.payee)):
        if pk not in members:
            wrong.append(f"its {role} {name(pk)} is not of the group")
    if payment.unit == Payment.Unit.CHIPS:
        if payment.chip is None or payment.chip <= 0:
            wrong.append("it records no value of a chip")
        if payment.amount != payment.amount.to_integral_value():
            wrong.append("it is not a whole number of chips")
    elif payment.unit == Payment.Unit.MONEY:
        if payment.chip is not None:
            wrong.append("it is in money but records the value of a chip")
    else:
        wrong.append("it is neither in money nor in chips")
    if voids > 1:
        wrong.append(f"it is voided {voids} times")
    return [f"{where}: {what}" for what in wrong]


def _balances(
    at: str, group: Group, engine: Mapping[int, Checked], standing: list[StoredPayment]
) -> list[str]:
    """Where the balances the group's page shows differ from its tables' rows (or, where
    those agree, from the engine's scoring of its tables' hands) plus its ``standing``
    payments, or do not sum to zero."""
    try:
        stored = selectors.ledger(group)
    except KeyError as error:  # a table or a payment names a player the group does not have
        return [f"{at}: not checked: its balances name player #{error.args[0]}, not of the group"]
    except (ValueError, ArithmeticError) as error:  # a table's options no longer read
        return [f"{at}: not checked: its balances cannot be read: {error!r}"]
    names = {pk: name for name, pk in stored.ids.items()}
    rows = dict.fromkeys(stored.players, Decimal(0))  # money as the rows give it
    money = dict.fromkeys(stored.players, Decimal(0))  # money as the engine gives it
    points: dict[tuple[str, str], int] = defaultdict(int)  # by (game, name): within one game
    tables = TableSession.objects.filter(group=group).order_by("pk")
    for pk, token, game, options in tables.values_list("pk", "token", "game", "options"):
        checked = engine.get(pk)
        if checked is None or checked.net is None or checked.scores is None:
            return [f"{at}: not checked: its table {token} was not scored (above)"]
        if not (checked.net.keys() | checked.rows_net.keys()) <= names.keys():
            return [f"{at}: not checked: its table {token} has someone not of the group"]
        # A chip table's rows, and the engine, keep its chips at its own chip's value: money,
        # as the group adds it. Points only add nothing: the rows say which they are in, the
        # engine reads it from the table's options, as the page does.
        for player, net in checked.rows_net.items():
            rows[names[player]] += net
        if pays_in(game, options)[0] != "points":
            for player, net in checked.net.items():
                money[names[player]] += net
        for player, score in checked.scores.items():
            points[game, names[player]] += score
    for payment in standing:
        for given in (rows, money):
            given[names[payment.payer]] += payment.worth
            given[names[payment.payee]] -= payment.worth
    said = []
    for name in stored.players:
        kept = stored.money[name].quantize(PLACES)
        if kept != rows[name].quantize(PLACES):
            said += _differ(f"{at}: {name}'s money", kept, rows[name], "tables' rows")
        else:
            said += _differ(f"{at}: {name}'s money", kept, money[name], "tables' hands")
        for game in GAMES:
            kept_points = stored.points.get(game, {}).get(name, 0)
            said += _differ(
                f"{at}: {name}'s points at {game}", kept_points, points[game, name], "tables' hands"
            )
    total = sum(stored.money.values(), Decimal(0))
    if total:
        said.append(f"{at}: its balances sum to {words(total)}, not 0")
    return said


def _differ(at: str, kept: Decimal | int, given: Decimal | int, source: str) -> list[str]:
    if words(kept) == words(given):
        return []
    return [f"{at}: stored {words(kept)}, its {source} and payments give {words(given)}"]


def strays() -> list[str]:
    """Payments and voids whose group or payment is not stored (a copy restored without its
    foreign keys): no group's check finds them."""
    said = []
    groups_ = Group.objects.values("pk")
    for pk, group in Payment.objects.exclude(group__in=groups_).values_list("pk", "group"):
        said.append(f"Payment #{pk}: its group #{group} is not stored")
    payments = Payment.objects.values("pk")
    for pk, payment in PaymentVoid.objects.exclude(payment__in=payments).values_list(
        "pk", "payment"
    ):
        said.append(f"Payment void #{pk}: its payment #{payment} is not stored")
    return said
