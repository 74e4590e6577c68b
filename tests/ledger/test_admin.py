import pytest
from django.urls import reverse

from ledger.events import services as event_services
from ledger.models import Entry, Event, Hand, HandChange, Player, Round, Seat, TableSession
from ledger.tables import services
from tests.tables.conftest import plain_hand


@pytest.mark.parametrize(
    "model", [Player, TableSession, Seat, Hand, HandChange, Event, Entry, Round]
)
def test_admin_lists_and_opens_every_model(admin_client, ce_deng, model):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
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
