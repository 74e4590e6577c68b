import pytest
from django.urls import reverse

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import (
    Entry,
    Event,
    Group,
    Hand,
    HandChange,
    Payment,
    Player,
    Round,
    Seat,
    TableSession,
)
from ledger.tables import services
from tests.tables.conftest import plain_hand


@pytest.mark.parametrize(
    "model", [Player, TableSession, Seat, Hand, HandChange, Event, Entry, Round, Group, Payment]
)
def test_admin_lists_and_opens_every_model(admin_client, ce_deng, model):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    group_services.payment_record(group=group, payer="Anna", payee="Bob", amount="3")
    event = event_services.event_create(name="Club", game="ce-deng", options={}, rounds=1)
    for name in "ABCD":
        event_services.entry_add(event=event, name=name, organiser=True)
    event_services.round_seat(event=event)
    meta = model._meta
    listing = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    change = reverse(
        f"admin:{meta.app_label}_{meta.model_name}_change", args=[model.objects.first().pk]
    )

    assert admin_client.get(listing).status_code == 200
    assert admin_client.get(change).status_code == 200


def test_a_payment_cannot_be_changed_or_deleted_in_the_admin(admin_client, db):
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    payment = group_services.payment_record(
        group=group, payer="Anna", payee="Bob", amount="3"
    ).payment
    change = reverse("admin:ledger_payment_change", args=[payment.pk])
    delete = reverse("admin:ledger_payment_delete", args=[payment.pk])
    assert admin_client.post(change, {"amount": "300"}).status_code == 403
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    payment.refresh_from_db()
    assert payment.amount == 3
