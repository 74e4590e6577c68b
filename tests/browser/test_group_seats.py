"""A group's evening of another game on a 360×640 phone (issue 37, items 2 and 4): the group's
first screen shows Play again, the last evening's result and the balances, with the settle-up a
tap away, before its tables; a table of another game with the same players is started in at
most 4 taps and no typing; a player tapped takes the next free seat and tapped again gives it
back."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from ledger.groups import services
from ledger.models import TableSession
from ledger.tables import services as table_services
from tests.browser.conftest import PHONE, within_first_screen

SEATING = ["Anna", "Bob", "Celine", "Dan"]


def a_group() -> str:
    """Thursday teahouse, Jie Long at 0.50 a point; tonight's first table, one hand played:
    pips 2, 12, 20, 6 (sum 40): Anna +16, Bob -4, Celine -20, Dan +8 (pairwise, stake 0.50)."""
    group = services.group_create(
        name="Thursday teahouse", game="jie-long", options={"stake": "0.50"}
    )
    table = services.table_start(group=group, seating=SEATING, first="Anna")
    pips = dict(zip(SEATING, (2, 12, 20, 6), strict=True))
    results = {name: {"pips": n} for name, n in pips.items()}
    table_services.hand_record(session=table, number=1, data={"results": results})
    return f"/g/{group.token}/"


def test_the_group_s_first_screen_says_where_everyone_stands(page: Page, shot):
    page.goto(a_group())
    shot(page, "first-screen")

    within_first_screen(
        page.locator("#play-again").get_by_role("button", name="Play again", exact=True)
    )
    within_first_screen(page.locator("#last-evening li"))
    expect(page.locator("#last-evening li")).to_have_text(
        re.compile(r"Jie Long.*: Anna \+16 · Dan \+8 · Bob \u22124 · Celine \u221220$")
    )
    within_first_screen(page.locator("table.balances"))
    within_first_screen(page.get_by_role("link", name="Settle up ↓"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # The tables and the form for a new one come after.
    tops = [
        page.locator(part).bounding_box()["y"]
        for part in ("#play-again", "#last-evening", "#balances", "#new-table", "#latest-tables")
    ]
    assert tops == sorted(tops)

    page.get_by_role("link", name="Settle up ↓").click()
    within_first_screen(page.locator("#settle-money + ul"))
    expect(page.locator("#settle-money + ul .owes").first).to_have_text("Celine pays Anna 16")


def test_another_game_with_the_same_players_in_four_taps_without_typing(page: Page, shot):
    group = a_group()
    page.goto(group)
    taps = 0

    def tap(element: Locator) -> None:
        nonlocal taps
        element.click()
        taps += 1

    tap(page.locator("#new-table summary"))
    tap(page.locator("#game-choices .chip", has_text="Ce Deng"))
    shot(page, "ce-deng-chosen")
    tap(page.get_by_role("button", name="Start the table"))
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))

    assert taps <= 4
    table = TableSession.objects.get(token=page.url.rstrip("/").rsplit("/", 1)[1])
    # another game, for what the group plays for (issue 47)
    assert (table.game, table.seating, table.options) == ("ce-deng", SEATING, {"stake": "0.50"})
    expect(page.locator("h1")).to_contain_text("Ce Deng")


def test_a_player_tapped_takes_the_next_free_seat_and_tapped_again_gives_it_back(page: Page, shot):
    page.goto(a_group())
    page.locator("#new-table summary").click()
    chips = page.locator("#seat-choices li")

    def seated() -> list[str]:
        return [
            chip.inner_text().strip() for chip in chips.all() if chip.locator("input").is_checked()
        ]

    page.locator("#seat-choices .chip", has_text="Anna").click()  # Anna leaves seat 1
    assert seated() == ["Bob", "Celine", "Dan"]
    expect(chips.last).to_contain_text("Anna")
    page.locator("#seat-choices .chip", has_text="Bob").click()
    page.locator("#seat-choices .chip", has_text="Anna").click()  # Anna takes the next free seat
    page.locator("#seat-choices .chip", has_text="Bob").click()
    assert seated() == ["Celine", "Dan", "Anna", "Bob"]
    # The seat each sits in is shown beside the name.
    numbers = chips.evaluate_all(
        "lis => lis.map(li => getComputedStyle(li.querySelector('.chip'), '::before').content)"
    )
    assert all(number != "none" for number in numbers)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "seats-tapped")

    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))
    table = TableSession.objects.get(token=page.url.rstrip("/").rsplit("/", 1)[1])
    assert (table.game, table.seating) == ("jie-long", ["Celine", "Dan", "Anna", "Bob"])
    assert table.options == {"stake": "0.50"}
