"""Accessible in light and dark (issue 11): axe-core finds no serious or critical violation on
any page, in the four languages, with the phone set to light and to dark, at a phone's size
(the projector at 1280×720). make test checks each page in one language and scheme, turned
each day so that every run checks all eight on some pages; make test-deep checks every page in
all eight. And the pages do follow the phone's setting, the chart's
lines stand out from either page, and the QR codes stay dark on light.

axe-core comes with axe-playwright-python, which puts it in the page with ``page.evaluate``:
that runs as the browser's own script, so the Content-Security-Policy (script-src 'self')
neither blocks it nor has to allow it.

Before each check, whatever a player can open is opened (the tile pickers, the chart's table),
so that axe sees it too; the language menu is opened on a page of its own (it would cover what
is under it, whose contrast axe could then not measure). axe cannot measure text on a gradient
either, such as the tables that scroll sideways: test_phone_quality.py measures those.

All the pages of a language and a scheme are one test, sharing one ledger and one browser: a
test for each page took about twice as long.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, Page, expect

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import Event, Group, TableSession
from ledger.tables import services
from tests.browser.conftest import PHONE, enter_hand
from tests.depth import DEEP
from tests.events.test_events import play

SEATING = ["Anna", "Bob", "Celine", "Dominic"]
COUNTS = [2, 12, 34, 18]
PLAYERS = [f"Player {i:02}" for i in range(1, 9)]
SCHEMES = ["light", "dark"]
LANGUAGES = ["en", "zh-hans", "zh-hant", "ko"]
PROJECTOR = {"width": 1280, "height": 720}
PHONE_SCREEN = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
SERIOUS = {"serious", "critical"}
AXE = Axe()


@dataclass(frozen=True)
class Ledger:
    """What the pages show: a table of real hands, and a club night with a round played."""

    table: TableSession
    event: Event
    group: Group


def dealt(number: int) -> dict[str, Any]:
    """Hand ``number``: the four counts, moved round one seat a hand."""
    turn = number % len(SEATING)
    pips = COUNTS[turn:] + COUNTS[:turn]
    return {"results": {name: {"pips": p} for name, p in zip(SEATING, pips, strict=True)}}


@pytest.fixture
def ledger(transactional_db) -> Ledger:
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    for number in range(1, 7):
        services.hand_record(session=table, number=number, data=dealt(number), device="Phone 1")
    services.hand_correct(session=table, number=2, data=dealt(3), version=1, device="Phone 2")
    services.hand_void(session=table, number=5, version=1, device="Phone 2")

    # Round 1 played; round 2 seated, not begun (so the organiser can swap, begin or undo).
    event = event_services.event_create(
        name="Club night", game="jie-long", options={}, rounds=3, minutes_per_round=30
    )
    for name in PLAYERS:
        event_services.entry_add(event=event, name=name, organiser=True)
    first = event_services.round_begin(round=event_services.round_seat(event=event))
    for played in first.tables.all():
        play(played, *COUNTS)
    event_services.round_seat(event=event)

    # A group with two evenings, one of them another game, and a payment, one voided.
    group = group_services.group_create(name="Thursday teahouse", game="ce-deng", options={})
    evening = group_services.table_start(group=group, seating=SEATING, first="Anna")
    for number in range(1, 4):
        services.hand_record(session=evening, number=number, data=dealt(number))
    again = group_services.play_again(table=evening)
    services.hand_record(session=again, number=1, data=dealt(2))
    group_services.payment_record(group=group, payer="Celine", payee="Anna", amount="20")
    wrong = group_services.payment_record(group=group, payer="Bob", payee="Anna", amount="7")
    group_services.payment_void(payment=wrong.payment)
    return Ledger(table, event, group)


def group_page(page: Page, ledger: Ledger) -> None:
    """The organiser's view, with the new table's and the payment's forms open."""
    group = ledger.group
    page.goto(f"/g/{group.token}/organise/{group.organiser_token}/")
    page.locator("#new-table summary").click()
    page.locator("#new-payment summary").click()
    expect(page.locator("#payment-form")).to_be_visible()


def group_statistics(page: Page, ledger: Ledger) -> None:
    page.goto(f"/g/{ledger.group.token}/statistics/")
    page.get_by_role("button", name=re.compile("Compare|比较|比較|비교")).click()
    expect(page.locator("#pair-sides")).to_be_visible()


def table_page(page: Page, ledger: Ledger) -> None:
    # The organiser's link: the page has the organiser's part too.
    page.goto(f"/t/{ledger.table.token}/organise/{ledger.table.organiser_token}/")
    expect(page.locator("#organiser")).to_be_visible()
    # The tile pickers shown, one tile chosen.
    page.locator("label", has=page.locator("#show-tiles")).click()
    page.locator("#player-0 summary").click()
    page.locator("#player-0 .picker button[data-tile='6:6']").click()
    expect(page.locator("#player-0 .chosen button")).to_have_count(1)


def refused_page(page: Page, ledger: Ledger) -> None:
    page.goto(f"/t/{ledger.table.token}/")
    enter_hand(page, {0: 2, 1: 1, 2: 34, 3: 18})
    page.locator("button[name=action][value=save]").click()
    expect(page.locator("#problems")).to_be_visible()


def confirm_page(page: Page, ledger: Ledger) -> None:
    page.goto(f"/o/{ledger.event.token}/")
    page.locator("#begin").click()
    expect(page.locator("#question")).to_be_visible()


def void_asks(page: Page, ledger: Ledger) -> None:
    page.goto(f"/t/{ledger.table.token}/organise/{ledger.table.organiser_token}/")
    page.goto(f"/t/{ledger.table.token}/hands/2/")
    page.locator("#correct-form button.danger").click()
    expect(page.locator("#question")).to_be_visible()


def language_menu(page: Page, ledger: Ledger) -> None:
    page.goto("/")
    page.locator("details.lang summary").click()
    expect(page.locator("details.lang button").first).to_be_visible()


def api_docs(page: Page, ledger: Ledger) -> None:
    page.goto("/api/v1/docs/")
    expect(page.locator(".opblock").first).to_be_visible()


def goto(path: str) -> Callable[[Page, Ledger], None]:
    def open_path(page: Page, ledger: Ledger) -> None:
        table, event, group = ledger.table, ledger.event, ledger.group
        page.goto(
            path.format(
                group=group.token,
                group_player=group.players.get(name="Celine").pk,
                token=table.token,
                read_token=table.read_token,
                event=event.token,
                register=event.register_token,
                results=event.read_token,
            )
        )

    return open_path


PAGES: dict[str, Callable[[Page, Ledger], None]] = {
    "home": goto("/"),
    "language-menu": language_menu,
    "new-table": goto("/new/"),
    "table": table_page,
    "table-refused": refused_page,
    "hand": goto("/t/{token}/hands/2/"),
    "void-asks": void_asks,
    "history": goto("/t/{token}/history/"),
    "summary": goto("/t/{token}/summary/"),
    "shared": goto("/s/{read_token}/"),
    "new-tournament": goto("/events/new/"),
    "organiser": goto("/o/{event}/"),
    "organiser-asks": confirm_page,
    "table-cards": goto("/o/{event}/rounds/1/cards/"),
    "registration": goto("/j/{register}/"),
    "results": goto("/e/{results}/"),
    "player": goto("/e/{results}/players/Player 01/"),
    "projector": goto("/e/{results}/projector/"),
    "new-group": goto("/groups/new/"),
    "group": group_page,
    "group-tables": goto("/g/{group}/tables/"),
    "group-payments": goto("/g/{group}/payments/"),
    "group-player": goto("/g/{group}/players/{group_player}/"),
    "group-statistics": group_statistics,
    "api-docs": api_docs,
    "offline": goto("/offline/"),
}


def serious_violations(page: Page) -> list[str]:
    """What axe finds serious or critical on ``page``: a line per rule, with where it is."""
    page.evaluate(
        "document.querySelectorAll('details:not(.lang)').forEach(d => { d.open = true; })"
    )
    found = AXE.run(page).response["violations"]
    return [
        f"{rule['id']} ({rule['impact']}): {rule['help']}\n"
        + "\n".join(f"    {' '.join(map(str, node['target']))}" for node in rule["nodes"])
        for rule in found
        if rule["impact"] in SERIOUS
    ]


@pytest.fixture
def new_page(browser, live_server) -> Iterator[Callable[..., Page]]:
    """``new_page(scheme, language)``: a page on a phone set to that scheme and language, or
    with ``projector=True`` on a 1280×720 screen."""
    contexts: list[BrowserContext] = []

    def new(scheme: str, language: str = "en", *, projector: bool = False) -> Page:
        screen = {"viewport": PROJECTOR} if projector else PHONE_SCREEN
        context = browser.new_context(
            base_url=live_server.url, color_scheme=scheme, locale=language, **screen
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield new
    for context in contexts:
        context.close()


# In make test each page is checked in one language and scheme, turned one step a day, so that
# in every run each of the eight is checked on some pages and in eight days every page in each;
# make test-deep checks every page in all eight. AXE_ROTATION=<n> runs day n's again.
VARIANTS = [(scheme, language) for language in LANGUAGES for scheme in SCHEMES]
ROTATION = int(os.environ.get("AXE_ROTATION", date.today().toordinal()))


def checked_in(scheme: str, language: str, day: int = ROTATION) -> list[str]:
    """The pages checked in ``scheme`` and ``language`` on ``day``'s run."""
    chosen = []
    for turn, name in enumerate(PAGES):
        turned_to, in_language = VARIANTS[(turn + day) % len(VARIANTS)]
        if name == "api-docs":  # the API and its docs are in English only
            if language != "en":
                continue
            in_language = "en"
        if DEEP or (turned_to, in_language) == (scheme, language):
            chosen.append(name)
    return chosen


def test_each_day_checks_every_page_and_every_language_and_scheme_on_some_page():
    for day in range(len(VARIANTS)):
        checked = {variant: checked_in(*variant, day=day) for variant in VARIANTS}
        assert all(checked.values()), (day, checked)
        assert sorted(sum(checked.values(), [])) == sorted(PAGES) or DEEP, (day, checked)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_no_page_has_a_serious_accessibility_violation(new_page, ledger, shot, scheme, language):
    phone, projector = new_page(scheme, language), new_page(scheme, language, projector=True)

    found = []
    for name in checked_in(scheme, language):
        page = projector if name == "projector" else phone
        PAGES[name](page, ledger)
        if name != "api-docs":
            expect(page.locator("html")).to_have_attribute("lang", language)
        found += [f"the {name} page: {violation}" for violation in serious_violations(page)]
        shot(page, name)

    assert not found, f"{scheme}, {language} (AXE_ROTATION={ROTATION}):\n" + "\n".join(found)


def luminance(css: str) -> float:
    """The relative luminance of a computed colour, "rgb(r, g, b)"."""

    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(v) / 255) for v in re.findall(r"\d+", css)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# A QR code's light surround: the background it is drawn on (its own, or else the page's), and
# its padding as a share of a module's width (an inline code's viewBox counts its modules; the
# table's <img>, from ledger.tables.views.qr, is drawn MODULE_PX pixels to a module).
MODULE_PX = 6
SURROUND = """(code, modulePx) => {
  let background = "rgba(0, 0, 0, 0)";
  for (let e = code; e && background === "rgba(0, 0, 0, 0)"; e = e.parentElement) {
    background = getComputedStyle(e).backgroundColor;
  }
  const style = getComputedStyle(code);
  const modules = code.viewBox ? code.viewBox.baseVal.width : code.naturalWidth / modulePx;
  const module = parseFloat(style.width) / modules;
  return {background, padding: parseFloat(style.paddingLeft) / module};
}"""


@pytest.mark.parametrize("scheme", SCHEMES)
def test_pages_follow_the_phones_scheme_and_qr_codes_stay_dark_on_light(new_page, ledger, scheme):
    page = new_page(scheme)
    PAGES["summary"](page, ledger)

    text, background = page.evaluate(
        "[getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]"
    )
    dark = scheme == "dark"
    assert (luminance(background) < 0.01) == dark and (luminance(text) > 0.8) == dark
    # The chart's lines: four colours of their own, each at 3:1 or more on this page.
    strokes = [
        line.evaluate("e => getComputedStyle(e).stroke")
        for line in page.locator("svg.chart polyline").all()
    ]
    assert len(set(strokes)) == len(SEATING)
    assert all(contrast(stroke, background) >= 3 for stroke in strokes), strokes

    # The table's QR code (an <img>) and the registration link's (inline <svg>), black on white
    # with the quiet zone a scanner wants (4 modules: the code's own 2, then the padding's).
    page.goto(f"/t/{ledger.table.token}/")
    codes = [page.locator(".qr img").evaluate(SURROUND, MODULE_PX)]
    page.goto(f"/o/{ledger.event.token}/")
    codes.append(page.locator("#register-qr svg").evaluate(SURROUND, MODULE_PX))
    assert page.locator("#register-qr svg path").get_attribute("stroke") == "#000"
    for code in codes:
        assert code["background"] == "rgb(255, 255, 255)", code
        if dark:  # on a light page, the page is the quiet zone
            assert code["padding"] >= 2, code
