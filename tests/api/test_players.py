"""GET /api/v1/players/: the names at the tables of the organiser account asking, and no one
else's; nothing at all without an account."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledger.tables import services

API = "/api/v1/players/"
MINE = ["Anna", "Bob", "Celine", "Dominic"]
THEIRS = ["Erik", "Fang", "Gita"]


def _as(account: User | None) -> APIClient:
    api = APIClient()
    if account is not None:
        api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=account)}")
    return api


@pytest.fixture
def accounts(db) -> tuple[User, User]:
    mine = User.objects.create_user("org", password="a long password")
    theirs = User.objects.create_user("other", password="a long password")
    services.session_create(game="ce-deng", options={}, seating=MINE, first="Anna", owner=mine)
    services.session_create(game="jie-long", options={}, seating=THEIRS, first="Erik", owner=theirs)
    services.session_create(game="jie-long", options={}, seating=["Hui", "Anna"], first="Hui")
    return mine, theirs


def test_without_an_account_the_names_are_refused_with_the_error_object(accounts):
    response = _as(None).get(API)

    assert response.status_code == 401
    assert set(response.json()) == {"error", "path", "errors"}
    assert "Hui" not in response.content.decode()


def test_a_wrong_token_is_refused(accounts):
    response = APIClient().get(API, HTTP_AUTHORIZATION="Token not-a-token")

    assert response.status_code == 401
    assert set(response.json()) == {"error", "path", "errors"}


def test_an_organiser_gets_the_names_at_their_own_tables_only(accounts):
    mine, theirs = accounts

    assert sorted(_as(mine).get(API).json()) == sorted(MINE)
    assert sorted(_as(theirs).get(API).json()) == sorted(THEIRS)


def test_the_schema_says_the_names_need_an_organiser_account(db):
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    operation = schema.json()["paths"]["/api/v1/players/"]["get"]

    assert "401" in operation["responses"]
    assert {} not in operation["security"]  # no anonymous alternative
