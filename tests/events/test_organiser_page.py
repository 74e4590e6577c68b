"""The organiser's page, through Django's test client: every change that cannot be taken back
with a tap is asked first, the latest changes can be undone until a round begins, swaps and
drops are chosen from lists, the name box keeps the focus, and the links have QR codes; the
projector shows a screen of standings at a time; a table of a round names its event."""

from __future__ import annotations

import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from ledger.events import selectors, services
from ledger.models import Entry, Event, Round, TableSession
from ledger.web import display
from tests.events.test_events import TWELVE


@pytest.fixture
def organiser(client, event):
    """The browser that opened the event's organiser link."""
    client.get(reverse("event_organise", args=[event.token]))
    return client


def page(client, event) -> str:
    return client.get(reverse("event_organise", args=[event.token])).content.decode()


def stored(event: Event) -> tuple:
    """Everything an organiser's change could touch."""
    event.refresh_from_db()
    rounds = [(r.number, r.started, list(r.byes)) for r in Round.objects.filter(event=event)]
    tables = [(t.pk, t.seating, t.first) for t in TableSession.objects.filter(round__event=event)]
    entries = list(Entry.objects.filter(event=event).values_list("player__name", "active"))
    return rounds, tables, entries, event.undo


def seated(event: Event) -> list[TableSession]:
    return list(TableSession.objects.filter(round__event=event).order_by("table_number"))


def _seat(event):
    return reverse("event_seat", args=[event.token]), {}


def _begin(event):
    services.round_seat(event=event)
    return reverse("event_begin", args=[event.token, 1]), {}


def _drop(event):
    return reverse("event_drop", args=[event.token]), {"name": TWELVE[4]}


def _swap(event):
    services.round_seat(event=event)
    tables = seated(event)
    post = {"first": tables[0].seating[0], "second": tables[2].seating[1]}
    return reverse("event_swap", args=[event.token, 1]), post


ACTIONS = {
    "seat": (_seat, "Seat round 1?"),
    "begin": (_begin, "Begin round 1?"),
    "drop": (_drop, f"Drop {TWELVE[4]} out of the event?"),
    "swap": (_swap, "Swap "),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_each_change_is_asked_first_and_made_only_when_confirmed(organiser, event, action):
    make, question = ACTIONS[action]
    url, post = make(event)
    before = stored(event)

    asked = organiser.post(url, post)

    assert asked.status_code == 200 and stored(event) == before
    html = asked.content.decode()
    assert question in html
    assert f'action="{url}"' in html and '<input type="hidden" name="confirm" value="1">' in html
    for name, value in post.items():
        assert f'<input type="hidden" name="{name}" value="{value}">' in html
    assert reverse("event_organise", args=[event.token]) in html  # Cancel: back, nothing done

    done = organiser.post(url, {**post, "confirm": "1"})

    assert done.status_code == 302 and stored(event) != before


def test_the_organisers_page_offers_to_undo_the_latest_change(organiser, event):
    organiser.post(reverse("event_seat", args=[event.token]), {"confirm": "1"})
    tables = seated(event)
    first, second = tables[0].seating[0], tables[1].seating[0]
    before = [(t.seating, t.first) for t in tables]
    organiser.post(
        reverse("event_swap", args=[event.token, 1]),
        {"first": first, "second": second, "confirm": "1"},
    )

    html = page(organiser, event)
    assert f"{first} and {second} swapped places in round 1." in html
    assert '<input type="hidden" name="steps" value="2">' in html

    undone = organiser.post(reverse("event_undo", args=[event.token]), {"steps": "2"})

    assert undone.status_code == 302
    assert [(t.seating, t.first) for t in seated(event)] == before
    assert "Round 1 is seated." in page(organiser, event)
    organiser.post(reverse("event_undo", args=[event.token]), {"steps": "1"})
    assert not seated(event) and 'id="undo"' not in page(organiser, event)


def test_undo_after_the_round_began_is_refused_with_a_message(organiser, event):
    organiser.post(reverse("event_seat", args=[event.token]), {"confirm": "1"})
    organiser.post(reverse("event_begin", args=[event.token, 1]), {"confirm": "1"})
    assert 'id="undo"' not in page(organiser, event)
    before = stored(event)

    refused = organiser.post(reverse("event_undo", args=[event.token]), {"steps": "1"})

    assert refused.status_code == 400
    assert "Nothing to undo" in refused.content.decode() and stored(event) == before


def test_a_stale_undo_is_refused(organiser, event):
    organiser.post(reverse("event_seat", args=[event.token]), {"confirm": "1"})
    services.entry_drop(event=event, name=TWELVE[0])  # from another device
    before = stored(event)

    refused = organiser.post(reverse("event_undo", args=[event.token]), {"steps": "1"})

    assert refused.status_code == 400 and stored(event) == before
    assert "look again" in refused.content.decode()


def _swapping(event, pick):
    services.round_seat(event=event)
    return reverse("event_swap", args=[event.token, 1]), pick(seated(event))


BAD = {
    "drop nobody": (
        lambda e: (reverse("event_drop", args=[e.token]), {"name": "Nobody"}),
        "Nobody is not a player to choose here.",
    ),
    "drop twice": (
        lambda e: (
            services.entry_drop(event=e, name=TWELVE[1]),
            (reverse("event_drop", args=[e.token]), {"name": TWELVE[1]}),
        )[1],
        f"{TWELVE[1]} is not a player to choose here.",
    ),
    "drop, no name": (
        lambda e: (reverse("event_drop", args=[e.token]), {}),
        "Choose a player from the list.",
    ),
    "swap with oneself": (
        lambda e: _swapping(e, lambda t: {"first": t[0].seating[0], "second": t[0].seating[0]}),
        "Choose two different players.",
    ),
    "swap at one table": (
        lambda e: _swapping(e, lambda t: {"first": t[0].seating[0], "second": t[0].seating[1]}),
        "are at the same table: a swap would change nothing.",
    ),
    "swap a stranger": (
        lambda e: _swapping(e, lambda t: {"first": "Nobody", "second": t[0].seating[0]}),
        "Nobody is not a player to choose here.",
    ),
    "swap two outside": (
        lambda e: _swapping(
            e,
            lambda t: (
                services.entry_add(event=e, name="Late Lily", organiser=True),
                services.entry_add(event=e, name="Late Lou", organiser=True),
                {"first": "Late Lily", "second": "Late Lou"},
            )[2],
        ),
        "At least one of the two must be in the round",
    ),
    "swap after the round began": (
        lambda e: (
            services.round_begin(round=services.round_seat(event=e)),
            (reverse("event_swap", args=[e.token, 1]), {"first": TWELVE[0], "second": TWELVE[1]}),
        )[1],
        "Round 1 has begun: its seating can no longer change.",
    ),
    "seat before the last round began": (
        lambda e: (services.round_seat(event=e), (reverse("event_seat", args=[e.token]), {}))[1],
        "the last round has not begun yet",
    ),
}


@pytest.mark.parametrize("confirm", ["", "1"])
@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_refused_with_a_clear_message_and_stores_nothing(
    organiser, event, case, confirm
):
    make, message = BAD[case]
    url, post = make(event)
    before = stored(event)

    refused = organiser.post(url, {**post, "confirm": confirm})

    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'id="error"' in html and message in html
    assert stored(event) == before


def test_begin_twice_is_harmless(organiser, event):
    services.round_begin(round=services.round_seat(event=event))
    before = stored(event)

    again = organiser.post(reverse("event_begin", args=[event.token, 1]))

    assert again.status_code == 302 and stored(event) == before


def test_only_the_organiser_changes_the_event(client, event):
    before = stored(event)

    for url in (reverse("event_seat", args=["x" * 22]), reverse("event_undo", args=["x" * 22])):
        assert client.post(url, {"confirm": "1"}).status_code == 404
    assert client.post(reverse("event_begin", args=[event.token, 1])).status_code == 404

    assert stored(event) == before


def test_swaps_are_chosen_from_lists_of_the_rounds_players(organiser, event):
    services.round_seat(event=event)
    services.entry_add(event=event, name="Late Lily", organiser=True)
    tables = seated(event)

    html = page(organiser, event)
    swap = html[html.index('id="swap-form"') :]
    swap = swap[: swap.index("</form>")]

    for field in ("first", "second"):
        assert f'<select name="{field}" required id="swap-{field}">' in swap
    groups = re.findall(r'<optgroup label="([^"]+)">', swap)
    assert groups == ["Table 1", "Table 2", "Table 3", "Not in this round"] * 2
    assert all(f'<option value="{name}">' in swap for t in tables for name in t.seating)
    assert '<option value="Late Lily">' in swap


def test_registering_through_htmx_keeps_the_focus_in_the_name_box(organiser, event):
    url = reverse("event_add", args=[event.token])

    added = organiser.post(url, {"name": "Late Lily"}, HTTP_HX_REQUEST="true")

    html = added.content.decode()
    assert added.status_code == 200 and "<html" not in html
    assert re.search(r'<input id="add-name"[^>]* value=""\s*autofocus>', html)
    assert "Late Lily is registered." in html
    assert '<section id="standings-section" hx-swap-oob="true">' in html
    assert html.count("Late Lily") >= 3  # the notice, the players, the standings
    assert Entry.objects.filter(player__name="Late Lily", active=True).exists()


def test_a_refused_name_keeps_what_was_typed_in_the_focused_box(organiser, event):
    url = reverse("event_add", args=[event.token])
    before = stored(event)

    partial = organiser.post(url, {"name": "\x00"}, HTTP_HX_REQUEST="true")
    full = organiser.post(url, {"name": "  "})

    assert partial.status_code == 200 and 'id="add-error"' in partial.content.decode()
    assert full.status_code == 400 and 'id="add-error"' in full.content.decode()
    assert re.search(r'<input id="add-name"[^>]* value="  "\s*autofocus>', full.content.decode())
    assert stored(event) == before


def test_registering_without_javascript_comes_back_with_the_name_box_focused(organiser, event):
    added = organiser.post(reverse("event_add", args=[event.token]), {"name": "Late Lily"})

    assert added.status_code == 302 and added["Location"].endswith("?added=1#players")
    back = organiser.get(added["Location"]).content.decode()
    assert re.search(r'<input id="add-name"[^>]*autofocus>', back)
    assert "autofocus" not in page(organiser, event)


def test_the_organisers_page_shows_the_registration_link_as_a_qr_code(organiser, event):
    html = page(organiser, event)

    url = re.search(r'id="register-link" href="([^"]+)"', html)[1]
    assert url.endswith(reverse("event_register", args=[event.register_token]))
    svg = display.qr_svg(url, "QR code of the registration link")
    assert f'<div class="qr" id="register-qr">{svg}</div>' in html
    assert svg.startswith("<svg") and "<title>QR code of the registration link</title>" in svg


def test_a_new_tournaments_options_are_lists_and_number_boxes(client, db):
    html = client.get(reverse("event_new")).content.decode()

    assert '<select name="head_tail" id="id_head_tail">' in html
    assert '<option value="7/8" selected>' in html
    stake = re.search(r'<input type="number" name="stake"[^>]*>', html)[0]
    assert 'min="0"' in stake and 'max="1000000000"' in stake and 'step="0.0001"' in stake
    assert 'inputmode="decimal"' in stake and 'value="1"' in stake
    play_to = re.search(r'<input type="number" name="play_to"[^>]*>', html)[0]
    assert 'min="1"' in play_to and 'max="100000"' in play_to and 'step="1"' in play_to
    assert 'value=""' in play_to


def test_options_left_as_they_are_make_an_event_with_the_usual_rules(client, db):
    form = {"name": "Cup", "game": "jie-long", "rounds": "2", "method": "mixing",
            "stake": "1", "chip": "1", "head_tail": "7/8", "redeal_doubles": "7",
            "payment": "", "ties": "turn_order", "chi_tsun": "itself", "next_first": "winner",
            "play_to": "", "hands": ""}  # fmt: skip

    assert client.post(reverse("event_new"), form).status_code == 302
    assert Event.objects.get().options == {}


@pytest.fixture
def crowd(db):
    event = services.event_create(name="Open", game="jie-long", options={}, rounds=1)
    for i in range(1, 101):
        services.entry_add(event=event, name=f"Player {i:03}", organiser=True)
    return event


def test_the_projector_shows_42_standings_a_screen_and_moves_on_to_the_next(client, crowd):
    url = reverse("event_projector", args=[crowd.read_token])
    shown = []
    for number, rows, following in ((1, 42, 2), (2, 42, 3), (3, 16, 1)):
        html = client.get(url, {"page": number}).content.decode()
        assert f"Page {number} of 3" in html
        assert f'data-next="{following}"' in html  # the screen #projector turns to (ledger.js)
        assert html.count("<table>") == -(-rows // 14)
        shown += re.findall(r'<td class="name">([^<]+)</td>', html)
    assert sorted(shown) == [f"Player {i:03}" for i in range(1, 101)]


@pytest.mark.parametrize("number", ["", "0", "4", "x", "-1"])
def test_the_projector_starts_again_at_its_first_screen(client, crowd, number):
    html = client.get(reverse("event_projector", args=[crowd.read_token]), {"page": number})

    assert "Page 1 of 3" in html.content.decode()


def test_the_projectors_refresh_is_one_screen_of_standings(client, crowd):
    url = reverse("event_projector", args=[crowd.read_token])

    html = client.get(url, {"page": "2"}, HTTP_HX_REQUEST="true").content.decode()

    assert "<html" not in html and html.lstrip().startswith('<div class="projector" id="board"')
    assert "Page 2 of 3" in html


def test_a_small_event_fits_one_screen_with_no_paging(client, event):
    html = client.get(reverse("event_projector", args=[event.read_token])).content.decode()

    assert html.count('<td class="name">') == 12 and "Page 1" not in html


def test_board_columns_hold_at_most_14_standings():
    rows = list(range(40))

    board = selectors.board(rows, 1)  # type: ignore[arg-type]

    assert [len(column) for column in board.columns] == [14, 14, 12]
    assert (board.number, board.count, board.next) == (1, 1, 1)


def test_a_table_of_a_round_names_its_event_round_and_table(client, event):
    services.round_seat(event=event)
    table = seated(event)[1]
    results = reverse("event_results", args=[event.read_token])

    line = render_to_string("events/_event_line.html", {"session": table})
    alone = render_to_string("events/_event_line.html", {"session": TableSession(game="jie-long")})

    assert f'<a href="{results}">Club night · Round 1 · Table 2</a>' in line
    assert alone.strip() == ""
    html = client.get(reverse("table", args=[table.token])).content.decode()
    assert f'<a href="{results}">Club night · Round 1 · Table 2</a>' in html
