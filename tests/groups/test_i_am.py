""" "I am Bob" (issue 47, item 2): a phone says which player of a table or a group it is, by
one tap on a name, remembered in its session and changeable; another phone choosing the same
name is told so (both may). The pages then speak to that person, and every change made from the
phone records the name. A claim gives no right."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ledger.events import services as event_services
from ledger.groups.models import GroupChange, Payment
from ledger.models import Claim, Hand, HandChange, Player, TableSession
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, pay, played, start_group
from tests.phones import i_am

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(db) -> Client:
    """The phone that starts the group, and so organises it."""
    return Client()


def _text(page: str) -> str:
    """The page's words, tags taken out."""
    return " ".join(re.sub(r"<[^>]+>", " ", page).replace("&#x27;", "'").split())


def _who(page: str) -> str:
    return _text(page.split('<section id="who"', 1)[1].split("</section>", 1)[0])


@pytest.mark.both_databases
def test_a_phone_that_says_it_is_bob_is_spoken_to_as_bob(organiser):
    group = start_group(organiser)
    table = played(group)  # 0.50 a point: Anna +14, Bob −1, Celine −13
    bob = Client()
    first = bob.get(f"/t/{table.token}/").content.decode()
    assert "<details open>" in first.split('<section id="who"', 1)[1]  # asked until answered
    assert "Whose phone is this? Tap your name." in _who(first)

    i_am(bob, table, "Bob")  # at the group's table: Bob of the group

    at_table = bob.get(f"/t/{table.token}/").content.decode()
    assert "This phone is Bob’s" in _who(at_table)
    assert "<details>" in at_table.split('<section id="who"', 1)[1]  # folded once chosen
    page = _text(bob.get(f"/g/{group.token}/").content.decode())
    assert "You owe Anna 1" in page and "Celine pays Anna 13" in page
    assert "Bob (you)" in page
    assert "You are −1" in page  # the evening's line, beside its heading

    i_am(bob, group, "Anna")  # changeable, from the group's page too
    page = _text(bob.get(f"/g/{group.token}/").content.decode())
    assert "Celine owes you 13" in page and "Bob owes you 1" in page and "You are +14" in page
    assert "This phone is Anna’s" in _who(bob.get(f"/t/{table.token}/").content.decode())
    assert Claim.objects.get().player.name == "Anna"  # one claim per phone in a circle


def test_a_name_another_phone_claimed_says_so_and_may_still_be_chosen(organiser):
    group = start_group(organiser)
    table = played(group)
    i_am(organiser, table, "Bob")
    other = Client()
    assert "Claimed by another phone: Bob." in _who(
        other.get(f"/t/{table.token}/").content.decode()
    )
    assert "Claimed by another phone" not in _who(
        organiser.get(f"/t/{table.token}/").content.decode()
    )

    i_am(other, group, "Bob")  # two phones may be one player's

    assert Claim.objects.filter(player__name="Bob").count() == 2
    other.post(f"/g/{group.token}/me/", {"player": ""})  # "None of these"
    assert "Whose phone is this?" in _who(other.get(f"/g/{group.token}/").content.decode())
    assert Claim.objects.filter(player__name="Bob").count() == 1
    assert "Claimed by another phone" not in _who(
        organiser.get(f"/t/{table.token}/").content.decode()
    )


@pytest.mark.both_databases
def test_what_is_done_from_the_phone_records_the_name_it_claimed(organiser):
    group = start_group(organiser)
    table = played(group)
    i_am(organiser, group, "Anna")
    token = table.token
    posted = {"number": "2", "first": "Anna", "direction": "ccw", "action": "save"}
    pips = {"pips-0": "2", "pips-1": "12", "pips-2": "20"}

    assert organiser.post(f"/t/{token}/hands/", {**posted, **pips}).status_code == 302
    assert Hand.objects.get(number=2).device == "Anna"
    correction = {**posted, **pips, "pips-0": "4", "version": "1", "action": "correct"}
    assert organiser.post(f"/t/{token}/hands/2/", correction).status_code == 302
    assert (
        organiser.post(f"/t/{token}/hands/2/void/", {"version": "2", "confirm": "1"}).status_code
        == 302
    )
    kinds = HandChange.objects.filter(hand__number=2).values_list("kind", "device")
    assert sorted(kinds) == [("correct", "Anna"), ("record", "Anna"), ("void", "Anna")]
    assert pay(organiser, group).status_code == 302
    assert Payment.objects.get().device == "Anna"
    organiser.post(f"/g/{group.token}/payments/{Payment.objects.get().pk}/void/", {"reason": "x"})
    assert Payment.objects.get().void.device == "Anna"
    settings = {"name": "Thursday", "game": "jie-long", "stake": "1", "chip": ""}
    assert organiser.post(f"/g/{group.token}/settings/", settings).status_code == 302
    assert GroupChange.objects.get().device == "Anna"

    # The history, the hand's page, the payments and the notices name her.
    history = _text(organiser.get(f"/t/{token}/history/").content.decode())
    assert "Corrected" in history or "corrected" in history
    assert "· Anna" in history
    payments = _text(organiser.get(f"/g/{group.token}/payments/").content.decode())
    assert "entered by Anna" in payments
    live = Client().get(f"/t/{token}/live/").content.decode()
    assert 'data-by="Anna"' in live and "Anna voided hand 2" in _text(live)


def test_a_phone_that_chose_no_name_records_none_and_the_pages_say_another_phone(organiser):
    group = start_group(organiser)
    table = played(group)
    phone = Client()
    posted = {"number": "2", "first": "Anna", "direction": "ccw", "action": "save"}
    pips = {"pips-0": "2", "pips-1": "12", "pips-2": "20"}
    assert phone.post(f"/t/{table.token}/hands/", {**posted, **pips}).status_code == 302
    assert Hand.objects.get(number=2).device == ""
    # What a phone once typed in the form's "This phone" box is not read any more.
    typed = {**posted, **pips, "number": "3", "device": "Typed"}
    assert phone.post(f"/t/{table.token}/hands/", typed).status_code == 302
    assert Hand.objects.get(number=3).device == ""


def test_a_claim_gives_no_right(organiser):
    group = start_group(organiser)  # Anna's phone organises
    table = played(group)
    member = Client()
    i_am(member, table, "Anna")

    assert member.post(f"/t/{table.token}/lock/", {"locked": "1"}).status_code == 403
    assert (
        member.post(f"/t/{table.token}/hands/1/void/", {"version": "1", "confirm": "1"}).status_code
        == 403
    )
    assert member.get(f"/g/{group.token}/settings/").status_code == 403
    assert not TableSession.objects.get().locked and not Hand.objects.get().voided
    assert "no right" in _who(member.get(f"/t/{table.token}/").content.decode())


@pytest.mark.parametrize("posted", ["²", "-1", "9" * 40, "\x00", "Bob"])
def test_a_name_not_of_the_table_is_refused_and_nothing_changes(organiser, posted):
    group = start_group(organiser)
    table = played(group)
    phone = Client()
    i_am(phone, table, "Bob")

    response = phone.post(f"/t/{table.token}/me/", {"player": posted})

    assert response.status_code == 400
    assert "not one of the players here" in response.content.decode()
    assert "This phone is Bob’s" in _who(phone.get(f"/t/{table.token}/").content.decode())
    assert Claim.objects.count() == 1


def test_another_circles_player_is_refused(organiser):
    group = start_group(organiser)
    table = played(group)
    lone = table_services.session_create(game="jie-long", options={}, seating=THREE, first="Anna")
    theirs = Player.objects.get(table=lone, name="Bob")
    phone = Client()

    assert phone.post(f"/t/{table.token}/me/", {"player": theirs.pk}).status_code == 400
    assert phone.post(f"/g/{group.token}/me/", {"player": theirs.pk}).status_code == 400
    assert not Claim.objects.exists()
    # A lone table is a circle of its own: Bob there is not Bob of the group.
    i_am(phone, lone, "Bob")
    assert "Whose phone is this?" in _who(phone.get(f"/t/{table.token}/").content.decode())
    assert "This phone is Bob’s" in _who(phone.get(f"/t/{lone.token}/").content.decode())


@pytest.mark.parametrize(
    ("language", "owe"),
    [("zh-hans", "你欠 Anna 1"), ("zh-hant", "你欠 Anna 1"), ("ko", "Anna에게 1 줄 차례")],
)
def test_the_pages_speak_to_the_person_in_their_language(organiser, language, owe):
    group = start_group(organiser)
    table = played(group)
    i_am(organiser, table, "Bob")

    page = organiser.get(f"/g/{group.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    at_table = organiser.get(f"/t/{table.token}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert owe in _text(page)
    for english in ("You owe", "You are", "This phone is", "Claimed by", "no right", "(you)"):
        assert english not in page and english not in at_table


def test_a_tournaments_table_is_a_circle_of_the_tournaments_players(db):
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=2)
    for name in ["Anna", "Bob", "Celine", "Dan"]:
        event_services.entry_add(event=event, name=name, organiser=True)
    table = TableSession.objects.get(round=event_services.round_seat(event=event))
    event_services.round_begin(round=table.round)
    phone = Client()

    i_am(phone, table, table.seating[1])

    claim = Claim.objects.get()
    assert claim.player.event_id == event.pk and claim.player.name == table.seating[1]
    assert f"This phone is {table.seating[1]}’s" in _who(
        phone.get(f"/t/{table.token}/").content.decode()
    )
