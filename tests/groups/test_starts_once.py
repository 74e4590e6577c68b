"""A group's table starts once (issue 13, item 5): Play again and the group's new-table form
carry a key, and five taps of Play again sent at the same moment start one table and land
every tap on it, seats drawn or not; sent again later, it lands there too. Threads over real
HTTP on a real database (PostgreSQL too, where it answers)."""

from __future__ import annotations

import pytest
from django.test import Client

from ledger.groups import services
from ledger.models import TableSession
from tests.tables.test_starts_once import SENDS, held_form, send, sent_at_once

# Depends on the database: taps racing over HTTP: the database's unique key decides which one starts
# the table.
pytestmark = pytest.mark.both_databases

THREE = ["Anna", "Bob", "Celine"]


def group_with_a_table():
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.25"})
    return group, services.table_start(group=group, seating=THREE, first="Anna")


@pytest.mark.parametrize("seats", ["same", "draw"])
@pytest.mark.django_db(transaction=True)
def test_five_taps_of_play_again_at_once_start_one_table_and_land_on_it(live_server, seats):
    group, before = group_with_a_table()
    hidden, cookie = held_form(f"{live_server.url}/g/{group.token}/", "play-again")
    url = f"{live_server.url}/g/{group.token}/tables/{before.pk}/again/"

    landed = sent_at_once(url, {**hidden, "seats": seats}, cookie)

    again = TableSession.objects.exclude(pk=before.pk).get()  # exactly one more
    assert landed == [f"/t/{again.token}/"] * SENDS, landed
    assert sorted(again.seating) == THREE and again.options == {"stake": "0.25"}
    assert send(url, {**hidden, "seats": seats}, cookie) == f"/t/{again.token}/"  # later, too
    assert TableSession.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_play_again_from_a_table_s_own_page_starts_once_too(live_server):
    group, before = group_with_a_table()
    # A table's page leads back to its group, with Play again, on a phone that opened the
    # group's page.
    opened, cookie = held_form(f"{live_server.url}/g/{group.token}/", "play-again")
    hidden, cookie = held_form(f"{live_server.url}/t/{before.token}/", "group-line", cookie)
    url = f"{live_server.url}/g/{group.token}/tables/{before.pk}/again/"

    landed = sent_at_once(url, {**hidden, "seats": "same"}, cookie)

    again = TableSession.objects.exclude(pk=before.pk).get()
    assert landed == [f"/t/{again.token}/"] * SENDS, landed
    assert hidden["key"] != opened["key"]


@pytest.mark.django_db(transaction=True)
def test_three_sends_of_the_group_s_new_table_form_at_once_start_one_table(live_server):
    group, _ = group_with_a_table()
    hidden, cookie = held_form(f"{live_server.url}/g/{group.token}/", "group-table-form")
    fields = {**hidden, "game": "jie-long", "first": "draw"}
    fields.update({f"player_{i}": name for i, name in enumerate(["Dan", "Ewa", "Fang"])})
    url = f"{live_server.url}/g/{group.token}/tables/new/"

    landed = sent_at_once(url, fields, cookie, sends=3)

    table = TableSession.objects.get(seats__player__name="Dan")
    assert landed == [f"/t/{table.token}/"] * 3, landed
    assert table.options == {"stake": "0.25"}  # the group's usual


def test_a_play_again_key_sent_for_another_table_starts_nothing_and_says_why(db):
    group, before = group_with_a_table()
    other = services.table_start(group=group, seating=["Bob", "Celine", "Anna"], first="Bob")
    client = Client()
    client.post(f"/g/{group.token}/tables/{before.pk}/again/", {"key": "k" * 22})

    reused = client.post(f"/g/{group.token}/tables/{other.pk}/again/", {"key": "k" * 22})

    assert reused.status_code == 409
    assert "This form was already used to start another table: nothing was started." in (
        reused.content.decode()
    )
    assert TableSession.objects.count() == 3


def test_the_group_s_table_form_refused_keeps_its_key_and_reused_gets_a_new_one(db):
    group, _ = group_with_a_table()
    client = Client()
    url = f"/g/{group.token}/tables/new/"
    seated = {"game": "jie-long", "first": "0", "player_0": "Dan", "player_1": "Ewa"}

    refused = client.post(url, {"game": "jie-long", "player_0": "Dan", "key": "k" * 22})
    client.post(url, {**seated, "key": "k" * 22})
    reused = client.post(url, {**seated, "player_1": "Fang", "key": "k" * 22})

    assert refused.status_code == 400 and f'value="{"k" * 22}"' in refused.content.decode()
    page = reused.content.decode()
    assert reused.status_code == 400
    assert "This form was already used to start another table: nothing was started." in page
    assert f'value="{"k" * 22}"' not in page
    assert TableSession.objects.count() == 2
