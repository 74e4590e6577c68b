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
from tests.tables.conftest import SEATING, plain_hand


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


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_a_table_with_hands_is_not_deleted_in_the_admin_and_a_message_says_why(
    admin_client, ce_deng
):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    delete = reverse("admin:ledger_tablesession_delete", args=[ce_deng.pk])
    change = reverse("admin:ledger_tablesession_change", args=[ce_deng.pk])

    asked = admin_client.get(delete, follow=True)
    confirmed = admin_client.post(delete, {"post": "yes"}, follow=True)

    for response in (asked, confirmed):
        assert response.redirect_chain == [(change, 302)]
        assert messages_of(response) == [
            f"{ce_deng} has hands recorded: it is kept, with what they paid and their history."
        ]
    assert TableSession.objects.filter(pk=ce_deng.pk).exists()


def test_a_table_with_no_hands_is_deleted_in_the_admin(admin_client, ce_deng):
    delete = reverse("admin:ledger_tablesession_delete", args=[ce_deng.pk])

    response = admin_client.post(delete, {"post": "yes"})

    assert response.status_code == 302 and not TableSession.objects.exists()


@pytest.mark.parametrize("model", [TableSession, Group, Event])
def test_deleting_selected_tables_groups_or_events_with_money_is_refused_with_a_message(
    admin_client, ce_deng, model
):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    group_services.payment_record(group=group, payer="Anna", payee="Bob", amount="3")
    event = event_services.event_create(name="Cup", game="ce-deng", options={}, rounds=1)
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    table = event_services.round_seat(event=event).tables.get()
    services.hand_record(session=table, number=1, data=plain_hand(first=table.first))
    listing = reverse(f"admin:ledger_{model._meta.model_name}_changelist")
    selected = list(model.objects.values_list("pk", flat=True))
    before = model.objects.count()

    for post in ({}, {"post": "yes"}):  # asked, and confirmed as Django's page would
        action = {"action": "delete_selected", "_selected_action": selected, **post}
        response = admin_client.post(listing, action, follow=True)

        assert response.status_code == 200
        refused = messages_of(response)
        assert refused and all("it is kept" in message for message in refused)
    assert model.objects.count() == before  # none of them, not even a table with no hands


def test_deleting_selected_groups_deletes_those_with_no_money_after_asking(admin_client, db):
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    listing = reverse("admin:ledger_group_changelist")
    action = {"action": "delete_selected", "_selected_action": [group.pk]}

    asked = admin_client.post(listing, action)
    assert asked.status_code == 200 and asked.context["deletable_objects"]
    admin_client.post(listing, {**action, "post": "yes"})

    assert not Group.objects.exists() and not TableSession.objects.exists()
