"""Share the evening (issue 37, item 10), on a phone: *Share* hands the text the page carries to
the phone's share sheet (the Web Share API: a stand-in records what it is given, since a test
cannot tap a real one), and where the browser has none, copies it and says so."""

from __future__ import annotations

from playwright.sync_api import expect

from ledger.groups import services
from ledger.tables import services as table_services
from tests.groups.test_share import evening

NO_SHARE = "delete Navigator.prototype.share; delete navigator.share;"
FAKE_SHARE = """
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  value: function (data) { window.sharedWith = data; return Promise.resolve(); },
});
"""


def test_share_copies_the_evening_where_the_phone_has_no_share_sheet(
    new_context, live_server, shot
):
    table = evening("en")
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    context.add_init_script(NO_SHARE)
    page = context.new_page()
    page.goto(f"/g/{table.group.token}/")
    button = page.locator("#share-button")
    button.scroll_into_view_if_needed()
    button.click()
    expect(page.locator("#share-said")).to_have_text("Copied: paste it in the chat.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.splitlines()[2:4] == ["Jie Long 接龙: 2 hands", "Anna −12 · Bob +18 · Celine −6"]
    assert copied == page.locator("#share-text").input_value()
    assert f"{live_server.url}/s/{table.read_token}/" in copied
    shot(page, "copied")


def test_share_opens_the_phones_share_sheet_with_the_tables_result(new_context, live_server):
    table = evening("en")
    context = new_context()
    context.add_init_script(FAKE_SHARE)
    page = context.new_page()
    page.goto(f"/t/{table.token}/summary/")
    page.locator("#share-button").click()
    page.wait_for_function("() => window.sharedWith !== undefined")
    shared = page.evaluate("window.sharedWith")
    assert shared["text"].splitlines() == [
        "Jie Long 接龙",
        "Anna −12 · Bob +18 · Celine −6",
        "Settle up: Anna pays Bob 12 · Celine pays Bob 6",
        f"{live_server.url}/s/{table.read_token}/",
    ]
    expect(page.locator("#share-said")).to_have_text("")


def test_a_table_offers_share_as_its_game_ends_without_reloading(new_context, live_server, shot):
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "1"})
    table = services.table_start(
        group=group, seating=["Anna", "Bob"], first="Anna", options={"stake": "1", "hands": 1}
    )
    context = new_context()
    context.add_init_script(FAKE_SHARE)
    page = context.new_page()
    page.goto(f"/t/{table.token}/")
    expect(page.locator("#record-form")).to_be_visible()
    assert page.locator("#share-button").count() == 0

    hand = {"results": {"Anna": {"pips": 0}, "Bob": {"pips": 12}}}
    table_services.hand_record(session=table, number=1, data=hand)  # another phone's last hand
    button = page.locator("#share-button")
    expect(button).to_be_visible(timeout=10_000)  # with the live part, polled here
    button.click()
    page.wait_for_function("() => window.sharedWith !== undefined")
    assert page.evaluate("window.sharedWith.text").splitlines() == [
        "Jie Long 接龙",
        "Game over: Anna wins.",
        "Anna +12 · Bob −12",
        "Settle up: Bob pays Anna 12",
        f"{live_server.url}/s/{table.read_token}/",
    ]
    shot(page, "game-over-share")
