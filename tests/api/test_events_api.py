"""Tournaments through the API: the same services as the web pages."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ledger.events import services
from ledger.models import Event
from tests.events.test_events import TWELVE, play

API = "/api/v1"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def event(api, db) -> dict:
    body = {"name": "Club night", "game": "jie-long", "options": {"stake": "0.50"}, "rounds": 2,
            "minutes_per_round": 30, "tie_breakers": ["fewest_points"]}  # fmt: skip
    response = api.post(f"{API}/events/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_an_event_from_set_up_to_standings(api, event):
    token = event["token"]
    assert event["tie_breakers"] == ["fewest_points"] and event["options"] == {"stake": "0.50"}
    for name in TWELVE[:6]:
        answer = api.post(
            f"{API}/register/{event['register_token']}/", {"name": name}, format="json"
        )
        assert answer.status_code == 201 and "token" not in answer.json()
    for name in TWELVE[6:]:
        assert (
            api.post(f"{API}/events/{token}/entries/", {"name": name}, format="json").status_code
            == 200
        )

    seated = api.post(f"{API}/events/{token}/rounds/")
    swapped = api.post(
        f"{API}/events/{token}/rounds/1/swap/",
        {"first": TWELVE[0], "second": TWELVE[1]},
        format="json",
    )
    begun = api.post(f"{API}/events/{token}/rounds/1/begin/")

    assert seated.status_code == 201 and swapped.status_code == 200 and begun.status_code == 200
    round_one = begun.json()["played"][0]
    assert round_one["started"] and round_one["ends"] and len(round_one["tables"]) == 3
    table = Event.objects.get().round_set.get().tables.get(token=round_one["tables"][0]["token"])
    play(table, 2, 12, 34, 18)

    results = api.get(f"{API}/results/{event['read_token']}/").json()
    assert results["standings"][0]["net"] == 29  # (10 + 32 + 16) x 0.50
    assert "token" not in results["played"][0]["tables"][0]  # read-only: no join tokens
    standings = api.get(f"{API}/results/{event['read_token']}/standings.csv")
    assert standings.status_code == 200
    assert b"".join(standings.streaming_content).decode("utf-8-sig").startswith("place,name,net")


@pytest.mark.parametrize(
    ("path", "body", "status"),
    [
        ("rounds/1/begin/", None, 404),  # no round 1 yet
        ("rounds/1/swap/", {"first": "A", "second": "B"}, 404),
        ("entries/", {"name": ""}, 400),
        ("entries/", {"name": 7}, 400),
    ],
)
def test_event_writes_refuse_clearly(api, event, path, body, status):
    response = api.post(f"{API}/events/{event['token']}/{path}", body, format="json")

    assert response.status_code == status
    assert set(response.json()) == {"error", "path", "errors"}


def test_seating_before_the_last_round_began_is_a_conflict(api, event):
    for name in TWELVE:
        services.entry_add(event=Event.objects.get(), name=name, organiser=True)
    api.post(f"{API}/events/{event['token']}/rounds/")

    again = api.post(f"{API}/events/{event['token']}/rounds/")

    assert again.status_code == 409 and "begun" in again.json()["error"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "events/{read_token}/"),
        ("get", "events/{register_token}/"),
        ("post", "events/{read_token}/rounds/"),
        ("post", "events/{register_token}/entries/"),
        ("post", "register/{token}/"),
        ("post", "register/{read_token}/"),
        ("get", "results/{token}/"),
        ("get", "results/{register_token}/"),
    ],
)
def test_each_event_token_opens_only_its_own_endpoints(api, event, method, path):
    url = f"{API}/" + path.format(**event)

    response = getattr(api, method)(url, {"name": "Guess"}, format="json")

    assert response.status_code == 404
    assert not Event.objects.get().entries.exists()


def test_a_bad_event_is_refused_with_where(api, db):
    body = {"name": "X", "game": "ding-niu", "options": {"stake": 1}, "rounds": 2}

    response = api.post(f"{API}/events/", body, format="json")

    assert response.status_code == 400 and response.json()["path"] == "options.stake"
    assert not Event.objects.exists()


@pytest.mark.parametrize("name", ["A\u202eBC", "Club\u200bnight", "Club\x07night"])
def test_an_event_name_with_hidden_characters_is_refused_as_a_players_would_be(api, db, name):
    body = {"name": name, "game": "jie-long", "rounds": 2}
    response = api.post(f"{API}/events/", body, format="json")
    assert response.status_code == 400
    assert response.json()["path"] == "name"
    assert "invisible or control characters" in response.json()["error"]
    assert not Event.objects.exists()
