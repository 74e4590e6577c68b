"""A tournament's tables are organised by the tournament's organiser: on the web, the browser
that opened the event's organiser link (or its account); in the API, the event's organiser
token or account. Players register themselves, but only the organiser brings back one who
dropped out."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from ledger.events import services as event_services
from ledger.models import Hand, TableSession
from ledger.tables import services
from tests.tables.conftest import plain_hand

API = "/api/v1"


@pytest.fixture
def table(event) -> TableSession:
    event_services.round_seat(event=event)
    table = TableSession.objects.filter(round__event=event).order_by("table_number").first()
    hand = plain_hand(first=table.seating[0])
    hand["results"] = dict(zip(table.seating, ({"pips": n} for n in (2, 12, 34, 18)), strict=False))
    services.hand_record(session=table, number=1, data=hand)
    return table


def test_the_events_organiser_locks_and_voids_its_tables_on_the_web(client, event, table):
    client.get(reverse("event_organise", args=[event.token]))

    locked = client.post(reverse("lock", args=[table.token]), {"locked": "1"})
    client.post(reverse("lock", args=[table.token]), {"locked": "0"})
    voided = client.post(
        reverse("hand_void", args=[table.token, 1]), {"version": "1", "confirm": "1"}
    )

    assert locked.status_code == 302
    assert voided.status_code == 302 and Hand.objects.get(session=table).voided


def test_a_player_at_the_table_cannot_lock_or_void_it(event, table):
    player = Client()
    player.get(reverse("table", args=[table.token]))

    locked = player.post(reverse("lock", args=[table.token]), {"locked": "1"})
    voided = player.post(
        reverse("hand_void", args=[table.token, 1]), {"version": "1", "confirm": "1"}
    )

    assert locked.status_code == voided.status_code == 403
    assert not TableSession.objects.get(pk=table.pk).locked


def test_the_events_organiser_token_locks_and_voids_its_tables_in_the_api(event, table):
    api = APIClient()
    organiser = {"HTTP_X_ORGANISER_TOKEN": event.token}

    locked = api.post(
        f"{API}/sessions/{table.token}/lock/", {"locked": True}, format="json", **organiser
    )
    api.post(f"{API}/sessions/{table.token}/lock/", {"locked": False}, format="json", **organiser)
    voided = api.post(
        f"{API}/sessions/{table.token}/hands/1/void/", {"version": 1}, format="json", **organiser
    )
    other = api.post(
        f"{API}/sessions/{table.token}/lock/", {"locked": True}, format="json",
        HTTP_X_ORGANISER_TOKEN=event.read_token,
    )  # fmt: skip

    assert locked.status_code == 200 and voided.status_code == 200
    assert other.status_code == 403


def test_the_account_that_set_up_the_event_organises_its_tables(event, table):
    owner = User.objects.create_user("director", password="a long pass phrase")
    event.owner = owner
    event.save()
    api = APIClient()
    api.force_authenticate(owner)

    locked = api.post(f"{API}/sessions/{table.token}/lock/", {"locked": True}, format="json")

    assert locked.status_code == 200


def test_the_registration_link_does_not_bring_back_a_player_who_dropped_out(client, event):
    event_services.entry_drop(event=event, name=event.entries.first().player.name)
    name = event.entries.first().player.name

    page = client.post(reverse("event_register", args=[event.register_token]), {"name": name})
    api = APIClient().post(f"{API}/register/{event.register_token}/", {"name": name}, format="json")

    assert page.status_code == 400
    assert "only its organiser can bring them back" in page.content.decode()
    assert api.status_code == 400
    assert not event.entries.first().active


def test_the_organiser_brings_back_a_player_who_dropped_out(client, event):
    name = event.entries.first().player.name
    event_services.entry_drop(event=event, name=name)

    client.post(reverse("event_add", args=[event.token]), {"name": name})

    assert event.entries.first().active
