"""A phone that loses its connection keeps the hand and sends it, once, when it is back; a
hand the server refuses is dropped, and the phone says why."""

from __future__ import annotations

import re
from contextlib import contextmanager

from django.core.signals import request_started
from playwright.sync_api import expect

from ledger.groups import services as group_services
from ledger.models import Hand, TableSession
from ledger.tables import services
from tests.browser.conftest import enter_hand, paced, save_hand, start_table
from tests.tables.conftest import plain_hand

SEATING = ["Anna", "Bob", "Celine", "Dominic"]
BACK = 15_000  # ms: the phone retries after 2, 4, 8 s... and when the browser says it is online


def test_a_hand_saved_offline_is_kept_and_sent_once_when_the_connection_is_back(page, shot):
    start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})

    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").click()

    expect(page.locator("#unsent")).to_contain_text("1 hand kept on this phone")
    assert not Hand.objects.exists()
    shot(page, "kept-offline")
    # Pressing save again while offline keeps it once.
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#unsent")).to_contain_text("1 hand kept on this phone")

    page.context.set_offline(False)

    expect(page.locator("#saved")).to_contain_text("Hand 1 saved.", timeout=BACK)
    expect(page.locator("#unsent")).to_be_hidden()
    expect(page.locator("#scoreboard")).to_contain_text("+58", timeout=BACK)
    assert Hand.objects.count() == 1
    shot(page, "sent-when-back")


def test_with_no_service_worker_a_hand_is_still_kept_and_sent_once(new_context):
    """Over plain HTTP on a home Wi-Fi, browsers run no service worker: the hands are kept
    all the same (the table page cannot be reopened offline there, README "With no
    connection")."""
    page = new_context(service_workers="block").new_page()
    start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    assert page.evaluate("navigator.serviceWorker.controller") is None

    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("status")).to_contain_text("1 hand kept on this phone")
    page.context.set_offline(False)

    expect(page.locator("#saved")).to_contain_text("Hand 1 saved.", timeout=BACK)
    expect(page.locator("#unsent")).to_be_hidden()
    assert Hand.objects.count() == 1


def _posts_to(page, path: str) -> list[str]:
    """Every hand this page posts to the table's save address (``path`` + ``hands/``) from now
    on."""
    path += "hands/"
    posts: list[str] = []
    page.on(
        "request",
        lambda request: (
            posts.append(request.url)
            if request.method == "POST" and request.url.endswith(path)
            else None
        ),
    )
    return posts


def _hand_kept_offline(page) -> str:
    """A new table whose first hand was saved with no connection: kept on the phone."""
    path = start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    page.context.set_offline(True)
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#unsent")).to_contain_text("1 hand kept on this phone")
    return path


def test_a_kept_hand_the_server_refuses_is_dropped_and_the_phone_says_why(page, shot):
    path = _hand_kept_offline(page)
    # Meanwhile the organiser locks the table from another phone.
    services.table_lock(session=TableSession.objects.get(), locked=True)

    posts = _posts_to(page, path)
    page.context.set_offline(False)

    refused = page.locator("#refused")
    expect(refused).to_contain_text(
        "Hand 1 was not saved: This table is locked by its organiser: nothing was saved.",
        timeout=BACK,
    )
    # The form already holds the next hand: what was refused is said, to be entered again.
    expect(refused).to_contain_text("It was: Anna 2, Bob 12, Celine 34, Dominic 18")
    expect(page.locator("#unsent")).to_be_hidden()
    shot(page, "refused")
    # Dropped, not tried again: the first retry would come 2 s after a failure (at the tests' pace).
    page.wait_for_timeout(3 * paced(2_000))
    assert len(posts) == 1
    assert page.evaluate("localStorage.getItem('ledger-unsent:' + location.pathname)") == "[]"
    assert not Hand.objects.exists()


def test_a_hand_whose_answer_was_lost_is_sent_again_and_stored_once(page, shot):
    path = start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    lost: list[str] = []

    def lose_the_first_answer(route):
        if route.request.method == "POST" and not lost:
            lost.append(route.request.url)
            route.fetch()  # the server stores the hand...
            route.abort("failed")  # ...and the connection drops before the phone hears back
        else:
            route.continue_()

    page.route(f"**{path}hands/", lose_the_first_answer)
    posts = _posts_to(page, path)
    page.get_by_role("button", name="Save hand").click()

    expect(page.locator("#saved")).to_contain_text("Hand 1 saved.", timeout=BACK)
    expect(page.locator("#unsent")).to_be_hidden()
    expect(page.locator("#refused")).to_be_hidden()
    expect(page.locator("#scoreboard")).to_contain_text("+58", timeout=BACK)
    shot(page, "sent-again")
    assert len(lost) == 1 and len(posts) == 2  # the lost one and one retry, with the same key
    assert Hand.objects.count() == 1


def test_a_kept_hand_another_phone_recorded_first_is_dropped_and_shown_taken(page, shot):
    path = _hand_kept_offline(page)
    # Meanwhile another phone records hand 1, differently.
    other = plain_hand(Anna=12, Bob=2)
    services.hand_record(
        session=TableSession.objects.get(), number=1, data=other, device="Bob's phone"
    )

    posts = _posts_to(page, path)
    page.context.set_offline(False)

    expect(page.locator("#refused")).to_contain_text(
        "Hand 1 was not saved: Hand 1 is already recorded, by Bob's phone", timeout=BACK
    )
    expect(page.locator("#taken")).to_be_visible()  # the answer, in place of the form
    expect(page.locator("#unsent")).to_be_hidden()
    shot(page, "taken")
    page.wait_for_timeout(3 * paced(2_000))  # no retry, which would come after 2 s
    assert len(posts) == 1
    assert Hand.objects.count() == 1


def test_a_hand_saved_on_a_table_locked_meanwhile_says_why(page):
    start_table(page, "jie-long", SEATING, leader=0)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    services.table_lock(session=TableSession.objects.get(), locked=True)

    page.get_by_role("button", name="Save hand").click()

    expect(page.locator("#refused")).to_contain_text(
        "Hand 1 was not saved: This table is locked by its organiser: nothing was saved."
    )
    expect(page.locator("#unsent")).to_be_hidden()  # not kept: sending it again cannot help
    assert not Hand.objects.exists()


# A table opened while the service worker runs is kept on the phone (templates/web/sw.js):
# with no connection it opens from that copy, and takes hands as above.


def test_a_table_page_that_passed_the_worker_unseen_is_claimed_and_kept(page):
    """A page that loads while the worker is starting is not seen by it: the worker neither
    controls it nor keeps it. A reload that bypasses the worker (the browser's hard reload)
    does the same every time: the page says where it is, and is claimed and kept."""
    path = _opened_with_the_worker(page)
    page.evaluate("caches.open('ledger-pages').then((pages) => pages.delete(location.pathname))")
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.reload", {"ignoreCache": True})
    page.wait_for_url(re.compile(re.escape(path)))
    expect(page.locator("h1")).to_contain_text("Jie Long")

    _until(page, "navigator.serviceWorker.controller && caches.match(location.pathname)")


def _opened_with_the_worker(page) -> str:
    """A new table whose page the service worker keeps, and controls. The worker starts on
    the first page: it keeps the table page as it passes, or, if the page came first, when
    the worker starts."""
    path = start_table(page, "jie-long", SEATING, leader=0)
    page.evaluate("navigator.serviceWorker.ready")
    _until(page, "navigator.serviceWorker.controller && caches.match(location.pathname)")
    return path


def _until(page, script: str) -> None:
    """Wait until ``script``, which may give a promise, comes true (wait_for_function would
    take the promise itself for true)."""
    for _ in range(100):
        if page.evaluate(f"(async () => !!(await ({script})))()"):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"not true within 10 s: {script}")


@contextmanager
def _server_hears():
    """The paths of every request the server gets meanwhile (it runs in this process)."""
    heard: list[str] = []

    def hear(sender, environ, **kwargs):
        heard.append(environ["PATH_INFO"])

    request_started.connect(hear)
    try:
        yield heard
    finally:
        request_started.disconnect(hear)


def test_a_table_opened_before_reopens_offline_and_its_hand_is_stored_once(page, shot):
    path = _opened_with_the_worker(page)

    page.context.set_offline(True)
    with _server_hears() as heard:
        page.reload()
        expect(page.locator("h1")).to_contain_text("Jie Long")
        banner = page.get_by_role("status")
        expect(banner).to_contain_text("No connection: the hands saved now are kept on this phone")
        shot(page, "reopened-offline")
        enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
        page.get_by_role("button", name="Save hand").click()
        expect(banner).to_contain_text("1 hand kept on this phone")
        shot(page, "kept-offline")
    # The page came from the phone's copy. The browser's own check for a newer worker script is
    # not the page's: Chromium sends it past the offline emulation, sometimes within these steps;
    # and a live poll on its way as the phone went offline may land.
    assert [p for p in heard if p != "/sw.js" and p != f"{path}live/"] == []
    assert not Hand.objects.exists()

    with _server_hears() as heard:
        page.context.set_offline(False)
        expect(page.locator("#saved")).to_contain_text("Hand 1 saved.", timeout=BACK)

    assert f"{path}hands/" in heard
    expect(page.locator("#unsent")).to_be_hidden()
    expect(page.locator("#scoreboard")).to_contain_text("+58", timeout=BACK)
    assert Hand.objects.count() == 1
    assert Hand.objects.get().idempotency_key  # sent with its key: a retry would be a replay
    shot(page, "sent-when-back")


def test_two_hands_entered_offline_are_both_stored_once_each(page, shot):
    _opened_with_the_worker(page)
    page.context.set_offline(True)
    page.reload()

    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#unsent")).to_contain_text("1 hand kept on this phone")
    # The form moves on to hand 2, with a key of its own, and says to check who leads.
    expect(page.locator("#hand-number")).to_have_text("Hand 2")
    expect(page.locator("#leader-unknown")).to_be_visible()
    expect(page.locator("#pips-0")).to_have_value("")
    page.select_option("#first", "Anna")
    enter_hand(page, {0: 0, 1: 10, 2: 5, 3: 7})
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#unsent")).to_contain_text("2 hands kept on this phone")
    expect(page.locator("#hand-number")).to_have_text("Hand 3")
    shot(page, "two-kept")

    page.context.set_offline(False)

    expect(page.locator("#saved")).to_contain_text("Hand 2 saved.", timeout=BACK)
    expect(page.locator("#unsent")).to_be_hidden()
    expect(page.locator("#hand-number")).to_have_text("Hand 3")
    expect(page.locator("#leader-unknown")).to_be_hidden()
    hands = Hand.objects.order_by("number")
    assert [hand.number for hand in hands] == [1, 2]
    assert [hand.named["results"]["Bob"]["pips"] for hand in hands] == [12, 10]
    assert len({hand.idempotency_key for hand in hands}) == 2
    shot(page, "both-sent")


def kept(path: str | None = None) -> str:
    """A script reading the worker's copy of the page at ``path`` (the page's own if none)."""
    where = repr(path) if path else "location.pathname"
    return f"caches.match({where}).then((copy) => copy.text())"


KEPT = kept()


def _kept_copy(page) -> str:
    return page.evaluate(KEPT)


def test_the_kept_page_follows_the_table_and_each_page_shown_gets_a_key_of_its_own(page):
    path = _opened_with_the_worker(page)
    enter_hand(page, {0: 2, 1: 12, 2: 34, 3: 18})
    save_hand(page, 1)
    # The page moved; put away (another page opened), the worker fetches it again.
    page.goto("/")
    _until(page, f'{kept(path)}.then((html) => html.includes(\'name="number" value="2"\'))')

    page.context.set_offline(True)
    page.goto(path)

    expect(page.locator("#hand-number")).to_have_text("Hand 2")
    expect(page.locator("#leader-unknown")).to_be_hidden()  # the server said who leads
    kept_key = re.search(r'name="key" value="([\w-]+)"', _kept_copy(page))[1]
    assert page.input_value("#record-form input[name=key]") != kept_key
    enter_hand(page, {0: 0, 1: 10, 2: 5, 3: 7})
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#unsent")).to_contain_text("1 hand kept on this phone")
    page.context.set_offline(False)

    expect(page.locator("#saved")).to_contain_text("Hand 2 saved.", timeout=BACK)
    assert Hand.objects.count() == 2


def test_a_table_never_opened_on_this_phone_says_so_offline(page):
    _opened_with_the_worker(page)
    page.context.set_offline(True)

    page.goto("/t/never-opened-here/")

    expect(page.locator("h1")).to_have_text("No connection")
    expect(page.locator("#offline")).to_contain_text("was not opened on this phone before")


def test_going_offline_shows_the_banner_and_coming_back_hides_it(page):
    _opened_with_the_worker(page)

    page.context.set_offline(True)
    expect(page.get_by_role("status")).to_contain_text("No connection")
    page.context.set_offline(False)

    expect(page.locator("#unsent")).to_be_hidden()


AS_OF_12H = re.compile(r"^No connection: this is the page as of \d\d:\d\d\s[AP]M\.$")


def test_the_group_and_home_pages_opened_before_reopen_offline_and_say_how_old_they_are(
    new_context, shot
):
    """Not only a table's page: a group's and the home page opened before open with no
    connection, each saying when its copy was fetched, as the phone writes a time (en-US: 12
    hours), not that this phone never opened them (issue 45, item 14)."""
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=SEATING[:3], first="Anna")
    page = new_context(locale="en-US").new_page()
    page.goto(f"/g/{group.token}/")
    page.evaluate("navigator.serviceWorker.ready")
    _until(page, "navigator.serviceWorker.controller && caches.match(location.pathname)")
    page.goto("/")
    _until(page, "caches.match('/')")
    expect(page.locator("#kept-at")).to_be_hidden()  # online: the page is as it is now

    page.context.set_offline(True)
    page.goto(f"/g/{group.token}/")

    expect(page.locator("h1")).to_have_text("Teahouse")
    expect(page.locator("#kept-at")).to_have_text(AS_OF_12H)
    shot(page, "group-offline")
    page.goto("/")
    expect(page.locator("h1")).to_have_text("Domino ledger")
    expect(page.locator("#kept-at")).to_have_text(AS_OF_12H)
    expect(page.locator("#your-tables-list")).to_contain_text("Teahouse")
    shot(page, "home-offline")
