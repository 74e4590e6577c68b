"""The API's limits: throttles and sign-ins per real client address, and the guess limit
counting only tokens that match nothing (ledger/web/limits.py, ledger/api/throttles.py)."""

from __future__ import annotations

import secrets
from typing import NamedTuple

import pytest
from django.contrib.auth.models import User
from rest_framework.response import Response
from rest_framework.test import APIClient

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.tables import services
from ledger.web import limits
from tests.tables.conftest import SEATING, plain_hand

# The tests whose answers turn on a count of the limits' table (a throttle's, the sign-ins', the
# guesses': each hit under its row's lock, ledger/web/limits.py) carry both_databases; the
# ceilings of hands a request scores or a table keeps are counted by the code, not the database.

API = "/api/v1"
WRONG = "guess0000000000000000"


@pytest.fixture
def table(db):
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    return table


@pytest.fixture
def codes_3_a_minute(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"writes": "120/min", "codes": "3/min"},
    }


@pytest.mark.both_databases
def test_getting_a_token_is_limited_to_a_few_attempts_per_address(db, settings):
    settings.LOGIN_LIMIT = 3
    User.objects.create_user("org", password="a long password")
    api = APIClient()
    wrong = {"username": "org", "password": "guess"}

    answers = [api.post(f"{API}/auth/token/", wrong, format="json").status_code for _ in range(3)]
    right = {"username": "org", "password": "a long password"}
    blocked = api.post(f"{API}/auth/token/", right, format="json")
    elsewhere = api.post(f"{API}/auth/token/", right, format="json", REMOTE_ADDR="198.51.100.4")

    assert answers == [401, 401, 401]
    assert blocked.status_code == 429
    assert blocked.json()["error"].startswith("Too many sign-in attempts from here.")
    assert blocked.json()["path"] == ""
    assert 0 < int(blocked["Retry-After"]) <= limits.LOGIN_WINDOW
    assert elsewhere.status_code == 200


@pytest.mark.both_databases
def test_sign_ins_at_the_admin_and_the_api_share_one_count(client, admin_user, settings):
    settings.LOGIN_LIMIT = 2
    wrong = {"username": admin_user.username, "password": "guess"}

    assert client.post("/admin/login/", wrong).status_code == 200
    assert client.post("/admin/login/", wrong).status_code == 200
    assert APIClient().post(f"{API}/auth/token/", wrong, format="json").status_code == 429


@pytest.mark.both_databases
def test_throttles_count_the_address_a_request_came_from_not_the_one_it_claims(
    table, settings, codes_3_a_minute
):
    settings.HTTPS = True  # behind nginx, where DRF believed X-Forwarded-For as sent
    settings.TRUSTED_PROXIES = []
    api = APIClient()
    url = f"{API}/sessions/{table.token}/"

    answers = [api.get(url, secure=True, HTTP_X_FORWARDED_FOR=f"203.0.113.{i}") for i in range(4)]

    assert [answer.status_code for answer in answers] == [200, 200, 200, 429]
    assert 0 < int(answers[-1]["Retry-After"]) <= 60
    assert set(answers[-1].json()) == {"error", "path", "errors"}


@pytest.mark.both_databases
def test_behind_a_trusted_proxy_each_phone_is_throttled_on_its_own(
    table, settings, codes_3_a_minute
):
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    api = APIClient()
    url = f"{API}/sessions/{table.token}/"

    def get(phone: str, spoofed: str) -> int:
        return api.get(url, HTTP_X_FORWARDED_FOR=f"{spoofed}, {phone}").status_code

    answers = [get("203.0.113.7", f"10.0.0.{i}") for i in range(4)]

    assert answers == [200, 200, 200, 429]
    assert get("203.0.113.8", "203.0.113.7") == 200


@pytest.mark.both_databases
def test_missing_hands_and_exports_of_a_real_table_are_not_guesses(table, settings):
    settings.GUESS_LIMIT = 2
    api = APIClient()

    for _ in range(4):
        assert api.get(f"{API}/sessions/{table.token}/hands/99/").status_code == 404
        assert api.get(f"{API}/sessions/{table.token}/export/nope.csv").status_code == 404

    assert api.get(f"{API}/sessions/{table.token}/").status_code == 200


@pytest.mark.both_databases
def test_a_missing_round_of_a_real_event_is_not_a_guess_but_a_wrong_event_token_is(db, settings):
    settings.GUESS_LIMIT = 2
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=2)
    api = APIClient()

    missing = [api.post(f"{API}/events/{event.token}/rounds/9/begin/") for _ in range(3)]
    wrong = [api.post(f"{API}/events/{WRONG}/rounds/1/begin/") for _ in range(3)]

    assert [answer.status_code for answer in missing] == [404, 404, 404]
    assert [answer.status_code for answer in wrong] == [404, 404, 429]
    assert set(wrong[-1].json()) == {"error", "path", "errors"}


class Call(NamedTuple):
    method: str
    path: str
    body: dict[str, object] | None = None
    organiser: str = ""  # sent as X-Organiser-Token

    def made(self, api: APIClient) -> Response:
        headers = {"HTTP_IDEMPOTENCY_KEY": secrets.token_hex(8)}
        if self.organiser:
            headers["HTTP_X_ORGANISER_TOKEN"] = self.organiser
        return getattr(api, self.method)(self.path, self.body, format="json", **headers)


@pytest.fixture
def calls(table) -> dict[str, tuple[Call, Call]]:
    """Each kind of link the API takes: (a call with a right one, a call with a wrong one)."""
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=2)
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob", "Celine"], first="Anna")
    paid = {"from": "Anna", "to": "Bob", "amount": "5"}
    payment = group_services.payment_record(group=group, payer="Anna", payee="Bob", amount="5")
    void = f"{API}/groups/{group.token}/payments/{payment.payment.pk}/void/"
    lock = f"{API}/sessions/{table.token}/lock/"

    def both(method: str, path: str, right: str, body: dict[str, object] | None = None):
        return Call(method, path.format(right), body), Call(method, path.format(WRONG), body)

    return {
        "table": both("get", API + "/sessions/{}/", table.token),
        "shared": both("get", API + "/shared/{}/", table.read_token),
        "event": both("get", API + "/events/{}/", event.token),
        "register": both("post", API + "/register/{}/", event.register_token, {"name": "Hui"}),
        "results": both("get", API + "/results/{}/", event.read_token),
        "group": both("get", API + "/groups/{}/", group.token),
        "group's statistics": both("get", API + "/groups/{}/statistics/", group.token),
        "group's ratings": both("get", API + "/groups/{}/ratings/", group.token),
        "group's export": both("get", API + "/groups/{}/export/balances.csv", group.token),
        "group's payments": both("post", API + "/groups/{}/payments/", group.token, paid),
        "table organiser": (
            Call("post", lock, {"locked": True}, table.organiser_token),
            Call("post", lock, {"locked": True}, WRONG),
        ),
        "group organiser": (
            Call("post", void, None, group.organiser_token),
            Call("post", void, None, WRONG),
        ),
    }


API_KINDS = ["table", "shared", "event", "register", "results", "group", "group's statistics"]
API_KINDS += ["group's ratings", "group's export", "group's payments"]
API_KINDS += ["table organiser", "group organiser"]


@pytest.mark.both_databases
@pytest.mark.parametrize("kind", API_KINDS)
def test_every_kind_of_wrong_token_counts_in_the_one_guess_limit(calls, settings, kind):
    settings.GUESS_LIMIT = 2
    api = APIClient()

    answers = [calls[kind][1].made(api) for _ in range(3)]

    refusal = 403 if kind.endswith("organiser") else 404  # the link was right, the token not
    assert [answer.status_code for answer in answers] == [refusal, refusal, 429]
    assert set(answers[-1].json()) == {"error", "path", "errors"}
    assert 0 < int(answers[-1]["Retry-After"]) <= 600
    assert limits.count(limits.GUESSES, "127.0.0.1") == 2


@pytest.mark.both_databases
@pytest.mark.parametrize("kind", API_KINDS)
def test_over_the_guess_limit_every_kind_of_token_is_refused_right_or_wrong(
    calls, client, settings, kind
):
    api = APIClient()
    assert calls[kind][0].made(api).status_code < 400
    for _ in range(settings.GUESS_LIMIT):  # counted anywhere: say, wrong links to pages
        client.get(f"/g/{WRONG}/")

    for call in calls[kind]:
        refused = call.made(api)
        assert refused.status_code == 429
        assert refused.json()["error"].startswith("Too many wrong table links from here.")
        assert 0 < int(refused["Retry-After"]) <= 600


@pytest.mark.both_databases
def test_a_request_with_no_organiser_token_is_not_a_guess(table, settings):
    settings.GUESS_LIMIT = 1
    api = APIClient()
    for _ in range(3):
        assert api.post(f"{API}/sessions/{table.token}/lock/", {"locked": True}).status_code == 403
    assert api.get(f"{API}/sessions/{table.token}/").status_code == 200


def _long_session(hands: int) -> dict:
    hand = {"results": {"A": {"pips": 2}, "B": {"pips": 3}}}
    return {"game": "jie-long", "seating": ["A", "B"], "first": "A", "hands": [hand] * hands}


def test_one_request_scores_at_most_2000_hands(db, settings):
    api = APIClient()
    too_many = api.post("/api/v1/score", _long_session(2001), format="json")
    most = api.post("/api/v1/score", _long_session(2000), format="json")

    assert too_many.status_code == 400
    assert too_many.json()["path"] == "hands"
    assert "at most 2000 hands" in too_many.json()["error"]
    assert most.status_code == 200 and len(most.json()["hands"]) == 2000


@pytest.mark.both_databases
def test_large_requests_cost_more_of_the_write_limit_and_another_address_is_served(db, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "writes": "30/min",
        },
    }
    api = APIClient()
    # Each costs 1 + 1,000 / 100 = 11 writes: the third goes past 30.
    statuses = [
        api.post(
            "/api/v1/score", _long_session(1000), format="json", REMOTE_ADDR="192.0.2.7"
        ).status_code
        for _ in range(3)
    ]
    other = api.post("/api/v1/score", _long_session(10), format="json", REMOTE_ADDR="192.0.2.8")

    assert statuses == [200, 200, 429]
    assert other.status_code == 200


def test_a_table_keeps_at_most_its_ceiling_of_hands(db, settings, ce_deng):
    settings.MOST_HANDS_PER_TABLE = 2
    api = APIClient()
    url = f"/api/v1/sessions/{ce_deng.token}/hands/"
    answers = [
        api.post(url, {"number": n, "hand": plain_hand()}, format="json",
                 HTTP_IDEMPOTENCY_KEY=f"key-{n:08}").status_code
        for n in (1, 2, 3)
    ]  # fmt: skip
    assert answers == [201, 201, 400]
    assert ce_deng.hands.count() == 2
