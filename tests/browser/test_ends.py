"""A Jie Long table for points only, to 60, on a phone: the page counts towards the target,
announces the winner after the hand that reaches it, and takes no more hands."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ledger.tables import services
from tests.browser.conftest import enter_hand, save_hand


def test_points_to_a_target_end_with_the_winner_and_no_more_hands(page: Page, shot) -> None:
    page.goto("/new/")
    page.check("input[name=game][value=jie-long]")
    for i, name in enumerate(["Anna", "Bob", "Celine"]):
        page.fill(f"#id_player_{i}", name)
    page.check("input[name=first][value='0']")
    page.fill("#id_stake", "0")
    page.fill("#id_play_to", "60")
    shot(page, "options")
    page.get_by_role("button", name="Start").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))

    enter_hand(page, {0: 10, 1: 25, 2: 30})
    save_hand(page, 1)
    expect(page.locator("#end")).to_contain_text("Celine 30 of 60")
    expect(page.locator("#end")).to_contain_text("Anna is ahead.")
    expect(page.locator("#scoreboard thead th")).to_have_text(["Player", "Points", "Won"])
    shot(page, "on-the-way")

    expect(page.locator("#first")).to_have_value("Anna")
    enter_hand(page, {0: 20, 1: 12, 2: 33})
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#over")).to_contain_text("Game over: Anna wins.")
    expect(page.locator("#record-form")).to_have_count(0)
    expect(page.locator("#end")).to_contain_text("Game over: Anna wins.")
    expect(page.locator("#scoreboard tbody td")).to_have_text(
        ["Anna", "30", "1", "Bob", "37", "1", "Celine", "63", "0"]
    )
    shot(page, "over")


def test_where_the_game_ends_moves_in_the_title_line_too_on_another_phone(new_context, shot):
    """The organiser raises the target on their phone: the other phone's #end and the stake
    line under the title both say so, with no reload (issue 45, item 13)."""
    session = services.session_create(
        game="jie-long", options={"play_to": 60}, seating=["Anna", "Bob"], first="Anna"
    )
    other = new_context().new_page()
    other.goto(f"/t/{session.token}/")
    expect(other.locator("#stake")).to_contain_text("to 60 points")

    services.table_ends(session=session, play_to=100, hands=None, ends_at=None)

    expect(other.locator("#end")).to_contain_text("of 100", timeout=10_000)  # it polls (3 s)
    expect(other.locator("#stake")).to_contain_text("to 100 points")
    expect(other.locator("#stake")).to_have_count(1)
    shot(other, "raised")
