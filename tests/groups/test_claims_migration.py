"""Migration 0045 ("I am Bob": which phone claimed which player) on rows of the schema before
it, and back: it adds the claims' table and touches no player, hand, result row or payment, so
every balance and every table's totals are what they were, to the cent, both ways. The record
of claims is taken back with it; a phone keeps its own (its session), and the record fills
again as phones choose."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from ledger.events import services as event_services
from ledger.groups import services
from ledger.models import Claim, Player, TableSession
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand
from tests.migrating import every_figure, migrate, models_at
from tests.phones import i_am

BEFORE = ("ledger", "0044_group_changes")


def _kept() -> dict[str, object]:
    players = list(Player.objects.order_by("pk").values_list("pk", "name", "group_id"))
    return {"players": players, **every_figure()}


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_the_claims_come_and_go_and_no_amount_moves():
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    table = services.table_start(group=group, seating=THREE, first="Anna")
    table_services.hand_record(session=table, number=1, data=hand(2, 12, 20), device="Bob")
    table_services.hand_record(session=table, number=2, data=hand(15, 5, 9))
    services.payment_record(group=group, payer="Celine", payee="Anna", amount="5.25")
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=1)
    for name in ["Anna", "Bob", "Celine", "Dan"]:
        event_services.entry_add(event=event, name=name, organiser=True)
    seated = TableSession.objects.get(round=event_services.round_seat(event=event))
    event_services.round_begin(round=seated.round)
    pips = dict(zip(seated.seating, [2, 12, 20, 30], strict=True))
    table_services.hand_record(
        session=seated, number=1, data={"results": {n: {"pips": p} for n, p in pips.items()}}
    )
    phone = Client()
    i_am(phone, group, "Bob")
    i_am(phone, seated, seated.seating[0])
    kept = _kept()
    assert kept["balances"][group.pk]["Celine"] == Decimal("-6.75")  # -13 + 1, and 5.25 paid
    # 1 a point, pairwise: the sum of the pips (64) less four times each one's
    assert [row[1] for row in kept["standings"][event.pk]] == [56, 16, -16, -56]

    migrate([BEFORE])
    try:
        old = models_at(BEFORE)
        assert "claim" not in old.all_models["ledger"]
        assert old.get_model("ledger", "Player").objects.count() == 3 + 4
        assert _kept() == kept
    finally:
        migrate()

    assert _kept() == kept
    assert not Claim.objects.exists()  # taken back with its table
    assert "This phone is Bob’s" in phone.get(f"/g/{group.token}/").content.decode()
    i_am(phone, group, "Bob")
    assert Claim.objects.get().player.name == "Bob"
