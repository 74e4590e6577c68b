"""A club night in the browser: 12 players, 3 tables, 3 rounds of Jie Long, mixing seats.

The organiser sets the event up and registers half the players; the other half register
themselves on their phones; every round is seated, its table cards printed, and one hand is
played at every table through the table page that the card's QR code opens. Standings, the
seating (as few repeat table-mates as possible) and the exports are checked at the end.
"""

from __future__ import annotations

import re
from itertools import combinations

from playwright.sync_api import Page, expect

from ledger.models import Event, Round
from tests.browser.conftest import csv_rows, enter_hand, save_hand, texts

PLAYERS = [f"Player {i:02}" for i in range(1, 13)]


def organise(page: Page, action: str) -> None:
    page.get_by_role("button", name=action).click()
    page.wait_for_load_state()


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
    for name in PLAYERS[6:]:
        page.fill("#add-name", name)
        organise(page, "Register")
    page.goto(organiser_url)
    expect(page.locator("#entries li")).to_have_count(12)

    event = Event.objects.get()
    for number in (1, 2, 3):
        organise(page, "Seat the next round")
        shot(page, f"round-{number}-seated")
        page.goto(f"/o/{event.token}/rounds/{number}/cards/")
        expect(page.locator(".card")).to_have_count(3)
        expect(page.locator(".card img")).to_have_count(3)
        tables = [card.get_attribute("id") for card in page.locator(".card").all()]
        assert tables == ["card-1", "card-2", "card-3"]
        shot(page, f"round-{number}-cards")
        page.goto(organiser_url)
        organise(page, f"Begin round {number}")
        for table_number in (1, 2, 3):
            # The card's QR code holds the table's link, as the organiser page does.
            page.goto(organiser_url)
            page.locator(f"#table-{number}-{table_number} a").click()
            expect(page.locator("h1")).to_contain_text("Jie Long")
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
    assert rows[0][:3] == ["place", "name", "net"] and len(rows) == 13
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
