"""Three evenings of one group of regulars on a 360×640 phone (issue 20, "Done when"): two
games, a correction, payments that bring every balance to zero; the balances, settle-up,
statistics and ratings are checked against values worked out by hand here (and openskill
called directly); a second group with the same names stays apart.

By hand, stake 1, pairwise (docs/rules.md): a player's net in a hand is the sum of all scores
less the number of players times their own.
- Evening 1, Jie Long, Anna, Bob, Celine: hand 1 pips 2, 12, 20 (sum 34): +28, -2, -26;
  hand 2 entered 15, 5, 9, then corrected to 15, 5, 30 (sum 50): +5, +35, -40.
  The table: Anna +33, Bob +33, Celine -66.
- Evening 2, "Play again": 10, 4, 7 (sum 21): Anna -9, Bob +9, Celine 0.
- Evening 3, Ce Deng with Dominic, who joins the group: 2, 12, 34, 18 (no specials): +58,
  +18, -70, -6.
- Balances: Anna 33 - 9 + 58 = +82, Bob 33 + 9 + 18 = +60, Celine -66 + 0 - 70 = -136,
  Dominic -6. Settled by Celine paying Anna 82 and Bob 54, and Dominic paying Bob 6.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from openskill.models import PlackettLuce
from playwright.sync_api import Page, expect

from tests.browser.conftest import enter_hand, save_hand, texts

EVENING_1 = ["Anna", "Bob", "Celine"]
EVENING_3 = ["Anna", "Bob", "Celine", "Dominic"]


def start_group(page: Page, name: str) -> str:
    page.goto("/")
    page.get_by_role("link", name="Start a group of regulars").click()
    page.fill("#id_name", name)
    page.select_option("#id_game", "jie-long")
    page.get_by_role("button", name="Start the group").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    return urlsplit(page.url).path


def new_table(page: Page, group: str, game: str, players: list[str]) -> str:
    page.goto(group)
    details = page.locator("#new-table")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.check(f"#group-table-form input[name=game][value={game}]")
    # The group's players by a tap, in the order they sit (the last table's come ticked: they
    # are let go first); a new name typed.
    ticked = page.locator("#seat-choices input[name=seat]:checked")
    while ticked.count():
        ticked.first.uncheck()
    typed = 0
    for name in players:
        chip = page.locator("#seat-choices .chip", has_text=re.compile(rf"^{name}$"))
        if chip.count():
            chip.click()
        else:
            page.fill(f"#id_player_{typed}", name)
            typed += 1
    page.check("#group-table-form input[name=first][value='0']")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))
    return urlsplit(page.url).path


def balances(page: Page) -> dict[str, str]:
    rows = page.locator("table.balances tbody tr")
    return {
        row.locator("th").inner_text(): row.locator("td[data-unit=money]").inner_text()
        for row in rows.all()
    }


def pay(page: Page, payer: str, payee: str, amount: str) -> None:
    details = page.locator("#new-payment")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.select_option("#id_payer", payer)
    page.select_option("#id_payee", payee)
    page.fill("#id_amount", amount)
    page.get_by_role("button", name="Record the payment").click()
    expect(page.locator(f"#payments li:has-text('{payer} paid {payee} {amount}')")).to_be_visible()


def paid(page: Page, payer: str, payee: str, part: str = "") -> None:
    """A settle-up line's Paid: one tap opens its payment, filled in; a second records it."""
    line = page.locator("#balances .settle-up li", has_text=f"{payer} pays {payee}")
    owed = line.locator(".owes").inner_text().rsplit(" ", 1)[1]
    line.get_by_text("Paid", exact=True).click()
    amount = line.locator("input[name=amount]")
    expect(amount).to_have_value(owed)
    if part:
        amount.fill(part)
    line.get_by_role("button", name="Record the payment").click()
    recorded = f"{payer} paid {payee} {part or owed}"
    expect(page.locator(f"#payments li:has-text('{recorded}')")).to_be_visible()


def test_three_evenings_of_one_group(page: Page, new_context, shot, live_server):
    group = start_group(page, "Thursday teahouse")
    expect(page.locator("h1")).to_have_text("Thursday teahouse")
    shot(page, "group-started")

    # Evening 1: Jie Long, two hands, the second corrected.
    first = new_table(page, group, "jie-long", EVENING_1)
    enter_hand(page, {0: 2, 1: 12, 2: 20})
    save_hand(page, 1)
    enter_hand(page, {0: 15, 1: 5, 2: 9})
    save_hand(page, 2)
    page.goto(f"{first}hands/2/")
    page.fill("#pips-2", "30")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#changed")).to_contain_text("Hand 2 corrected.")

    # Evening 2: the same players in one tap.
    page.goto(group)
    page.locator("#play-again").get_by_role("button", name="Play again", exact=True).click()
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))
    assert urlsplit(page.url).path != first
    expect(page.locator("#player-0")).to_contain_text("Anna")
    enter_hand(page, {0: 10, 1: 4, 2: 7})
    save_hand(page, 1)

    # Evening 3: another game, and Dominic joins. Only the group's names are suggested.
    page.goto(group)
    suggested = page.locator("#group-players option").evaluate_all("os => os.map(o => o.value)")
    assert suggested == EVENING_1
    new_table(page, group, "ce-deng", EVENING_3)
    expect(page.locator("h1")).to_contain_text("Ce Deng")
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    save_hand(page, 1)

    page.goto(group)
    assert balances(page) == {"Anna": "+82", "Bob": "+60", "Celine": "−136", "Dominic": "−6"}
    assert texts(page, "#balances .settle-up .owes") == [
        "Celine pays Anna 82",
        "Celine pays Bob 54",
        "Dominic pays Bob 6",
    ]
    shot(page, "group-balances")
    # Every number traced ("why?" of her settle-up line): Celine's account lists her three
    # tables, one evening's, and what each cost her; the first table's hands add up to it.
    page.locator("#balances .settle-up li", has_text="Celine pays Anna").get_by_text("Why?").click()
    page.wait_for_url("**/players/*/#player-balance")
    tables = page.locator("#player-tables tr[id^=table-]")
    expect(tables).to_have_count(3)
    assert [cell.strip() for cell in texts(tables, "td.num:last-child")] == ["−70", "0", "−66"]
    expect(page.locator("#player-tables .evening-total strong")).to_have_text(["−136"])
    first = tables.last
    first.locator("details.hands-of summary").click()
    expect(first.locator("details.hands-of li")).to_have_text(["Hand 1: −26", "Hand 2: −40"])
    expect(page.locator("#player-balance")).to_contain_text("Celine pays Anna 82")
    shot(page, "player-account")

    # Settled from the settle-up: Paid, then the payment it fills in, confirmed (two taps);
    # part of a line, and the rest; and one typed in the payment's form.
    page.goto(group)
    paid(page, "Celine", "Anna")
    paid(page, "Celine", "Bob", part="50")
    assert "Celine pays Bob 4" in texts(page, "#balances .settle-up .owes")
    paid(page, "Celine", "Bob")
    pay(page, "Dominic", "Bob", "6")
    assert set(balances(page).values()) == {"0"}
    expect(page.locator("#settle-money + ul")).to_have_text(
        "Everyone is square: nobody owes anything."
    )
    shot(page, "group-squared")

    # Statistics, all time, ranked by what they won: tables, hands, hands won (share) and the
    # average score, by hand, within each game (rules rev 5: scores add up within one game).
    page.get_by_role("link", name="Statistics", exact=True).click()
    page.wait_for_url("**/statistics/")
    expected = {
        # Jie Long 2, 15, 10 and Ce Deng 2
        "Anna": [
            "3",
            "4 hands",
            "2 won (50%)",
            "average score Jie Long 接龙 9.00 · Ce Deng 斜钉 2.00",
        ],
        # 12, 5, 4 and 12
        "Bob": [
            "3",
            "4 hands",
            "2 won (50%)",
            "average score Jie Long 接龙 7.00 · Ce Deng 斜钉 12.00",
        ],
        "Dominic": ["1", "1 hand", "0 won (0%)", "average score 18.00"],
        # 20, 30, 7 and 34
        "Celine": [
            "3",
            "4 hands",
            "0 won (0%)",
            "average score Jie Long 接龙 19.00 · Ce Deng 斜钉 34.00",
        ],
    }
    assert texts(page, "#ranking .name") == list(expected)  # +82, +60, -6, -136
    for name, cells in expected.items():
        row = page.locator("#ranking > li", has=page.locator(f".name:text-is('{name}')"))
        figures = "[data-figure=hands], [data-figure=won], [data-figure=average]"
        tables = row.locator("[data-figure=tables]").text_content()  # folded: "More" shows it
        assert [tables, *texts(row, figures)] == cells, name
    # Ratings: each table one match, ranked by its totals (equal totals tie), in the order
    # played; openskill itself, called here, on those rankings.
    model = PlackettLuce()
    anna, bob, celine, dominic = (model.rating() for _ in range(4))
    [anna], [bob], [celine] = model.rate([[anna], [bob], [celine]], ranks=[1, 1, 3])
    [anna], [bob], [celine] = model.rate([[anna], [bob], [celine]], ranks=[3, 1, 2])
    [anna], [bob], [celine], [dominic] = model.rate(
        [[anna], [bob], [celine], [dominic]], ranks=[1, 2, 4, 3]
    )
    rated = {"Anna": anna, "Bob": bob, "Celine": celine, "Dominic": dominic}
    order = sorted(rated, key=lambda name: -rated[name].ordinal())
    assert texts(page, "#ratings-list .name") == order
    for name, rating in rated.items():
        row = page.locator("#ratings-list > li", has=page.locator(f".name:text-is('{name}')"))
        assert texts(row, ".rating, .skill") == [
            f"{rating.ordinal():.1f}".replace("-", "\u2212"),  # the pages' minus sign
            f"skill {rating.mu:.1f} ± {rating.sigma:.1f}",
        ]
    expect(page.locator("svg.chart")).to_be_visible()
    shot(page, "statistics")

    # The phone keeps its way back to the group.
    page.goto("/")
    first_listed = page.locator("#your-tables-list > li > a:first-child").first
    expect(first_listed).to_have_text("Thursday teahouse — Anna, Bob, Celine, Dominic")

    # Another group, on another phone, with the same names: two other people.
    other = new_context().new_page()
    sunday = start_group(other, "Sunday club")
    new_table(other, sunday, "jie-long", ["Anna", "Bob"])
    enter_hand(other, {0: 3, 1: 8})
    save_hand(other, 1)
    other.goto(sunday)
    assert balances(other) == {"Anna": "+5", "Bob": "−5"}
    page.goto(group)
    assert set(balances(page).values()) == {"0"}
    page.get_by_role("link", name="Statistics", exact=True).click()
    page.wait_for_url("**/statistics/")
    row = page.locator("#ranking > li", has=page.locator(".name:text-is('Anna')"))
    tables = row.locator("[data-figure=tables]").text_content()
    assert [tables, *texts(row, "[data-figure=hands]")] == ["3", "4 hands"]


@pytest.mark.parametrize("language", ["zh-hans"])
def test_the_group_pages_read_in_the_phones_language(new_context, language, live_server):
    page = new_context(locale="zh-CN").new_page()
    page.goto("/groups/new/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.fill("#id_name", "周四茶馆")
    page.locator("#group-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    expect(page.locator("h1")).to_have_text("周四茶馆")
    assert not re.search(r"\bBalances\b|\bPayments\b", page.locator("main").inner_text())
