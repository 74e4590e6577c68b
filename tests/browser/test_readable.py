"""Readable at 360 px (issue 11): no page scrolls sideways as a whole; a table wider than the
screen scrolls in its own box, says so with a shadow, and keeps its first column in view; the
summary's chart has axes, a labelled zero line, and shows a hand's totals on a tap.

The table has long names, so that its tables are wider than the phone, and 12 real Ce Deng
hands (the same four counts, 2, 12, 34 and 18, dealt round the table), one of them corrected
and one voided.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from ledger.events import services as event_services
from ledger.models import Event, TableSession
from ledger.tables import services
from tests.browser.conftest import PHONE, texts
from tests.events.test_events import play

# The first as long as a name may be (40 characters).
SEATING = ["Alexandrina Konstantinou-Papadopoulou-Ng", "Bartholomew", "Constantine", "Dominique"]
COUNTS = [2, 12, 34, 18]
HANDS = 12
PAGES = {
    "table": "/t/{token}/",
    "hand": "/t/{token}/hands/2/",
    "summary": "/t/{token}/summary/",
    "history": "/t/{token}/history/",
    "shared": "/s/{read_token}/",
}


def dealt(number: int) -> dict:
    """Hand ``number``: the four counts, moved round one seat a hand."""
    turn = number % len(SEATING)
    pips = COUNTS[turn:] + COUNTS[:turn]
    return {"results": {name: {"pips": p} for name, p in zip(SEATING, pips, strict=True)}}


@pytest.fixture
def played(transactional_db) -> TableSession:
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first=SEATING[0])
    for number in range(1, HANDS + 1):
        services.hand_record(session=session, number=number, data=dealt(number), device="Phone 1")
    services.hand_correct(session=session, number=2, data=dealt(3), version=1, device="Phone 2")
    services.hand_void(session=session, number=5, version=1, device="Phone 2")
    return session


@pytest.fixture
def event(transactional_db) -> Event:
    """A Jie Long event of eight players with long names, its first round played."""
    event = event_services.event_create(name="Club night", game="jie-long", options={}, rounds=3)
    for name in ("Alexandrina Konstantinou", "Bartholomew Fitzgerald", "Constantine Papadakis"):
        event_services.entry_add(event=event, name=name, organiser=True)
    for i in range(1, 6):
        event_services.entry_add(event=event, name=f"Player {i:02}", organiser=True)
    first = event_services.round_begin(round=event_services.round_seat(event=event))
    for table in first.tables.all():
        play(table, *COUNTS)
    return event


@pytest.mark.parametrize("name", PAGES)
def test_no_page_of_a_table_with_long_names_scrolls_sideways(page, played, shot, name):
    page.goto(PAGES[name].format(token=played.token, read_token=played.read_token))
    # Whatever a player can open is measured open: the chart's table most of all.
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    shot(page, name)

    assert page.evaluate("window.innerWidth") == PHONE["width"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the {name} page is {width} px wide"


def test_an_events_results_and_organiser_pages_do_not_scroll_sideways(page, event, shot):
    for path in (f"/e/{event.read_token}/", f"/o/{event.token}/"):
        page.goto(path)
        shot(page, path.split("/")[1])
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} is {width} px wide"


def box_of(table: Locator) -> Locator:
    return table.locator("xpath=..")


def expect_scrolls_in_its_box_keeping(page: Page, table: str, kept: int = 1) -> None:
    """``table`` is wider than its box, which scrolls it, is named and focusable, shows a
    shadow while there is more to the right, and keeps the first ``kept`` columns in view."""
    box = box_of(page.locator(table))
    assert box.get_attribute("class").split()[0] == "scroll"
    assert box.get_attribute("tabindex") == "0" and box.get_attribute("role") == "region"
    assert box.evaluate("b => b.scrollWidth > b.clientWidth"), f"{table} fits: nothing to test"
    cue = box.evaluate(
        "b => getComputedStyle(b).backgroundImage + getComputedStyle(b).backgroundAttachment"
    )
    assert "gradient" in cue and "local" in cue and "scroll" in cue
    name = box.evaluate(
        "b => b.getAttribute('aria-label')"
        " || document.getElementById(b.getAttribute('aria-labelledby')).textContent"
    )
    assert name.strip()

    first = page.locator(f"{table} tbody tr:first-child > :nth-child({kept})")
    before = first.bounding_box()
    # A keyboard scrolls it: focus the box, then the arrow key.
    box.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("b => b.scrollLeft > 0", arg=box.element_handle())
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    page.wait_for_function(
        "b => b.scrollLeft + b.clientWidth >= b.scrollWidth - 1", arg=box.element_handle()
    )

    after = first.bounding_box()
    frame = box.bounding_box()
    assert after["x"] == pytest.approx(before["x"], abs=1), "the kept column moved"
    assert (
        frame["x"] - 1 <= after["x"] and after["x"] + after["width"] <= frame["x"] + frame["width"]
    )
    # Opaque, so that what scrolls under it does not show through.
    assert first.evaluate("c => getComputedStyle(c).backgroundColor") == "rgb(255, 255, 255)"
    last = page.locator(f"{table} thead th:last-child").bounding_box()
    assert last["x"] + last["width"] <= frame["x"] + frame["width"] + 1, "the end is not in view"


def test_the_summarys_hand_table_scrolls_in_its_box_and_keeps_the_hand_number(page, played, shot):
    page.goto(f"/s/{played.read_token}/")
    page.locator("#hand-table").scroll_into_view_if_needed()
    shot(page, "hand-table")

    expect_scrolls_in_its_box_keeping(page, "#hand-table")

    shot(page, "hand-table-scrolled")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_standings_keep_the_place_and_the_name_in_view(page, event, shot):
    page.goto(f"/e/{event.read_token}/")
    shot(page, "standings")

    expect_scrolls_in_its_box_keeping(page, "#standings", kept=2)
    place = page.locator("#standings tbody tr:first-child > :first-child").bounding_box()
    name = page.locator("#standings tbody tr:first-child > :nth-child(2)").bounding_box()
    assert name["x"] == pytest.approx(place["x"] + place["width"], abs=1)  # no gap, no overlap
    shot(page, "standings-scrolled")


def test_history_reads_as_cards_with_before_and_after_in_full(page, played, shot):
    page.goto(f"/t/{played.token}/history/")
    shot(page, "history")

    cards = page.locator("#history > li")
    expect(cards).to_have_count(HANDS + 2)  # each hand recorded, one corrected, one voided
    corrected = cards.filter(has_text="corrected")
    expect(corrected.locator("a")).to_have_text("Hand 2")
    expect(corrected.locator("dt")).to_have_text(["Before", "After"])
    expect(corrected).to_contain_text("Phone 2")
    for item in corrected.locator("dd").all():
        box = item.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    expect(cards.filter(has_text="voided").locator("dt")).to_have_text(["Before"])


def running_totals(page: Page) -> list[list[str]]:
    """The chart's table, read whether its <details> is open or not."""
    return page.locator("#chart-table tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )


def test_the_chart_has_axes_hand_numbers_and_a_labelled_zero_line(page, played, shot):
    page.goto(f"/t/{played.token}/summary/")
    chart = page.locator("svg.chart")
    chart.scroll_into_view_if_needed()
    shot(page, "chart")

    words = page.locator("svg.chart text").all_text_contents()
    assert words[0] == "Net" and words[-1] == "Hand"
    zero = page.locator("svg.chart text.zero")
    expect(zero).to_have_text("0")
    line = page.locator("svg.chart line.zero")
    assert float(line.get_attribute("y1")) == float(zero.get_attribute("y"))
    assert "1" in words and str(HANDS) in words  # the first and the last hand
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    # Each player's line in a colour, a dash and a marker of their own.
    lines = page.locator("svg.chart polyline")
    styles = [
        (
            el.evaluate("e => getComputedStyle(e).stroke"),
            el.get_attribute("stroke-dasharray"),
            el.get_attribute("marker-end"),
        )
        for el in lines.all()
    ]
    for part in zip(*styles, strict=True):
        assert len(set(part)) == len(SEATING)
    # The text alternative: a row per hand, the last one the totals.
    totals = running_totals(page)
    assert [row[0] for row in totals] == [str(n) if n != 5 else "5 (voided)" for n in range(1, 13)]
    assert totals[4][1:] == totals[3][1:]  # the voided hand changed nothing
    nets = texts(page, "#totals tbody td:nth-child(2)")
    assert totals[-1][1:] == nets


def test_a_tap_on_the_chart_shows_that_hands_totals_for_everyone(page, played, shot):
    page.goto(f"/t/{played.token}/summary/")
    chart = page.locator("svg.chart")
    chart.scroll_into_view_if_needed()
    expect(page.locator("#chart-hint")).to_be_visible()
    totals = running_totals(page)

    band = page.locator("svg.chart .band").nth(2).bounding_box()  # hand 3's band
    page.touchscreen.tap(band["x"] + band["width"] / 2, band["y"] + band["height"] / 2)

    expect(page.locator("#chart-hand")).to_have_text("Hand 3")
    expect(page.locator("#chart-legend .value")).to_have_text(totals[2][1:])
    # A cursor at that hand, and a marker on each line there.
    cursor = page.locator("svg.chart .cursor")
    assert cursor.get_attribute("visibility") is None
    assert cursor.bounding_box()["x"] == pytest.approx(band["x"] + band["width"] / 2, abs=1)
    for dot in page.locator("svg.chart .dot").all():
        expect(dot).to_be_visible()
    shot(page, "hand-3-tapped")

    # The arrow keys step through the hands: to the voided one and back, then the last.
    chart.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#chart-hand")).to_have_text("Hand 5 (voided)")
    page.keyboard.press("End")
    expect(page.locator("#chart-hand")).to_have_text(f"Hand {HANDS}")
    expect(page.locator("#chart-legend .value")).to_have_text(totals[-1][1:])
    shot(page, "last-hand")


def test_without_javascript_the_chart_has_titles_and_its_table(new_context, played, shot):
    page = new_context(java_script_enabled=False).new_page()
    page.goto(f"/t/{played.token}/summary/")

    expect(page.locator("#chart-hint")).to_be_hidden()
    titles = page.locator("svg.chart .band title")
    expect(titles).to_have_count(HANDS)
    assert titles.nth(0).text_content().startswith("Hand 1: Alexandrina ")
    page.locator("#chart-data summary").click()
    expect(page.locator("#chart-table tbody tr")).to_have_count(HANDS)
    shot(page, "chart-table")


def test_the_summary_of_four_players_fits_the_phone_with_no_box_to_scroll(page, shot):
    """Four players of ordinary names: the summary's hands fit a 360 px phone whole, who led
    and the hand as entered under each hand's scores rather than two more columns (issue 45,
    item 15: the table was 599 px wide)."""
    seating = ["Anna", "Bob", "Celine", "Dominic"]
    session = services.session_create(game="jie-long", options={}, seating=seating, first="Anna")
    for number in range(1, 4):
        data = {"results": {name: {"pips": p} for name, p in zip(seating, COUNTS, strict=True)}}
        services.hand_record(session=session, number=number, data=data)
    services.hand_void(session=session, number=2, version=1)
    page.goto(f"/t/{session.token}/summary/")
    shot(page, "summary")

    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    box = box_of(page.locator("#hand-table"))
    assert box.evaluate("b => b.scrollWidth") <= box.evaluate("b => b.clientWidth")
    expect(page.locator("#hand-1 + tr")).to_contain_text("Led by: Anna ↺ · Anna 2, Bob 12")
    expect(page.locator("#hand-2")).to_contain_text("voided")
