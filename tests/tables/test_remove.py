"""A table with no hands can be removed by its organiser, asked once (issue 45, item 12): a stray
*Play again* does not leave an empty table in the group for good. One with hands is kept (the
ledger is append-only: a hand and its money rows are never deleted), and so is a tournament's.
Three people: the organiser, a player at the table, and (tests/tables/test_permissions.py) an
outsider, whom a table's every address answers 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import Group, Hand, HandChange, Player, Result, Seat, TableSession
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand

pytestmark = pytest.mark.both_databases


@pytest.fixture
def organiser(client, ce_deng):
    client.get(reverse("organise", args=[ce_deng.token, ce_deng.organiser_token]))
    return client


def _remove(client: Client, table: TableSession, language: str = "en", **post: str):
    url = reverse("table_remove", args=[table.token])
    return client.post(url, post, headers={"Accept-Language": language})


def test_the_organiser_is_asked_once_then_an_empty_table_is_removed(organiser, ce_deng):
    page = organiser.get(reverse("table", args=[ce_deng.token])).content.decode()
    assert 'id="remove-form"' in page

    asked = _remove(organiser, ce_deng)
    assert asked.status_code == 200 and "Remove this table?" in asked.content.decode()
    assert TableSession.objects.filter(pk=ce_deng.pk).exists()  # asked: nothing done yet

    removed = _remove(organiser, ce_deng, confirm="1")
    forgotten = f"#forgotten={reverse('table', args=[ce_deng.token])}"
    assert removed.status_code == 302 and removed["Location"] == reverse("home") + forgotten
    assert not TableSession.objects.filter(pk=ce_deng.pk).exists()
    assert not Seat.objects.exists() and not Player.objects.exists()  # the table's own players
    assert organiser.get(reverse("table", args=[ce_deng.token])).status_code == 404


def test_a_player_at_the_table_cannot_remove_it(ce_deng):
    player = Client()
    page = player.get(reverse("table", args=[ce_deng.token])).content.decode()
    assert 'id="remove-form"' not in page

    for post in ({}, {"confirm": "1"}):
        refused = _remove(player, ce_deng, **post)
        assert refused.status_code == 403
        assert "Only the table's organiser can remove it." in refused.content.decode()
    assert TableSession.objects.filter(pk=ce_deng.pk).exists()


def test_a_table_with_a_hand_is_kept_and_says_why_in_the_readers_language(organiser, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_void(session=ce_deng, number=1, version=1)  # voided: kept all the same
    rows = Result.objects.count()
    page = organiser.get(reverse("table", args=[ce_deng.token])).content.decode()
    assert 'id="remove-form"' not in page

    refused = _remove(organiser, ce_deng, "zh-hant", confirm="1")

    assert refused.status_code == 409
    assert "has hands recorded" not in refused.content.decode()  # said in Chinese
    assert TableSession.objects.filter(pk=ce_deng.pk).exists()
    assert Hand.objects.count() == 1 and HandChange.objects.count() == 2
    assert Result.objects.count() == rows


def test_a_groups_stray_table_goes_and_its_organiser_is_back_on_the_group(client, db):
    group = group_services.group_create(name="Teahouse", game="ce-deng", options={})
    client.get(reverse("group_organise", args=[group.token, group.organiser_token]))
    client.get(reverse("group", args=[group.token]))
    played = group_services.table_start(group=group, seating=SEATING, first="Anna")
    services.hand_record(session=played, number=1, data=plain_hand())
    stray = group_services.play_again(table=played)
    revision = Group.objects.get(pk=group.pk).revision
    page = client.get(reverse("table", args=[stray.token])).content.decode()
    assert 'id="remove-form"' in page  # the group's organiser organises its tables

    removed = _remove(client, stray, confirm="1")

    assert removed.status_code == 302
    assert removed["Location"].startswith(reverse("group", args=[group.token]) + "#forgotten=")
    assert list(TableSession.objects.values_list("pk", flat=True)) == [played.pk]
    assert Group.objects.get(pk=group.pk).revision == revision + 1  # its live page follows
    assert Player.objects.filter(group=group).count() == len(SEATING)  # the group's stay
    assert stray.token not in client.get(reverse("group", args=[group.token])).content.decode()


def test_a_tournaments_table_is_kept(client, db):
    event = event_services.event_create(
        name="Club night", game="ce-deng", options={}, rounds=2, seed="club"
    )
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    event_services.round_seat(event=event)
    table = TableSession.objects.get(round__event=event)
    client.get(reverse("event_organise", args=[event.token]))
    page = client.get(reverse("table", args=[table.token])).content.decode()
    assert 'id="remove-form"' not in page

    refused = _remove(client, table, confirm="1")

    assert refused.status_code == 409
    assert "tournament's table is kept" in refused.content.decode()
    assert TableSession.objects.filter(pk=table.pk).exists()
