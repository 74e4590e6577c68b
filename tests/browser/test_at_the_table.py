"""At the table (issue 45, items 10 to 12), on a 360×640 phone: a hand another phone saved
first says what was stored and by whom, and what this phone typed can be discarded or saved as
the next hand, never silently; after a save the next hand's first box is in view, above the
sticky *Save hand*; a void asks once, then reads "(voided)", and the other phones are told it
was voided."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from ledger.models import Hand, TableSession
from ledger.tables import services

SEATING = ["Anna", "Bob", "Celine", "Dominic"]


def _pips(*values: int) -> dict:
    return {"results": {name: {"pips": p} for name, p in zip(SEATING, values, strict=True)}}


@pytest.fixture
def table() -> TableSession:
    return services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")


def _type_hand(page: Page, *values: int) -> None:
    for seat, value in enumerate(values):
        page.fill(f"#pips-{seat}", str(value))


@pytest.mark.parametrize(
    ("locale", "another", "save_as"),
    [
        ("en-GB", "by another phone", "Save mine as hand 2"),
        ("ko-KR", "다른 휴대폰", "내 입력을 2번째 판으로 저장"),
    ],
    ids=["en", "ko"],
)
def test_a_hand_another_phone_saved_first_says_what_was_stored_and_mine_can_be_discarded(
    new_context, table: TableSession, shot, locale: str, another: str, save_as: str
) -> None:
    page = new_context(locale=locale).new_page()
    page.goto(f"/t/{table.token}/")
    services.hand_record(session=table, number=1, data=_pips(2, 12, 34, 18))  # no device named
    _type_hand(page, 2, 12, 34, 18)
    page.locator("button[value=save]").click()

    taken = page.locator("#taken")
    expect(taken).to_be_focused()
    expect(taken).to_contain_text(another)
    expect(taken).to_contain_text("Anna")  # what was stored, not nothing after the colon
    expect(taken).to_contain_text("34")
    if not locale.startswith("en"):
        expect(taken).not_to_contain_text("another phone")
    # Mine is said to be not saved, with both ways on: save it as the next hand, or discard it.
    expect(taken.locator("#save-mine")).to_have_text(save_as)
    shot(page, "taken")
    taken.locator("#discard-mine").click()
    for seat in range(4):
        expect(page.locator(f"#pips-{seat}")).to_have_value("")
    expect(page.locator("#taken")).to_have_count(0)
    expect(page.locator("input[name=number]")).to_have_value("2")
    expect(page.locator("#pips-0")).to_be_focused()
    page.locator("button[value=save]").click()  # the empty form, a moment later: nothing sent
    page.wait_for_timeout(500)
    assert Hand.objects.count() == 1


def test_mine_saved_as_the_next_hand_from_the_notice(page: Page, table: TableSession) -> None:
    page.goto(f"/t/{table.token}/")
    services.hand_record(session=table, number=1, data=_pips(2, 12, 34, 18), device="Bob's")
    _type_hand(page, 0, 30, 34, 20)
    page.locator("button[value=save]").click()
    expect(page.locator("#taken")).to_contain_text("Hand 1 is already recorded, by Bob's")
    page.locator("#save-mine").click()
    expect(page.locator("#saved")).to_contain_text("Hand 2 saved.")
    assert Hand.objects.get(number=2).named["results"]["Bob"] == {"pips": 30}


def test_after_a_save_the_next_hands_first_box_is_in_view(
    page: Page, table: TableSession, shot
) -> None:
    """The saved hand is short (the nets on a line, who pays whom folded), and the next hand's
    first box is seen and tappable, not under the sticky Save bar nor below the fold."""
    page.goto(f"/t/{table.token}/")
    for number in (1, 2):
        _type_hand(page, 2, 12, 34, 18)
        page.locator("button[value=save]").click()
        expect(page.locator("#saved")).to_contain_text(f"Hand {number} saved.")
        expect(page.locator("#saved details")).not_to_have_attribute("open", "")
        first = page.locator("#pips-0")
        expect(first).to_have_value("")
        box = first.bounding_box()
        assert box is not None
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.id",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert hit == "pips-0", (number, box)
    expect(page.locator("#saved")).to_be_in_viewport()
    shot(page, "saved")


def test_a_void_asks_once_then_reads_voided_and_other_phones_are_told(
    new_context, table: TableSession
) -> None:
    for number in (1, 2):
        services.hand_record(session=table, number=number, data=_pips(2, 12, 34, 18))
    other = new_context().new_page()
    other.goto(f"/t/{table.token}/")
    organiser = new_context().new_page()
    organiser.goto(f"/t/{table.token}/organise/{table.organiser_token}/")
    organiser.goto(f"/t/{table.token}/hands/2/")
    organiser.get_by_role("button", name="Void this hand").click()

    expect(organiser.locator("#question")).to_have_text("Void hand 2?")
    assert not Hand.objects.get(number=2).voided  # asked, nothing done yet
    organiser.locator("#confirm").click()
    expect(organiser.locator("#changed")).to_contain_text("Hand 2 voided.")
    line = organiser.locator("#hand-2")
    expect(line).to_contain_text("(voided)")
    expect(line).not_to_contain_text("corrected")
    assert Hand.objects.get(number=2).voided

    expect(other.locator("#hand-2")).to_contain_text("(voided)")
    expect(other.locator("#arrived")).to_have_text("Hand 2 voided on another phone.")

    # A correction there is said as one, in place of what was said before.
    services.hand_correct(session=table, number=1, data=_pips(4, 12, 34, 18), version=1)
    expect(other.locator("#arrived")).to_have_text("Hand 1 corrected on another phone.")
    expect(other.locator("#hand-1")).to_contain_text("(corrected)")


def test_the_organiser_removes_an_empty_table_asked_once_and_the_phone_forgets_it(
    page: Page, table: TableSession
) -> None:
    kept = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Bob")
    page.goto(f"/t/{kept.token}/")
    page.goto(f"/t/{table.token}/organise/{table.organiser_token}/")
    page.locator("#remove-form button").click()
    expect(page.locator("#question")).to_have_text("Remove this table?")
    assert TableSession.objects.filter(pk=table.pk).exists()  # asked: nothing done yet

    page.locator("#confirm").click()

    page.wait_for_url(lambda url: url.endswith("/"))
    assert not TableSession.objects.filter(pk=table.pk).exists()
    listed = page.locator("#your-tables-list a:not(.organiser-link)")
    expect(listed).to_have_count(1)  # the table kept, not the one removed
    expect(listed).to_have_attribute("href", f"/t/{kept.token}/")
