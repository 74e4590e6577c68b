"""The tournament pages, through Django's test client: set up, register, seat, play, results."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from ledger.events import services
from ledger.models import Entry, Event, Round
from tests.events.test_events import TWELVE, play


@pytest.fixture
def organiser(client, db):
    response = client.post(
        reverse("event_new"),
        {"name": "Club night", "game": "jie-long", "rounds": "3", "hands_per_round": "2",
         "method": "mixing", "stake": "0.50"},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    return client, Event.objects.get()


def _csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text)))


def test_a_tournament_from_set_up_to_results(organiser, client):
    _, event = organiser
    organise = reverse("event_organise", args=[event.token])
    assert event.options == {"stake": "0.50"} and event.hands_per_round == 2
    # Half register themselves through the link, the organiser registers the rest.
    for name in TWELVE[:6]:
        page = client.post(reverse("event_register", args=[event.register_token]), {"name": name})
        assert 'id="registered"' in page.content.decode()
    for name in TWELVE[6:]:
        assert (
            client.post(reverse("event_add", args=[event.token]), {"name": name}).status_code == 302
        )

    for number in (1, 2, 3):
        seat = reverse("event_seat", args=[event.token])
        begin = reverse("event_begin", args=[event.token, number])
        assert client.post(seat, {"confirm": "1"}).status_code == 302
        assert client.post(begin, {"confirm": "1"}).status_code == 302
        played = Round.objects.get(event=event, number=number)
        for table in played.tables.all():
            play(table, 2, 12, 34, 18)
            play(table, 12, 2, 18, 34)

    page = client.get(organise).content.decode()
    assert page.count("finished") >= 9  # every table of every round played its 2 hands
    assert 'id="seat"' not in page  # all 3 rounds seated

    results = client.get(reverse("event_results", args=[event.read_token])).content.decode()
    assert results.count("/players/") == 12  # a row per player, each opening their rounds
    leader = Event.objects.get().entries.first().player.name
    rounds = client.get(reverse("event_player", args=[event.read_token, leader])).content.decode()
    assert rounds.count("/s/") == 3  # each round's table, read-only
    assert client.get(reverse("event_player", args=[event.read_token, "Nobody"])).status_code == 404
    standings = _csv(client.get(reverse("event_export", args=[event.read_token, "standings"])))
    assert standings[0][:3] == ["Place", "Name", "Net"]  # as a person reads it
    assert len(standings) == 13 and sum(float(row[2]) for row in standings[1:]) == 0
    settlements = _csv(client.get(reverse("event_export", args=[event.read_token, "settlements"])))
    assert settlements[0] == [
        "Round",
        "Table",
        "Hand",
        "From",
        "To",
        "Amount",
        "Multiplier",
        "Reason",
    ]
    assert {row[0] for row in settlements[1:]} == {"1", "2", "3"}
    projector = client.get(
        reverse("event_projector", args=[event.read_token]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "<html" not in projector and 'id="standings"' in projector


def test_a_bad_event_is_refused_beside_the_field(client, db):
    response = client.post(
        reverse("event_new"),
        {"name": "X", "game": "jie-long", "rounds": "2", "method": "mixing", "stake": "-1"},
    )

    assert response.status_code == 400
    assert "expected an amount from 0 (points only)" in response.content.decode()
    assert not Event.objects.exists()


def test_table_cards_show_each_tables_players_and_qr_code(organiser):
    client, event = organiser
    for name in TWELVE:
        services.entry_add(event=event, name=name, organiser=True)
    services.round_seat(event=event)

    page = client.get(reverse("event_cards", args=[event.token, 1])).content.decode()

    assert page.count('class="card"') == 3 and page.count("/qr.svg") == 3


def test_swapping_and_refusals_are_shown_on_the_organisers_page(organiser):
    client, event = organiser
    for name in TWELVE:
        services.entry_add(event=event, name=name, organiser=True)
    client.post(reverse("event_seat", args=[event.token]), {"confirm": "1"})

    refused = client.post(
        reverse("event_swap", args=[event.token, 1]), {"first": "Nobody", "second": TWELVE[0]}
    )
    assert refused.status_code == 400 and 'id="error"' in refused.content.decode()
    assert (
        client.post(reverse("event_seat", args=[event.token])).status_code == 400
    )  # round 1 not begun


def test_an_empty_name_is_refused_at_registration(organiser, client):
    _, event = organiser

    response = client.post(reverse("event_register", args=[event.register_token]), {"name": "  "})

    assert response.status_code == 400 and not Entry.objects.exists()


@pytest.mark.parametrize("name", ["event_organise", "event_register", "event_results"])
def test_each_event_link_opens_only_its_own_page(organiser, client, name):
    _, event = organiser
    tokens = {"event_organise": event.token, "event_register": event.register_token,
              "event_results": event.read_token}  # fmt: skip
    assert client.get(reverse(name, args=[tokens[name]])).status_code == 200
    for other in set(tokens.values()) - {tokens[name]}:
        assert client.get(reverse(name, args=[other])).status_code == 404


def test_the_organisers_page_speaks_chinese(organiser):
    client, event = organiser
    organise = reverse("event_organise", args=[event.token])
    client.post(reverse("set_language"), {"language": "zh-hans", "next": organise})

    page = client.get(organise).content.decode()

    assert '<html lang="zh-hans">' in page
    assert "排下一轮座位" in page and "选手" in page and "报名" in page


def test_the_new_event_form_refuses_a_name_that_reads_backwards_and_stores_nothing(client, db):
    form = {"name": "A\u202eBC", "game": "jie-long", "rounds": "2", "method": "mixing"}
    response = client.post(reverse("event_new"), form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "invisible or control characters" in response.content.decode()
    assert not Event.objects.exists()
