"""A phone that loses its connection keeps the hand and sends it, once, when it is back; a
hand the server refuses is dropped, and the phone says why."""

from __future__ import annotations

from playwright.sync_api import expect

from ledger.models import Hand, TableSession
from ledger.tables import services
from tests.browser.conftest import enter_hand, start_table
from tests.tables.conftest import plain_hand

SEATING = ["Anna", "Bob", "Celine", "Dominic"]
BACK = 15_000  # ms: the phone retries after 2, 4, 8 s... and when the browser says it is online


def test_a_hand_saved_offline_is_kept_and_sent_once_when_the_connection_is_back(page, shot):
    start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})

    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").click()

    expect(page.locator("#unsent")).to_contain_text("1 hand(s) kept on this phone")
    assert not Hand.objects.exists()
    shot(page, "kept-offline")
    # Pressing save again while offline keeps it once.
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#unsent")).to_contain_text("1 hand(s) kept on this phone")

    page.context.set_offline(False)

    expect(page.locator("#saved")).to_contain_text("Hand 1 saved.", timeout=BACK)
    expect(page.locator("#unsent")).to_be_hidden()
    expect(page.locator("#scoreboard")).to_contain_text("+58", timeout=BACK)
    assert Hand.objects.count() == 1
    shot(page, "sent-when-back")


def _posts_to(page, path: str) -> list[str]:
    """Every hand this page posts to the table from now on (the live poll is a GET)."""
    posts: list[str] = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.url)
            if request.method == "POST" and request.url.endswith(path)
            else None
        ),
    )
    return posts


def _hand_kept_offline(page) -> str:
    """A new table whose first hand was saved with no connection: kept on the phone."""
    path = start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#unsent")).to_contain_text("1 hand(s) kept on this phone")
    return path


def test_a_kept_hand_the_server_refuses_is_dropped_and_the_phone_says_why(page, shot):
    path = _hand_kept_offline(page)
    # Meanwhile the organiser locks the table from another phone.
    services.table_lock(session=TableSession.objects.get(), locked=True)

    posts = _posts_to(page, path)
    page.context.set_offline(False)

    refused = page.get_by_role("alert")
    expect(refused).to_contain_text(
        "Hand 1 was not saved: This table is locked by its organiser: nothing was saved.",
        timeout=BACK,
    )
    expect(page.locator("#unsent")).to_be_hidden()
    shot(page, "refused")
    # Dropped, not tried again: the first retry would come 2 s after a failure.
    page.wait_for_timeout(6_000)
    assert len(posts) == 1
    assert page.evaluate("localStorage.getItem('ledger-unsent:' + location.pathname)") == "[]"
    assert not Hand.objects.exists()


def test_a_hand_whose_answer_was_lost_is_sent_again_and_stored_once(page, shot):
    path = start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    lost: list[str] = []

    def lose_the_first_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.request.url)
            route.fetch()  # the server stores the hand...
            route.abort("failed")  # ...and the connection drops before the phone hears back
        else:
            route.continue_()

    page.route(f"**{path}", lose_the_first_answer)
    posts = _posts_to(page, path)
    page.get_by_role("button", name="Save hand").click()

    expect(page.locator("#saved")).to_contain_text("Hand 1 saved.", timeout=BACK)
    expect(page.locator("#unsent")).to_be_hidden()
    expect(page.locator("#refused")).to_be_hidden()
    expect(page.locator("#scoreboard")).to_contain_text("+58", timeout=BACK)
    shot(page, "sent-again")
    assert len(lost) == 1 and len(posts) == 2  # the lost one and one retry, with the same key
    assert Hand.objects.count() == 1


def test_a_kept_hand_another_phone_recorded_first_is_dropped_and_shown_taken(page, shot):
    path = _hand_kept_offline(page)
    # Meanwhile another phone records hand 1, differently.
    other = plain_hand(Anna=12, Bob=2)
    services.hand_record(
        session=TableSession.objects.get(), number=1, data=other, device="Bob's phone"
    )

    posts = _posts_to(page, path)
    page.context.set_offline(False)

    expect(page.get_by_role("alert")).to_contain_text(
        "Hand 1 was not saved: Hand 1 is already recorded, by Bob's phone", timeout=BACK
    )
    expect(page.locator("#taken")).to_be_visible()  # the answer, in place of the form
    expect(page.locator("#unsent")).to_be_hidden()
    shot(page, "taken")
    page.wait_for_timeout(3_000)
    assert len(posts) == 1
    assert Hand.objects.count() == 1


def test_a_hand_saved_on_a_table_locked_meanwhile_says_why(page):
    start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    services.table_lock(session=TableSession.objects.get(), locked=True)

    page.get_by_role("button", name="Save hand").click()

    expect(page.get_by_role("alert")).to_contain_text(
        "Hand 1 was not saved: This table is locked by its organiser: nothing was saved."
    )
    expect(page.locator("#unsent")).to_be_hidden()  # not kept: sending it again cannot help
    assert not Hand.objects.exists()
