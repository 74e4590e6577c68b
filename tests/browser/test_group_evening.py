"""A group's evening on a 360×640 phone (issue 37, "Done when"): four regulars play Jie Long,
then Ce Deng, started from the group's page in at most 4 taps and no typing; the tables are
named by when they began and their game with how they came out, each table and the group say
what they play for, the group's first screen says where everyone stands, the statistics fit
the phone and answer head to head in place, and Share sends the evening's exact amounts. Then
the same pages, read in Chinese and in Korean, show no English.

By hand (docs/rules.md): at a pairwise table a player's net in a hand is the stake times the
sum of all pips less the number of players times their own; without specials Ce Deng pays so
too (tests/browser/test_ce_deng_table.py, hand 3).
- Jie Long at 0.50 a point: hand 1 pips 2, 12, 20, 6 (sum 40): Anna +16, Bob −4, Celine −20,
  Dan +8; hand 2 pips 10, 4, 8, 18 (sum 40): 0, +12, +4, −16. The table: Anna +16, Bob +8,
  Celine −16, Dan −8.
- Ce Deng at 1 a point, what the group's settings say for Ce Deng alone: hand 1 pips 5, 9,
  20, 14 (sum 48): +28, +12, −32, −8; hand 2 pips 16, 3, 11, 6 (sum 36): −28, +24, −8, +12.
  The table: Anna 0, Bob +36, Celine −40, Dan +4.
- Balances: Anna +16, Bob +44, Celine −56, Dan −4.
- Between Anna and Bob: Bob paid Anna 0.50 × 10 = 5, then Anna paid Bob 0.50 × 6 = 3 (Jie
  Long); Bob paid Anna 4, then Anna paid Bob 13 (Ce Deng): Bob won 16 − 9 = 7 from Anna over 4
  hands.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import pytest
from django.utils import translation
from playwright.sync_api import Locator, Page, expect

from ledger.groups import services
from ledger.models import Group, Player, TableSession
from ledger.tables import services as table_services
from scoring import GAMES
from tests.browser.conftest import enter_hand, save_hand, texts, widest, within_first_screen

REGULARS = ["Anna", "Bob", "Celine", "Dan"]
LONDON = ZoneInfo("Europe/London")
MINUS = "\u2212"

# The phone's share sheet, a stand-in that keeps what it is given (a test cannot tap a real one).
FAKE_SHARE = """
Object.defineProperty(Navigator.prototype, "share", {
  configurable: true,
  value: function (data) { window.sharedWith = data; return Promise.resolve(); },
});
"""


def named(table: TableSession, game: str) -> str:
    """How every list names ``table`` on this en-GB phone in London: "Sat, 28/11/2026, 20:10 ·
    Jie Long 接龙"."""
    began = table.created.astimezone(LONDON)
    return f"{began:%a}, {began:%d/%m/%Y}, {began:%H:%M} · {game}"


def table_at(page: Page) -> TableSession:
    return TableSession.objects.get(token=urlsplit(page.url).path.strip("/").rsplit("/", 1)[1])


# An en-GB phone in London, so that a table's start reads one way; drawn at twice the pixels,
# as the README's screenshots are.
@pytest.mark.browser_context_args(
    locale="en-GB", timezone_id="Europe/London", device_scale_factor=2
)
def test_a_group_plays_its_evening_on_a_phone(page: Page, live_server, shot):
    page.context.add_init_script(FAKE_SHARE)

    # The group, at 0.50 a point, and the evening's first table: Jie Long, the four typed.
    page.goto("/groups/new/")
    page.fill("#id_name", "Thursday teahouse")
    page.select_option("#id_game", "jie-long")
    page.locator("#group-form details summary").click()
    page.fill("#id_stake", "0.50")
    page.get_by_role("button", name="Start the group").click()
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    group = urlsplit(page.url).path
    # Ce Deng, at this group, plays for 1 a point (the organiser's settings).
    page.goto(f"{group}settings/")
    page.locator("#plays-for-games summary").click()
    page.fill("#id_ce-deng", "1")
    page.get_by_role("button", name="Save the settings").click()
    expect(page.locator("#settings-saved")).to_be_visible()
    page.goto(group)
    for seat, name in enumerate(REGULARS):
        page.fill(f"#id_player_{seat}", name)
    page.check("#group-table-form input[name=first][value='0']")
    page.get_by_role("button", name="Start the table").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))
    jie_long = table_at(page)
    expect(page.locator("#stake")).to_have_text("0.50 a point, pairwise")
    page.locator("#who").get_by_role("button", name="Anna").click()  # "I am Anna"
    expect(page.locator("#who summary")).to_have_text("This phone is Anna’s")
    enter_hand(page, {0: 2, 1: 12, 2: 20, 3: 6})
    save_hand(page, 1)
    enter_hand(page, {0: 10, 1: 4, 2: 8, 3: 18})
    save_hand(page, 2)

    # The second game, from the group's page: the four come ticked in their seats.
    page.goto(group)
    taps = 0

    def tap(element: Locator) -> None:
        nonlocal taps
        element.click()
        taps += 1

    tap(page.locator("#new-table summary"))
    tap(page.locator("#game-choices .chip", has_text="Ce Deng"))
    seated = page.locator("#seat-choices li:has(input:checked)")
    expect(seated).to_have_text(REGULARS)
    shot(page, "new-table-players-tapped")
    tap(page.get_by_role("button", name="Start the table"))
    page.wait_for_url(re.compile(r"/t/[\w-]+/$"))
    assert taps <= 4
    ce_deng = table_at(page)
    assert (ce_deng.game, ce_deng.seating, ce_deng.options) == (
        "ce-deng",
        REGULARS,
        {"stake": "1"},
    )
    expect(page.locator("h1")).to_contain_text("Ce Deng")
    expect(page.locator("#stake")).to_have_text("1 a point, pairwise · head/tail 7/8")
    enter_hand(page, {0: 5, 1: 9, 2: 20, 3: 14})
    save_hand(page, 1)
    enter_hand(page, {0: 16, 1: 3, 2: 11, 3: 6})
    save_hand(page, 2)

    # The group's first screen: Play again, the last evening, the balances.
    page.goto(group)
    # what it plays for, and for its organiser the way to change it
    expect(page.locator("#stake")).to_have_text("0.50 a point, pairwise · Settings")
    shot(page, "first-screen")
    within_first_screen(
        page.locator("#play-again").get_by_role("button", name="Play again", exact=True)
    )
    within_first_screen(page.locator("#last-evening"))
    within_first_screen(page.locator("table.balances"))
    first_name, second_name = named(jie_long, "Jie Long 接龙"), named(ce_deng, "Ce Deng 斜钉")
    expect(page.locator("#last-evening li")).to_have_text(
        [
            f"{second_name}: Bob +36 · Dan +4 · Anna 0 · Celine {MINUS}40",
            f"{first_name}: Anna +16 · Bob +8 · Dan {MINUS}8 · Celine {MINUS}16",
        ]
    )
    # The tables, each named by when it began and its game, with how it came out: two apart.
    expect(page.locator(f"#table-{ce_deng.pk}")).to_contain_text(
        f"{second_name} · Bob +36 · Dan +4 · Anna 0 · Celine {MINUS}40 · 2 hands"
    )
    expect(page.locator(f"#table-{jie_long.pk}")).to_contain_text(
        f"{first_name} · Anna +16 · Bob +8 · Dan {MINUS}8 · Celine {MINUS}16 · 2 hands"
    )
    names = texts(page, "#latest-tables .group-tables li > a")
    assert names == [second_name, first_name]

    # The balances, and the settle-up a tap away.
    rows = page.locator("table.balances tbody tr")
    assert [
        (row.locator("th").inner_text(), row.locator("td[data-unit=money]").inner_text())
        for row in rows.all()
    ] == [("Anna (you)", "+16"), ("Bob", "+44"), ("Celine", f"{MINUS}56"), ("Dan", f"{MINUS}4")]
    expect(page.locator("#evening-money")).to_contain_text("You are +16")  # spoken to Anna
    page.get_by_role("link", name="Settle up ↓").click()
    settle = texts(page, "#balances .settle-up .owes")
    assert settle == ["Celine pays Bob 44", "Celine owes you 12", "Dan owes you 4"]
    shot(page, "balances")

    # Share: the evening's tables oldest first, with their links, then where everyone stands.
    page.locator("#share-button").click()
    page.wait_for_function("() => window.sharedWith !== undefined")
    assert page.evaluate("window.sharedWith.text").splitlines() == [
        "Thursday teahouse",
        "",
        "Jie Long 接龙: 2 hands",
        f"Anna +16 · Bob +8 · Celine {MINUS}16 · Dan {MINUS}8",
        f"{live_server.url}/s/{jie_long.read_token}/",
        "",
        "Ce Deng 斜钉: 2 hands",
        f"Anna 0 · Bob +36 · Celine {MINUS}40 · Dan +4",
        f"{live_server.url}/s/{ce_deng.read_token}/",
        "",
        f"Balances: Anna +16 · Bob +44 · Celine {MINUS}56 · Dan {MINUS}4",
        "Settle up: Celine pays Bob 44 · Celine pays Anna 12 · Dan pays Anna 4",
    ]

    # Statistics for a thumb: ranked by what they won, nothing sideways, head to head in place.
    page.get_by_role("link", name="Statistics", exact=True).click()
    page.wait_for_url("**/statistics/")
    assert texts(page, "#ranking .name") == ["Bob", "Anna", "Dan", "Celine"]
    widest(page)
    page.evaluate("window.stillHere = true")
    page.select_option("#id_a", label="Anna")
    page.select_option("#id_b", label="Bob")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#passed [data-unit=money]")).to_have_text(
        "Bob won 7 from Anna over 4 hands."
    )
    assert page.evaluate("window.stillHere") is True
    expect(page.locator("#pair-answer")).to_be_in_viewport()
    widest(page)
    shot(page, "statistics")


# The page's language, and the phone's locale that asks for it.
LOCALES = {"zh-hans": "zh-CN", "ko": "ko-KR"}
NAMES = {
    "zh-hans": ("周四茶馆", ["王芳", "李娜", "张伟", "刘洋"]),
    "ko": ("목요 찻집", ["민준", "서연", "지호", "하은"]),
}
# Words in Latin letters a page may show in any language: the names of formats and codes.
PROPER = {"CSV", "QR", "API"}
LATIN = re.compile(r"[A-Za-z]+")
LINKS = re.compile(r"https?://\S+")


def an_evening(language: str) -> tuple[Group, TableSession]:
    """The evening above, made through the services, with the names of ``language``."""
    name, four = NAMES[language]
    group = services.group_create(name=name, game="jie-long", options={"stake": "0.50"})
    hands = {"jie-long": [(2, 12, 20, 6), (10, 4, 8, 18)], "ce-deng": [(5, 9, 20, 14)]}
    for game, pips in hands.items():
        table = services.table_start(group=group, seating=four, first=four[0], game=game)
        for number, row in enumerate(pips, start=1):
            results = {who: {"pips": p} for who, p in zip(four, row, strict=True)}
            table_services.hand_record(session=table, number=number, data={"results": results})
    return group, table


def game_words(language: str) -> set[str]:
    """The words in Latin letters of the games' names as ``language`` writes them ("Jie Long"
    in "Jie Long(接龍)"): a game's own name, shown as it is."""
    with translation.override(language):
        names = [translation.gettext(game.label) for game in GAMES.values()]
    return {word for name in names for word in LATIN.findall(name)}


def english(page: Page, allowed: set[str]) -> set[str]:
    """The words in Latin letters the page shows, every fold of its own opened (links, which
    are addresses, aside), but those allowed."""
    page.evaluate("document.querySelectorAll('main details').forEach(d => { d.open = true; })")
    shown = LINKS.sub(" ", page.inner_text("body"))
    return set(LATIN.findall(shown)) - allowed


@pytest.mark.parametrize("language", list(LOCALES))
def test_the_evening_s_pages_show_no_english_in_chinese_or_korean(
    new_context, transactional_db, language
):
    group, table = an_evening(language)
    allowed = PROPER | game_words(language)
    page = new_context(locale=LOCALES[language]).new_page()
    anna = Player.objects.get(group=group, name=NAMES[language][1][0])
    bob = NAMES[language][1][1]

    found: dict[str, set[str]] = {}
    page.goto(f"/g/{group.token}/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    found["group"] = english(page, allowed)
    page.locator("#new-table summary").click()
    found["new table"] = english(page, allowed)
    for name, path in [
        ("table", f"/t/{table.token}/"),
        ("summary", f"/t/{table.token}/summary/"),
        ("account", f"/g/{group.token}/players/{anna.pk}/"),
        ("all tables", f"/g/{group.token}/tables/"),
    ]:
        page.goto(path)
        found[name] = english(page, allowed)
    page.goto(f"/g/{group.token}/statistics/")
    page.select_option("#id_a", label=anna.name)
    page.select_option("#id_b", label=bob)
    page.locator("#head-to-head button[type=submit]").click()
    expect(page.locator("#passed li")).to_have_count(1)
    found["statistics"] = english(page, allowed)
    assert {name: words for name, words in found.items() if words} == {}
