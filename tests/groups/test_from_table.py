"""A group started from a lone table (issue 37, item 9): its players become the group's, the
table its first table, its game and options the group's; the money the table's hands moved
counts once in the group's balances, and no result row is written or changed. Never from a
tournament's table, a group's or a locked one."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.management import call_command
from django.test import Client

from ledger.events import services as event_services
from ledger.groups import selectors
from ledger.models import Group, Player, Result, TableSession
from ledger.tables import services
from tests.groups.test_backup import exported
from tests.tables.conftest import empty_database

OPTIONS = {"stake": "0.50"}


@pytest.fixture
def played(db) -> TableSession:
    """A lone table of Jie Long at 0.50 a point, one hand played: pips 2, 12, 20 (sum 34), so
    Anna +28, Bob -2, Celine -26 points: +14, -1, -13 in money."""
    table = services.session_create(
        game="jie-long", options=OPTIONS, seating=["Anna", "Bob", "Celine"], first="Anna"
    )
    hand = {
        "first": "Anna",
        "direction": "ccw",
        "results": {"Anna": {"pips": 2}, "Bob": {"pips": 12}, "Celine": {"pips": 20}},
    }
    services.hand_record(session=table, number=1, data=hand)
    return table


@pytest.fixture
def organiser(client, played) -> Client:
    """The table's organiser: only they may make a group of it (issue 45, item 1)."""
    client.get(f"/t/{played.token}/organise/{played.organiser_token}/")
    return client


def test_a_group_started_from_a_table_has_its_players_and_the_table_as_its_first(organiser, played):
    rows = list(Result.objects.order_by("pk").values_list("pk", "player_id", "net"))

    response = organiser.post(f"/t/{played.token}/group/", {"name": "Thursday teahouse"})

    group = Group.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/g/{group.token}/"
    assert group.name == "Thursday teahouse"
    # the table's stake is what the group plays for, at every game (issue 47)
    assert group.game == "jie-long" and group.options == {} and group.plays_for == OPTIONS
    played.refresh_from_db()
    assert played.group == group and played.seating == ["Anna", "Bob", "Celine"]
    assert sorted(Player.objects.filter(group=group).values_list("name", flat=True)) == [
        "Anna",
        "Bob",
        "Celine",
    ]
    assert not Player.objects.filter(table=played).exists()
    # The same rows, untouched, counted once in the group's balances.
    assert list(Result.objects.order_by("pk").values_list("pk", "player_id", "net")) == rows
    ledger = selectors.ledger(group)
    assert ledger.money == {"Anna": Decimal(14), "Bob": Decimal(-1), "Celine": Decimal(-13)}
    assert [line.pk for line in ledger.tables] == [played.pk]
    # The browser that started it organises the group, as one started from /groups/new/.
    page = organiser.get(f"/g/{group.token}/").content.decode()
    assert 'id="organiser-link"' in page


def test_a_second_send_starts_no_second_group_and_says_why(organiser, played):
    organiser.post(f"/t/{played.token}/group/", {"name": "Teahouse"})

    response = organiser.post(f"/t/{played.token}/group/", {"name": "Teahouse"})

    assert response.status_code == 409
    assert "belongs to a group" in response.content.decode()
    assert Group.objects.count() == 1


def test_a_group_needs_a_name_and_nothing_is_stored_without_one(organiser, played):
    response = organiser.post(f"/t/{played.token}/group/", {"name": "  "})

    assert response.status_code == 400
    assert "The group needs a name." in response.content.decode()
    assert not Group.objects.exists()
    assert Player.objects.filter(table=played).count() == 3


def test_a_tournament_s_table_starts_no_group(client, db):
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=1)
    for name in ("Anna", "Bob", "Celine"):
        event_services.entry_add(event=event, name=name, organiser=True)
    table = services.session_create(
        game="jie-long",
        options={},
        seating=["Anna", "Bob", "Celine"],
        first="Anna",
        round=event_services.round_seat(event=event),
        table_number=1,
    )

    client.get(f"/o/{event.token}/")  # its organiser: who organises the tournament's tables
    response = client.post(f"/t/{table.token}/group/", {"name": "Club"})

    assert response.status_code == 409
    assert "tournament" in response.content.decode()
    assert not Group.objects.exists()
    assert Player.objects.filter(event=event).count() == 3


def test_the_read_only_link_starts_no_group(organiser, played):
    response = organiser.post(f"/t/{played.read_token}/group/", {"name": "Club"})

    assert response.status_code == 404
    assert not Group.objects.exists()
    # What the read-only link lacks: the players' link starts one.
    assert organiser.post(f"/t/{played.token}/group/", {"name": "Club"}).status_code == 302


def test_a_locked_table_starts_no_group(organiser, played):
    services.table_lock(session=played, locked=True)

    response = organiser.post(f"/t/{played.token}/group/", {"name": "Club"})

    assert response.status_code == 409
    assert not Group.objects.exists()


@pytest.mark.both_databases
def test_a_group_started_from_a_table_comes_back_whole_from_a_backup(
    organiser, played, tmp_path, capsys
):
    organiser.post(f"/t/{played.token}/group/", {"name": "Teahouse"})
    before = selectors.ledger(Group.objects.get())
    backup = exported(tmp_path, capsys)
    empty_database()

    call_command("ledger_import", str(backup))

    back = Group.objects.get()
    assert back.tables.get().token == played.token
    assert selectors.ledger(back).money == before.money


def test_a_player_s_link_starts_no_group_and_makes_no_organiser(client, played):
    """Issue 45, item 1: a lone table's players' link put the table in a group with that
    browser its organiser, who then voided a hand and locked the table."""
    client.get(f"/t/{played.token}/")  # a player, joined by the table's link

    response = client.post(f"/t/{played.token}/group/", {"name": "Mine now"})

    assert response.status_code == 403
    assert "Only the table's organiser can start a group from it." in response.content.decode()
    assert not Group.objects.exists()
    played.refresh_from_db()
    assert played.group is None and Player.objects.filter(table=played).count() == 3
    assert client.post(f"/t/{played.token}/lock/", {"locked": "1"}).status_code == 403
    page = client.get(f"/t/{played.token}/").content.decode()
    assert 'id="start-group"' not in page and played.organiser_token not in page
    assert 'id="play-again"' in page  # what a player may still do


def test_a_player_is_refused_in_their_language(client, played):
    response = client.post(
        f"/t/{played.token}/group/", {"name": "Mine now"}, HTTP_ACCEPT_LANGUAGE="ko"
    )

    assert response.status_code == 403
    assert "이 테이블의 주최자만" in response.content.decode()
    assert not Group.objects.exists()
