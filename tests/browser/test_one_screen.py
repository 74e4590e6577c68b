"""One hand on one screen of a 360×640 phone, as a player at the table taps it: the fields,
the specials and Save are all in the first screen, every outcome comes into view, and the taps
and time each kind of hand takes are counted (README.md, "At the table", has the figures).

A tap is a touch on the screen; a keyboard move (the keyboard's "next" key: Enter, which the
page takes as "on to the next player") counts as a tap too. Digits typed into a field are not
taps. The pace is a person's: a tap every 0.6 s and a digit every 0.2 s, so the time is that
of a person plus the app's own.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Locator, Page, expect

from ledger.models import Hand, TableSession
from ledger.tables import selectors, services
from tests.browser.conftest import ARTIFACTS, PHONE

SEATING = ["Anna", "Bob", "Celine", "Dominic"]
TAP_PAUSE_MS = 600
DIGIT_MS = 200
FIGURES = ARTIFACTS / "one-screen.json"


@dataclass
class Thumb:
    """A player's thumb on the phone: counts each tap and keyboard move, at a person's pace."""

    page: Page
    taps: int = 0
    started: float = field(default_factory=time.monotonic)

    def tap(self, target: Locator) -> None:
        target.tap()
        self.taps += 1
        self.page.wait_for_timeout(TAP_PAUSE_MS)

    def type(self, digits: str) -> None:
        self.page.keyboard.type(digits, delay=DIGIT_MS)

    def next(self) -> None:
        """The keyboard's "next" key: on to the next player's number."""
        self.page.keyboard.press("Enter")
        self.taps += 1
        self.page.wait_for_timeout(TAP_PAUSE_MS)

    def choose(self, select: Locator, value: str) -> None:
        """A drop-down: one tap opens it, one picks."""
        select.select_option(value)
        self.taps += 2
        self.page.wait_for_timeout(2 * TAP_PAUSE_MS)

    def seconds(self) -> float:
        return round(time.monotonic() - self.started, 1)


def in_first_screen(page: Page, target: Locator) -> None:
    """``target`` is seen without scrolling: inside the viewport, the page at its top."""
    box = target.bounding_box()
    assert box is not None
    assert page.evaluate("window.scrollY") == 0
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box


@pytest.fixture
def table(page: Page) -> Page:
    session = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    page.goto(f"/t/{session.token}/")
    form = page.locator("#record-form")
    for seat in range(4):
        in_first_screen(page, form.locator(f"#pips-{seat}"))
        in_first_screen(page, form.locator(f"#player-{seat} .chips"))
    in_first_screen(page, page.get_by_role("button", name="Save hand"))
    return page


def seat(page: Page, index: int) -> Locator:
    return page.locator(f"#player-{index}")


def save(thumb: Thumb, kind: str, shot, number: int = 1) -> None:
    """Tap Save; the saved hand comes into view; the figures for ``kind`` are kept."""
    page = thumb.page
    in_first_screen(page, page.get_by_role("button", name="Save hand"))
    thumb.tap(page.get_by_role("button", name="Save hand"))
    saved = page.locator("#saved")
    expect(saved).to_contain_text(f"Hand {number} saved.")
    expect(saved).to_be_in_viewport()
    expect(saved).to_be_focused()
    assert saved.get_attribute("role") == "status"
    shot(page, kind)
    figures = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    figures[kind] = {"taps": thumb.taps, "seconds": thumb.seconds()}
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FIGURES.write_text(json.dumps(figures, indent=1, sort_keys=True))
    assert thumb.taps <= 8, f"{kind}: {thumb.taps} taps"


def test_a_normal_hand_is_four_numbers_and_save(table: Page, shot) -> None:
    thumb = Thumb(table)
    thumb.tap(table.locator("#pips-0"))
    for i, pips in enumerate(["2", "12", "34", "18"]):
        if i:
            thumb.next()
        thumb.type(pips)
    save(thumb, "normal hand", shot)
    assert Hand.objects.get().named["results"]["Celine"] == {"pips": 34}


def test_a_pass_is_one_tap_that_fills_in_0_and_a_tail_eight_one_more(table: Page, shot) -> None:
    thumb = Thumb(table)
    thumb.tap(table.locator("#pips-0"))
    thumb.type("5")
    thumb.tap(seat(table, 1).locator("label.chip", has_text="pass"))
    expect(table.locator("#pips-1")).to_have_value("0")
    thumb.tap(seat(table, 2).locator("label.chip", has_text="tail-eight"))
    thumb.tap(table.locator("#pips-2"))
    thumb.type("40")
    thumb.next()
    thumb.type("20")
    save(thumb, "pass and tail-eight", shot)
    results = Hand.objects.get().named["results"]
    assert results["Bob"] == {"pips": 0, "specials": ["pass"]}
    assert results["Celine"] == {"pips": 40, "specials": ["tail_eight"]}


def test_a_typed_0_is_a_pass(table: Page) -> None:
    table.fill("#pips-1", "0")
    expect(seat(table, 1).locator("input[value=pass]")).to_be_checked()
    table.fill("#pips-1", "3")
    expect(seat(table, 1).locator("input[value=pass]")).not_to_be_checked()


def test_a_0_typed_then_pass_tapped_stays_a_pass(table: Page) -> None:
    # The natural order: the score first, then the special.
    table.fill("#pips-1", "0")
    seat(table, 1).locator("label.chip", has_text="pass").click()
    expect(table.locator("#pips-1")).to_have_value("0")
    expect(seat(table, 1).locator("input[value=pass]")).to_be_checked()
    # A second tap takes the pass back, as a tap on any toggle does.
    seat(table, 1).locator("label.chip", has_text="pass").click()
    expect(seat(table, 1).locator("input[value=pass]")).not_to_be_checked()


def test_a_score_only_a_tail_eight_can_make_ticks_it_as_it_is_typed(table: Page) -> None:
    # Any 7 tiles of the deck make 76 at most: Celine's 80 can only be all 8 of her tiles.
    table.fill("#pips-2", "80")
    expect(seat(table, 2).locator("input[value=tail_eight]")).to_be_checked()
    table.fill("#pips-3", "76")
    expect(seat(table, 3).locator("input[value=tail_eight]")).not_to_be_checked()


def test_a_head_seven(table: Page, shot) -> None:
    thumb = Thumb(table)
    thumb.tap(seat(table, 0).locator("label.chip", has_text="head-seven"))
    thumb.tap(table.locator("#pips-0"))
    for i, pips in enumerate(["30", "3", "8", "12"]):
        if i:
            thumb.next()
        thumb.type(pips)
    save(thumb, "head-seven", shot)
    assert Hand.objects.get().named["results"]["Anna"] == {"pips": 30, "specials": ["head_seven"]}


def test_a_redeal_hides_the_players_and_asks_who_called_it(table: Page, shot) -> None:
    thumb = Thumb(table)
    thumb.tap(table.locator("label.chip", has_text="redeal"))
    expect(table.locator(".seats")).to_be_hidden()
    thumb.choose(table.locator("select[name=event_player]"), "Anna")
    save(thumb, "redeal", shot)
    assert Hand.objects.get().named == {"redeal": "Anna", "first": "Anna", "direction": "ccw"}


def test_declared_doubles_hide_the_callers_line(table: Page, shot) -> None:
    thumb = Thumb(table)
    thumb.tap(table.locator("label.chip", has_text="declared doubles"))
    thumb.choose(table.locator("select[name=event_player]"), "Bob")
    expect(seat(table, 1)).to_be_hidden()
    thumb.tap(table.locator("#pips-0"))
    thumb.type("50")
    thumb.next()  # Bob's line is hidden: the next field is Celine's
    thumb.type("52")
    thumb.next()
    thumb.type("53")
    save(thumb, "declared doubles", shot)
    hand = Hand.objects.get().named
    assert hand["declared_doubles"] == "Bob"
    assert set(hand["results"]) == {"Anna", "Celine", "Dominic"}


def test_a_refused_hand_says_every_problem_in_view_and_none_stays_once_fixed(
    table: Page, shot
) -> None:
    table.fill("#pips-0", "2")
    table.fill("#pips-1", "-4")  # no browser pop-up: the app says what is wrong
    table.fill("#pips-2", "34")  # and Dominic's is left empty
    table.get_by_role("button", name="Save hand").click()

    problems = table.locator("#problems")
    expect(problems).to_be_in_viewport()
    expect(problems).to_be_focused()
    assert problems.get_attribute("role") == "alert"
    expect(problems.locator("li")).to_have_count(2)  # Bob's and Dominic's, at once
    expect(seat(table, 1).locator(".error")).to_contain_text(
        "Bob's score must be a whole number, 0 or more, not -4"
    )
    expect(seat(table, 3).locator(".error")).to_contain_text("Enter Dominic's score.")
    shot(table, "refused")

    table.fill("#pips-1", "12")  # fixed: what was said about it goes
    expect(seat(table, 1).locator(".error")).to_have_count(0)
    expect(seat(table, 3).locator(".error")).to_have_count(1)
    assert not Hand.objects.exists()


@pytest.mark.parametrize("locale", ["en-GB", "zh-CN", "zh-HK", "ko-KR"])
def test_the_hand_fits_one_screen_in_every_language(new_context, locale: str, shot) -> None:
    """The longest words of each language still leave every field and Save in the first
    screen, and a normal hand is saved as in English."""
    page = new_context(locale=locale).new_page()
    session = services.session_create(
        game="ce-deng", options={"head_tail": "6/7"}, seating=SEATING, first="Anna"
    )
    page.goto(f"/t/{session.token}/")
    assert page.locator("html").get_attribute("lang") == {
        "en-GB": "en", "zh-CN": "zh-hans", "zh-HK": "zh-hant", "ko-KR": "ko"
    }[locale]  # fmt: skip
    for index in range(4):
        in_first_screen(page, page.locator(f"#pips-{index}"))
        in_first_screen(page, seat(page, index).locator(".chips"))
    save_button = page.locator("button[value=save]")
    in_first_screen(page, save_button)
    shot(page, "form")
    page.locator("#pips-0").fill("2")
    for value in ("12", "34", "18"):
        page.keyboard.press("Enter")
        page.keyboard.type(value)
    save_button.click()
    expect(page.locator("#saved")).to_be_in_viewport()
    shot(page, "saved")
    assert Hand.objects.get().named["results"]["Dominic"] == {"pips": 18}


def test_a_hand_another_phone_saved_first_is_said_in_view(table: Page, shot) -> None:
    """The entry stays where it was typed (the form is not drawn again), as the next hand,
    led as the rules say; what was wrong with an earlier try of it is gone."""
    table.fill("#pips-0", "12")
    table.get_by_role("button", name="Save hand").click()
    expect(table.locator("#problems")).to_be_focused()  # three players' pips are missing
    session = TableSession.objects.get()
    services.hand_record(
        session=session,
        number=1,
        data={
            "results": {name: {"pips": p} for name, p in zip(SEATING, (2, 12, 34, 18), strict=True)}
        },
        device="Bob's phone",
    )
    following = selectors.score_sheet(session, latest=True)
    table.evaluate("document.getElementById('record-form').dataset.mark = 'typed here'")
    for index, pips in enumerate(("2", "34", "18"), start=1):
        table.fill(f"#pips-{index}", pips)
    table.get_by_role("button", name="Save hand").click()

    taken = table.locator("#taken")
    expect(taken).to_contain_text("Hand 1 is already recorded, by Bob's phone")
    expect(taken).to_be_in_viewport()
    expect(taken).to_be_focused()
    expect(table.locator("#record-form")).to_have_attribute("data-mark", "typed here")
    expect(table.locator("#pips-0")).to_have_value("12")  # kept as the next hand
    expect(table.locator("#hand-number")).to_have_text("Hand 2")
    expect(table.locator("input[name=number]")).to_have_value("2")
    expect(table.locator("#first")).to_have_value(following.next_first)
    checked = table.locator(f"input[name=direction][value={following.next_direction}]")
    expect(checked).to_be_checked()
    expect(table.locator("#problems, #record-form .error, [aria-invalid]")).to_have_count(0)
    shot(table, "taken")
    assert Hand.objects.count() == 1

    key = table.locator("#record-form input[name=key]").input_value()
    table.get_by_role("button", name="Save hand").click()  # saved again, as hand 2
    expect(table.locator("#saved")).to_contain_text("Hand 2 saved.")
    expect(table.locator("#saved")).to_be_focused()
    expect(table.locator("#taken")).to_have_count(0)
    expect(table.locator("#hand-number")).to_have_text("Hand 3")  # cleared, where it is
    expect(table.locator("#record-form")).to_have_attribute("data-mark", "typed here")
    for index in range(4):
        expect(table.locator(f"#pips-{index}")).to_have_value("")
    assert table.locator("#record-form input[name=key]").input_value() != key
    second = Hand.objects.get(number=2).named
    assert (second["first"], second["direction"]) == (
        following.next_first,
        following.next_direction,
    )


def test_a_refused_save_shows_its_message_at_the_top_with_no_blank_band(table: Page) -> None:
    for seat, pips in enumerate(["1", "12", "34", "18"]):
        table.fill(f"#pips-{seat}", pips)
    table.get_by_role("button", name="Save").first.click()
    problems = table.locator("#problems")
    expect(problems).to_be_focused()
    box = problems.bounding_box()
    first_line = problems.locator("p").first.bounding_box()
    assert box is not None and first_line is not None
    assert -1 <= box["y"] <= 16  # the message is at the top of the screen
    assert first_line["y"] - box["y"] <= 14  # its border, its padding, then the words
