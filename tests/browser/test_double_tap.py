"""A double tap on *Save hand* is one save (issue 13, item 4): the player sees "Hand N saved"
and the next hand's clean form, whatever the number of taps, and the hand is stored once.

A second tap lands either while the first tap's save is on its way (a double click; two taps
200 ms apart on a slow connection) or just after its answer made the form the next hand's,
empty (two taps 200 ms apart on a quick one): both are tried."""

from __future__ import annotations

import time

import pytest
from django.core.signals import request_started
from playwright.sync_api import Page, expect

from ledger.models import Hand
from ledger.tables import services
from tests.browser.conftest import enter_hand

SEATING = ["Anna", "Bob", "Celine", "Dominic"]
SLOW = 0.8  # s a slow connection takes to answer a save: the second tap is sent meanwhile


@pytest.fixture
def slow_saves():
    """The server answers a hand's save after SLOW seconds, as over a poor connection."""

    def wait(sender, environ, **kwargs):
        if environ.get("REQUEST_METHOD") == "POST" and environ["PATH_INFO"].endswith("/hands/"):
            time.sleep(SLOW)

    request_started.connect(wait)
    yield
    request_started.disconnect(wait)


def _double_click(page: Page) -> None:
    page.get_by_role("button", name="Save hand").dblclick()


def _two_clicks(page: Page) -> None:
    page.get_by_role("button", name="Save hand").click()
    page.wait_for_timeout(200)
    page.get_by_role("button", name="Save hand").click(timeout=2_000)


@pytest.mark.parametrize(
    ("taps", "slow"),
    [
        pytest.param(_double_click, False, id="double-click"),
        pytest.param(_two_clicks, False, id="two-taps-200ms"),
        pytest.param(_two_clicks, True, id="two-taps-200ms-slow-answer"),
    ],
)
def test_a_double_tap_on_save_saves_the_hand_once_and_shows_it_saved(
    page: Page, request, shot, taps, slow
) -> None:
    if slow:
        request.getfixturevalue("slow_saves")
    session = services.session_create(game="jie-long", options={}, seating=SEATING, first="Anna")
    page.goto(f"/t/{session.token}/")
    posts: list[str] = []
    page.on("requestfinished", lambda r: posts.append(r.url) if r.method == "POST" else None)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})

    taps(page)

    saved = page.locator("#saved")
    expect(saved).to_contain_text("Hand 1 saved.")
    page.wait_for_timeout(int(SLOW * 1000) + 1_000)  # whatever a second tap sent is answered
    expect(saved).to_contain_text("Hand 1 saved.")
    expect(saved).to_be_in_viewport()
    form = page.locator("#record-form")
    expect(page.locator("#hand-number")).to_have_text("Hand 2")
    expect(form.locator("input[name=number]")).to_have_value("2")
    expect(
        page.locator("#problems, #record-form .error, #record-form [aria-invalid]")
    ).to_have_count(0)
    for seat in range(len(SEATING)):
        expect(form.locator(f"#pips-{seat}")).to_have_value("")
    shot(page, "saved-once")
    assert Hand.objects.count() == 1
    assert len(posts) == 1, posts  # the second tap sent nothing

    # The next hand is saved as any other.
    enter_hand(page, {0: 12, 1: 2, 2: 34, 3: 18})
    page.get_by_role("button", name="Save hand").click()
    expect(saved).to_contain_text("Hand 2 saved.")
    assert Hand.objects.count() == 2


def test_an_empty_form_sent_well_after_a_save_is_told_what_it_lacks(page: Page) -> None:
    session = services.session_create(game="jie-long", options={}, seating=SEATING, first="Anna")
    page.goto(f"/t/{session.token}/")
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#saved")).to_contain_text("Hand 1 saved.")

    page.wait_for_timeout(2_000)  # not a second tap: a save of nothing
    page.get_by_role("button", name="Save hand").click()

    expect(page.locator("#problems")).to_contain_text("Not saved: fix what is marked.")
    assert Hand.objects.count() == 1
