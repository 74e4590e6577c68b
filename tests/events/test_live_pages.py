"""An event's live pages (issue 21, item 5): the standings, the projector and the organiser's
page follow the event's stream (/e/<read token>/stream/, ledger/web/push.py) and fetch their live
parts again when one of its tables changes. A fetch carries the mark its page shows (``?v=``)
and is answered 204 while it is still the mark; the organiser's live parts hold no form."""

from __future__ import annotations

import re

import pytest

from ledger.events import selectors, services
from ledger.models import Event, TableSession
from tests.events.test_events import play

# Depends on the database: the pages' mark is a sum the database makes of their tables' revisions.
pytestmark = pytest.mark.both_databases

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def playing(event: Event) -> Event:
    """The event with its first round seated and begun."""
    services.round_seat(event=event)
    services.round_begin(round=event.round_set.get())
    return event


def first_table(event: Event) -> TableSession:
    return TableSession.objects.filter(round__event=event).order_by("table_number").first()


def shown_mark(page: str) -> str:
    return re.search(r'[?;]v=([\d.]+)"', page)[1]


def test_a_change_at_any_of_its_tables_changes_the_events_mark(playing):
    before = selectors.mark(playing)
    play(first_table(playing), 2, 12, 20, 30)
    after = selectors.mark(playing)

    assert before != after
    assert selectors.mark(playing) == after  # read, not counted: the same until a change


def _seat_next(event: Event) -> None:
    services.round_seat(event=event)


def _swap(event: Event) -> None:
    seated = services.round_seat(event=event)
    tables = list(seated.tables.order_by("table_number"))
    services.round_swap(round=seated, first=tables[0].seating[0], second=tables[1].seating[0])


def _undo_a_drop(event: Event) -> None:
    services.entry_drop(event=event, name=first_table(event).seating[0])
    services.event_undo(event=event)


ORGANISER_CHANGES = {
    "a player drops out": lambda event: services.entry_drop(
        event=event, name=first_table(event).seating[0]
    ),
    "a player joins": lambda event: services.entry_add(event=event, name="Zoe", organiser=True),
    "the next round is seated": _seat_next,
    "two players swap places": _swap,
    "a change undone": _undo_a_drop,
}


@pytest.mark.parametrize("change", ORGANISER_CHANGES.values(), ids=ORGANISER_CHANGES.keys())
def test_an_organisers_change_changes_the_events_mark_as_a_table_does(client, playing, change):
    """What the organiser changes shows on every page of the event, as a save does: the mark
    has the event's own revision, which each of the organiser's changes raises, and the page's
    stream hears of it (on PostgreSQL: tests/faults/test_streams.py)."""
    before = selectors.mark(playing)
    change(playing)
    after = selectors.mark(playing)

    assert before != after
    stale = client.get(f"/e/{playing.read_token}/projector/", {"v": before, "page": 1}, **HTMX)
    assert stale.status_code == 200
    assert shown_mark(stale.content.decode()) == after


def test_a_round_begun_changes_the_events_mark(playing):
    """Its clock starts: the projector shows the time left."""
    seated = services.round_seat(event=playing)
    before = selectors.mark(playing)
    services.round_begin(round=seated)
    assert selectors.mark(playing) != before


def test_nothing_changed_leaves_the_mark_as_it_was(playing):
    """A player registered again, a swap at one table: nothing to show, nothing sent."""
    before = selectors.mark(playing)
    table = first_table(playing)
    services.entry_add(event=playing, name=table.seating[0], organiser=True)
    services.round_seat(event=playing)
    seated = playing.round_set.order_by("number").last()
    after_seating = selectors.mark(playing)
    one = seated.tables.order_by("table_number").first()
    services.round_swap(round=seated, first=one.seating[0], second=one.seating[1])

    assert before != after_seating == selectors.mark(playing)


PAGES = {"standings": "/e/{read}/", "projector": "/e/{read}/projector/", "organiser": "/o/{token}/"}


@pytest.mark.parametrize("url", PAGES.values(), ids=PAGES.keys())
def test_a_live_page_names_its_stream_and_fetches_nothing_while_its_mark_stands(
    client, playing, url
):
    url = url.format(read=playing.read_token, token=playing.token)
    page = client.get(url).content.decode()

    assert f'data-stream="/e/{playing.read_token}/stream/"' in page
    mark = shown_mark(page)
    assert mark == selectors.mark(playing)
    stands = client.get(url, {"v": mark, "page": 1}, **HTMX)
    assert stands.status_code == 204
    play(first_table(playing), 2, 12, 20, 30)
    changed = client.get(url, {"v": mark, "page": 1}, **HTMX)
    assert changed.status_code == 200
    assert shown_mark(changed.content.decode()) == selectors.mark(playing) != mark


def test_the_standings_live_part_is_the_standings_and_the_rounds_tables(client, playing):
    play(first_table(playing), 2, 12, 20, 30)
    part = client.get(f"/e/{playing.read_token}/", {"v": "stale"}, **HTMX).content.decode()

    assert part.startswith('<div id="results-live"')
    assert 'id="standings"' in part and 'id="current-tables"' in part
    assert "<html" not in part


def test_the_projector_fetches_the_screen_it_shows_and_turns_to_the_next_by_itself(client, playing):
    page = client.get(f"/e/{playing.read_token}/projector/").content.decode()

    assert re.search(r'id="projector"[^>]*hx-trigger="every 10s"[^>]*hx-target="#board"', page)
    board = re.search(r'<div class="projector" id="board"[^>]*>', page)[0]
    assert 'data-next="1"' in board and "?page=1&amp;v=" in board
    assert 'hx-trigger="ledger-changed from:body"' in board


def test_the_organisers_live_parts_are_the_rounds_tables_and_the_standings_with_nothing_typed(
    client, playing
):
    table = first_table(playing)
    play(table, 2, 12, 20, 30)
    part = client.get(f"/o/{playing.token}/", {"v": "stale"}, **HTMX).content.decode()

    assert part.startswith('<div id="follow" hidden')
    assert re.search(r'<div class="scroll" id="round-1-tables" hx-swap-oob="true">', part)
    assert '<section id="standings-section" hx-swap-oob="true">' in part
    assert re.search(rf'id="table-1-{table.table_number}">.*?<td class="num">1</td>', part)
    assert re.findall(r'<input(?![^>]*type="hidden")', part) == []  # "Drop out": a button
    assert "<html" not in part


def test_a_player_who_registers_themselves_joins_the_organisers_list_with_the_standings(
    client, event
):
    """The standings and the list of players registered show the same players: a player
    registering on their own phone comes into both on the organiser's page (issue 45, item 13)."""
    page = client.get(f"/o/{event.token}/").content.decode()
    services.entry_add(event=event, name="Zoe", organiser=False)

    part = client.get(f"/o/{event.token}/", {"v": shown_mark(page)}, **HTMX).content.decode()

    entries = re.search(r'<ul id="entries" hx-swap-oob="true">.*?</ul>', part, re.S)[0]
    assert "Zoe" in entries
    assert "Zoe" in re.search(r'<section id="standings-section".*?</section>', part, re.S)[0]


def test_the_full_organisers_page_has_each_live_part_once_and_not_out_of_band(client, playing):
    page = client.get(f"/o/{playing.token}/").content.decode()

    assert page.count('id="round-1-tables"') == 1
    assert page.count('id="standings-section"') == 1
    assert "hx-swap-oob" not in page


def test_a_sync_server_answers_an_events_stream_503_in_the_readers_language(client, playing):
    response = client.get(f"/e/{playing.read_token}/stream/", HTTP_ACCEPT_LANGUAGE="zh-hans")

    assert response.status_code == 503
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode() != "Streams are not served here."
