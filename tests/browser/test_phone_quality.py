"""Phone quality: every page fits 360x640 without sideways scrolling, tap targets are at least
44 px, text has high contrast, reading works with JavaScript off, and nothing is fetched from
anywhere but our own server."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ledger.models import TableSession
from ledger.tables import services
from tests.browser.conftest import PHONE, enter_hand, save_hand, start_table, texts

SEATING = ["Anna", "Bob", "Celine", "Dominic"]
TAP = 44  # px, the smallest comfortable tap target (WCAG 2.5.5)
CONTRAST = 4.5  # WCAG AA for text of normal size
GRAPHIC_CONTRAST = 3  # WCAG AA for the parts of a graphic that carry meaning

PAGES = {
    "new-table": "/new/",
    "table": "/t/{token}/?saved=2",
    "hand": "/t/{token}/hands/2/",
    "summary": "/t/{token}/summary/",
    "history": "/t/{token}/history/",
    "shared": "/s/{read_token}/",
}


@pytest.fixture
def played(transactional_db) -> TableSession:
    """A Ce Deng table with two hands: a pass, then a tail-eight."""
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    hands = [
        ("ccw", {"Anna": {"pips": 0, "specials": ["pass"]}, "Bob": {"pips": 12}}),
        ("cw", {"Anna": {"pips": 6}, "Bob": {"pips": 34, "specials": ["tail_eight"]}}),
    ]
    for number, (direction, results) in enumerate(hands, start=1):
        results |= {"Celine": {"pips": 20}, "Dominic": {"pips": 4}}
        data = {"first": "Anna", "direction": direction, "results": results}
        services.hand_record(session=session, number=number, data=data, device="Anna's phone")
    return session


def open_page(page: Page, name: str, session: TableSession) -> None:
    page.goto(PAGES[name].format(token=session.token, read_token=session.read_token))
    # Whatever a player can open is measured open: the tile pickers most of all.
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")


SMALL_TARGETS = """(tap) => {
  const small = [];
  for (const el of document.querySelectorAll(
      "button, nav a, .actions a, a.button, input, select, summary")) {
    if (el.type === "hidden" || !el.checkVisibility()) continue;
    // A checkbox or radio is tapped through its label, which holds it.
    const target = ["checkbox", "radio"].includes(el.type) ? el.closest("label") || el : el;
    const box = target.getBoundingClientRect();
    if (box.width < tap || box.height < tap) {
      const name = el.id ? "#" + el.id : el.name ? `[name=${el.name}]` : "";
      const text = (el.innerText || el.value || "").trim().slice(0, 30);
      small.push(`<${el.tagName.toLowerCase()}${name}> "${text}" is `
        + `${Math.round(box.width)}x${Math.round(box.height)} px`);
    }
  }
  return small;
}"""

LOW_CONTRAST = """([text, graphic]) => {
  const rgb = (css) => {
    const [r, g, b, a = 1] = css.match(/[\\d.]+/g).map(Number);
    return {r, g, b, a};
  };
  const luminance = ({r, g, b}) => {
    const f = (v) => (v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const colour = rgb(getComputedStyle(e).backgroundColor);
      if (colour.a > 0) return colour;
    }
    return {r: 255, g: 255, b: 255, a: 1};
  };
  const low = [];
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!walker.currentNode.textContent.trim() || seen.has(el)) continue;
    seen.add(el);
    // Disabled controls are exempt (WCAG 1.4.3); they are faded on purpose.
    if (!el.checkVisibility() || el.closest(":disabled")) continue;
    const [light, dark] = [luminance(rgb(getComputedStyle(el).color)), luminance(background(el))]
      .sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    // A glyph hidden from screen readers is a graphic, such as a chart's colour key: 3:1.
    if (ratio < (el.closest("[aria-hidden=true]") ? graphic : text)) {
      const words = el.textContent.trim().slice(0, 30);
      low.push(`<${el.tagName.toLowerCase()}> "${words}": ${ratio.toFixed(2)}:1 `
        + `(${getComputedStyle(el).color} on ${getComputedStyle(el).backgroundColor})`);
    }
  }
  return low;
}"""


SPLIT_WORDS = """() => {
  const split = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const word = node.textContent.trim();
    if (!word || /\\s/.test(word) || !node.parentElement.closest("table")) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
    if (lines.size > 1) split.push(`"${word}" is split over ${lines.size} lines`);
  }
  return split;
}"""


@pytest.mark.parametrize("name", PAGES)
def test_page_fits_a_phone_without_sideways_scrolling(page, played, shot, name):
    open_page(page, name, played)
    shot(page, name)

    width = page.evaluate("document.documentElement.scrollWidth")
    assert page.evaluate("window.innerWidth") == PHONE["width"]
    assert width <= PHONE["width"], f"the {name} page is {width} px wide"


@pytest.mark.parametrize("name", PAGES)
def test_no_name_or_amount_in_a_table_is_split_over_lines(page, played, name):
    open_page(page, name, played)

    split = page.evaluate(SPLIT_WORDS)

    assert not split, f"in the tables of the {name} page:\n" + "\n".join(split)


@pytest.mark.parametrize("name", PAGES)
def test_every_tap_target_is_at_least_44_px(page, played, name):
    open_page(page, name, played)

    small = page.evaluate(SMALL_TARGETS, TAP)

    assert not small, f"too small to tap on the {name} page:\n" + "\n".join(small)


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_has_high_contrast(page, played, scheme, name):
    page.emulate_media(color_scheme=scheme)
    open_page(page, name, played)

    low = page.evaluate(LOW_CONTRAST, [CONTRAST, GRAPHIC_CONTRAST])

    assert not low, f"text below {CONTRAST}:1 on the {name} page, {scheme}:\n" + "\n".join(low)


def test_every_image_of_the_table_page_shows(page, played, shot):
    page.goto(f"/t/{played.token}/")
    page.wait_for_load_state("networkidle")
    shot(page, "table")

    broken = page.evaluate(
        "[...document.images].filter(i => !i.complete || !i.naturalWidth).map(i => i.src)"
    )

    assert not broken, f"images that do not show: {broken}"


def test_table_and_summary_read_with_javascript_off(new_context, played, shot):
    page = new_context(java_script_enabled=False).new_page()

    page.goto(f"/t/{played.token}/")
    shot(page, "table")
    cells = ["Anna", "+140", "6", "1", "Bob", "−168", "46", "0"]
    cells += ["Celine", "−66", "40", "0", "Dominic", "+94", "8", "1"]
    expect(page.locator("#scoreboard tbody td")).to_have_text(cells)
    assert texts(page, "#hands li") == [
        "Anna 6, Bob 34 tail-eight 尾八, Celine 20, Dominic 4 — "
        "Anna +68, Bob −144, Celine −2, Dominic +78",
        "Anna 0 pass 通, Bob 12, Celine 20, Dominic 4 — Anna +72, Bob −24, Celine −64, Dominic +16",
    ]
    expect(page.locator("#first")).to_have_value("Dominic")  # the next hand, filled in

    page.get_by_role("link", name="Summary", exact=True).click()
    shot(page, "summary")
    expect(page.locator("#totals tbody td")).to_have_text(cells)
    expect(page.locator("#hand-table tbody tr[id^=hand-]")).to_have_count(2)

    # Without JavaScript a hand is still saved by an ordinary form post.
    page.go_back()
    enter_hand(page, {0: 15, 1: 7, 2: 22, 3: 10})
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#saved")).to_contain_text("Hand 3 saved.")
    expect(page.locator("#hand-3")).to_contain_text("Anna 15, Bob 7, Celine 22, Dominic 10")
    shot(page, "hand-3-saved")


def test_no_request_leaves_our_server(page, live_server, shot):
    requested: list[str] = []
    page.context.on("request", lambda request: requested.append(request.url))

    table = start_table(page, "ce-deng", SEATING, leader=0)
    page.locator("label", has=page.locator("#show-tiles")).click()
    page.locator("#player-3 summary").click()
    for tile in ("6:6", "3:3"):
        page.locator(f"#player-3 .picker button[data-tile='{tile}']").tap()
    enter_hand(page, {0: 2, 1: 12, 2: 34})
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview")).to_be_visible()
    save_hand(page, 1)
    with page.expect_request(lambda request: "/live/?rev=" in request.url, timeout=5000):
        pass  # the table polls for news
    shot(page, "table")
    for path in ("summary/", "history/", "hands/1/"):
        page.goto(f"{table}{path}")
    page.get_by_role("link", name="Domino ledger").click()
    page.locator("details.lang summary").click()
    page.locator("button[name=language][value=zh-hans]").click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    shot(page, "home-in-chinese")

    assert any("/live/" in url for url in requested)
    outside = [url for url in requested if not url.startswith(f"{live_server.url}/")]
    assert not outside, f"requests left the server: {outside}"
