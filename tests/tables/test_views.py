from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.db import close_old_connections, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.models import Hand, HandChange, TableSession
from ledger.tables import services
from tests.phones import i_am
from tests.tables.conftest import IN_PLACE, SEATING, form_post, plain_hand

# both_databases on the tests that count a page's or a save's queries (SQLite's sums check adds
# one to a save), lose a connection, read totals the result rows sum (the settle-up exports), or
# have a save decided by the unique hand number, the idempotency key or the hand's version.
# What a page says, its forms and the engine's refusals run once.

HTMX = {"HTTP_HX_REQUEST": "true"}


def new_table_post(**fields):
    post = {"game": "ce-deng", "first": "0", "stake": "1", "head_tail": "7/8"}
    post |= {f"player_{i}": name for i, name in enumerate(SEATING)}
    return post | fields


def test_starting_a_table_redirects_to_its_secret_page(client, db):
    response = client.post(reverse("session_new"), new_table_post(stake="0.50"))

    session = TableSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("table", args=[session.token])
    assert session.seating == SEATING and session.first == "Anna"
    assert session.options == {"stake": "0.50"}


def test_draw_lots_picks_a_seated_first_player(client, db):
    client.post(reverse("session_new"), new_table_post(first="draw"))

    assert TableSession.objects.get().first in SEATING


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game": "ding-niu", "player_3": ""}, "Ding Niu 顶牛 is for exactly 4 players, not 3"),
        ({"player_1": "anna"}, "seated twice"),
        ({"stake": "abc"}, "expected an amount from 0 (points only) to"),
        ({"play_to": "0"}, "expected a whole number from 1 to 100000, not"),
    ],
)
def test_bad_table_gets_a_clear_message_and_nothing_is_stored(client, db, fields, message):
    response = client.post(reverse("session_new"), new_table_post(**fields))

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not TableSession.objects.exists()


def test_table_page_needs_the_token(client, ce_deng):
    assert client.get(reverse("table", args=[ce_deng.token])).status_code == 200
    other = ("y" if ce_deng.token.startswith("x") else "x") + ce_deng.token[1:]
    assert client.get(reverse("table", args=[other])).status_code == 404
    assert client.get(reverse("summary", args=[ce_deng.read_token])).status_code == 404


def test_recording_a_hand_without_javascript_redirects_to_the_result(client, ce_deng):
    url = reverse("table", args=[ce_deng.token])
    i_am(client, ce_deng, "Anna")

    response = client.post(url, form_post(1))
    page = client.get(response["Location"]).content.decode()

    assert response.status_code == 302
    assert 'id="saved"' in page and "Anna +58" in page
    assert "Next: Anna leads, clockwise" in page
    assert Hand.objects.get().device == "Anna"  # who saved it, as the phone said


def test_recording_a_hand_with_htmx_returns_the_form_partial_with_the_result(client, ce_deng):
    url = reverse("table", args=[ce_deng.token])

    response = client.post(url, form_post(1), **HTMX)

    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="hand-form">')
    assert "<html" not in page
    assert "Celine −70" in page
    assert json.loads(response["HX-Trigger"]) == {"ledger-changed": True}


def test_the_pages_form_is_told_a_save_by_the_result_and_the_next_hand_alone(client, ce_deng):
    """The page's own form clears itself for the next hand (ledger.js, "ledger-next"): the
    answer is the result panel, out of band, and the next hand's number, leader and way,
    the same as the whole form gives."""
    url = reverse("table", args=[ce_deng.token])
    client.post(url, form_post(1), **HTMX)

    response = client.post(url, form_post(2, first="Anna", direction="cw"), **IN_PLACE)

    panel = response.content.decode()
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert panel.startswith('<div id="outcome" hx-swap-oob="true">')
    assert 'id="saved"' in panel and "Hand 2 saved." in panel and 'id="record-form"' not in panel
    events = json.loads(response["HX-Trigger"])
    assert events["ledger-changed"] is True
    following = events["ledger-next"]
    assert following["number"] == 3 and following["clear"] is True  # under a key of its own
    page = client.get(url).content.decode()
    assert f'<option value="{following["first"]}" selected>' in page
    assert f'name="direction" value="{following["direction"]}" checked' in page
    assert Hand.objects.count() == 2


def test_specials_and_tiles_from_the_form_reach_the_engine(client, ce_deng):
    url = reverse("table", args=[ce_deng.token])
    post = form_post(1, pips_0="0", specials_0="pass", specials_2="tail_eight", pips_3="")
    post["tiles-3"] = "6:6 3:3"

    client.post(url, post)

    assert Hand.objects.get().named["results"] == {
        "Anna": {"pips": 0, "specials": ["pass"]},
        "Bob": {"pips": 12},
        "Celine": {"pips": 34, "specials": ["tail_eight"]},
        "Dominic": {"tiles": ["6:6", "3:3"]},
    }


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"pips_1": "1"}, "Bob&#x27;s score of 1 is impossible"),
        ({"pips_1": ""}, "Enter Bob&#x27;s score."),
        ({"pips_1": "1.5"}, "must be a whole number, 0 or more, not 1.5"),
        ({"specials_1": "head_seven"}, "head-seven 头七: it is only for the player who led"),
        ({"tiles_1": "1:2 1:2"}, "1:2 is entered 2 times"),
    ],
)
def test_invalid_hand_shows_the_message_beside_the_field_and_stores_nothing(
    client, ce_deng, fields, message
):
    url = reverse("table", args=[ce_deng.token])

    response = client.post(url, form_post(1, **fields), **HTMX)

    page = response.content.decode()
    problems = page.split('id="problems"')[1].split("</div>")[0]  # every problem at the top
    assert message in problems
    player = page.index('id="player-1"')  # and again beside the field
    assert player < page.index(message, player) < page.index('id="player-2"')
    assert not Hand.objects.exists()


@pytest.mark.parametrize("htmx", [HTMX, {}])
def test_preview_shows_the_settlement_and_stores_nothing(client, ce_deng, htmx):
    url = reverse("hand_preview", args=[ce_deng.token])

    response = client.post(url, form_post(1, action="preview"), **htmx)

    assert response.status_code == 200
    assert 'id="preview"' in response.content.decode()
    assert "Anna +58" in response.content.decode()
    assert not Hand.objects.exists()


def test_saving_and_previewing_have_addresses_of_their_own(client, ce_deng):
    page = client.get(reverse("table", args=[ce_deng.token])).content.decode()
    save, preview = (
        reverse("hand_save", args=[ce_deng.token]),
        reverse("hand_preview", args=[ce_deng.token]),
    )
    assert f'action="{save}"' in page and f'formaction="{preview}"' in page
    assert client.get(save).status_code == 405 and client.get(preview).status_code == 405
    assert client.post(save, form_post(1)).status_code == 302
    assert Hand.objects.count() == 1


def test_a_page_from_before_the_split_still_previews_and_saves_at_the_tables_address(
    client, ce_deng
):
    """A phone may keep a page, or hands not yet sent, from before the update: its preview
    still stores nothing, and its saves are saved."""
    url = reverse("table", args=[ce_deng.token])
    response = client.post(url, form_post(1, action="preview"), **HTMX)
    assert 'id="preview"' in response.content.decode() and not Hand.objects.exists()
    assert client.post(url, form_post(1, action="save"), **HTMX).status_code == 200
    assert Hand.objects.count() == 1


@pytest.mark.both_databases
def test_second_phone_saving_the_same_hand_is_shown_the_first(client, ce_deng):
    url = reverse("table", args=[ce_deng.token])
    i_am(client, ce_deng, "Anna")
    client.post(url, form_post(1))
    bob = Client()
    i_am(bob, ce_deng, "Bob")

    response = bob.post(url, form_post(1, pips_0="4"))

    page = response.content.decode()
    assert response.status_code == 409
    assert "Hand 1 is already recorded, by Anna:" in page
    assert Hand.objects.get().named["results"]["Anna"] == {"pips": 2}
    assert 'name="pips-0" id="pips-0" value="4"' in page  # what Bob typed is kept


@pytest.mark.both_databases
def test_live_poll_answers_204_until_something_changes(
    client, ce_deng, django_assert_max_num_queries
):
    url = reverse("live", args=[ce_deng.token])

    # The revision's read and one of the address's guess count (ledger/web/limits.py), each
    # time: a block from another worker holds at once (issue 45).
    for _ in range(2):
        with django_assert_max_num_queries(2):
            assert client.get(url, {"rev": "0"}).status_code == 204
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    changed = client.get(url, {"rev": "0"})

    assert changed.status_code == 200
    assert 'hx-get="/t/' in changed.content.decode()
    assert "?rev=1" in changed.content.decode()
    assert client.get(url, {"rev": "1"}).status_code == 204
    assert client.get(reverse("live", args=["nope"]), {"rev": "1"}).status_code == 404


def test_the_live_polls_nothing_new_skips_the_rest_of_the_stack(client, ce_deng):
    """No session, language or CSRF work for a 204 (ledger.tables.middleware.LivePollMiddleware),
    but the security headers all the same."""
    nothing_new = client.get(reverse("live", args=[ce_deng.token]), {"rev": "0"})
    changed = client.get(reverse("live", args=[ce_deng.token]), {"rev": "7"})

    assert nothing_new.status_code == 204 and not nothing_new.cookies
    assert "Content-Language" not in nothing_new and "Content-Language" in changed
    assert nothing_new["X-Content-Type-Options"] == "nosniff"
    assert changed.status_code == 200


def _kill_connection() -> None:
    """End this thread's database connection under Django's feet, as a database restart does."""
    if connection.vendor != "postgresql":
        connection.close()  # SQLite has no server to lose: a closed connection is the nearest
        return
    import psycopg

    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    with psycopg.connect(
        host=params.get("host"),
        port=params.get("port"),
        user=params.get("user"),
        dbname=params["dbname"],
        autocommit=True,
    ) as other:
        # Waited for (up to 5 s), as a restart is: the next request finds the connection ended.
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_live_poll_reconnects_when_its_database_connection_died(client, ce_deng):
    url = reverse("live", args=[ce_deng.token])
    assert client.get(url, {"rev": "0"}).status_code == 204
    services.hand_record(session=ce_deng, number=1, data=plain_hand())

    _kill_connection()
    # As a server's handler does when a request begins (the test client leaves it out): the
    # kept connection is checked before the request's first query (CONN_HEALTH_CHECKS).
    close_old_connections()

    assert client.get(url, {"rev": "1"}).status_code == 204
    assert client.get(url, {"rev": "0"}).status_code == 200


def test_correcting_a_hand_from_its_page(client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    url = reverse("hand_detail", args=[ce_deng.token, 1])
    post = form_post(1, pips_0="20", action="correct", version="1")
    i_am(client, ce_deng, "Celine")

    response = client.post(url, post)

    assert response.status_code == 302
    hand = Hand.objects.get()
    assert hand.named["results"]["Anna"] == {"pips": 20} and hand.version == 2
    history = client.get(reverse("history", args=[ce_deng.token])).content.decode()
    assert "corrected" in history and "· Celine</p>" in history


def test_a_past_hands_page_says_who_pays_whom(client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())

    page = client.get(reverse("hand_detail", args=[ce_deng.token, 1])).content.decode()

    payments = page.split('<ul class="payments">')[1].split("</ul>")[0]
    assert "<li>Celine → Anna 32</li>" in payments and "<li>Dominic → Bob 6</li>" in payments
    assert payments.count("<li>") == 6  # Ce Deng: every pair of players settles
    assert "Anna led, counter-clockwise ↺." in page


def test_history_reads_in_chinese_with_chinese_punctuation(client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_correct(session=ce_deng, number=1, data=plain_hand(Anna=4), version=1)
    url = reverse("history", args=[ce_deng.token])
    client.post(reverse("set_language"), {"language": "zh-hans", "next": url})

    page = client.get(url).content.decode()

    assert "recorded" not in page and "corrected" not in page
    assert "Anna 4，Bob 12，Celine 34，Dominic 18" in page


@pytest.mark.both_databases
def test_stale_correction_gets_409_with_the_current_hand(client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_correct(session=ce_deng, number=1, data=plain_hand(Anna=4), version=1)
    url = reverse("hand_detail", args=[ce_deng.token, 1])

    response = client.post(url, form_post(1, pips_0="20", action="correct", version="1"))

    assert response.status_code == 409
    assert "Someone else changed this hand" in response.content.decode()
    assert Hand.objects.get().named == plain_hand(Anna=4)


def test_voiding_a_hand_keeps_it_in_the_history(client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    url = reverse("hand_detail", args=[ce_deng.token, 1])
    client.get(reverse("organise", args=[ce_deng.token, ce_deng.organiser_token]))

    client.post(f"{url}void/", {"version": "1", "confirm": "1"})

    assert Hand.objects.get().voided
    assert HandChange.objects.count() == 2
    summary = client.get(reverse("summary", args=[ce_deng.token])).content.decode()
    assert "voided" in summary


def test_a_void_is_asked_once_first_and_nothing_changes_until_it_is_confirmed(client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand(), device="Anna's")
    url = reverse("hand_void", args=[ce_deng.token, 1])
    client.get(reverse("organise", args=[ce_deng.token, ce_deng.organiser_token]))
    i_am(client, ce_deng, "Dominic")

    asked = client.post(url, {"version": "1"})

    page = asked.content.decode()
    assert asked.status_code == 200 and 'id="question"' in page and "Void hand 1?" in page
    assert 'name="confirm" value="1"' in page and 'name="version" value="1"' in page
    assert not Hand.objects.get().voided and HandChange.objects.count() == 1

    voided = client.post(url, {"version": "1", "confirm": "1"})

    assert voided.status_code == 302
    hand = Hand.objects.get()
    assert hand.voided and hand.device == "Dominic" and HandChange.objects.count() == 2


def _csv(response):
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:])))


def test_a_0_is_shown_as_a_pass_everywhere_marked_or_not(client, ce_deng):
    data = plain_hand()
    data["results"]["Anna"] = {"pips": 0}  # from the API, or a phone without JavaScript
    services.hand_record(session=ce_deng, number=1, data=data)
    token = ce_deng.token

    table = client.get(reverse("table", args=[token])).content.decode()
    history = client.get(reverse("history", args=[token])).content.decode()
    summary = client.get(reverse("summary", args=[token])).content.decode()
    hands = _csv(client.get(reverse("export", args=[token, "hands"])))

    for page in (table, history, summary):
        assert "Anna 0 pass 通" in page
    assert "Anna: pass 通 ×1" in summary.split('id="specials"')[1]
    assert [row[9] for row in hands if row[5] == "Anna"] == ["pass 通"]


@pytest.mark.both_databases
def test_exports_stream_hands_payments_and_settle_up(client, ce_deng):
    data = plain_hand()
    data["results"]["Anna"] = {"pips": 0, "specials": ["pass"]}
    services.hand_record(session=ce_deng, number=1, data=data)

    # As a program reads them: the API's downloads (a page's speak the reader's language).
    api = f"/api/v1/sessions/{ce_deng.token}/export"
    hands = _csv(client.get(f"{api}/hands.csv"))
    payments = _csv(client.get(f"{api}/payments.csv"))
    settle = _csv(client.get(f"{api}/settle-up.csv"))

    assert hands[0][:6] == ["hand", "voided", "first", "direction", "event", "player"]
    assert hands[1] == ["1", "", "Anna", "ccw", "", "Anna", "1", "1", "0", "pass", "1", "128"]
    assert len(hands) == 1 + 4
    assert ["1", "Bob", "Anna", "24", "2", "pass"] in payments
    assert settle[0] == ["from", "to", "amount"]
    assert len(settle) - 1 <= 3


@pytest.mark.both_databases
def test_exports_keep_chinese_and_korean_names(client, db):
    session = services.session_create(
        game="jie-long", options={}, seating=["张伟", "김민준"], first="张伟"
    )
    data = {"results": {"张伟": {"pips": 3}, "김민준": {"pips": 12}}}
    services.hand_record(session=session, number=1, data=data)

    rows = _csv(client.get(reverse("export", args=[session.token, "settle-up"])))

    assert rows[1] == ["김민준", "张伟", "9"]


def test_read_only_link_shows_the_summary_and_exports_but_no_forms(client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())

    page = client.get(reverse("shared", args=[ce_deng.read_token])).content.decode()

    assert "Settle up" in page and '<form method="post" action="/t/' not in page
    assert ce_deng.token not in page
    export = client.get(reverse("shared_export", args=[ce_deng.read_token, "hands"]))
    assert export.status_code == 200
    assert client.post(reverse("shared", args=[ce_deng.read_token])).status_code == 405


def test_qr_code_is_an_svg_of_the_join_link(client, ce_deng):
    response = client.get(reverse("qr", args=[ce_deng.token]))

    assert response["Content-Type"] == "image/svg+xml"
    assert response.content.startswith(b"<svg")


def _add_hands(session, start, stop):
    for number in range(start, stop):
        direction = "ccw" if number % 2 else "cw"
        services.hand_record(session=session, number=number, data=plain_hand(direction=direction))


def _queries(request):
    with CaptureQueriesContext(connection) as queries:
        response = request()
    assert response.status_code in (200, 302)
    return len(queries)


# The history comes in pages: one more query counts its changes. The table page reads its
# latest hands and the summary every hand, and beside them their result rows and the totals;
# the table page also which of its players another phone claimed ("I am Bob").
@pytest.mark.both_databases
@pytest.mark.parametrize(("url_name", "most"), [("table", 7), ("summary", 6), ("history", 7)])
def test_page_queries_do_not_grow_with_the_hands(client, ce_deng, url_name, most):
    url = reverse(url_name, args=[ce_deng.token])
    _add_hands(ce_deng, 1, 3)
    few = _queries(lambda: client.get(url))
    _add_hands(ce_deng, 3, 43)

    assert _queries(lambda: client.get(url)) == few <= most


@pytest.mark.both_databases
def test_hand_save_queries_do_not_grow_with_the_hands(client, ce_deng):
    url = reverse("table", args=[ce_deng.token])
    _add_hands(ce_deng, 1, 2)
    # The first write from an address begins its window of the write limit; later ones add to
    # the count in one update (ledger.web.limits.allow). The hand's result rows are one insert
    # (ledger.tables.results); PostgreSQL tells the tables' streams itself (migration 0042).
    client.post(url, form_post(2, direction="cw"), **HTMX)
    few = _queries(lambda: client.post(url, form_post(3, direction="ccw"), **HTMX))
    _add_hands(ce_deng, 4, 44)

    many = _queries(lambda: client.post(url, form_post(44, direction="cw"), **HTMX))

    assert many == few <= 14


def test_the_page_switches_to_simplified_chinese_names_and_all(client, ce_deng):
    data = plain_hand()
    data["results"]["Anna"] = {"pips": 0, "specials": ["pass"]}
    services.hand_record(session=ce_deng, number=1, data=data)
    url = reverse("table", args=[ce_deng.token])

    client.post(reverse("set_language"), {"language": "zh-hans", "next": url})
    page = client.get(url).content.decode()

    assert '<html lang="zh-hans">' in page
    assert "保存这一局" in page and "合计" in page
    assert ">通</span>" in page and ">尾八</span>" in page  # the specials' toggles
    assert "Anna 0 通" in page  # the hand as entered, in Latest hands
    assert "<h1>斜钉</h1>" in page and "Ce Deng" not in page


def test_player_names_are_escaped_in_the_summary_table(client, db):
    session = services.session_create(
        game="jie-long", options={}, seating=["<b>Bo</b>", "Al&Co"], first="Al&Co"
    )
    data = {"results": {"<b>Bo</b>": {"pips": 3}, "Al&Co": {"pips": 12}}}
    services.hand_record(session=session, number=1, data=data)

    page = client.get(reverse("summary", args=[session.token])).content.decode()

    assert "<b>Bo</b>" not in page
    assert "&lt;b&gt;Bo&lt;/b&gt; 3, Al&amp;Co 12" in page
    assert "Led by: Al&amp;Co ↺ · &lt;b&gt;Bo" in page


def test_the_engines_messages_are_translated_too(client, ce_deng):
    url = reverse("table", args=[ce_deng.token])
    client.post(reverse("set_language"), {"language": "zh-hans", "next": url})
    post = form_post(1, specials_1="head_seven")

    page = client.post(url, post, **HTMX).content.decode()

    assert "Bob 不能有 头七：它只属于先出的人，而这一局是 Anna 先出" in page
    assert not Hand.objects.exists()


@pytest.mark.both_databases
def test_a_double_tapped_save_stores_one_hand_and_shows_its_result_twice(client, ce_deng):
    url = reverse("table", args=[ce_deng.token])
    page = client.get(url).content.decode()
    key = page.split('name="key" value="')[1].split('"')[0]

    first = client.post(url, form_post(1, key=key), **HTMX)
    second = client.post(url, form_post(1, key=key), **HTMX)

    assert Hand.objects.count() == 1
    for response in (first, second):
        assert 'id="saved"' in response.content.decode()
    assert key not in second.content.decode()  # the next hand gets a new key


def test_the_history_page_shows_fifty_changes_a_page_newest_first(client, ce_deng):
    for number in range(1, 56):
        services.hand_record(session=ce_deng, number=number, data=plain_hand())
    url = reverse("history", args=[ce_deng.token])

    first = client.get(url).content.decode()
    second = client.get(url, {"page": 2}).content.decode()

    assert first.count('class="changes"') == 1 and first.count('<li id="change-') == 50
    assert "Hand 55" in first and ">Hand 5<" not in first and 'href="?page=2"' in first
    assert second.count('<li id="change-') == 5 and ">Hand 1<" in second


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_chip_without_chips_is_refused_beside_the_chip_field(client, db, language):
    # Rules rev 4: a table paying by the stake once ignored the chip and settled at stake 1.
    response = client.post(
        reverse("session_new"), new_table_post(chip="0.50"), HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 400
    page = response.content.decode()
    said = "只有在付款方式" if language == "zh-hans" else "pays a chip only with payment"
    beside_the_chip = re.search(r'data-option="chip".*?data-option=', page, re.S)[0]
    assert "errorlist" in beside_the_chip and said in beside_the_chip
    assert not TableSession.objects.exists()


@pytest.mark.parametrize(
    ("language", "one", "more"),
    [
        ("en", "No connection: {n} hand kept", "No connection: {n} hands kept"),
        ("zh-hans", "没有网络：{n} 局已保存", "没有网络：{n} 局已保存"),
        ("ko", "연결 없음: {n}판을", "연결 없음: {n}판을"),
    ],
)
def test_the_table_page_gives_its_script_the_kept_hands_sentence_for_one_and_for_more(
    client, ce_deng, language, one, more
):
    page = client.get(
        reverse("table", args=[ce_deng.token]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()

    assert re.search(r'data-waiting-one="([^"]*)"', page)[1].startswith(one)
    assert re.search(r'data-waiting-other="([^"]*)"', page)[1].startswith(more)


@pytest.mark.parametrize("language", ["en", "zh-hans", "ko"])
def test_a_stake_at_a_chips_table_is_refused_beside_the_stake_field(client, db, language):
    # Rules rev 5, one table, one unit: a stake at a chips table paid only Ce Deng's declared
    # doubles, in money the table never showed.
    post = new_table_post(payment="chips", chip="0.50", stake="2")
    response = client.post(reverse("session_new"), post, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 400
    page = response.content.decode()
    said = {"en": "pays only chips", "zh-hans": "只付筹码", "ko": "칩만 주고받습니다"}[language]
    beside_the_stake = re.search(r'data-option="stake".*?data-option=', page, re.S)[0]
    assert "errorlist" in beside_the_stake and said in beside_the_stake
    assert not TableSession.objects.exists()


def test_the_stake_line_moves_with_where_the_game_ends(client, db):
    """The title's stake line and #end both say where the game ends: a change made on another
    phone comes into both with the live part (issue 45, item 13)."""
    session = services.session_create(
        game="jie-long", options={"play_to": 100}, seating=["Anna", "Bob"], first="Anna"
    )
    page = client.get(reverse("table", args=[session.token])).content.decode()
    shown = re.search(r'data-revision="(\d+)"', page)[1]
    services.table_ends(session=session, play_to=200, hands=None, ends_at=None)

    part = client.get(reverse("live", args=[session.token]), {"rev": shown}).content.decode()

    stake = re.search(r'<p class="stake" id="stake" hx-swap-oob="true">(.*?)</p>', part, re.S)
    assert stake and "to 200 points" in stake[1]
    assert page.count('id="stake"') == 1 and "hx-swap-oob" not in page
