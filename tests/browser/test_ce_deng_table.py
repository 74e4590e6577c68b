"""The issue's walk-through on two phones: a Ce Deng table, live, corrected and exported.

Amounts are worked out by hand from RULES.md. Ce Deng is pairwise: for every pair the higher
score pays the lower stake x multiplier x difference, with pass-normal x2, low (head or tail)
- normal x2 and pass-low x4; the direction alternates ccw, cw, ...; the winner leads next.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from ledger.models import Hand
from ledger.tables import services
from tests.browser.conftest import csv_rows, enter_hand, paid, save_hand, start_table, texts

SEATING = ["Anna", "Bob", "Celine", "Dominic"]
LIVE = 5000  # ms: every phone at the table sees a change within 5 seconds
LARGE = 24  # px: the nets and who leads next, readable across the table

CCW, CW = "counter-clockwise ↺", "clockwise ↻"  # the direction, as the page says it


def expect_totals(page: Page, rows: list[str], table: str = "#scoreboard") -> None:
    """The totals table shows ``rows`` ("name net points won"), now or within 5 seconds."""
    cells = [cell for row in rows for cell in row.split()]
    expect(page.locator(f"{table} tbody td")).to_have_text(cells, timeout=LIVE)


def expect_leads(page: Page, name: str, direction: str) -> None:
    """The hand form is filled in with who leads and which way, as the rules say."""
    expect(page.locator("#first")).to_have_value(name)
    expect(page.locator(f"input[name=direction][value={direction}]")).to_be_checked()


def test_a_ce_deng_table_is_live_on_two_phones_corrected_and_exported(
    page, new_context, live_server, shot
):
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(request.url))

    table = start_table(page, "ce-deng", SEATING, leader=0)
    expect(page.locator("h1")).to_contain_text("Ce Deng")
    expect(page.locator("h2").first).to_have_text("Hand 1")
    expect_leads(page, "Anna", "ccw")
    page.locator("#who").get_by_role("button", name="Anna").click()  # "I am Anna"
    expect(page.locator("#who")).to_contain_text("This phone is Anna’s")
    shot(page, "table-started")

    # A second phone joins through the link the table page shows.
    join = page.locator("#join-link").get_attribute("href")
    assert join == f"{live_server.url}{table}"
    other = new_context().new_page()
    other.context.on("request", lambda request: requested.append(request.url))
    other.goto(join)
    other.locator("#who").get_by_role("button", name="Bob").click()  # "I am Bob"
    expect(other.locator("#who")).to_contain_text("This phone is Bob’s")
    other.evaluate("window.neverReloaded = true")
    expect(other.locator("#hands")).to_have_text("No hands yet.")
    shot(other, "second-phone-joined")

    # Hand 1, Anna leads counter-clockwise and passes: every normal player pays her double.
    enter_hand(page, {0: 0, 1: 12, 2: 34, 3: 18}, {0: "pass"})
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview li.big")).to_have_text(
        ["Anna +128", "Bob +4", "Celine −106", "Dominic −26"]
    )
    shot(page, "hand-1-preview")
    assert not Hand.objects.exists()

    save_hand(page, 1)
    assert texts(page, "#saved li.big") == ["Anna +128", "Bob +4", "Celine −106", "Dominic −26"]
    assert paid(page) == [
        "Bob → Anna 24 (×2)",
        "Celine → Anna 68 (×2)",
        "Celine → Bob 22",
        "Celine → Dominic 16",
        "Dominic → Anna 36 (×2)",
        "Dominic → Bob 6",
    ]
    expect(page.locator("#saved p.big")).to_have_text("Next: Anna leads, clockwise ↻")
    sizes = page.locator("#saved .big").evaluate_all(
        "all => all.map(el => parseFloat(getComputedStyle(el).fontSize))"
    )
    assert len(sizes) == 5 and min(sizes) >= LARGE, f"not large type: {sizes} px"
    shot(page, "hand-1-saved")

    after_one = ["Anna +128 0 1", "Bob +4 12 0", "Celine −106 34 0", "Dominic −26 18 0"]
    expect(other.locator("#hand-1")).to_contain_text("Anna 0 pass 通, Bob 12", timeout=LIVE)
    expect_totals(other, after_one)
    # Its untouched form moves on to the next hand, led as the rules say.
    expect(other.locator("#hand-form h2")).to_have_text("Hand 2", timeout=LIVE)
    expect_leads(other, "Anna", "cw")
    shot(other, "hand-1-seen-live")

    # Hand 2, Anna leads clockwise; Bob never played a tile (tail-eight): he pays double.
    expect_leads(page, "Anna", "cw")
    enter_hand(page, {0: 6, 1: 34, 2: 20, 3: 4}, {1: "tail_eight"})
    save_hand(page, 2)
    assert texts(page, "#saved li.big") == ["Anna +68", "Bob −144", "Celine −2", "Dominic +78"]
    assert paid(page) == [
        "Anna → Dominic 2",
        "Bob → Anna 56 (×2)",
        "Bob → Celine 28 (×2)",
        "Bob → Dominic 60 (×2)",
        "Celine → Anna 14",
        "Celine → Dominic 16",
    ]
    expect(page.locator("#saved p.big")).to_have_text("Next: Dominic leads, counter-clockwise ↺")
    shot(page, "hand-2-saved")
    expect(other.locator("#hand-2")).to_contain_text("Bob 34 tail-eight 尾八", timeout=LIVE)
    shot(other, "hand-2-seen-live")

    # Hand 3, Dominic leads counter-clockwise: only he may have a head special, and no tail.
    expect_leads(page, "Dominic", "ccw")
    expect(page.locator("#player-3 [data-seat=head]")).to_be_visible()
    expect(page.locator("#player-3 [data-seat=tail]")).to_be_hidden()
    expect(page.locator("#player-0 [data-seat=head]")).to_be_hidden()
    expect(page.locator("#player-0 [data-seat=tail]")).to_be_visible()
    enter_hand(page, {0: 15, 1: 7, 2: 22, 3: 10})
    save_hand(page, 3)
    assert texts(page, "#saved li.big") == ["Anna −6", "Bob +26", "Celine −34", "Dominic +14"]
    expect(page.locator("#saved p.big")).to_have_text("Next: Bob leads, clockwise ↻")
    shot(page, "hand-3-saved")

    after_three = ["Anna +190 21 1", "Bob −114 53 1", "Celine −142 76 0", "Dominic +66 32 1"]
    expect(other.locator("#hand-3")).to_contain_text("Dominic 10", timeout=LIVE)
    expect_totals(other, after_three)
    expect_totals(page, after_three)
    assert other.evaluate("window.neverReloaded")
    shot(other, "hand-3-seen-live")

    page.get_by_role("link", name="Summary", exact=True).click()
    expect_totals(page, after_three, "#totals")
    assert sorted(texts(page, "#settle-up li")) == [
        "Bob → Anna 48",
        "Bob → Dominic 66",
        "Celine → Anna 142",
    ]
    shot(page, "summary-before-correction")
    page.goto(table)

    # The second phone corrects hand 2 from its page: Dominic had 12, not 4.
    other.locator("#hand-2 a").click()
    other.wait_for_url(f"**{table}hands/2/")
    expect(other.locator("#pips-3")).to_have_value("4")
    expect(other.locator("#player-1 input[value=tail_eight]")).to_be_checked()
    expect_leads(other, "Anna", "cw")
    shot(other, "hand-2-page")
    other.fill("#pips-3", "12")
    other.get_by_role("button", name="Save correction").click()
    other.wait_for_url(re.compile(re.escape(table) + r"\?changed=2#hand-form$"))
    corrected = other.locator("#changed")
    expect(corrected).to_contain_text("Hand 2 corrected.")
    expect(corrected.locator("p", has_text="Before:")).to_contain_text("Dominic 4")
    expect(corrected.locator("p", has_text="After:")).to_contain_text("Dominic 12")
    expect(corrected).to_be_in_viewport()
    assert Hand.objects.get(number=2).device == "Bob"  # who corrected it, as the phone said
    shot(other, "hand-2-corrected")

    after_correction = ["Anna +198 21 2", "Bob −98 53 1", "Celine −134 76 0", "Dominic +34 40 0"]
    expect_totals(other, after_correction)
    expect(page.locator("#hand-2")).to_contain_text("Dominic 12", timeout=LIVE)
    expect(page.locator("#hand-2")).to_contain_text("(corrected)")
    expect_totals(page, after_correction)
    shot(page, "correction-seen-live")

    page.get_by_role("link", name="Summary", exact=True).click()
    expect_totals(page, after_correction, "#totals")
    assert sorted(texts(page, "#settle-up li")) == [
        "Bob → Anna 64",
        "Bob → Dominic 34",
        "Celine → Anna 134",
    ]
    shot(page, "summary-after-correction")

    exports = {}
    for kind, link in [
        ("hands", "Hands (CSV)"),
        ("payments", "Payments (CSV)"),
        ("settle-up", "Settle-up (CSV)"),
    ]:
        with page.expect_download() as download:
            page.get_by_role("link", name=link).click()
        assert download.value.suggested_filename.endswith(f"-{kind}.csv")
        exports[kind] = csv_rows(download.value)

    # Downloaded from the page: as a person reads it (the API gives the keys, docs/exports.md).
    head = ["Hand", "Voided", "Led by", "Direction", "The hand", "Player", "Seat", "Turn"]
    assert exports["hands"] == [
        [*head, "Score", "Specials", "Rank", "Net"],
        ["1", "", "Anna", CCW, "", "Anna", "1", "1", "0", "pass 通", "1", "128"],
        ["1", "", "Anna", CCW, "", "Bob", "2", "2", "12", "", "2", "4"],
        ["1", "", "Anna", CCW, "", "Celine", "3", "3", "34", "", "4", "-106"],
        ["1", "", "Anna", CCW, "", "Dominic", "4", "4", "18", "", "3", "-26"],
        ["2", "", "Anna", CW, "", "Anna", "1", "1", "6", "", "1", "76"],
        ["2", "", "Anna", CW, "", "Bob", "2", "4", "34", "tail-eight 尾八", "4", "-128"],
        ["2", "", "Anna", CW, "", "Celine", "3", "3", "20", "", "3", "6"],
        ["2", "", "Anna", CW, "", "Dominic", "4", "2", "12", "", "2", "46"],
        ["3", "", "Dominic", CCW, "", "Anna", "1", "2", "15", "", "3", "-6"],
        ["3", "", "Dominic", CCW, "", "Bob", "2", "3", "7", "", "1", "26"],
        ["3", "", "Dominic", CCW, "", "Celine", "3", "4", "22", "", "4", "-34"],
        ["3", "", "Dominic", CCW, "", "Dominic", "4", "1", "10", "", "2", "14"],
    ]
    assert exports["payments"][0] == ["Hand", "From", "To", "Amount", "Multiplier", "Reason"]
    assert sorted(exports["payments"][1:]) == [
        ["1", "Bob", "Anna", "24", "2", "pass"],
        ["1", "Celine", "Anna", "68", "2", "pass"],
        ["1", "Celine", "Bob", "22", "1", "difference"],
        ["1", "Celine", "Dominic", "16", "1", "difference"],
        ["1", "Dominic", "Anna", "36", "2", "pass"],
        ["1", "Dominic", "Bob", "6", "1", "difference"],
        ["2", "Bob", "Anna", "56", "2", "low"],
        ["2", "Bob", "Celine", "28", "2", "low"],
        ["2", "Bob", "Dominic", "44", "2", "low"],
        ["2", "Celine", "Anna", "14", "1", "difference"],
        ["2", "Celine", "Dominic", "8", "1", "difference"],
        ["2", "Dominic", "Anna", "6", "1", "difference"],
        ["3", "Anna", "Bob", "8", "1", "difference"],
        ["3", "Anna", "Dominic", "5", "1", "difference"],
        ["3", "Celine", "Anna", "7", "1", "difference"],
        ["3", "Celine", "Bob", "15", "1", "difference"],
        ["3", "Celine", "Dominic", "12", "1", "difference"],
        ["3", "Dominic", "Bob", "3", "1", "difference"],
    ]
    assert exports["settle-up"][0] == ["From", "To", "Amount"]
    assert sorted(exports["settle-up"][1:]) == [
        ["Bob", "Anna", "64"],
        ["Bob", "Dominic", "34"],
        ["Celine", "Anna", "134"],
    ]

    outside = [url for url in requested if not url.startswith(f"{live_server.url}/")]
    assert not outside, f"requests left the server: {outside}"


def test_an_impossible_score_gets_the_engines_message_beside_it_and_nothing_is_saved(page, shot):
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    page.goto(f"/t/{session.token}/")

    enter_hand(page, {0: 2, 1: 1, 2: 34, 3: 18})
    page.get_by_role("button", name="Save hand").click()

    expect(page.locator("#player-1 .error")).to_contain_text(
        "Bob's score of 1 is impossible: no set of up to 8 tiles from the Chinese set of 32 tiles"
    )
    expect(page.locator(".error")).to_have_count(1)
    expect(page.locator("#pips-1")).to_have_value("1")  # what was typed stays, to fix it
    expect(page.locator("#pips-2")).to_have_value("34")
    expect(page.locator("#saved")).to_have_count(0)
    shot(page, "impossible-score")
    assert not Hand.objects.exists()

    page.reload()
    expect(page.locator("#hands")).to_have_text("No hands yet.")
    expect(page.locator("h2").first).to_have_text("Hand 1")


def test_changing_who_leads_moves_the_head_and_tail_specials(page):
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    page.goto(f"/t/{session.token}/")
    expect(page.locator("#player-0 [data-seat=head]")).to_be_visible()
    expect(page.locator("#player-1 [data-seat=head]")).to_be_hidden()

    page.select_option("#first", "Bob")

    expect(page.locator("#player-1 [data-seat=head]")).to_be_visible()
    expect(page.locator("#player-1 [data-seat=tail]")).to_be_hidden()
    expect(page.locator("#player-0 [data-seat=head]")).to_be_hidden()
    expect(page.locator("#player-0 [data-seat=tail]")).to_be_visible()


def test_a_redeal_and_declared_doubles_are_recorded_from_their_controls(page, shot):
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    page.goto(f"/t/{session.token}/")

    # Anna was dealt 7 doubles: a redeal pays nothing and keeps the lead and direction.
    page.check("input[name=event][value=redeal]")
    page.select_option("select[name=event_player]", "Anna")
    save_hand(page, 1)
    assert texts(page, "#saved li.big") == ["Anna 0", "Bob 0", "Celine 0", "Dominic 0"]
    expect(page.locator("#saved p.big")).to_have_text("Next: Anna leads, counter-clockwise ↺")
    shot(page, "redeal-saved")

    # Bob was dealt 8 doubles: everyone else pays him twice the pips in their own hand (the
    # other three hold the rest of the deck: an odd total from 155 to 187, here 157).
    expect_leads(page, "Anna", "ccw")
    page.check("input[name=event][value=declared_doubles]")
    page.select_option("select[name=event_player]", "Bob")
    enter_hand(page, {0: 41, 2: 50, 3: 66})
    save_hand(page, 2)
    assert texts(page, "#saved li.big") == ["Anna −82", "Bob +314", "Celine −100", "Dominic −132"]
    assert paid(page) == [
        "Anna → Bob 82 (×2)",
        "Celine → Bob 100 (×2)",
        "Dominic → Bob 132 (×2)",
    ]
    expect(page.locator("#saved p.big")).to_have_text("Next: Bob leads, clockwise ↻")
    shot(page, "declared-doubles-saved")
