"""Invisible characters are not a name (issue 45, item 4): "Anna" and "Anna" followed by a
Hangul filler sat at one table, and in one group, as two people. Every code point Unicode calls
default-ignorable (shown as nothing), whatever its category, and the braille blank, are refused
wherever a name comes in: a table's seats, a group's players, a tournament's entries, on the
web and through the API; in the reader's language, 400, nothing stored."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import Entry, Player, TableSession
from scoring import ScoringError, names
from tests.tables.test_views import new_table_post

# Depends on the database: what is stored, or not, is each database's unique keys' too.
pytestmark = pytest.mark.both_databases

API = "/api/v1"

# Each renders as nothing after "Anna". Only the last is not default-ignorable in Unicode (a
# braille cell): it renders blank all the same.
INVISIBLE = {
    "Hangul filler": "Anna\u3164",
    "halfwidth Hangul filler": "Anna\uffa0",
    "Hangul choseong filler": "Anna\u115f",
    "combining grapheme joiner": "An\u034fna",
    "variation selector 16": "Anna\ufe0f",
    "variation selector 17": "Anna\U000e0100",
    "Mongolian free variation selector": "Anna\u180b",
    "tag letter": "Anna\U000e0041",
    "unassigned default-ignorable": "Anna\u2065",
    "braille blank": "Anna\u2800",
}
NAMES = pytest.mark.parametrize("name", list(INVISIBLE.values()), ids=list(INVISIBLE))


@NAMES
def test_the_engine_refuses_a_name_holding_what_shows_as_nothing(name):
    with pytest.raises(ScoringError, match="invisible or control characters"):
        names.check(name, "seating[1]")


@pytest.mark.parametrize("name", ["Anna", "张伟", "Zoë", "김민준", "Anna-Li", "O'Brien", "⠁⠃"])
def test_names_that_show_what_they_are_are_kept(name):
    names.check(name, "seating[1]")


@NAMES
def test_a_table_seats_no_second_anna_on_the_web_or_through_the_api(client, db, name):
    page = client.post(
        reverse("session_new"), new_table_post(player_1=name), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    body = {"game": "ce-deng", "seating": ["Anna", name, "Celine", "Dominic"], "first": "Anna"}
    answer = APIClient().post(f"{API}/sessions/", body, format="json")

    assert page.status_code == 400 and answer.status_code == 400
    assert answer.json()["path"] == "seating[1]"
    assert "invisible" in answer.json()["error"]
    assert not TableSession.objects.exists() and not Player.objects.exists()


def test_the_web_s_refusal_is_in_the_reader_s_language(client, db):
    page = client.post(
        reverse("session_new"),
        new_table_post(player_1="Anna\u3164"),
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert page.status_code == 400
    assert "invisible or control characters" not in page.content.decode()
    assert "不可见" in page.content.decode() or "控制字符" in page.content.decode()


@NAMES
def test_a_group_takes_no_second_anna_on_the_web_or_through_the_api(db, name):
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    anna = Player.objects.get(group=group, name="Anna")
    web = Client().post(
        f"/g/{group.token}/tables/new/",
        {"game": "jie-long", "first": "0", "key": "k" * 22, "seat": [anna.pk], "player_0": name},
    )
    body = {"game": "jie-long", "seating": ["Bob", name], "first": "Bob", "group": group.token}
    api = APIClient().post(f"{API}/sessions/", body, format="json")

    assert web.status_code == 400 and api.status_code == 400
    assert api.json()["path"] == "seating[1]"
    assert sorted(group.players.values_list("name", flat=True)) == ["Anna", "Bob"]
    assert group.tables.count() == 1


@NAMES
def test_a_tournament_registers_no_second_anna_on_the_web_or_through_the_api(db, name):
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=1)
    event_services.entry_add(event=event, name="Anna", organiser=True)
    web = Client().post(reverse("event_register", args=[event.register_token]), {"name": name})
    api = APIClient().post(f"{API}/events/{event.token}/entries/", {"name": name}, format="json")
    register = APIClient().post(
        f"{API}/register/{event.register_token}/", {"name": name}, format="json"
    )

    assert (web.status_code, api.status_code, register.status_code) == (400, 400, 400)
    assert api.json()["path"] == "name"
    assert list(Entry.objects.filter(event=event).values_list("player__name", flat=True)) == [
        "Anna"
    ]
