"""Tournaments through the API: the same services as the web pages."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from ledger.events import services
from ledger.models import Entry, Event, Group, Player
from ledger.web import limits
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
    assert results["standings"][0]["net"] == "29.00"  # (10 + 32 + 16) x 0.50
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


@pytest.fixture
def teahouse(db) -> Group:
    group = Group.objects.create(name="Thursday teahouse", game="jie-long")
    for name in ["Anna", "Bob", "Celine"]:
        Player.for_name(name, group=group)
    return group


def _event_rows() -> tuple:
    return sorted(Entry.objects.values_list("player__name", "active")), Player.objects.count()


def test_a_groups_players_are_registered_in_one_request(api, event, teahouse):
    services.entry_add(event=Event.objects.get(), name="anna", organiser=True)
    url = f"{API}/events/{event['token']}/entries/"

    response = api.post(url, {"group": teahouse.token}, format="json")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["added"] == ["Bob", "Celine"] and body["already_registered"] == ["anna"]
    assert sorted(row["name"] for row in body["standings"]) == ["Bob", "Celine", "anna"]
    again = api.post(url, {"group": teahouse.token}, format="json").json()
    assert again["added"] == [] and again["already_registered"] == ["anna", "Bob", "Celine"]
    assert Player.objects.filter(group=teahouse).count() == 3  # the group's rows stay its own


def test_registering_one_name_answers_as_before_without_the_groups_lists(api, event):
    response = api.post(f"{API}/events/{event['token']}/entries/", {"name": "Anna"}, format="json")

    assert response.status_code == 200 and "added" not in response.json()


@pytest.mark.parametrize(
    ("body", "path", "message"),
    [
        ({"group": "NoSuchGroup0123456789"}, "group", "no group has this token"),
        ({"group": "not/a token"}, "group", ""),
        ({"group": 7}, "group", ""),
        ({"group": "{teahouse}", "name": "Zoe"}, "", "one of the two"),
        ({}, "", "one of the two"),
    ],
)
def test_an_unknown_group_or_a_body_naming_both_or_neither_is_a_400_and_stores_nothing(
    api, event, teahouse, body, path, message
):
    before = _event_rows()
    sent = {key: value.format(teahouse=teahouse.token) if isinstance(value, str) else value
            for key, value in body.items()}  # fmt: skip

    response = api.post(f"{API}/events/{event['token']}/entries/", sent, format="json")

    assert response.status_code == 400
    assert set(response.json()) == {"error", "path", "errors"}
    assert response.json()["path"] == path and message in response.json()["error"]
    assert _event_rows() == before


def test_an_unknown_group_counts_as_a_guess(api, event):
    api.post(f"{API}/events/{event['token']}/entries/", {"group": "NoSuchGroup"}, format="json")

    assert limits.count(limits.GUESSES, "127.0.0.1") == 1


def test_an_empty_group_is_refused_with_a_message(api, event):
    empty = Group.objects.create(name="New friends", game="jie-long")

    response = api.post(
        f"{API}/events/{event['token']}/entries/", {"group": empty.token}, format="json"
    )

    assert response.status_code == 400 and "no players yet" in response.json()["error"]
    assert not Entry.objects.exists()
