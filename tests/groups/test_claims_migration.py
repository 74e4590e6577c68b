"""Migration 0045 ("I am Bob": which phone claimed which player) on rows of the schema before
it, and back: it adds the claims' table and touches no player, hand, result row or payment, so
every balance and every table's totals are what they were, to the cent, both ways. The record
of claims is taken back with it; a phone keeps its own (its session), and the record fills
again as phones choose."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client

from ledger.groups import selectors, services
from ledger.models import Claim, Group, Player, TableSession
from ledger.tables import exports
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand
from tests.migrating import migrate, models_at
from tests.phones import i_am

BEFORE = ("ledger", "0044_group_changes")


def _kept() -> dict[str, object]:
    return {
        "balances": {group.pk: selectors.ledger(group).money for group in Group.objects.all()},
        "players": list(Player.objects.order_by("pk").values_list("pk", "name", "group_id")),
        "totals": [
            b"".join(exports.response(table, "totals", words=True).streaming_content)
            for table in TableSession.objects.order_by("pk")
        ],
    }


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_the_claims_come_and_go_and_no_amount_moves():
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    table = services.table_start(group=group, seating=THREE, first="Anna")
    table_services.hand_record(session=table, number=1, data=hand(2, 12, 20), device="Bob")
    table_services.hand_record(session=table, number=2, data=hand(15, 5, 9))
    services.payment_record(group=group, payer="Celine", payee="Anna", amount="5.25")
    phone = Client()
    i_am(phone, group, "Bob")
    kept = _kept()
    assert kept["balances"][group.pk]["Celine"] == Decimal("-6.75")  # -13 + 1, and 5.25 paid

    migrate([BEFORE])
    try:
        old = models_at(BEFORE)
        assert "claim" not in old.all_models["ledger"]
        assert old.get_model("ledger", "Player").objects.count() == 3
        assert _kept() == kept
    finally:
        migrate()

    assert _kept() == kept
    assert not Claim.objects.exists()  # taken back with its table
    assert "This phone is Bob’s" in phone.get(f"/g/{group.token}/").content.decode()
    i_am(phone, group, "Bob")
    assert Claim.objects.get().player.name == "Bob"
