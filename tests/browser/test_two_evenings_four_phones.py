"""Issue 47's "Done when": a group's two evenings on four phones in four languages, at 360×640,
as the newcomer played them. The organiser's phone (en-GB) starts the group at 0.50 a point and
its first table; three phones (en-US, zh-Hans, ko) join by the table's link (its QR code) and
each taps its player's name. Evening 1, Jie Long: a hand saved on each of three phones; Celine's
phone corrects hand 3, and the other three are told who did it; the organiser closes the
evening and shares its recap. A week later: the organiser starts a Ce Deng table from the
group, which plays at 0.50; the phones still on the old table are told and follow it; the Korean
phone finds the group on its home page with no typing, pays its settle-up line in two taps, and
its "why" adds up on the screen to its balance. Served as tests/browser/test_push.py serves its
phones, so that every change reaches the others by push.

By hand, 0.50 a point, pairwise (docs/rules.md): a player's net in a hand is half of the sum of
the pips less four times their own.
- Evening 1, Jie Long, Anna, Bob, Celine, Dan: hand 1 pips 2, 12, 20, 30: +28, +8, −8, −28;
  hand 2 10, 4, 7, 3: −8, +4, −2, +6; hand 3 5, 9, 3, 13, corrected to 5, 9, 11, 13: +9, +1,
  −3, −7. The evening: Anna +29, Bob +13, Celine −13, Dan −29.
- Evening 2, Ce Deng (no specials, Anna leads): 2, 12, 34, 18: +29, +9, −35, −3.
- Balances: Anna +58, Bob +22, Celine −48, Dan −32.
"""

from __future__ import annotations

import re
from decimal import Decimal

from playwright.sync_api import Page, expect

from tests.browser import test_push
from tests.browser.conftest import enter_hand, within_first_screen
from tests.browser.test_groups import balances, new_table

server = test_push.server  # a fixture: the server with streams
browser_context_args = test_push.browser_context_args  # a fixture: pages open on it

FOUR = ["Anna", "Bob", "Celine", "Dan"]
LANGUAGES = {"Anna": "en-GB", "Bob": "en-US", "Celine": "zh-CN", "Dan": "ko-KR"}
PUSHED = 5_000  # ms
A_WEEK_BACK = """
from datetime import timedelta
from django.db.models import F
from ledger.models import TableSession
TableSession.objects.filter(token="{token}").update(created=F("created") - timedelta(days=7))
"""


def _amount(text: str) -> Decimal:
    """An amount as a page shows it: +12.50, −3 (a minus sign), 1,234.50."""
    return Decimal(text.strip().replace("−", "-").replace(",", "").replace("+", ""))


def _save(page: Page, number: int, pips: dict[int, int]) -> None:
    """A hand typed and saved on ``page``, in whatever language it reads."""
    expect(page.locator("#record-form input[name=number]")).to_have_value(str(number))
    enter_hand(page, pips)
    page.locator("#record-form button[name=action][value=save]").click()
    expect(page.locator("#saved")).to_have_attribute("data-number", str(number))


def _i_am(page: Page, name: str) -> None:
    who = page.locator("#who")
    who.get_by_role("button", name=name, exact=True).click()  # one tap
    expect(who.locator("summary")).to_contain_text(name)


def test_a_groups_two_evenings_on_four_phones_in_four_languages(server, new_context, shot):
    phones = {
        name: new_context(
            locale=locale, permissions=["clipboard-read", "clipboard-write"]
        ).new_page()
        for name, locale in LANGUAGES.items()
    }
    anna, bob, celine, dan = phones.values()

    # The organiser starts the group, at 0.50 a point, and its first table.
    anna.goto("/groups/new/")
    anna.fill("#id_name", "Thursday teahouse")
    anna.select_option("#id_game", "jie-long")
    anna.locator("form details summary").first.click()
    anna.fill("#id_stake", "0.50")
    anna.get_by_role("button", name="Start the group").click()
    anna.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    group = anna.url.removeprefix(server.base)
    table = new_table(anna, group, "jie-long", FOUR)
    expect(anna.locator("#stake")).to_contain_text("0.50 a point")
    _i_am(anna, "Anna")

    # The others scan the table's QR code (the link it holds) and each says who they are.
    joined = anna.locator("#join-link").get_attribute("href") or ""
    assert joined == f"{server.base}{table}"
    for name in ("Bob", "Celine", "Dan"):
        phones[name].goto(joined)
        _i_am(phones[name], name)
    for page in phones.values():
        expect(page.locator("html")).to_have_attribute("data-live", "stream")
    expect(celine.locator("#who summary")).to_have_text("这是 Celine 的手机")
    shot(dan, "dan-joined")

    # Evening 1: a hand from each of three phones; each phone's form moves on by itself.
    _save(anna, 1, {0: 2, 1: 12, 2: 20, 3: 30})
    _save(bob, 2, {0: 10, 1: 4, 2: 7, 3: 3})
    _save(dan, 3, {0: 5, 1: 9, 2: 3, 3: 13})
    expect(anna.locator("#arrived")).to_have_text("Hand 3 saved by Dan.", timeout=PUSHED)

    # Celine had 11, not 3: her phone corrects hand 3, and the other three are told by whom.
    celine.goto(f"{table}hands/3/")
    celine.fill("#pips-2", "11")
    celine.locator("#correct-form button[name=action][value=correct]").click()
    expect(celine.locator("#changed")).to_be_visible()
    for page, said in (
        (anna, "Celine corrected hand 3: Anna +25 → +29"),
        (bob, "Celine corrected hand 3: "),
        (dan, "Celine"),
    ):
        expect(page.locator("#told")).to_be_visible(timeout=PUSHED)
        expect(page.locator("#told")).to_contain_text(said)
    expect(dan.locator("#told")).to_contain_text("3")
    shot(dan, "told-in-korean")

    # The organiser closes the evening and shares its recap.
    anna.goto(group)
    expect(anna.locator("#evening-money")).to_contain_text("You are +29")
    assert balances(anna) == {"Anna (you)": "+29", "Bob": "+13", "Celine": "−13", "Dan": "−29"}
    anna.locator("#close-evening-link").click()
    anna.wait_for_url("**/evening/")
    anna.get_by_role("button", name="Close the evening").click()
    expect(anna.locator("#evening-winner")).to_have_text("Won the evening: Anna +29")
    anna.locator("#share-button").click()
    expect(anna.locator("#share-said")).to_have_text("Copied: paste it in the chat.")
    assert "Anna +29" in anna.evaluate("navigator.clipboard.readText()")
    shot(anna, "evening-recap")

    # A week later (the first evening's table moved back a week, on the server's clock): Bob
    # and Celine left their phones on the old table; the organiser starts a Ce Deng table from
    # the group, which plays at the group's 0.50.
    token = table.strip("/").split("/")[-1]
    server.manage("shell", "-c", A_WEEK_BACK.format(token=token))
    for page in (bob, celine):
        page.goto(table)
        expect(page.locator("html")).to_have_attribute("data-live", "stream")
    ce_deng = new_table(anna, group, "ce-deng", FOUR)
    expect(anna.locator("#stake")).to_contain_text("0.50 a point")
    for page in (bob, celine):
        notice = page.locator("#moved-on a")
        expect(notice).to_have_attribute("href", ce_deng, timeout=PUSHED)
    celine.locator("#moved-on a").click()
    celine.wait_for_url(f"**{ce_deng}")
    expect(celine.locator("#who summary")).to_have_text("这是 Celine 的手机")  # still Celine
    _save(celine, 1, {0: 2, 1: 12, 2: 34, 3: 18})

    # Dan's phone, with no link at hand, finds the group on its home page: no typing.
    dan.goto("/")
    dan.locator(f"#your-tables-list a[href='{group}']").click()
    dan.wait_for_url(f"**{group}")
    within_first_screen(dan.locator("table.balances"))
    assert balances(dan) == {
        "Anna": "+58",
        "Bob": "+22",
        "Celine": "−48",
        "Dan (나)": "−32",
    }
    shot(dan, "dan-group")

    # "Why?" of Dan's balance: his evenings and payments add up on the screen to it.
    dan.locator("table.balances th a", has_text="Dan").click()
    dan.wait_for_url("**/players/*/")
    evenings = dan.locator("#player-tables .evening-total strong").all_inner_texts()
    assert [_amount(text) for text in evenings] == [Decimal(-3), Decimal(-29)]
    shown = dan.locator("#player-balance strong").first.inner_text()
    assert sum(_amount(text) for text in evenings) == _amount(shown) == Decimal(-32)

    # Dan pays his first settle-up line in two taps: Paid, then its filled-in payment.
    dan.goto(group)
    mine = dan.locator("#balances .settle-up li", has=dan.locator("strong")).first
    owed = mine.locator("input[name=amount]").input_value()
    mine.locator("details.paid-line summary").click()
    mine.locator("form.paid-form button[type=submit]").click()
    dan.wait_for_url(f"**{group}?paid=*")
    expect(dan.locator("#payments li").first).to_contain_text("입력: Dan")
    expect(dan.locator("#payments li").first).to_contain_text(owed)
    after = balances(dan)["Dan (나)"]
    assert _amount(after) == Decimal(-32) + _amount(owed)
    shot(dan, "dan-paid")

    # His "why" now counts the payment too, and still adds up to the balance.
    dan.locator("table.balances th a", has_text="Dan").click()
    dan.wait_for_url("**/players/*/")
    paid = dan.locator("#player-payments td.num").all_inner_texts()
    total = sum(_amount(text) for text in [*evenings, *paid])
    assert total == _amount(dan.locator("#player-balance strong").first.inner_text())
