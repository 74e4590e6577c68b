"""A phone of one table gets nothing from another table: every page, export and write is 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Hand
from ledger.tables import services
from tests.tables.conftest import form_post, plain_hand


@pytest.fixture
def other(db):
    table = services.session_create(game="ce-deng", options={}, seating=list("ABCD"), first="A")
    hand = {"first": "A", "direction": "ccw", "results": {n: {"pips": 12} for n in "ABCD"}}
    services.hand_record(session=table, number=1, data=hand)
    return table


def _mixed(mine, theirs):
    """A token of ours with one character of theirs: what a guesser would try."""
    return mine[:-1] + theirs[-1] if mine[-1] != theirs[-1] else mine[:-1] + "_"


GETS = ["table", "live", "qr", "history", "summary"]


@pytest.mark.parametrize("name", GETS)
def test_a_wrong_token_finds_nothing(client, ce_deng, other, name):
    wrong = _mixed(ce_deng.token, other.token)

    assert client.get(reverse(name, args=[wrong])).status_code == 404


@pytest.mark.parametrize("kind", ["hands", "payments", "settle-up"])
def test_exports_need_the_tables_own_token(client, ce_deng, other, kind):
    assert client.get(reverse("export", args=[ce_deng.token, kind])).status_code == 200
    assert (
        client.get(reverse("export", args=[_mixed(ce_deng.token, other.token), kind])).status_code
        == 404
    )
    assert client.get(reverse("shared_export", args=[ce_deng.token, kind])).status_code == 404


def test_the_read_only_token_opens_no_table_page(client, ce_deng):
    assert client.get(reverse("table", args=[ce_deng.read_token])).status_code == 404
    assert client.post(reverse("table", args=[ce_deng.read_token]), form_post(1)).status_code == 404


def test_one_tables_token_cannot_read_or_change_another_tables_hand(client, ce_deng, other):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    url = reverse("hand_detail", args=[_mixed(ce_deng.token, other.token), 1])

    assert client.get(url).status_code == 404
    assert client.post(f"{url}void/", {"version": "1"}).status_code == 404
    assert not Hand.objects.filter(voided=True).exists()


def test_guessing_links_is_rate_limited_per_address(client, ce_deng, settings):
    for i in range(settings.GUESS_LIMIT):
        assert client.get(reverse("table", args=[f"guess{i:017d}"])).status_code == 404

    blocked = client.get(reverse("table", args=[ce_deng.token]))
    elsewhere = client.get(reverse("table", args=[ce_deng.token]), REMOTE_ADDR="10.1.2.3")
    # The live poll's early "nothing new" (ledger.tables.middleware.LivePollMiddleware) included.
    poll = client.get(reverse("live", args=[ce_deng.token]), {"rev": "0"})

    assert blocked.status_code == 429 and "Too many wrong table links" in blocked.content.decode()
    assert elsewhere.status_code == 200
    assert poll.status_code == 429


@pytest.fixture
def organiser(client, ce_deng):
    """The browser that started the table (the organiser link gives the same rights)."""
    client.get(reverse("organise", args=[ce_deng.token, ce_deng.organiser_token]))
    return client


@pytest.fixture
def player(ce_deng):
    """A phone that joined through the table's link."""
    return Client()


def test_the_browser_that_starts_a_table_is_its_organiser(client, db):
    seats = {f"player_{i}": name for i, name in enumerate(["A", "B", "C", "D"])}
    response = client.post(reverse("session_new"), {"game": "ce-deng", "first": "0", **seats})

    page = client.get(response["Location"]).content.decode()

    assert 'id="organiser"' in page and "Lock the table" in page


def test_a_joined_player_sees_no_organiser_controls(player, ce_deng):
    page = player.get(reverse("table", args=[ce_deng.token])).content.decode()

    assert 'id="organiser"' not in page and ce_deng.organiser_token not in page


def test_only_the_organiser_voids_a_hand(organiser, player, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    url = reverse("hand_detail", args=[ce_deng.token, 1])
    assert "Void this hand" not in player.get(url).content.decode()

    refused = player.post(f"{url}void/", {"version": "1", "confirm": "1"})
    assert refused.status_code == 403 and not Hand.objects.get().voided

    organiser.post(f"{url}void/", {"version": "1", "confirm": "1"})
    assert Hand.objects.get().voided


def test_only_the_organiser_locks_and_a_locked_table_takes_nothing(organiser, player, ce_deng):
    lock = reverse("lock", args=[ce_deng.token])
    assert player.post(lock, {"locked": "1"}).status_code == 403

    organiser.post(lock, {"locked": "1"})
    refused = player.post(reverse("table", args=[ce_deng.token]), form_post(1))

    assert refused.status_code == 423 and "locked" in refused.content.decode()
    assert not Hand.objects.exists()
    page = player.get(reverse("table", args=[ce_deng.token])).content.decode()
    assert 'id="locked"' in page and 'id="record-form"' not in page
    organiser.post(lock, {"locked": "0"})
    assert player.post(reverse("table", args=[ce_deng.token]), form_post(1)).status_code == 302


def test_the_account_that_started_a_table_through_the_api_organises_it_on_the_web(db):
    from django.contrib.auth.models import User

    owner, other = User.objects.create_user("owner"), User.objects.create_user("other")
    table = services.session_create(
        game="ce-deng", options={}, seating=list("ABCD"), first="A", owner=owner
    )
    signed_in, someone_else = Client(), Client()
    signed_in.force_login(owner)
    someone_else.force_login(other)
    lock = reverse("lock", args=[table.token])

    assert someone_else.post(lock, {"locked": "1"}).status_code == 403
    assert signed_in.post(lock, {"locked": "1"}).status_code == 302
    table.refresh_from_db()
    assert table.locked


def test_a_wrong_organiser_link_gives_nothing(player, ce_deng):
    wrong = reverse("organise", args=[ce_deng.token, ce_deng.read_token])

    assert player.get(wrong).status_code == 404
    assert player.post(reverse("lock", args=[ce_deng.token]), {"locked": "1"}).status_code == 403


def test_every_unsafe_request_needs_the_csrf_token_htmx_included(ce_deng):
    phone = Client(enforce_csrf_checks=True)
    url = reverse("table", args=[ce_deng.token])
    page = phone.get(url).content.decode()
    token = page.split('"x-csrftoken": "')[1].split('"')[0]

    forged = phone.post(url, form_post(1), HTTP_HX_REQUEST="true")
    sent = phone.post(url, form_post(1), HTTP_HX_REQUEST="true", HTTP_X_CSRFTOKEN=token)

    assert forged.status_code == 403
    assert sent.status_code == 200 and Hand.objects.count() == 1
