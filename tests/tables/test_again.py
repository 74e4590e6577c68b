"""A lone table plays again too (issue 37, item 9): its page and its summary offer Play again,
which starts one new lone table with the same players in the same seats, game and options,
however often it is sent with its key; never from the read-only link, a tournament's table
or a locked one. Taps racing over real HTTP on a real database (PostgreSQL too, where it
answers), as a new table's form is tested (tests/tables/test_starts_once.py)."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client

from ledger.events import services as event_services
from ledger.models import Player, TableSession
from ledger.tables import services
from tests.tables.test_starts_once import SENDS, held_form, send, sent_at_once

OPTIONS = {"stake": "0.25", "play_to": 300}


def lone_table() -> TableSession:
    return services.session_create(
        game="jie-long", options=OPTIONS, seating=["Anna", "Bob", "Celine"], first="Bob"
    )


@pytest.mark.both_databases
@pytest.mark.parametrize("page", ["", "summary/"])
@pytest.mark.django_db(transaction=True)
def test_five_taps_of_a_lone_table_s_play_again_start_one_table_in_the_same_seats(
    live_server, page
):
    before = lone_table()
    hidden, cookie = held_form(f"{live_server.url}/t/{before.token}/{page}", "play-again")
    url = f"{live_server.url}/t/{before.token}/again/"

    landed = sent_at_once(url, hidden, cookie)

    again = TableSession.objects.exclude(pk=before.pk).get()  # exactly one more
    assert landed == [f"/t/{again.token}/"] * SENDS, landed
    assert again.seating == ["Anna", "Bob", "Celine"] and again.first == "Bob"
    assert again.game == "jie-long" and again.options == OPTIONS
    assert again.group is None and again.round is None  # a lone table, with players of its own
    assert Player.objects.filter(table=again).count() == 3
    assert send(url, hidden, cookie) == f"/t/{again.token}/"  # sent again later, too
    assert TableSession.objects.count() == 2


def test_the_player_who_tapped_play_again_organises_the_new_table(client, db):
    before = lone_table()
    response = client.post(f"/t/{before.token}/again/", {"key": "k" * 22})
    again = TableSession.objects.exclude(pk=before.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/t/{again.token}/"
    assert client.post(f"/t/{again.token}/lock/", {"locked": "1"}).status_code == 302


def test_a_tournament_s_table_is_not_played_again_and_offers_no_play_again(client, db):
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
    tables = TableSession.objects.count()

    response = client.post(f"/t/{table.token}/again/", {"key": "k" * 22})

    assert response.status_code == 409
    assert "its tournament seats it" in response.content.decode()
    assert TableSession.objects.count() == tables
    for page in ("", "summary/"):
        assert 'id="play-again"' not in client.get(f"/t/{table.token}/{page}").content.decode()


def test_the_read_only_link_starts_no_table_and_shows_no_play_again(client, db):
    table = lone_table()
    shared = client.get(f"/s/{table.read_token}/").content.decode()
    assert 'id="play-again"' not in shared and 'id="start-group"' not in shared
    assert f"/t/{table.token}/" not in shared  # nor the players' link it would need

    for url in (f"/t/{table.read_token}/again/", f"/s/{table.read_token}/again/"):
        response = client.post(url, {"key": "k" * 22})
        assert response.status_code == 404, url
        assert response.content  # the page that says there is no such table
    assert TableSession.objects.count() == 1
    # What the read-only link lacks: the players' link and their summary start one.
    assert 'id="play-again"' in client.get(f"/t/{table.token}/summary/").content.decode()
    assert client.post(f"/t/{table.token}/again/", {"key": "k" * 22}).status_code == 302


def test_a_locked_table_is_not_played_again_and_shows_why_not_a_button(client, db):
    table = lone_table()
    services.table_lock(session=table, locked=True)

    response = client.post(f"/t/{table.token}/again/", {"key": "k" * 22})

    assert response.status_code == 409
    assert "locked" in response.content.decode()
    assert TableSession.objects.count() == 1
    page = client.get(f"/t/{table.token}/").content.decode()
    assert 'id="play-again"' not in page and 'id="locked"' in page


def _section(page: str) -> str:
    """The visible words of the page's Play again section."""
    found = re.search(r'<section id="again".*?</section>', page, re.S)
    assert found is not None, "no Play again section"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found[0])).split())


def _organised(client: Client, table: TableSession) -> Client:
    """``client`` opened the table's organiser link."""
    client.get(f"/t/{table.token}/organise/{table.organiser_token}/")
    return client


@pytest.mark.parametrize("page", ["", "summary/"])
def test_the_table_and_its_summary_offer_play_again_and_a_group_in_english(client, db, page):
    table = lone_table()
    words = _section(_organised(client, table).get(f"/t/{table.token}/{page}").content.decode())
    assert "Play again" in words and "Start a group with these players" in words


@pytest.mark.parametrize("page", ["", "summary/"])
def test_a_player_is_offered_play_again_and_no_group(client, db, page):
    """Only the table's organiser makes a group of it (issue 45, item 1)."""
    table = lone_table()
    words = _section(client.get(f"/t/{table.token}/{page}").content.decode())
    assert "Play again" in words and "Start a group" not in words


@pytest.mark.parametrize("page", ["", "summary/"])
def test_the_korean_page_offers_them_with_no_english(client, db, page):
    table = services.session_create(
        game="jie-long", options={}, seating=["민준", "서연", "지호"], first="민준"
    )
    _organised(client, table)
    response = client.get(f"/t/{table.token}/{page}", HTTP_ACCEPT_LANGUAGE="ko")
    words = _section(response.content.decode())
    assert "다시 하기" in words and "이 플레이어들로 모임 만들기" in words
    assert not re.search("[A-Za-z]", words), words


def test_a_key_sent_for_another_table_starts_nothing_and_says_why(db):
    first, second = lone_table(), lone_table()
    client = Client()
    client.post(f"/t/{first.token}/again/", {"key": "k" * 22})

    response = client.post(f"/t/{second.token}/again/", {"key": "k" * 22})

    assert response.status_code == 409
    assert "nothing was started" in response.content.decode()
    assert TableSession.objects.count() == 3
