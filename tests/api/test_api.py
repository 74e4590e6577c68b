"""/api/v1/: the same ledger as the web pages, as JSON, through the same services."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from ledger.models import Hand, HandChange, TableSession
from ledger.tables import selectors, services
from tests.scoring.test_examples import REPO, assert_gives, example_names, load
from tests.tables.conftest import SEATING, plain_hand

# both_databases on the tests where a unique constraint or the hand's version decides what is
# stored (a retry by its key, a second phone, a key reused, a stale correction) and on the
# standings the result rows sum. The stateless score endpoint, the refusals and the schema run
# once.

API = "/api/v1"


def hand(**pips: int) -> dict:
    return plain_hand(**pips)


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def record(api: APIClient, token: str, number: int, key: str, data: dict | None = None):
    body = {"number": number, "hand": data or hand(), "device": "scoreboard"}
    return api.post(f"{API}/sessions/{token}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


# -- the stateless score endpoint ------------------------------------------------------------


@pytest.mark.parametrize("name", example_names())
def test_score_gives_each_shared_example_and_stores_nothing(api, db, name):
    text, expected = load(name)

    response = api.post(f"{API}/score", json.loads(text), format="json")

    assert response.status_code == 200
    assert_gives(expected, response.json())
    assert not TableSession.objects.exists()


@pytest.mark.parametrize(
    "document",
    [
        {"game": "jie-long", "seating": ["A", "B"], "hands": [{"results": {"A": {"pips": -1}}}]},
        {"game": "mahjong", "seating": ["A", "B"]},
        {"game": "ding-niu", "seating": ["A", "B", "C"]},
        ["not", "an", "object"],
    ],
)
def test_score_refuses_with_the_error_object_of_the_command_line(api, db, document):
    cli = subprocess.run(
        [sys.executable, "-m", "scoring"],
        input=json.dumps(document).encode(),
        capture_output=True,
        cwd=REPO,
        check=False,
    )

    response = api.post(f"{API}/score", document, format="json")

    assert cli.returncode == 2
    assert response.status_code == 400
    assert response.json() == json.loads(cli.stderr)


def test_score_refuses_broken_json_with_an_error_object(api, db):
    response = api.post(f"{API}/score", "{not json", content_type="application/json")

    assert response.status_code == 400
    assert set(response.json()) == {"error", "path", "errors"}
    assert "JSON" in response.json()["error"]


# -- sessions --------------------------------------------------------------------------------


def test_starting_a_table_gives_its_tokens_and_what_comes_next(api, db):
    body = {"game": "ce-deng", "options": {"stake": "0.50"}, "seating": SEATING}

    response = api.post(f"{API}/sessions/", body, format="json")

    assert response.status_code == 201
    out = response.json()
    session = TableSession.objects.get()
    assert out["token"] == session.token and out["organiser_token"] == session.organiser_token
    assert out["url"] == f"http://testserver/t/{session.token}/"
    assert out["next"] == {"number": 1, "first": "Anna", "direction": "ccw"}
    assert session.options == {"stake": "0.50"}  # kept exact, as sent
    assert session.owner is None


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"game": "ce-deng", "seating": ["Anna", "anna", "Bob", "Cy"]}, "seating[1]"),
        ({"game": "ce-deng", "seating": SEATING, "options": {"stake": -1}}, "options.stake"),
        ({"game": "ding-niu", "seating": SEATING, "options": {"stake": 1}}, "options.stake"),
        # A chip belongs to payment "chips" there (rules rev 4): no longer silently ignored.
        ({"game": "ce-deng", "seating": SEATING, "options": {"chip": "0.50"}}, "options.chip"),
        (
            {"game": "ce-deng", "seating": SEATING, "options": {"payment": "each"}},
            "options.payment",
        ),
        ({"game": "ce-deng", "seating": SEATING, "first": "Zed"}, "first"),
        ({"game": "go", "seating": SEATING}, "game"),
        ({"game": "ce-deng"}, "seating"),
        ({"game": "ce-deng", "seating": SEATING, "options": [1]}, "options"),
    ],
)
def test_a_table_that_cannot_be_is_refused_with_where_and_nothing_is_stored(api, db, body, path):
    response = api.post(f"{API}/sessions/", body, format="json")

    assert response.status_code == 400
    assert response.json()["path"] == path, response.json()
    assert response.json()["error"]
    assert not TableSession.objects.exists()


def test_an_organiser_account_gets_a_token_and_owns_the_tables_it_starts(api, db):
    User.objects.create_user("org", password="a long password")
    token = api.post(
        f"{API}/auth/token/", {"username": "org", "password": "a long password"}, format="json"
    ).json()["token"]
    wrong = api.post(f"{API}/auth/token/", {"username": "org", "password": "x"}, format="json")
    services.session_create(game="jie-long", options={}, seating=["X", "Y"], first="X")

    api.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    created = api.post(
        f"{API}/sessions/", {"game": "jie-long", "seating": ["A", "B"]}, format="json"
    )
    mine = api.get(f"{API}/sessions/")

    assert wrong.status_code == 401 and set(wrong.json()) == {"error", "path", "errors"}
    assert TableSession.objects.get(token=created.json()["token"]).owner.username == "org"
    assert [t["token"] for t in mine.json()] == [created.json()["token"]]
    api.credentials()
    assert api.get(f"{API}/sessions/").status_code == 401
    api.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    assert api.get(f"{API}/sessions/").status_code == 401


@pytest.mark.both_databases
def test_the_table_shows_standings_and_settle_up(api, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=hand())

    out = api.get(f"{API}/sessions/{ce_deng.token}/").json()

    assert out["hands"] == 1 and out["revision"] == 1
    assert [row["name"] for row in out["standings"]] == SEATING
    assert sum(Decimal(row["net"]) for row in out["standings"]) == 0
    assert out["settle_up"] and {"from", "to", "amount"} == set(out["settle_up"][0])


def test_the_read_only_token_shows_the_table_without_its_join_token(api, ce_deng):
    out = api.get(f"{API}/shared/{ce_deng.read_token}/")

    assert out.status_code == 200
    assert ce_deng.token not in json.dumps(out.json())
    assert api.get(f"{API}/sessions/{ce_deng.read_token}/").status_code == 404
    assert api.get(f"{API}/shared/{ce_deng.token}/").status_code == 404


# -- hands -----------------------------------------------------------------------------------


@pytest.mark.both_databases
def test_a_hand_is_recorded_once_and_a_retry_gets_the_same_answer(api, ce_deng):
    first = record(api, ce_deng.token, 1, "key-00000001")
    retry = record(api, ce_deng.token, 1, "key-00000001")

    assert first.status_code == 201 and retry.status_code == 200
    assert first.json() == retry.json()
    net = {"Anna": "58.00", "Bob": "18.00", "Celine": "-70.00", "Dominic": "-6.00"}
    assert first.json()["result"]["net"] == net
    assert Hand.objects.count() == 1 and HandChange.objects.count() == 1
    assert Hand.objects.get().device == "scoreboard"


@pytest.mark.both_databases
def test_another_phone_recording_the_same_hand_is_shown_the_first(api, ce_deng):
    record(api, ce_deng.token, 1, "key-00000001")

    second = record(api, ce_deng.token, 1, "key-00000002", hand(Bob=14))

    assert second.status_code == 409
    assert second.json()["path"] == "number"
    assert second.json()["hand"]["hand"]["results"]["Bob"] == {"pips": 12}
    assert Hand.objects.count() == 1


@pytest.mark.both_databases
def test_a_key_used_for_another_hand_is_refused(api, ce_deng):
    record(api, ce_deng.token, 1, "key-00000001")

    reused = record(api, ce_deng.token, 2, "key-00000001")

    assert reused.status_code == 422
    assert reused.json()["path"] == "Idempotency-Key"
    assert Hand.objects.count() == 1


@pytest.mark.parametrize("key", [None, "short", "x" * 65, "spaces are bad"])
def test_a_hand_needs_a_good_idempotency_key(api, ce_deng, key):
    body = {"number": 1, "hand": hand()}
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}

    response = api.post(f"{API}/sessions/{ce_deng.token}/hands/", body, format="json", **headers)

    assert response.status_code == 400
    assert response.json()["path"] == "Idempotency-Key"
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"number": 1, "hand": hand(Bob=-3)}, "hand.results.Bob.pips"),
        ({"number": 1, "hand": {"results": {"Zed": {"pips": 3}}}}, "hand.results.Zed"),
        ({"number": 1, "hand": "twelve"}, "hand"),
        ({"number": 0, "hand": hand()}, "number"),
        ({"hand": hand()}, "number"),
        ({"number": 1}, "hand"),
    ],
)
def test_a_bad_hand_is_refused_with_where_and_nothing_is_stored(api, ce_deng, body, path):
    response = api.post(
        f"{API}/sessions/{ce_deng.token}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k" * 8
    )

    assert response.status_code == 400
    assert response.json()["path"] == path, response.json()
    assert not Hand.objects.exists()


def test_hands_list_each_hand_with_what_it_settled(api, ce_deng):
    record(api, ce_deng.token, 1, "key-00000001")
    record(api, ce_deng.token, 2, "key-00000002", hand(first="Anna", Anna=40))

    hands = api.get(f"{API}/sessions/{ce_deng.token}/hands/").json()
    one = api.get(f"{API}/sessions/{ce_deng.token}/hands/2/").json()

    assert [h["number"] for h in hands] == [1, 2]
    assert one == hands[1]
    assert one["result"]["ranking"][0] == "Bob"
    assert api.get(f"{API}/sessions/{ce_deng.token}/hands/3/").status_code == 404


@pytest.mark.both_databases
def test_a_correction_needs_the_current_version(api, ce_deng):
    record(api, ce_deng.token, 1, "key-00000001")
    url = f"{API}/sessions/{ce_deng.token}/hands/1/"

    fixed = api.put(url, {"hand": hand(Bob=14), "version": 1}, format="json")
    stale = api.put(url, {"hand": hand(Bob=16), "version": 1}, format="json")
    invalid = api.put(url, {"hand": hand(Bob=-1), "version": 2}, format="json")

    assert fixed.status_code == 200 and fixed.json()["version"] == 2
    assert stale.status_code == 409 and stale.json()["hand"]["hand"]["results"]["Bob"]["pips"] == 14
    assert invalid.status_code == 400 and invalid.json()["path"] == "hand.results.Bob.pips"
    assert Hand.objects.get().named["results"]["Bob"] == {"pips": 14}
    history = api.get(f"{API}/sessions/{ce_deng.token}/history/").json()
    assert [change["kind"] for change in history] == ["record", "correct"]


def test_only_the_organiser_voids_a_hand_or_locks_the_table(api, ce_deng):
    record(api, ce_deng.token, 1, "key-00000001")
    void = f"{API}/sessions/{ce_deng.token}/hands/1/void/"
    lock = f"{API}/sessions/{ce_deng.token}/lock/"

    assert api.post(void, {"version": 1}, format="json").status_code == 403
    assert api.post(lock, {"locked": True}, format="json").status_code == 403
    api.credentials(HTTP_X_ORGANISER_TOKEN=ce_deng.organiser_token)
    voided = api.post(void, {"version": 1}, format="json")
    locked = api.post(lock, {"locked": True}, format="json")

    assert voided.status_code == 200 and voided.json()["voided"] and voided.json()["result"] is None
    assert locked.status_code == 200 and locked.json()["locked"]
    refused = record(api, ce_deng.token, 2, "key-00000002")
    assert refused.status_code == 423 and set(refused.json()) == {"error", "path", "errors"}
    assert Hand.objects.count() == 1


def test_the_exports_are_the_web_pages_exports_by_their_keys(api, client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=hand())
    for kind in ("hands", "payments", "settle-up", "totals"):
        response = api.get(f"{API}/sessions/{ce_deng.token}/export/{kind}.csv")
        web = client.get(f"/t/{ce_deng.token}/export/{kind}.csv")

        assert response.status_code == 200
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        machine = b"".join(response.streaming_content).decode().splitlines()
        person = b"".join(web.streaming_content).decode().splitlines()
        assert machine[0] != person[0] and machine[0].lstrip("\ufeff").islower()  # keys
        assert len(machine) == len(person)
        if kind != "hands":  # a hand's direction and specials are words on the page
            assert machine[1:] == person[1:]
    assert api.get(f"{API}/sessions/{ce_deng.token}/export/all.csv").status_code == 404


def test_games_and_players(api, ce_deng):
    games = api.get(f"{API}/games/").json()

    assert {g["key"] for g in games} >= {"jie-long", "ce-deng", "tiu-yu"}
    assert next(g for g in games if g["key"] == "ding-niu")["players"] == [4]
    # Names are not published: only an organiser account gets its own tables' (test_players.py).
    assert api.get(f"{API}/players/").status_code == 401


# -- the schema and its docs -----------------------------------------------------------------


def test_the_schema_is_valid_openapi_3_with_examples_for_score(api, db):
    from drf_spectacular.validation import validate_schema

    response = api.get(f"{API}/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)

    validate_schema(schema)
    assert schema["openapi"].startswith("3.")
    examples = schema["paths"]["/api/v1/score"]["post"]["requestBody"]["content"][
        "application/json"
    ]["examples"]
    assert len(examples) >= 2


def test_the_docs_are_served_from_our_own_static_files(client, db):
    page = client.get(f"{API}/docs/").content.decode()

    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "https://" not in page and "http://" not in page.replace("http://testserver", "")


@pytest.mark.parametrize(
    ("path", "body", "where"),
    [
        ("lock/", {"locked": 0}, "locked"),
        ("lock/", {"locked": "true"}, "locked"),
        ("hands/", {"number": "1", "hand": hand()}, "number"),
        ("hands/", {"number": 1.0, "hand": hand()}, "number"),
        ("hands/", {"number": 1, "hand": hand(), "device": 7}, "device"),
        ("hands/1/", {"hand": hand(), "version": True}, "version"),
    ],
)
def test_json_types_are_held_to_the_schema(api, ce_deng, path, body, where):
    services.hand_record(session=ce_deng, number=1, data=hand())
    api.credentials(HTTP_X_ORGANISER_TOKEN=ce_deng.organiser_token, HTTP_IDEMPOTENCY_KEY="k" * 8)
    send = api.put if path == "hands/1/" else api.post

    response = send(f"{API}/sessions/{ce_deng.token}/{path}", body, format="json")

    assert response.status_code == 400
    assert response.json()["path"] == where
    ce_deng.refresh_from_db()
    assert ce_deng.revision == 1  # nothing changed


def test_unknown_api_urls_answer_with_the_error_object(api, db):
    response = api.get(f"{API}/sessions/abc/hands/not-a-number/")

    assert response.status_code == 404
    assert response.json()["error"] == "Not found." and response.json()["path"] == ""
    assert "<html" in APIClient().get("/no/such/page/").content.decode().lower()


def test_an_error_in_a_later_hand_points_into_that_hand_not_its_place_in_the_table(api, ce_deng):
    record(api, ce_deng.token, 1, "key-00000001")
    record(api, ce_deng.token, 2, "key-00000002", hand(first="Anna", Anna=40))

    response = record(api, ce_deng.token, 3, "key-00000003", hand(Bob=-3))

    assert response.status_code == 400
    assert response.json()["path"] == "hand.results.Bob.pips"
    assert [problem["path"] for problem in response.json()["errors"]] == ["hand.results.Bob.pips"]


@pytest.mark.parametrize("typed", ["١٢", "12 ", 12.0, "12"])
def test_a_score_is_stored_and_echoed_as_the_whole_number_it_was_read_as(api, ce_deng, typed):
    response = record(api, ce_deng.token, 1, "key-00000001", hand(Bob=typed))

    assert response.status_code == 201, response.json()
    assert response.json()["hand"]["results"]["Bob"]["pips"] == 12
    assert Hand.objects.get().named["results"]["Bob"]["pips"] == 12
    assert selectors.changes(ce_deng)[0].after["results"]["Bob"]["pips"] == 12


def test_a_tables_hands_and_history_come_a_hundred_a_page_with_links(api, ce_deng):
    for number in range(1, 106):
        services.hand_record(session=ce_deng, number=number, data=plain_hand())
    url = f"{API}/sessions/{ce_deng.token}/hands/"

    first = api.get(url)
    second = api.get(first["Link"].split(";")[0].strip("<>"))

    assert [h["number"] for h in first.json()] == list(range(1, 101))
    assert first["X-Total-Count"] == "105" and 'rel="next"' in first["Link"]
    assert [h["number"] for h in second.json()] == list(range(101, 106))
    assert 'rel="prev"' in second["Link"] and 'rel="next"' not in second["Link"]
    history = api.get(f"{API}/sessions/{ce_deng.token}/history/", {"page": 2})
    assert len(history.json()) == 5 and history["X-Total-Count"] == "105"
