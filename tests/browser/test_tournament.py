"""A club night in the browser: 12 players, 3 tables, 3 rounds of Jie Long, mixing seats.

The organiser sets the event up and registers half the players; the other half register
themselves on their phones; every round is seated, its table cards printed, and one hand is
played at every table through the table page that the card's QR code opens. Standings, the
seating (as few repeat table-mates as possible) and the exports are checked at the end.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import combinations

import pytest
from playwright.sync_api import Page, expect

from ledger.models import Event, Round
from tests.browser.conftest import csv_rows, enter_hand, save_hand, texts
from tests.events.test_events import play

PLAYERS = [f"Player {i:02}" for i in range(1, 13)]


def organise(page: Page, action: str, confirm: str) -> None:
    """Press ``action`` on the organiser's page, then ``confirm`` on the page that asks."""
    page.get_by_role("button", name=action).click()
    expect(page.locator("#question")).to_be_visible()
    page.get_by_role("button", name=confirm).click()
    expect(page.locator("#question")).to_have_count(0)


def register_typed(page: Page, name: str) -> None:
    """Type a name in the organiser's name box and press Enter: htmx adds it in place."""
    # htmx sets up a form it swapped in as the swap settles (20 ms on): a person types slower
    # than that, and so, after the last registration however it was made, does this.
    expect(page.locator("#players.htmx-added")).to_have_count(0)
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    expect(page.locator("#added")).to_have_text(f"{name} is registered.")
    expect(page.locator("#add-name")).to_be_focused()


def test_a_three_round_event_of_twelve_players(page, new_context, live_server, shot):
    page.goto("/events/new/")
    page.fill("#id_name", "Club night")
    page.select_option("#id_game", "jie-long")
    page.fill("#id_rounds", "3")
    page.fill("#id_hands_per_round", "1")
    page.fill("#id_stake", "0.50")
    shot(page, "new-event")
    page.get_by_role("button", name="Create the tournament").click()
    expect(page.locator("h1")).to_have_text("Club night")
    organiser_url = page.url

    # Six register themselves through the link; the organiser types in the other six.
    register = page.locator("#register-link").get_attribute("href")
    phone = new_context().new_page()
    for name in PLAYERS[:6]:
        phone.goto(register)
        phone.fill("#name", name)
        phone.get_by_role("button", name="Register").click()
        expect(phone.locator("#registered")).to_contain_text(f"{name}, you are registered")
    shot(phone, "registered-on-a-phone")
    page.locator("#add-name").click()
    for name in PLAYERS[6:]:  # one after another, never leaving the name box
        register_typed(page, name)
    page.goto(organiser_url)
    expect(page.locator("#entries li")).to_have_count(12)

    event = Event.objects.get()
    for number in (1, 2, 3):
        organise(page, "Seat the next round", "Seat the round")
        shot(page, f"round-{number}-seated")
        page.goto(f"/o/{event.token}/rounds/{number}/cards/")
        expect(page.locator(".card")).to_have_count(3)
        expect(page.locator(".card img")).to_have_count(3)
        tables = [card.get_attribute("id") for card in page.locator(".card").all()]
        assert tables == ["card-1", "card-2", "card-3"]
        shot(page, f"round-{number}-cards")
        page.goto(organiser_url)
        organise(page, f"Begin round {number}", "Begin the round")
        for table_number in (1, 2, 3):
            # The card's QR code holds the table's link, as the organiser page does.
            page.goto(organiser_url)
            page.locator(f"#table-{number}-{table_number} a").click()
            expect(page.locator("h1")).to_contain_text("Jie Long")
            line = f"Club night · Round {number} · Table {table_number}"
            expect(page.locator("#event-line")).to_have_text(line)
            enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
            save_hand(page, 1)
        page.goto(organiser_url)
        expect(page.locator(f"#round-{number} .round-tables tbody tr")).to_have_count(3)
        for table_number in (1, 2, 3):
            expect(page.locator(f"#table-{number}-{table_number}")).to_contain_text("finished")

    # Seating: nobody twice in a round; round 2 as few repeat table-mates as possible (3:
    # four players from three old tables of four always bring two old table-mates along).
    rounds = [
        [table.seating for table in Round.objects.get(event=event, number=n).tables.all()]
        for n in (1, 2, 3)
    ]
    for tables in rounds:
        assert sorted(name for table in tables for name in table) == sorted(PLAYERS)
    met = {frozenset(pair) for table in rounds[0] for pair in combinations(table, 2)}
    again = [p for t in rounds[1] for p in combinations(t, 2) if frozenset(p) in met]
    assert len(again) == 3

    # Standings: every hand 2, 12, 34, 18 at stake 0.50: the leader of each table +29.
    page.goto(page.locator("#results-link").get_attribute("href"))
    shot(page, "results")
    nets = texts(page, "#standings tbody td:nth-child(3)")
    assert len(nets) == 12
    leaders = {table[0] for tables in rounds for table in tables}
    top = texts(page, "#standings tbody tr:first-child td")
    assert top[1] in leaders
    with page.expect_download() as standings:
        page.get_by_role("link", name="Standings (CSV)").click()
    rows = csv_rows(standings.value)
    assert rows[0][:3] == ["Place", "Name", "Net"] and len(rows) == 13
    assert sum(float(row[2]) for row in rows[1:]) == 0
    with page.expect_download() as settlements:
        page.get_by_role("link", name="Every settlement (CSV)").click()
    assert len(csv_rows(settlements.value)) == 1 + 9 * 6  # 9 hands, 6 pairwise payments each

    page.goto(f"/e/{event.read_token}/projector/")
    expect(page.locator("#standings tr")).to_have_count(12)
    shot(page, "projector")


def test_a_timed_round_counts_down_on_the_organisers_page_and_the_projector(page, shot):
    from ledger.events import services

    event = services.event_create(
        name="Timed", game="tiu-yu", options={}, rounds=1, minutes_per_round=30
    )
    for name in PLAYERS[:5]:  # Tiu Yu: tables of 2 or 3
        services.entry_add(event=event, name=name, organiser=True)
    services.round_begin(round=services.round_seat(event=event))

    for path in (f"/o/{event.token}/", f"/e/{event.read_token}/projector/"):
        page.goto(path)
        clock = page.locator("time.countdown")
        expect(clock).to_have_text(re.compile(r"^(29|30):[0-5]\d$"))
        first = clock.inner_text()
        expect(clock).not_to_have_text(first, timeout=3000)  # it ticks
    shot(page, "countdown-on-the-projector")
    page.goto(f"/o/{event.token}/")
    expect(page.locator("#round-1 .round-tables tbody tr")).to_have_count(2)  # 3 + 2 players


def test_the_home_page_leads_to_a_new_tournament_with_options_as_controls(page, shot):
    page.goto("/")
    page.get_by_role("link", name="Run a tournament").click()

    expect(page.locator("h1")).to_have_text("New tournament")
    expect(page.locator("select#id_head_tail")).to_have_value("7/8")
    expect(page.locator("#id_stake")).to_have_attribute("type", "number")
    expect(page.locator("#id_play_to")).to_have_attribute("max", "100000")
    shot(page, "new-tournament")


def _club(players: int, name: str = "Club night") -> Event:
    from ledger.events import services

    event = services.event_create(name=name, game="jie-long", options={}, rounds=3)
    for i in range(1, players + 1):
        services.entry_add(event=event, name=f"Player {i:02}", organiser=True)
    return event


def _row(page: Page, table: int) -> str:
    return page.locator(f"#table-1-{table} td:nth-child(2)").inner_text()


def test_the_organiser_confirms_each_change_and_undoes_until_the_round_begins(page, shot):
    event = _club(12)
    page.goto(f"/o/{event.token}/")

    # Seating is asked first; Cancel leaves it unseated.
    page.get_by_role("button", name="Seat the next round").click()
    expect(page.locator("#question")).to_have_text("Seat round 1?")
    shot(page, "seat-asked")
    page.get_by_role("link", name="Cancel").click()
    expect(page.locator("#round-1")).to_have_count(0)
    organise(page, "Seat the next round", "Seat the round")
    expect(page.locator("#undo-what")).to_have_text("Round 1 is seated.")
    shot(page, "seated-with-undo")
    seated = [_row(page, n) for n in (1, 2, 3)]

    # Undo unseats it; seated again, it is the same.
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#round-1")).to_have_count(0)
    expect(page.locator("#undo")).to_have_count(0)
    organise(page, "Seat the next round", "Seat the round")
    assert [_row(page, n) for n in (1, 2, 3)] == seated

    # A swap, chosen from the lists of the round's players, asked, then undone.
    one, two = seated[0].split(", ")[0], seated[1].split(", ")[2]
    page.select_option("#swap-first", one)
    page.select_option("#swap-second", two)
    shot(page, "swap-chosen")
    organise(page, "Swap", "Swap")
    expect(page.locator("#undo-what")).to_have_text(f"{one} and {two} swapped places in round 1.")
    assert _row(page, 1).split(", ")[0] == two and _row(page, 2).split(", ")[2] == one
    page.get_by_role("button", name="Undo").click()
    expect(page.locator("#undo-what")).to_have_text("Round 1 is seated.")
    assert [_row(page, n) for n in (1, 2, 3)] == seated

    # A drop, asked, then undone.
    player = page.locator("#entries li").filter(has_text="Player 05")
    player.get_by_role("button", name="Drop out").click()
    expect(page.locator("#question")).to_have_text("Drop Player 05 out of the event?")
    shot(page, "drop-asked")
    page.get_by_role("button", name="Drop out").click()
    expect(player).to_contain_text("(dropped out)")
    expect(page.locator("#undo-what")).to_have_text("Player 05 dropped out.")
    page.get_by_role("button", name="Undo").click()
    expect(player.get_by_role("button", name="Drop out")).to_be_visible()

    # Once the round begins there is nothing left to undo.
    organise(page, "Begin round 1", "Begin the round")
    expect(page.locator("#round-1 h3")).to_contain_text("begun")
    expect(page.locator("#undo")).to_have_count(0)
    expect(page.locator("#swap-form")).to_have_count(0)
    shot(page, "begun")
    assert Round.objects.get(event=event).started is not None


def test_the_name_box_keeps_the_focus_after_each_register(page, shot):
    event = _club(0)
    page.goto(f"/o/{event.token}/")
    expect(page.locator("#register-qr svg")).to_be_visible()

    page.fill("#add-name", "Ann Chan")
    page.get_by_role("button", name="Register").click()
    expect(page.locator("#added")).to_have_text("Ann Chan is registered.")
    expect(page.locator("#add-name")).to_be_focused()
    expect(page.locator("#add-name")).to_have_value("")
    for name in ("Bo Lee", "Cy Ng"):  # typed straight on: the box has the focus
        register_typed(page, name)
    page.keyboard.type("\u3000")  # only a space: refused, and the box keeps the focus
    page.keyboard.press("Enter")
    expect(page.locator("#add-error")).to_be_visible()
    expect(page.locator("#add-name")).to_be_focused()
    shot(page, "registered-three")
    expect(page.locator("#entries li")).to_have_count(3)
    expect(page.locator("#standings tbody tr")).to_have_count(3)


def _fits(page: Page) -> None:
    page.wait_for_load_state()  # a page just opened is measured with its styles applied
    size = page.evaluate(
        "[document.documentElement.scrollHeight, innerHeight,"
        " document.documentElement.scrollWidth, innerWidth]"
    )
    assert size[0] <= size[1] and size[2] <= size[3], size


# Every name cell read in one go: the standings are swapped in whole when the page fetches them
# again (its stream refused by the test server, it polls), and a cell read between two reads
# could be one the swap took away (its box None).
CELLS = """cells => cells.map(cell => {
  const box = cell.getBoundingClientRect();
  return {name: cell.innerText, top: box.top, bottom: box.bottom, left: box.left,
          right: box.right, cut: cell.scrollWidth > cell.clientWidth};
})"""


def _shown(page: Page) -> list[str]:
    """The names on the projector's screen, each checked to be wholly on it and not cut."""
    cells = page.locator("#standings td.name").evaluate_all(CELLS)
    for cell in cells:
        assert cell["top"] >= 0 and cell["bottom"] <= 720, cell
        assert cell["left"] >= 0 and cell["right"] <= 1280 and not cell["cut"], cell
    return [cell["name"] for cell in cells]


@pytest.fixture
def projector(browser, live_server) -> Iterator[Page]:
    """A page on a 1280×720 projector's screen (a laptop's browser, not a phone)."""
    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 720})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_the_projector_fits_40_players_on_a_1280_by_720_screen(projector, shot):
    from ledger.events import services

    event = _club(40)
    played = services.round_begin(round=services.round_seat(event=event))
    for table in played.tables.all():
        play(table, 2, 12, 34, 18)
    page = projector

    page.goto(f"/e/{event.read_token}/projector/")

    expect(page.locator("#standings tr")).to_have_count(40)
    _fits(page)
    assert sorted(_shown(page)) == [f"Player {i:02}" for i in range(1, 41)]
    expect(page.locator("#board-page")).to_have_count(0)
    shot(page, "projector-40")


def test_the_projector_pages_through_a_large_event(projector, shot):
    event = _club(100, name="Open championship of the Pearl River Delta domino clubs")
    page = projector
    # The page's clock stands still until the test moves it: on a busy machine the links below
    # took long enough for the board to turn a page by itself in between.
    page.clock.install()
    page.goto(f"/e/{event.read_token}/projector/")

    shown = []
    for number in (1, 2, 3):
        expect(page.locator("#board-page")).to_contain_text(f"Page {number} of 3")
        _fits(page)
        shown += _shown(page)
        shot(page, f"projector-page-{number}")
        page.get_by_role("link", name="Next page").click()
    assert sorted(shown) == sorted(f"Player {i:02}" for i in range(1, 101))
    # It moves on by itself, every 10 seconds.
    expect(page.locator("#board-page")).to_contain_text("Page 1 of 3")
    page.clock.run_for(9_000)
    expect(page.locator("#board-page")).to_contain_text("Page 1 of 3")
    page.clock.run_for(1_000)
    expect(page.locator("#board-page")).to_contain_text("Page 2 of 3")
    _fits(page)


def test_the_projector_uses_the_screen_and_shows_who_sits_where_as_a_round_begins(projector, shot):
    from ledger.events import services

    event = _club(12)
    page = projector
    one = services.round_begin(round=services.round_seat(event=event))

    # Round 1 has begun and no hand is in: the wall says who sits where, table by table.
    page.goto(f"/e/{event.read_token}/projector/")
    expect(page.locator("#seating caption")).to_have_count(3)
    for table in one.tables.order_by("table_number"):
        card = page.locator("#seating table", has_text=f"Table {table.table_number}")
        expect(card.locator("td.name")).to_have_text(table.seating)
    _fits(page)
    shot(page, "projector-seating")

    for table in one.tables.all():
        play(table, 2, 12, 34, 18)
    page.goto(f"/e/{event.read_token}/projector/")

    # Play is under way: the standings, in type that fills the screen.
    expect(page.locator("#standings tr")).to_have_count(12)
    _fits(page)
    box = page.locator("#standings").bounding_box()
    assert box and box["width"] >= 0.9 * 1280 and box["height"] >= 0.6 * 720, box
    assert sorted(_shown(page)) == [f"Player {i:02}" for i in range(1, 13)]
    shot(page, "projector-12")
