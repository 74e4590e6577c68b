"""A table that plays to a target, or for points only: the page shows what is left, announces the
end, takes no hand after it, and its organiser can raise the target to play on."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Hand, TableSession
from ledger.tables import selectors, services
from tests.tables.conftest import SEATING, form_post

DIRECTIONS = ("ccw", "cw", "ccw", "cw")  # Ce Deng alternates; Anna (2) wins every hand


@pytest.fixture
def to_60(db) -> TableSession:
    """Ce Deng for points only, to 60: Celine's 34 a hand reach it in hand 2."""
    return services.session_create(
        game="ce-deng", options={"stake": "0", "play_to": "60"}, seating=SEATING, first="Anna"
    )


@pytest.fixture
def organiser(to_60) -> Client:
    client = Client()
    client.get(reverse("organise", args=[to_60.token, to_60.organiser_token]))
    return client


def record(client: Client, table: TableSession, number: int):
    return client.post(
        reverse("table", args=[table.token]), form_post(number, direction=DIRECTIONS[number - 1])
    )


def page(client: Client, table: TableSession) -> str:
    return client.get(reverse("table", args=[table.token])).content.decode()


def test_the_page_shows_the_target_and_who_is_nearest(client, to_60):
    assert record(client, to_60, 1).status_code == 302

    shown = page(client, to_60)
    assert "Celine 34 of 60" in shown
    assert "Anna is ahead." in shown and "The lowest total wins." in shown
    assert "Net</th>" not in shown  # points only: no money column
    assert 'id="record-form"' in shown


def test_the_game_ends_with_the_hand_that_reaches_the_target_and_takes_no_more(client, to_60):
    record(client, to_60, 1)
    record(client, to_60, 2)

    shown = page(client, to_60)
    assert "Game over: Anna wins." in shown and 'id="record-form"' not in shown
    refused = record(client, to_60, 3)
    assert refused.status_code == 400
    assert "the game is over: a total reached 60, and Anna won" in refused.content.decode()
    assert Hand.objects.count() == 2
    end = selectors.score_sheet(to_60).end
    assert end is not None and (end.over, end.winner) == (True, "Anna")


def test_saving_the_last_hand_says_so_at_once(client, to_60):
    record(client, to_60, 1)
    answer = client.post(
        reverse("table", args=[to_60.token]),
        form_post(2, direction="cw"),
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "Game over: Anna wins." in answer and 'id="record-form"' not in answer


def test_the_organiser_raises_the_target_to_play_on(organiser, client, to_60):
    record(client, to_60, 1)
    record(client, to_60, 2)

    assert 'id="ends-form"' in page(organiser, to_60) and 'id="ends-form"' not in page(
        client, to_60
    )
    ends = reverse("ends", args=[to_60.token])
    assert client.post(ends, {"play_to": "200"}).status_code == 403
    assert organiser.post(ends, {"play_to": "200", "hands": ""}).status_code == 302

    to_60.refresh_from_db()
    assert to_60.options == {"stake": "0", "play_to": "200"}
    assert "Celine 68 of 200" in page(client, to_60)
    assert record(client, to_60, 3).status_code == 302


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"play_to": "abc"}, "expected a whole number"),
        ({"play_to": "0"}, "expected a whole number from 1 to 100000, not"),
        ({"play_to": "30"}, "the game is over: a total reached 30, and Anna won"),
        ({"play_to": "", "hands": "1"}, "the game is over: all 1 hands were played"),
    ],
)
def test_an_end_before_the_hands_played_is_refused_and_nothing_changes(
    organiser, client, to_60, fields, message
):
    record(client, to_60, 1)
    record(client, to_60, 2)
    revision = TableSession.objects.get().revision

    refused = organiser.post(reverse("ends", args=[to_60.token]), fields)

    assert refused.status_code == 400 and message in refused.content.decode()
    table = TableSession.objects.get()
    assert table.options == {"stake": "0", "play_to": "60"} and table.revision == revision


def test_a_number_of_hands_counts_down(client, db):
    table = services.session_create(
        game="ce-deng", options={"hands": "3"}, seating=SEATING, first="Anna"
    )
    record(client, table, 1)
    assert "2 hands to go" in page(client, table)
    record(client, table, 2)
    assert "1 hand to go" in page(client, table)
    record(client, table, 3)
    assert "Game over: Anna wins." in page(client, table)
    assert record(client, table, 4).status_code == 400


def test_the_summary_of_a_points_only_table_shows_the_points_and_the_end(client, to_60):
    record(client, to_60, 1)
    record(client, to_60, 2)

    summary = client.get(reverse("summary", args=[to_60.token])).content.decode()
    assert "Game over: Anna wins." in summary
    assert "Points after each hand" in summary and "Settle up" not in summary
