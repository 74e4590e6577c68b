"""Conflicts at the table: two phones on one hand, hand numbers out of order, voided hands."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledger.bench.documents import richest_document
from ledger.models import Hand, HandChange
from ledger.tables import selectors, services
from tests.phones import i_am
from tests.tables.conftest import IN_PLACE, SEATING, form_post, plain_hand

# both_databases on the tests where the database's unique constraints and the hands' versions
# decide (two phones on one hand, a voided hand changed again), where a game ends on the totals
# the result rows sum, and on hand numbers past an integer column. The numbers the form or the
# API refuses before any query run once.

API = "/api/v1"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.mark.both_databases
def test_a_second_phones_entry_is_kept_with_the_next_hands_leader_and_direction(client, ce_deng):
    url = reverse("table", args=[ce_deng.token])
    client.post(url, form_post(1))  # Anna led hand 1; Dominic took the most: he leads hand 2, cw
    expected = services.hand_record  # noqa: F841 - the rules, not this test, say who leads next
    first_phone = client.post(url, form_post(2, first="Dominic", direction="cw"))
    assert first_phone.status_code == 302
    leader, way = (
        Hand.objects.get(number=2).named["first"],
        Hand.objects.get(number=2).named["direction"],
    )

    # The second phone still shows hand 2 (Dominic, cw) and saves the same table's hand 2.
    kept = client.post(url, form_post(2, first="Dominic", direction="cw", pips_0="6"))

    page = kept.content.decode()
    assert kept.status_code == 409
    assert 'name="number" value="3"' in page
    view_next = _next(client, url)
    assert (leader, way) != view_next  # the next hand is led by someone else, or the other way
    assert f'<option value="{view_next[0]}" selected>' in page
    assert f'value="{view_next[1]}" checked' in page
    assert "kept below as hand 3, led by " + view_next[0] in page

    saved = client.post(url, form_post(3, first=view_next[0], direction=view_next[1], pips_0="6"))
    assert saved.status_code == 302
    third = Hand.objects.get(number=3).named
    assert (third["first"], third["direction"]) == view_next


@pytest.mark.both_databases
def test_a_hand_taken_gives_the_next_hand_the_table_page_gives(db):
    """When a table's phones all press save, all but the first are answered from the hand
    stored, scored on its own, and no read of the latest hands: after every hand of a session
    with passes, tails, redeals and blocked hands, that answer's next hand (number, leader,
    way) is the one the table page shows."""
    document = richest_document(40)
    session = services.session_create(
        game=document["game"],
        options=document["options"],
        seating=document["seating"],
        first=document["first"],
    )
    for number, data in enumerate(document["hands"], start=1):
        services.hand_record(session=session, number=number, data=data)
        with pytest.raises(services.HandAlreadyRecorded) as taken:
            services.hand_record(session=session, number=number, data=data)
        assert taken.value.last
        session.refresh_from_db()
        answered = selectors.after_taken(session, taken.value.hand)
        shown = selectors.score_sheet(session, latest=True)
        assert (answered.next_number, answered.next_first, answered.next_direction) == (
            shown.next_number,
            shown.next_first,
            shown.next_direction,
        ), f"after hand {number}"


@pytest.mark.both_databases
def test_a_taken_hand_with_a_later_one_stored_or_voided_is_answered_from_the_table(client, ce_deng):
    """The hand alone cannot say what comes next when a later hand is stored, or when it
    counts for nothing (voided): the answer is then the table's, as its page shows it."""
    url = reverse("table", args=[ce_deng.token])
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_record(session=ce_deng, number=2, data=plain_hand(first="Dominic"))
    with pytest.raises(services.HandAlreadyRecorded) as taken:
        services.hand_record(session=ce_deng, number=1, data=plain_hand())
    assert not taken.value.last

    stale = client.post(url, form_post(1, pips_0="4"))
    assert stale.status_code == 409
    assert 'name="number" value="3"' in stale.content.decode()

    services.hand_void(session=ce_deng, number=2, version=1)
    voided = client.post(url, form_post(2, first="Dominic", pips_0="4"))
    assert voided.status_code == 409
    assert 'name="number" value="3"' in voided.content.decode()
    assert _next(client, url) == _shown_next(voided.content.decode())


@pytest.mark.both_databases
def test_the_pages_form_is_told_a_hand_taken_by_the_notice_and_the_next_hand_alone(client, ce_deng):
    """The form keeps what was typed in place: the answer is the notice, out of band where
    the last outcome was, and the next hand (number, leader, way) for the page to set, the
    same as the whole form would show. Nothing more is stored."""
    url = reverse("table", args=[ce_deng.token])
    i_am(client, ce_deng, "Anna")
    client.post(url, form_post(1))
    whole = client.post(url, form_post(1, pips_0="4"), HTTP_HX_REQUEST="true")

    taken = client.post(url, form_post(1, pips_0="4"), **IN_PLACE)

    notice = taken.content.decode()
    assert taken.status_code == 200 and taken["HX-Reswap"] == "none"
    assert notice.startswith('<div id="outcome" hx-swap-oob="true">')
    assert "Hand 1 is already recorded, by Anna:" in notice
    assert 'id="record-form"' not in notice and 'name="pips-0"' not in notice
    following = json.loads(taken["HX-Trigger"])["ledger-next"]
    assert "key" not in following  # what was typed stays, under its key
    assert following["number"] == 2
    assert (following["first"], following["direction"]) == _next(client, url)
    assert (following["first"], following["direction"]) == _shown_next(whole.content.decode())
    assert f"kept below as hand 2, led by {following['first']}" in notice
    assert Hand.objects.count() == 1 and HandChange.objects.count() == 1


@pytest.mark.parametrize("in_place", [True, False], ids=["page's own form", "whole form"])
def test_a_hand_taken_says_what_was_stored_and_another_phone_in_the_readers_language(
    client, ce_deng, in_place
):
    services.hand_record(session=ce_deng, number=1, data=plain_hand(Bob=14))  # no phone named
    asked = {"HTTP_ACCEPT_LANGUAGE": "zh-hans", **(IN_PLACE if in_place else {})}

    taken = client.post(reverse("hand_save", args=[ce_deng.token]), form_post(1), **asked)

    notice = taken.content.decode()
    assert "第 1 局已由另一部手机记录：" in notice and "another phone" not in notice
    assert "Anna 2" in notice and "Bob 14" in notice  # what was stored, players by name
    assert "丢弃我的输入" in notice and "把我的输入存为第 2 局" in notice
    assert Hand.objects.count() == 1


@pytest.mark.both_databases
@pytest.mark.parametrize("asked", ["offline queue", "page from before", "no scripts"])
def test_a_hand_taken_is_answered_with_the_whole_form_where_the_page_did_not_ask(
    client, ce_deng, asked
):
    """The offline queue (no HX-Target, no header), a page from before the header, and a
    browser without scripts read the whole form, as before."""
    url = reverse("table", args=[ce_deng.token])
    client.post(url, form_post(1))
    headers = {
        "offline queue": {"HTTP_HX_REQUEST": "true"},
        "page from before": {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "hand-form"},
        "no scripts": {},
    }[asked]

    taken = client.post(url, form_post(1, pips_0="4"), **headers)

    assert "HX-Reswap" not in taken and "HX-Trigger" not in taken
    assert 'id="taken"' in taken.content.decode()
    assert 'name="pips-0" id="pips-0" value="4"' in taken.content.decode()


@pytest.mark.both_databases
def test_a_hand_taken_that_ended_the_game_or_at_a_locked_table_gives_the_whole_form(db, client):
    """No next hand to keep the entry as: the form gives way to the notice that says so."""
    to_60 = services.session_create(
        game="ce-deng", options={"stake": "0", "play_to": "60"}, seating=SEATING, first="Anna"
    )
    url = reverse("table", args=[to_60.token])
    client.post(url, form_post(1))
    client.post(url, form_post(2, first="Celine"))  # Celine's 68 reach 60: the game is over

    over = client.post(url, form_post(2, first="Celine"), **IN_PLACE)
    assert "HX-Reswap" not in over
    assert 'id="over"' in over.content.decode() and 'id="taken"' in over.content.decode()

    services.table_lock(session=to_60, locked=True)
    locked = client.post(url, form_post(1), **IN_PLACE)
    assert 'id="locked"' in locked.content.decode() and "HX-Reswap" not in locked


@pytest.mark.both_databases
def test_the_live_part_says_the_next_hand_only_while_the_table_takes_one(client, db):
    """A phone's untouched form moves on to the next hand from the live part (ledger.js):
    its number, leader and way as the form would give them; a table locked, or a game over,
    says no leader, and the phone fetches the form, which gives way to the notice."""
    to_60 = services.session_create(
        game="ce-deng", options={"stake": "0", "play_to": "60"}, seating=SEATING, first="Anna"
    )
    url, live = reverse("table", args=[to_60.token]), reverse("live", args=[to_60.token])
    client.post(url, form_post(1))

    part = client.get(live, {"rev": "0"}).content.decode()
    leader, way = _next(client, url)
    assert f'data-next-number="2" data-next-first="{leader}" data-next-direction="{way}"' in part

    services.table_lock(session=to_60, locked=True)
    assert "data-next-first" not in client.get(live, {"rev": "0"}).content.decode()
    services.table_lock(session=to_60, locked=False)
    client.post(url, form_post(2, first=leader, direction=way))  # Celine's 68 reach 60
    over = client.get(live, {"rev": "0"}).content.decode()
    assert 'data-next-number="3"' in over and "data-next-first" not in over


def _shown_next(page):
    """Who ``page``'s hand form says leads the next hand, and which way."""
    leader = re.search(r'<option value="([^"]+)" selected>', page)[1]
    way = re.search(r'name="direction" value="(\w+)" checked', page)[1]
    return leader, way


def _next(client, url):
    """Who the table page says leads the next hand, and which way."""
    return _shown_next(client.get(url).content.decode())


@pytest.mark.parametrize(
    "number",
    [
        "0",
        "3",
        "-1",
        pytest.param("2147483648", marks=pytest.mark.both_databases),
        pytest.param("99999999999999999999", marks=pytest.mark.both_databases),
        "²",
    ],
)
def test_the_web_form_records_only_the_next_hand_number(client, ce_deng, number):
    url = reverse("table", args=[ce_deng.token])
    client.post(url, form_post(1))

    response = client.post(url, {**form_post(2), "number": number})

    assert response.status_code == 400
    assert "next hand is hand 2" in response.content.decode()
    assert list(Hand.objects.values_list("number", flat=True)) == [1]


def test_the_api_records_only_the_next_hand_number(api, ce_deng):
    url = f"{API}/sessions/{ce_deng.token}/hands/"
    hand = {"number": 100000, "hand": plain_hand()}

    refused = api.post(url, hand, format="json", HTTP_IDEMPOTENCY_KEY="hand-key-one")
    saved = api.post(url, {**hand, "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="hand-key-two")

    assert refused.status_code == 400
    error = {"error": "this table's next hand is hand 1, not hand 100000", "path": "number"}
    assert refused.json() == {**error, "errors": [error]}
    assert saved.status_code == 201
    assert list(Hand.objects.values_list("number", flat=True)) == [1]


@pytest.mark.both_databases
def test_a_voided_hand_cannot_be_voided_again_or_corrected_on_the_web(client, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_void(session=ce_deng, number=1, version=1)
    client.get(reverse("organise", args=[ce_deng.token, ce_deng.organiser_token]))
    url = reverse("hand_detail", args=[ce_deng.token, 1])

    again = client.post(f"{url}void/", {"version": "2"})
    corrected = client.post(url, {**form_post(1, pips_0="4"), "action": "save", "version": "2"})

    for response in (again, corrected):
        assert response.status_code == 409  # as through the API: a conflict with what is stored
        assert "This hand is voided: it can no longer be changed." in response.content.decode()
    hand = Hand.objects.get()
    assert hand.voided and hand.version == 2 and hand.named["results"]["Anna"] == {"pips": 2}
    assert HandChange.objects.count() == 2  # recorded, voided: nothing since


@pytest.mark.both_databases
def test_a_voided_hand_cannot_be_voided_again_or_corrected_through_the_api(api, ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_void(session=ce_deng, number=1, version=1)
    url = f"{API}/sessions/{ce_deng.token}/hands/1/"
    organiser = {"HTTP_X_ORGANISER_TOKEN": ce_deng.organiser_token}

    again = api.post(f"{url}void/", {"version": 2}, format="json", **organiser)
    corrected = api.put(url, {"version": 2, "hand": plain_hand(Anna=4)}, format="json")

    for response in (again, corrected):
        assert response.status_code == 409
        assert response.json()["error"] == "hand 1 is voided: it can no longer be changed"
        assert response.json()["hand"]["voided"] is True
    assert HandChange.objects.count() == 2


@pytest.mark.both_databases
def test_a_hand_played_again_after_a_void_is_recorded_as_the_next_hand(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_void(session=ce_deng, number=1, version=1)

    replayed = services.hand_record(session=ce_deng, number=2, data=plain_hand(Anna=4))

    assert replayed.hand.number == 2
    with pytest.raises(services.HandVoided):
        services.hand_correct(session=ce_deng, number=1, data=plain_hand(), version=2)
