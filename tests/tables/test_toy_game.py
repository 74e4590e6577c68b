"""A game registered in scoring works in every part of the ledger with no change to the ledger:
the new-table and new-event forms, the hand form, the API, the exports and the migrations."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from ledger.models import Hand, TableSession

SEATING = ["Anna", "Bob", "Celine"]


def test_the_new_table_form_offers_a_registered_game_and_starts_a_table_of_it(client, db, toy):
    page = client.get(reverse("session_new")).content.decode()
    assert 'value="toy"' in page and "Toy 玩具" in page

    post = {"game": "toy", "first": "0", "stake": "2"}
    post |= {f"player_{i}": name for i, name in enumerate(SEATING)}
    response = client.post(reverse("session_new"), post)

    table = TableSession.objects.get()
    assert response.status_code == 302
    assert (table.game, table.seating, table.options) == ("toy", SEATING, {"stake": "2"})


def test_the_new_event_form_offers_a_registered_game(client, db, toy):
    page = client.get(reverse("event_new")).content.decode()

    assert '<option value="toy">Toy 玩具</option>' in page


@pytest.fixture
def table(client, db, toy) -> TableSession:
    post = {"game": "toy", "first": "0"} | {f"player_{i}": n for i, n in enumerate(SEATING)}
    client.post(reverse("session_new"), post)
    return TableSession.objects.get()


def test_the_table_page_asks_for_the_game_s_results_and_records_a_hand(client, table):
    page = client.get(reverse("table", args=[table.token])).content.decode()
    assert 'name="pips-2"' in page and 'name="large-0"' not in page
    assert 'value="pass"' in page and "pass 通" in page

    post = {"number": "1", "first": "Anna", "direction": "ccw", "action": "save"}
    post |= {"pips-0": "12", "pips-1": "0", "specials-1": "pass", "pips-2": "20"}
    response = client.post(reverse("table", args=[table.token]), post)

    assert response.status_code == 302
    hand = Hand.objects.get(session=table)
    assert hand.named["results"]["Bob"] == {"pips": 0, "specials": ["pass"]}


def test_the_api_lists_the_game_starts_a_table_of_it_and_records_a_hand(db, toy):
    api = APIClient()
    games = {game["key"]: game for game in api.get("/api/v1/games/").json()}
    assert games["toy"] == {
        "key": "toy",
        "title": "Toy",
        "players": [2, 3],
        "options": ["hands", "next_first", "play_to", "stake"],
    }

    created = api.post("/api/v1/sessions/", {"game": "toy", "seating": SEATING}, format="json")
    assert created.status_code == 201, created.json()
    token = created.json()["token"]
    hand = {"results": {"Anna": {"pips": 12}, "Bob": {"pips": 2}, "Celine": {"pips": 20}}}
    recorded = api.post(
        f"/api/v1/sessions/{token}/hands/",
        {"number": 1, "hand": hand},
        format="json",
        HTTP_IDEMPOTENCY_KEY="toy-hand-1",
    )

    assert recorded.status_code == 201, recorded.json()
    assert recorded.json()["result"]["net"] == {"Anna": "-1.00", "Bob": "2.00", "Celine": "-1.00"}


def test_the_hands_export_holds_a_hand_of_the_game(client, table):
    post = {"number": "1", "first": "Anna", "direction": "ccw", "action": "save"}
    post |= {"pips-0": "12", "pips-1": "2", "pips-2": "20"}
    client.post(reverse("table", args=[table.token]), post)

    response = client.get(f"/api/v1/sessions/{table.token}/export/hands.csv")  # by its keys
    body = b"".join(response.streaming_content).decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(body)))

    assert [(row["player"], row["score"], row["rank"]) for row in rows] == [
        ("Anna", "12", "2"),
        ("Bob", "2", "1"),
        ("Celine", "20", "3"),
    ]


def test_a_registered_game_needs_no_migration(db, toy):
    out = io.StringIO()
    call_command("makemigrations", "ledger", check=True, dry_run=True, stdout=out)

    assert "No changes detected" in out.getvalue()
