"""A way back (issue 20, item 3): the home page lists the tables this phone opened, kept on the
phone, so a lost link is not a lost table; another phone sees none of them."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import enter_hand, save_hand, start_table


def listed(page) -> list[str]:
    """Each table's line after when it began ("Sat, 28/11/2026, 20:10 · "): tables only here."""
    texts = page.locator("#your-tables-list > li > a:first-child").all_inner_texts()
    return [text.split(" · ", 1)[1] for text in texts]


def test_the_home_page_lists_the_tables_this_phone_opened_latest_first(page, new_context, shot):
    page.goto("/")
    expect(page.locator("#your-tables")).to_be_hidden()  # nothing opened yet

    first = start_table(page, "jie-long", ["Anna", "Bob"], leader=0)
    second = start_table(page, "ce-deng", ["Xiaoming", "Meilin", "Zhou", "Li"], leader=1)
    page.goto("/")
    expect(page.locator("#your-tables")).to_be_visible()
    assert listed(page) == [
        "Ce Deng 斜钉 — Xiaoming, Meilin, Zhou, Li",
        "Jie Long 接龙 — Anna, Bob",
    ]
    shot(page, "your tables")
    # This phone started them, so it holds their organiser links too.
    expect(page.locator("#your-tables-list .organiser-link")).to_have_count(2)

    page.goto(first)  # opened again: first in the list
    page.goto("/")
    assert listed(page)[0] == "Jie Long 接龙 — Anna, Bob"
    page.get_by_role("link", name="Jie Long 接龙 — Anna, Bob").click()
    page.wait_for_url(f"**{first}")

    # A player who joins by the link gets it on their own phone, without the organiser's rights.
    other = new_context().new_page()
    other.goto(second)
    other.goto("/")
    assert listed(other) == ["Ce Deng 斜钉 — Xiaoming, Meilin, Zhou, Li"]
    expect(other.locator("#your-tables-list .organiser-link")).to_have_count(0)
    # And nothing of it came from the server.
    assert "Xiaoming" not in other.request.get("/").text()


def test_a_table_forgotten_on_this_phone_leaves_the_list_and_nothing_else(page):
    table = start_table(page, "jie-long", ["Anna", "Bob"], leader=0)
    page.goto("/")
    line = page.locator("#your-tables-list > li", has_text="Jie Long 接龙 — Anna, Bob")
    line.get_by_role("button", name="Forget on this phone").click()
    expect(page.locator("#your-tables")).to_be_hidden()
    assert page.request.get(table).ok  # the table is still there for everyone


def test_the_home_page_lists_a_table_as_it_stands_after_hands_saved_while_it_was_open(
    page, new_context
):
    """A table opened before its first hand and watched while another phone saved hands: the
    home page lists it with its result, as the page last showed it, not with the players it
    began with (issue 45, item 13)."""
    table = start_table(page, "jie-long", ["Anna", "Bob"], leader=0)
    other = new_context().new_page()
    other.goto(table)
    enter_hand(other, {0: 2, 1: 12})
    save_hand(other, 1)
    expect(page.locator("#hand-1")).to_be_visible(timeout=10_000)  # the page polls (3 s)

    page.goto("/")

    assert listed(page) == ["Jie Long 接龙 — Anna +10 · Bob −10"]
