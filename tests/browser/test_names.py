"""The names a phone has used are suggested on that phone only: kept in its own storage,
never published by the server."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import start_table

MET = ["Xiaoming", "Meilin", "Zhou"]


def suggested(page) -> list[str]:
    return page.locator("#known-players option").evaluate_all("els => els.map(e => e.value)")


def test_a_name_used_on_this_phone_is_suggested_there_and_on_no_other(page, new_context, shot):
    page.goto("/new/")
    assert suggested(page) == []

    start_table(page, "jie-long", MET, leader=0)
    page.goto("/new/")

    expect(page.locator("#known-players option")).to_have_count(3)
    assert sorted(suggested(page)) == sorted(MET)
    page.fill("#id_player_0", "Xiao")
    shot(page, "suggested")
    # The server sent none of them: the phone added them from what it keeps.
    assert not any(name in page.request.get("/new/").text() for name in MET)

    other = new_context().new_page()
    other.goto("/new/")
    assert suggested(other) == []


def test_names_of_a_table_that_was_not_started_are_not_kept(page):
    page.goto("/new/")
    page.check("input[name=game][value=jie-long]")
    page.fill("#id_player_0", "Solo")  # one player: the form refuses it
    page.get_by_role("button", name="Start").click()
    expect(page.locator(".errorlist").first).to_be_visible()

    page.goto("/new/")
    assert suggested(page) == []


def test_the_new_table_form_offers_as_many_seats_as_the_game_takes(page, shot):
    page.goto("/new/")
    page.check("input[name=game][value=tiu-yu]")
    expect(page.locator("#id_player_2")).to_be_visible()
    expect(page.locator("#id_player_3")).to_be_hidden()
    shot(page, "tiu-yu seats")
    page.check("input[name=game][value=ce-deng]")
    expect(page.locator("#id_player_3")).to_be_visible()
    # A fourth name typed for Ce Deng is not sent when the game becomes Tiu Yu.
    page.fill("#id_player_3", "Dominic")
    page.check("input[name=game][value=tiu-yu]")
    for i, name in enumerate(["Anna", "Bob", "Celine"]):
        page.fill(f"#id_player_{i}", name)
    page.click("#session-form button[type=submit]")
    expect(page.locator("#record-form")).to_be_visible()
    assert "Dominic" not in page.content()
