""" "I am Bob" (issue 47, item 2), on phones at 360×640: a phone says whose it is by one tap on a
name, keeping the hand being typed; a second phone choosing the same name is told; what each
does is then told to the others by name, and the group's page speaks to the person. Served as
tests/browser/test_push.py serves its phones, so that saves reach the others by push."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser import test_push
from tests.browser.conftest import within_first_screen
from tests.live import a_group, save

server = test_push.server  # a fixture: the server with streams
browser_context_args = test_push.browser_context_args  # a fixture: pages open on it


def test_each_phone_says_whose_it_is_and_the_others_are_told_by_name(server, new_context, shot):
    group, table, seating = a_group(server)  # Anna, Bob, Celine at 0.50 a point
    save(server.base, table, seating, 1)
    bobs, annas = (new_context().new_page() for _ in range(2))
    for page in (bobs, annas):
        page.goto(f"/t/{table}/")
        expect(page.locator("html")).to_have_attribute("data-live", "stream")

    who = bobs.locator("#who")
    expect(who).to_contain_text("Whose phone is this? Tap your name.")
    bobs.fill("#pips-0", "7")  # a hand being typed when the name is tapped
    shot(bobs, "whose-phone")
    who.get_by_role("button", name="Bob").click()  # one tap
    expect(who).to_contain_text("This phone is Bob’s")
    expect(bobs.locator("#pips-0")).to_have_value("7")  # kept: only the choice was swapped
    expect(who.get_by_role("button", name="Bob")).to_be_hidden()  # folded once chosen

    annas.reload()
    expect(annas.locator("#who")).to_contain_text("Claimed by another phone: Bob.")
    annas.locator("#who").get_by_role("button", name="Anna").click()
    expect(annas.locator("#who")).to_contain_text("This phone is Anna’s")
    shot(annas, "chosen")

    # Bob saves hand 2: Anna's phone hears it by name.
    for seat, pips in enumerate(["7", "12", "22"]):
        bobs.fill(f"#pips-{seat}", pips)
    bobs.get_by_role("button", name="Save hand").click()
    expect(bobs.locator("#saved")).to_contain_text("Hand 2 saved.")
    expect(annas.locator("#arrived")).to_have_text("Hand 2 saved by Bob.", timeout=5_000)

    # Anna corrects hand 1: Bob's phone is told who did it.
    annas.goto(f"/t/{table}/hands/1/")
    annas.fill("#pips-0", "30")
    annas.get_by_role("button", name="Save correction").click()
    expect(annas.locator("#changed")).to_contain_text("Hand 1 corrected.")
    told = bobs.locator("#told")
    expect(told).to_be_visible(timeout=5_000)
    expect(told).to_contain_text("Anna corrected hand 1")

    # The group's page speaks to Bob: his line of the settle-up, and tonight's.
    bobs.goto(f"/g/{group}/")
    expect(bobs.locator("#evening-money")).to_contain_text("You are")
    expect(bobs.locator(".balances")).to_contain_text("Bob (you)")
    within_first_screen(bobs.locator(".balances"))
    expect(bobs.locator(".settle-up")).to_contain_text(re.compile("You owe|owes you"))
    shot(bobs, "spoken-to")
