"""Who may do what through the API: a table's player, its organiser, and an outsider.

A player holds the table's join token and has what a joined phone has on the web. The
organiser (the account that started the table, or whoever holds its organiser token) may also
lock it, void hands and change where the game ends. An outsider (a player of another table,
another organiser account, or a guesser) gets 404 from every table URL that is not theirs, and
403 for organiser actions with another table's organiser token.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from ledger.models import Hand, TableSession
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand

API = "/api/v1"
NEXT_HAND = {"number": 2, "hand": plain_hand(), "device": ""}

# (method, path under /sessions/<token>/, body): everything a table's token opens.
PLAYER = [
    ("get", "", None),
    ("get", "hands/", None),
    ("post", "hands/", NEXT_HAND),
    ("get", "hands/1/", None),
    ("put", "hands/1/", {"hand": plain_hand(Bob=14), "version": 1}),
    ("get", "history/", None),
    ("get", "export/hands.csv", None),
    ("get", "export/payments.csv", None),
    ("get", "export/settle-up.csv", None),
    ("get", "export/totals.csv", None),
]
ORGANISER = [
    ("post", "lock/", {"locked": True}),
    ("post", "hands/1/void/", {"version": 1}),
    ("put", "ends/", {"play_to": 600, "hands": None}),
]


def _table(owner: User | None = None) -> TableSession:
    table = services.session_create(
        game="ce-deng", options={}, seating=SEATING, first="Anna", owner=owner
    )
    services.hand_record(session=table, number=1, data=plain_hand())
    return table


@pytest.fixture
def org(db) -> User:
    return User.objects.create_user("org", password="a long password")


def _client(*, account: User | None = None, organiser_token: str = "") -> APIClient:
    api = APIClient()
    headers = {"HTTP_IDEMPOTENCY_KEY": "matrix-key-1"}
    if account is not None:
        headers["HTTP_AUTHORIZATION"] = f"Token {Token.objects.get_or_create(user=account)[0]}"
    if organiser_token:
        headers["HTTP_X_ORGANISER_TOKEN"] = organiser_token
    api.credentials(**headers)
    return api


def _call(api: APIClient, method: str, url: str, body: dict | None):
    return getattr(api, method)(url, body, format="json") if body else getattr(api, method)(url)


@pytest.mark.parametrize(("method", "path", "body"), PLAYER)
def test_a_player_has_a_joined_phones_rights(db, method, path, body):
    table = _table()

    response = _call(_client(), method, f"{API}/sessions/{table.token}/{path}", body)

    assert response.status_code in (200, 201), response.content


@pytest.mark.parametrize(("method", "path", "body"), ORGANISER)
def test_a_player_is_not_the_organiser(db, method, path, body):
    table = _table()

    response = _call(_client(), method, f"{API}/sessions/{table.token}/{path}", body)

    assert response.status_code == 403
    table.refresh_from_db()
    assert not table.locked and not Hand.objects.filter(voided=True).exists()
    assert table.options == {}  # no end set


@pytest.mark.parametrize(("method", "path", "body"), ORGANISER)
@pytest.mark.parametrize("how", ["organiser token", "owner account"])
def test_the_organiser_may_lock_and_void(org, method, path, body, how):
    table = _table(owner=org)
    api = (
        _client(account=org)
        if how == "owner account"
        else _client(organiser_token=table.organiser_token)
    )

    response = _call(api, method, f"{API}/sessions/{table.token}/{path}", body)

    assert response.status_code == 200, response.content


@pytest.mark.parametrize(("method", "path", "body"), PLAYER + ORGANISER)
def test_an_outsider_gets_nothing_from_another_table(org, method, path, body):
    """A player of table ``theirs`` (with its tokens, and even an organiser account) tries
    ``ours`` through a token one character off, as a guesser would: 404, nothing changes."""
    ours, theirs = _table(), _table(owner=org)
    wrong = ours.token[:-1] + ("A" if ours.token[-1] != "A" else "B")
    api = _client(account=org, organiser_token=theirs.organiser_token)

    response = _call(api, method, f"{API}/sessions/{wrong}/{path}", body)

    assert response.status_code == 404
    assert set(response.json()) == {"error", "path", "errors"}
    assert Hand.objects.filter(session=ours).count() == 1
    ours.refresh_from_db()
    assert not ours.locked and ours.revision == 1


@pytest.mark.parametrize(("method", "path", "body"), ORGANISER)
def test_another_tables_organiser_is_not_this_ones(org, method, path, body):
    ours, theirs = _table(), _table(owner=org)
    api = _client(account=org, organiser_token=theirs.organiser_token)

    response = _call(api, method, f"{API}/sessions/{ours.token}/{path}", body)

    assert response.status_code == 403


def test_guessing_table_tokens_is_rate_limited(db, settings):
    table = _table()
    api = APIClient()
    for i in range(settings.GUESS_LIMIT):
        assert api.get(f"{API}/sessions/guess-{i:04}/").status_code == 404

    blocked = api.get(f"{API}/sessions/{table.token}/")

    assert blocked.status_code == 429
    assert blocked["Content-Type"] == "application/json"
    assert set(blocked.json()) == {"error", "path", "errors"}


def test_writes_are_throttled_per_address(db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"writes": "3/min", "codes": "600/min"},
    }
    api = APIClient()
    body = {"game": "jie-long", "seating": ["A", "B"]}

    answers = [api.post(f"{API}/sessions/", body, format="json").status_code for _ in range(5)]

    assert answers == [201, 201, 201, 429, 429]
    assert TableSession.objects.count() == 3
    assert api.get(f"{API}/games/").status_code == 200  # reads are not writes


def test_the_token_endpoint_is_throttled(db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"writes": "120/min", "codes": "2/min"},
    }
    api = APIClient()
    body = {"username": "nobody", "password": "guess"}

    answers = [api.post(f"{API}/auth/token/", body, format="json").status_code for _ in range(3)]

    assert answers == [401, 401, 429]


# -- removing a table with no hands (issue 45, item 12) ---------------------------------------


def _empty(owner: User | None = None) -> TableSession:
    return services.session_create(
        game="ce-deng", options={}, seating=SEATING, first="Anna", owner=owner
    )


@pytest.mark.parametrize("how", ["organiser token", "owner account"])
def test_the_organiser_removes_a_table_with_no_hands(org, how):
    table = _empty(owner=org)
    api = (
        _client(account=org)
        if how == "owner account"
        else _client(organiser_token=table.organiser_token)
    )

    response = api.delete(f"{API}/sessions/{table.token}/")

    assert response.status_code == 204, response.content
    assert not TableSession.objects.exists()
    assert api.get(f"{API}/sessions/{table.token}/").status_code == 404


def test_a_player_cannot_remove_a_table(db):
    table = _empty()

    response = _client().delete(f"{API}/sessions/{table.token}/")

    assert response.status_code == 403
    assert TableSession.objects.filter(pk=table.pk).exists()


def test_a_table_with_a_hand_is_kept_with_its_rows(db):
    table = _table()

    response = _client(organiser_token=table.organiser_token).delete(
        f"{API}/sessions/{table.token}/"
    )

    assert response.status_code == 409
    assert "has hands recorded" in response.json()["error"]
    assert TableSession.objects.filter(pk=table.pk).exists()
    assert Hand.objects.filter(session=table).count() == 1


def test_an_outsider_cannot_remove_another_table(org):
    ours, theirs = _empty(), _empty(owner=org)
    wrong = ours.token[:-1] + ("A" if ours.token[-1] != "A" else "B")
    api = _client(account=org, organiser_token=theirs.organiser_token)

    assert api.delete(f"{API}/sessions/{wrong}/").status_code == 404
    assert api.delete(f"{API}/sessions/{ours.token}/").status_code == 403
    assert TableSession.objects.count() == 2
