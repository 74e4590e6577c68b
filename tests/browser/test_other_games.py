"""Ding Niu with a SuanZhang creator and Tiu Yu from captured tiles, walked through on a phone.

Amounts are worked out by hand from RULES.md. Ding Niu: 1st +6, 2nd -1, 3rd -2, 4th -3; when
the SuanZhang creator ranks 1st every payment doubles, otherwise the creator alone pays the 1st
12 chips. Tiu Yu: tiles of 8+ pips count 2 per pip, smaller tiles 1 per red spot (each 1 half
has 1, each 4 half has 4) rounded up to a multiple of 10; every other player pays the highest
score the difference.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import enter_hand, paid, save_hand, start_table, texts


def test_ding_niu_pays_chips_by_rank_and_the_suanzhang_creator_doubles_or_pays(page, shot):
    start_table(page, "ding-niu", ["Anna", "Bob", "Celine", "Dominic"], leader=0)
    expect(page.locator("h1")).to_contain_text("Ding Niu")
    checkboxes = page.locator("#player-0 input[type=checkbox]")
    expect(checkboxes).to_have_count(1)  # the only special of Ding Niu
    expect(checkboxes).to_have_attribute("value", "suanzhang")
    shot(page, "table-started")

    # Hand 1, nobody made the SuanZhang: Bob 4, Anna 8, Celine 12, Dominic 20.
    enter_hand(page, {0: 8, 1: 4, 2: 12, 3: 20})
    save_hand(page, 1)
    assert texts(page, "#saved li.big") == ["Anna −1", "Bob +6", "Celine −2", "Dominic −3"]
    assert paid(page) == ["Anna → Bob 1", "Celine → Bob 2", "Dominic → Bob 3"]
    expect(page.locator("#saved p.big")).to_have_text("Next: Bob leads, counter-clockwise ↺")
    shot(page, "hand-1-by-rank")

    # Hand 2, Celine made the SuanZhang and ranks 1st: every payment doubles.
    expect(page.locator("#first")).to_have_value("Bob")
    enter_hand(page, {0: 20, 1: 8, 2: 4, 3: 12}, {2: "suanzhang"})
    save_hand(page, 2)
    assert texts(page, "#saved li.big") == ["Anna −6", "Bob −2", "Celine +12", "Dominic −4"]
    assert paid(page) == [
        "Anna → Celine 6 (×2)",
        "Bob → Celine 2 (×2)",
        "Dominic → Celine 4 (×2)",
    ]
    shot(page, "hand-2-creator-first")

    # Hand 3, Dominic made the SuanZhang but Anna ranks 1st: Dominic alone pays her 12.
    expect(page.locator("#first")).to_have_value("Celine")
    enter_hand(page, {0: 4, 1: 12, 2: 20, 3: 8}, {3: "suanzhang"})
    save_hand(page, 3)
    assert texts(page, "#saved li.big") == ["Anna +12", "Bob 0", "Celine 0", "Dominic −12"]
    assert paid(page) == ["Dominic → Anna 12"]
    shot(page, "hand-3-creator-not-first")

    cells = ["Anna", "+5", "32", "1", "Bob", "+4", "24", "1"]
    cells += ["Celine", "+10", "36", "1", "Dominic", "−19", "40", "0"]
    expect(page.locator("#scoreboard tbody td")).to_have_text(cells)
    expect(page.locator("#hand-2")).to_contain_text("Celine 4 SuanZhang creator 算张")


def tap_tiles(page: Page, seat: int, tiles: str) -> None:
    for tile in tiles.split():
        page.locator(f"#player-{seat} .picker button[data-tile='{tile}']").tap()


def test_tiu_yu_from_captured_tiles_tapped_in_the_picker(page, shot):
    start_table(page, "tiu-yu", ["Anna", "Bob", "Celine"], leader=0)
    expect(page.locator("h1")).to_contain_text("Tiu Yu")
    expect(page.locator("fieldset[data-player]")).to_have_count(3)
    expect(page.locator("#record-form .seat input[type=checkbox]")).to_have_count(0)
    page.locator("label", has=page.locator("#show-tiles")).click()
    for seat in range(3):
        page.locator(f"#player-{seat} summary", has_text="Or tap the captured tiles").click()
    shot(page, "pickers-open")

    # Fish are caught in mated pairs (the same pips). Anna: large fish 6:6 and 6:6 (24 pips,
    # 48), small fish 1:4 and 2:3 (5 red, 10) = 58.
    tap_tiles(page, 0, "6:6 6:6 1:4 2:3")
    # Bob: large fish 5:5 and 4:6 (20 pips, 40), small fish the ch'i tsun 1:2 and 2:4 (5 red,
    # 10) = 50.
    tap_tiles(page, 1, "5:5 4:6 1:2 2:4")
    # Celine: large fish 4:4 and 2:6 (16 pips, 32), the other ch'i tsun (5 red, 10) = 42.
    tap_tiles(page, 2, "4:4 2:6 1:2 2:4")

    # The deck holds two 1:2 tiles: both are taken, so nobody can tap a third.
    anna_12 = page.locator("#player-0 .picker button[data-tile='1:2']")
    expect(anna_12).to_be_disabled()
    expect(page.locator("#player-2 .picker button[data-tile='1:2']")).to_be_disabled()
    shot(page, "deck-limit-reached")
    page.locator("#player-2 .chosen button", has_text="1:2").first.tap()
    expect(page.locator("#tiles-2")).to_have_value("4:4 2:6 2:4")
    expect(anna_12).to_be_enabled()
    tap_tiles(page, 2, "1:2")
    expect(anna_12).to_be_disabled()

    expect(page.locator("#tiles-0")).to_have_value("6:6 6:6 1:4 2:3")
    expect(page.locator("#tiles-1")).to_have_value("5:5 4:6 1:2 2:4")
    expect(page.locator("#tiles-2")).to_have_value("4:4 2:6 2:4 1:2")
    shot(page, "tiles-tapped")

    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview li.big")).to_have_text(["Anna +24", "Bob −8", "Celine −16"])
    save_hand(page, 1)
    assert texts(page, "#saved li.big") == ["Anna +24", "Bob −8", "Celine −16"]
    assert paid(page) == ["Bob → Anna 8", "Celine → Anna 16"]
    expect(page.locator("#saved p.big")).to_have_text("Next: Anna leads, counter-clockwise ↺")
    expect(page.locator("#player-0 .picker button")).to_have_count(21)  # set up again
    shot(page, "hand-1-saved")

    # Hand 2 from the fish totals: Anna 0 pips and 11 red (20), Bob 36 pips (72), Celine 16
    # pips and 4 red (42). Bob collects.
    for seat, (large, red) in enumerate([("0", "11"), ("36", "0"), ("16", "4")]):
        page.fill(f"input[name=large-{seat}]", large)
        page.fill(f"input[name=red-{seat}]", red)
    save_hand(page, 2)
    assert texts(page, "#saved li.big") == ["Anna −52", "Bob +82", "Celine −30"]
    assert paid(page) == ["Anna → Bob 52", "Celine → Bob 30"]
    shot(page, "hand-2-saved")

    cells = ["Anna", "−28", "78", "1", "Bob", "+74", "122", "1", "Celine", "−46", "84", "0"]
    expect(page.locator("#scoreboard tbody td")).to_have_text(cells)
