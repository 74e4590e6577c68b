"""Under the Content-Security-Policy, in a real browser: nothing is refused, htmx still works.

The policy allows no inline script or style and no eval. A page that broke it would lose a
script or a style silently; here every violation the browser reports fails the test.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from ledger.models import Hand
from tests.browser.conftest import enter_hand, save_hand, start_table

SEATING = ["Anna", "Bob", "Celine", "Dominic"]

# Runs before each page's own scripts: the browser's report of every refusal.
WATCH = """
window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const where = `${e.sourceFile}:${e.lineNumber}`;
  window.violations.push(`${e.violatedDirective}: ${e.blockedURI} at ${where}`);
});
"""


@pytest.fixture
def refused(page: Page):
    """``refused()``: every violation reported on the current page (and console complaints
    about the policy on any page so far)."""
    console: list[str] = []
    page.on(
        "console",
        lambda message: (
            console.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.add_init_script(WATCH)

    def report() -> list[str]:
        return console + page.evaluate("window.violations")

    return report


def test_the_watch_sees_an_inline_style_refused(page, refused):
    page.goto("/")
    page.evaluate("document.body.insertAdjacentHTML('beforeend', '<p style=\"color: red\">x</p>')")
    page.wait_for_function("window.violations.length > 0")
    assert any("style-src" in line for line in refused())


def test_a_table_is_started_and_a_hand_saved_with_htmx_under_the_policy(page, refused, shot):
    page.goto("/new/")
    # The new-table form's script (from ledger.js now, not inline) shows only this game's options.
    page.check("input[name=game][value=tiu-yu]")
    expect(page.locator(".option[data-option=head_tail]")).to_be_hidden()
    page.check("input[name=game][value=ce-deng]")
    expect(page.locator(".option[data-option=head_tail]")).to_be_visible()

    start_table(page, "ce-deng", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    save_hand(page, 1)  # htmx posted the form and swapped the answer in
    expect(page.locator("#scoreboard")).to_contain_text("+")
    shot(page, "table")

    assert Hand.objects.count() == 1
    assert page.locator("style").count() == 0  # htmx injected no indicator style
    assert refused() == []


def test_the_summary_and_its_chart_show_under_the_policy(page, refused, shot):
    path = start_table(page, "ce-deng", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    save_hand(page, 1)

    page.goto(f"{path}summary/")
    expect(page.locator("svg.chart polyline")).to_have_count(4)
    swatches = page.locator(".legend svg.swatch line")
    expect(swatches).to_have_count(4)
    # Each line's own colour (ledger.css's, through its class), its key's matching it.
    stroke = "e => getComputedStyle(e).stroke"
    colours = [swatches.nth(i).evaluate(stroke) for i in range(4)]
    assert len(set(colours)) == 4
    assert [line.evaluate(stroke) for line in page.locator("svg.chart polyline").all()] == colours
    assert page.locator(".legend svg.swatch").first.bounding_box()["width"] > 0
    shot(page, "summary")

    assert refused() == []


def test_the_api_docs_work_under_the_policy(page, refused, shot):
    page.goto("/api/v1/docs/")

    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Domino ledger API")
    expect(page.locator(".opblock").first).to_be_visible()
    page.locator(".opblock-summary", has_text="/api/v1/games/").first.click()
    page.get_by_role("button", name="Try it out").click()
    page.get_by_role("button", name="Execute").click()
    answer = page.locator(".live-responses-table tr.response .response-col_status")
    expect(answer).to_contain_text("200")
    shot(page, "docs")

    assert refused() == []


def test_the_admin_works_under_the_policy(page, refused, shot):
    User.objects.create_superuser("admin", password="a long password")
    start_table(page, "jie-long", ["Anna", "Bob", "Celine"], leader=0)

    page.goto("/admin/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", "a long password")
    page.get_by_role("button", name=re.compile("Log in")).click()
    expect(page.locator("#site-name")).to_be_visible()
    page.goto("/admin/ledger/tablesession/")
    expect(page.locator("#result_list tbody tr")).to_have_count(1)
    page.locator("#result_list tbody tr a").first.click()
    expect(page.locator("#tablesession_form")).to_be_visible()
    # The admin's own scripts run: the seats' inline formset adds a row. Its script makes the
    # add button once it has marked the rows there are, so count them after the button shows.
    add = page.get_by_role("button", name=re.compile("Add another seat", re.I))
    expect(add).to_be_visible()
    before = page.locator(".dynamic-seats").count()
    add.click()
    expect(page.locator(".dynamic-seats")).to_have_count(before + 1)
    shot(page, "change-form")

    assert refused() == []


def test_the_print_button_of_the_table_cards_prints(page, refused):
    from ledger.events import services

    event = services.event_create(name="Club", game="jie-long", options={}, rounds=2)
    for name in SEATING:
        services.entry_add(event=event, name=name, organiser=True)
    services.round_seat(event=event)
    page.add_init_script("window.print = () => { window.printed = true; };")

    page.goto(f"/o/{event.token}/rounds/1/cards/")
    page.get_by_role("button", name="Print").click()

    assert page.evaluate("window.printed") is True
    assert refused() == []
