"""An event's and a group's pages follow their streams (issue 21, item 5): the projector's board,
the standings and the organiser's tables show a save at one of the event's tables (the
projector, the next round seated too), and the
group's page a save at one of its tables, within about a second, while what the organiser is
typing stays as it is. Served as tests/browser/test_push.py serves its phones (``make run``'s
server, or in the PostgreSQL pass the production stack's ASGI server): the tests' sync live
server has no streams.
"""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect

from tests.browser import test_push
from tests.live import a_group, an_event, save

# On PostgreSQL, against the production stack's ASGI server, as every browser test; make run's
# own server is tried in a browser by test_push.py's first test.

server = test_push.server  # a fixture: the server with streams
browser_context_args = test_push.browser_context_args  # a fixture: pages open on it

SOON = 1.0  # seconds: a save to a page showing it


def following(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-live", "stream")


def changed_after_save(
    page: Page, selector: str, base: str, table: str, seating: list[str], number: int = 1
) -> float:
    """Seconds from a save at ``table`` (another client's, through the API) until ``page``
    shows ``selector`` changed."""
    before = page.locator(selector).inner_text()
    saved = save(base, table, seating, number)
    page.wait_for_function(
        "([selector, before]) => document.querySelector(selector)?.innerText !== before",
        arg=[selector, before],
        timeout=20_000,  # longer than any test allows: the caller's assertion says how long it took
    )
    return time.monotonic() - saved


def test_the_projector_and_the_standings_show_a_save_within_a_second(server, new_context, shot):
    read, _, table, seating = an_event(server)
    projector, standings = new_context().new_page(), new_context().new_page()
    following(projector, f"/e/{read}/projector/")
    following(standings, f"/e/{read}/")
    expect(projector.locator("#seating")).to_be_visible()  # no hand yet: who sits where
    shot(projector, "seating")

    assert changed_after_save(projector, "#board", server.base, table, seating) < SOON
    expect(projector.locator("#board #standings")).to_be_visible()
    shot(projector, "standings")
    assert changed_after_save(standings, "#standings", server.base, table, seating, 2) < SOON
    expect(standings.locator("#standings tbody tr").first).to_contain_text("2")
    shot(standings, "after-two-hands")


SEAT_NEXT_ROUND = """
from ledger.events import services
from ledger.models import Event
services.round_seat(event=Event.objects.get(read_token=%r))
"""


def test_the_projector_shows_the_next_round_seated_with_no_hand_saved(server, new_context, shot):
    """The organiser seats the next round: the players find their new seats on the projector at
    once, though no table's hand has changed (the event's own revision, ledger.events.services)."""
    read, _, _, _ = an_event(server)
    projector = new_context().new_page()
    following(projector, f"/e/{read}/projector/")
    expect(projector.locator("#board h1")).to_contain_text("Round 1")

    server.manage("shell", "-c", SEAT_NEXT_ROUND % read)
    seated = time.monotonic()
    projector.wait_for_function(
        "() => document.querySelector('#board h1')?.innerText.includes('Round 2')",
        timeout=10_000,
    )
    assert time.monotonic() - seated < SOON
    expect(projector.locator("#seating")).to_be_visible()  # who sits where in round 2
    shot(projector, "next-round-seated")


def test_the_organisers_tables_follow_a_save_and_what_they_type_stays(server, new_context, shot):
    _, token, table, seating = an_event(server)
    organiser = new_context().new_page()
    following(organiser, f"/o/{token}/")
    organiser.locator("#add-name").fill("Zoe")

    assert changed_after_save(organiser, "#round-1-tables", server.base, table, seating) < SOON
    expect(organiser.locator("#round-1-tables tbody tr").first).to_contain_text("1")
    expect(organiser.locator("#add-name")).to_have_value("Zoe")
    expect(organiser.locator("#add-name")).to_be_focused()
    shot(organiser, "typed-in-kept")


def test_the_group_page_shows_a_save_within_a_second_and_keeps_a_new_table_typed_in(
    server, new_context, shot
):
    group, table, seating = a_group(server)
    page = new_context().new_page()
    following(page, f"/g/{group}/")
    page.locator("#new-table summary").click()
    page.locator("#group-table-form input[type=text]").first.fill("Dong")

    assert changed_after_save(page, "#balances", server.base, table, seating) < SOON
    expect(page.locator("#latest-tables")).to_contain_text("1 hand")
    expect(page.locator("#group-table-form input[type=text]").first).to_have_value("Dong")
    shot(page, "balances")


def test_standings_whose_stream_is_blocked_poll_every_ten_seconds_instead(server, new_context):
    read, _, table, seating = an_event(server)
    blocked = new_context()
    blocked.route("**/stream/", lambda route: route.abort())  # a proxy that lets none through
    standings = blocked.new_page()
    standings.goto(f"/e/{read}/")
    expect(standings.locator("html")).to_have_attribute("data-live", "poll", timeout=15_000)

    assert changed_after_save(standings, "#standings", server.base, table, seating) < 11.0


def test_a_payment_recorded_on_one_phone_comes_into_the_others_payments_with_its_balances(
    server, new_context, shot
):
    """Two phones on the group's page: a payment recorded on one moves the other's balances
    and its payments list together (issue 45, item 13: the balances moved, the list still said
    "No payments recorded")."""
    group, table, seating = a_group(server)
    save(server.base, table, seating, 1)
    payer, other = new_context().new_page(), new_context().new_page()
    following(payer, f"/g/{group}/")
    following(other, f"/g/{group}/")
    expect(other.locator("#payments .payments-list")).to_contain_text("No payments recorded.")
    balances = other.locator("#balances").inner_text()

    payer.locator("#new-payment summary").click()
    payer.select_option("#id_payer", "Celine")
    payer.select_option("#id_payee", "Anna")
    payer.fill("#id_amount", "5")
    payer.get_by_role("button", name="Record the payment").click()
    expect(payer.locator("#payments .payments-list")).to_contain_text("Celine paid Anna 5")

    payments = other.locator("#payments .payments-list")
    expect(payments).to_contain_text("Celine paid Anna 5", timeout=5_000)
    expect(payments).not_to_contain_text("No payments recorded.")
    assert other.locator("#balances").inner_text() != balances
    shot(other, "payment-arrived")
