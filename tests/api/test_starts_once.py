"""The API starts a table once per Idempotency-Key (issue 13, item 5), as it records a hand or
a payment once: five sends of one start at the same moment (threads over real HTTP, a real
database; PostgreSQL too where it answers) start one table and all answer with it, and a send
of it later does too. The schema documents the key."""

from __future__ import annotations

import json
import urllib.request
from urllib.error import HTTPError

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token as AuthToken
from rest_framework.test import APIClient

from ledger.groups import services as group_services
from ledger.models import TableSession
from tests.tables.test_concurrency import _at_once

# Depends on the database: sends racing over HTTP: the database's unique key decides which one
# starts the table.
pytestmark = pytest.mark.both_databases

API = "/api/v1"
KEY = "start-0123456789abcdef"
START = {"game": "jie-long", "seating": ["Anna", "Bob", "Celine"], "minutes": 90}


def started(url: str, body: dict, key: str) -> tuple[int, dict]:
    """POST a start over HTTP with ``key``: the status and the answer."""
    sent = urllib.request.Request(
        f"{url}{API}/sessions/",
        json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": key},
    )
    try:
        with urllib.request.urlopen(sent) as answer:
            return answer.status, json.load(answer)
    except HTTPError as refused:
        return refused.code, json.load(refused)


@pytest.mark.parametrize("in_group", [False, True], ids=["lone", "group"])
@pytest.mark.django_db(transaction=True)
def test_five_sends_of_a_start_at_once_start_one_table_and_all_answer_with_it(
    live_server, in_group
):
    body = dict(START)
    if in_group:
        group = group_services.group_create(name="Teahouse", game="jie-long", options={})
        body["group"] = group.token

    answers = _at_once(5, lambda i: started(live_server.url, body, KEY))

    table = TableSession.objects.get()  # exactly one
    assert [status for status, _ in answers] == [201] * 5, answers
    assert {(a["token"], a["organiser_token"]) for _, a in answers} == {
        (table.token, table.organiser_token)
    }
    # Sent again after the fact: the same table, nothing more.
    status, again = started(live_server.url, body, KEY)
    assert (status, again["token"]) == (201, table.token)
    assert TableSession.objects.count() == 1


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_the_same_key_for_another_table_is_422_and_starts_nothing(api, db):
    api.post(f"{API}/sessions/", START, format="json", HTTP_IDEMPOTENCY_KEY=KEY)

    other = {**START, "seating": ["Anna", "Bob", "Dan"]}
    reused = api.post(f"{API}/sessions/", other, format="json", HTTP_IDEMPOTENCY_KEY=KEY)

    assert reused.status_code == 422
    assert reused.json()["path"] == "Idempotency-Key"
    assert "token" not in reused.json()  # nothing of the table the key started
    assert TableSession.objects.count() == 1


def test_a_key_that_is_not_one_is_400_and_starts_nothing(api, db):
    refused = api.post(f"{API}/sessions/", START, format="json", HTTP_IDEMPOTENCY_KEY="short")

    assert refused.status_code == 400 and refused.json()["path"] == "Idempotency-Key"
    assert not TableSession.objects.exists()


def test_without_a_key_each_start_is_a_table_as_before(api, db):
    for _ in range(2):
        assert api.post(f"{API}/sessions/", START, format="json").status_code == 201

    assert TableSession.objects.count() == 2


def test_the_schema_documents_the_key_of_a_start(api, db):
    schema = api.get(f"{API}/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    operation = schema["paths"]["/api/v1/sessions/"]["post"]
    (key,) = [p for p in operation["parameters"] if p["name"] == "Idempotency-Key"]
    assert key["in"] == "header" and not key.get("required", False)
    assert "nothing more is started" in key["description"]
    assert "422" in operation["responses"]


def _account(name: str) -> APIClient:
    """An API client signed in as a new organiser account ``name``."""
    client = APIClient()
    user = User.objects.create_user(name)
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user=user).key}")
    return client


def test_a_key_is_its_sender_s_another_account_or_none_starts_a_table_of_its_own(db):
    """Issue 45, item 2: the same key and body from another account, or from no account, were
    answered with the first organiser's table and its organiser token."""
    first, other = _account("first"), _account("other")
    mine = first.post(f"{API}/sessions/", START, format="json", HTTP_IDEMPOTENCY_KEY=KEY).json()

    answers = [
        client.post(f"{API}/sessions/", START, format="json", HTTP_IDEMPOTENCY_KEY=KEY)
        for client in (other, APIClient(), first)
    ]

    assert [answer.status_code for answer in answers] == [201, 201, 201]
    theirs, nobody, again = (answer.json() for answer in answers)
    assert again["token"] == mine["token"]  # the first account's retry: its table
    for answer in (theirs, nobody):
        assert answer["token"] != mine["token"]
        assert answer["organiser_token"] != mine["organiser_token"]
    assert TableSession.objects.count() == 3
    assert TableSession.objects.get(token=theirs["token"]).owner.username == "other"


def test_a_key_sent_with_another_organiser_token_is_another_sender_s(db):
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    other = group_services.group_create(name="Mahjong club", game="jie-long", options={})
    body = {**START, "group": group.token}
    api = APIClient()

    def start(organiser: str) -> dict:
        return api.post(
            f"{API}/sessions/",
            body,
            format="json",
            HTTP_IDEMPOTENCY_KEY=KEY,
            HTTP_X_ORGANISER_TOKEN=organiser,
        ).json()

    first = start(group.organiser_token)
    assert start(group.organiser_token)["token"] == first["token"]  # a retry
    assert start(other.organiser_token)["token"] != first["token"]
    assert TableSession.objects.count() == 2


def test_the_same_key_and_body_from_two_addresses_are_two_tables(db):
    api = APIClient()
    tokens = {
        api.post(
            f"{API}/sessions/", START, format="json", HTTP_IDEMPOTENCY_KEY=KEY, REMOTE_ADDR=address
        ).json()["token"]
        for address in ("198.51.100.4", "198.51.100.4", "203.0.113.9")
    }

    assert len(tokens) == 2 and TableSession.objects.count() == 2
