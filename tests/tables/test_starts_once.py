"""A table starts once (issue 13, item 5): the new-table form carries a key, as a hand does,
and a double tap, a retry or a replay of it starts one table and lands every send there.

Sends at the same moment are threads posting over real HTTP to the live server, on a real
database (PostgreSQL too, where it answers): the lots drawn and the time counted from now
differ from send to send, and still one table is started."""

from __future__ import annotations

import re
import urllib.request
from urllib.parse import urlencode, urlsplit

import pytest
from django.test import Client

from ledger.groups import services as group_services
from ledger.models import TableSession
from tests.tables.test_concurrency import _at_once

# Depends on the database: sends racing over HTTP: the database's unique key decides which one
# starts the table.
pytestmark = pytest.mark.both_databases

SENDS = 5
NEW = {"game": "jie-long", "player_0": "Anna", "player_1": "Bob", "player_2": "Celine"}


def held_form(url: str, form_id: str, cookie: str = "") -> tuple[dict[str, str], str]:
    """The form ``form_id`` on the page at ``url``, as a phone (its ``cookie``) holds it: its
    hidden fields (its key and CSRF token) and the cookie it is sent with."""
    with urllib.request.urlopen(urllib.request.Request(url, headers={"Cookie": cookie})) as page:
        html = page.read().decode()
        cookies = [cookie] if cookie else []
        cookies += [header.split(";")[0] for header in page.headers.get_all("Set-Cookie") or []]
    form = re.search(rf'<form [^>]*id="{form_id}".*?</form>', html, re.S)
    assert form is not None, f"no form {form_id} at {url}"
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form[0]))
    return hidden, "; ".join(cookies)


def send(url: str, fields: dict[str, str], cookie: str) -> str:
    """Post ``fields`` as a browser does; the path of the page it lands on."""
    sent = urllib.request.Request(url, urlencode(fields).encode(), headers={"Cookie": cookie})
    with urllib.request.urlopen(sent) as landed:
        return urlsplit(landed.url).path


def sent_at_once(
    url: str, fields: dict[str, str], cookie: str, sends: int = SENDS
) -> list[str | Exception]:
    return _at_once(sends, lambda i: send(url, fields, cookie))


@pytest.mark.django_db(transaction=True)
def test_five_sends_of_the_new_table_form_at_once_start_one_table_and_land_on_it(live_server):
    hidden, cookie = held_form(f"{live_server.url}/new/", "session-form")
    assert len(hidden["key"]) >= 16
    # Lots drawn for who leads, a time counted from now: each send would make them anew.
    fields = {**hidden, **NEW, "first": "draw", "minutes": "90"}

    landed = sent_at_once(f"{live_server.url}/new/", fields, cookie)

    table = TableSession.objects.get()  # exactly one
    assert landed == [f"/t/{table.token}/"] * SENDS, landed
    assert table.seating == ["Anna", "Bob", "Celine"] and table.idempotency_key == hidden["key"]


@pytest.mark.django_db(transaction=True)
def test_the_new_table_form_sent_again_later_lands_on_the_table_it_started(live_server):
    hidden, cookie = held_form(f"{live_server.url}/new/", "session-form")
    fields = {**hidden, **NEW, "first": "draw"}
    first = send(f"{live_server.url}/new/", fields, cookie)

    again = send(f"{live_server.url}/new/", fields, cookie)  # the page kept, sent again

    assert again == first == f"/t/{TableSession.objects.get().token}/"


def test_the_form_changed_and_sent_with_its_old_key_starts_nothing_and_says_why(client, db):
    key = client.get("/new/").content.decode().split('name="key" value="')[1].split('"')[0]
    client.post("/new/", {**NEW, "first": "0", "key": key})

    changed = client.post("/new/", {**NEW, "player_2": "Dan", "first": "0", "key": key})

    page = changed.content.decode()
    assert changed.status_code == 400
    assert "This form was already used to start another table: nothing was started." in page
    assert TableSession.objects.count() == 1
    new_key = page.split('name="key" value="')[1].split('"')[0]
    assert new_key != key  # sent again as it is now, it starts the table asked for
    started = client.post("/new/", {**NEW, "player_2": "Dan", "first": "0", "key": new_key})
    assert started.status_code == 302 and TableSession.objects.count() == 2


def test_a_form_refused_comes_back_with_its_key_so_that_sending_it_again_is_a_retry(client, db):
    refused = client.post("/new/", {**NEW, "player_1": "", "player_2": "", "key": "k" * 22})

    assert refused.status_code == 400
    assert f'name="key" value="{"k" * 22}"' in refused.content.decode()
    assert not TableSession.objects.exists()


def test_a_start_in_another_language_that_reuses_its_key_is_told_so_in_it(client, db):
    key = "k" * 22
    client.post("/new/", {**NEW, "first": "0", "key": key})

    changed = client.post(
        "/new/", {**NEW, "player_2": "Dan", "first": "0", "key": key}, HTTP_ACCEPT_LANGUAGE="ko"
    )

    assert changed.status_code == 400
    assert "이 양식은 이미 다른 테이블을 여는 데 쓰였습니다" in changed.content.decode()
    assert TableSession.objects.count() == 1


def test_a_page_from_before_sends_no_key_and_starts_a_table_each_time(client, db):
    for _ in range(2):
        assert client.post("/new/", {**NEW, "first": "0"}).status_code == 302

    assert TableSession.objects.count() == 2


def _key(browser: Client, url: str) -> str:
    """The start key of the form at ``url`` as ``browser`` is shown it (and its cookies set)."""
    return browser.get(url).content.decode().split('name="key" value="')[1].split('"')[0]


def test_a_key_is_its_browser_s_another_browser_sending_it_starts_a_table_of_its_own(db):
    """Issue 45, item 2: a start's key was looked up for everyone; another browser sending the
    same form with it landed on the first browser's table, and organised it."""
    mine, theirs = Client(), Client()
    key = _key(mine, "/new/")
    _key(theirs, "/new/")
    first = mine.post("/new/", {**NEW, "first": "0", "key": key})

    other = theirs.post("/new/", {**NEW, "first": "0", "key": key})

    assert other.status_code == 302 and other["Location"] != first["Location"]
    assert TableSession.objects.count() == 2
    table = TableSession.objects.get(token=first["Location"].split("/")[2])
    assert theirs.post(f"/t/{table.token}/lock/", {"locked": "1"}).status_code == 403
    assert mine.post("/new/", {**NEW, "first": "0", "key": key})["Location"] == first["Location"]


def test_a_member_of_another_group_sending_a_group_s_key_starts_a_table_in_their_own(db):
    teahouse = group_services.group_create(name="Teahouse", game="jie-long", options={})
    club = group_services.group_create(name="Club", game="jie-long", options={})
    at_teahouse, at_club = Client(), Client()
    key = _key(at_teahouse, f"/g/{teahouse.token}/")
    _key(at_club, f"/g/{club.token}/")
    fields = {"game": "jie-long", "first": "draw", "key": key}
    fields |= {f"player_{i}": name for i, name in enumerate(["Anna", "Bob", "Celine"])}
    at_teahouse.post(f"/g/{teahouse.token}/tables/new/", fields)

    landed = at_club.post(f"/g/{club.token}/tables/new/", fields)

    table = TableSession.objects.get(group=club)
    assert landed.status_code == 302 and landed["Location"] == f"/t/{table.token}/"
    assert TableSession.objects.filter(group=teahouse).count() == 1


def test_a_group_s_key_sent_by_the_same_browser_to_another_group_starts_nothing(db):
    teahouse = group_services.group_create(name="Teahouse", game="jie-long", options={})
    club = group_services.group_create(name="Club", game="jie-long", options={})
    browser = Client()
    key = _key(browser, f"/g/{teahouse.token}/")
    _key(browser, f"/g/{club.token}/")
    fields = {"game": "jie-long", "first": "0", "key": key}
    fields |= {f"player_{i}": name for i, name in enumerate(["Anna", "Bob", "Celine"])}
    browser.post(f"/g/{teahouse.token}/tables/new/", fields)

    refused = browser.post(f"/g/{club.token}/tables/new/", fields)

    assert refused.status_code == 400
    assert "already used to start another table" in refused.content.decode()
    assert not TableSession.objects.filter(group=club).exists()
