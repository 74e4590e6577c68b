import json
from decimal import Decimal

import pytest
from django.urls import reverse

from ledger.events import services as event_services
from ledger.groups import selectors as group_selectors
from ledger.groups import services as group_services
from ledger.models import (
    Entry,
    Event,
    Group,
    Hand,
    HandChange,
    Payment,
    Player,
    Result,
    Round,
    Seat,
    TableChange,
    TableSession,
)
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand


@pytest.mark.parametrize(
    "model",
    [
        *(Player, TableSession, Seat, Hand, HandChange, TableChange, Result),
        *(Event, Entry, Round, Group, Payment),
    ],
)
def test_admin_lists_and_opens_every_model(admin_client, ce_deng, model):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.table_ends(session=ce_deng, play_to=100, hands=None, ends_at=None)
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    group_services.payment_record(group=group, payer="Anna", payee="Bob", amount="3")
    event = event_services.event_create(name="Club", game="ce-deng", options={}, rounds=1)
    for name in "ABCD":
        event_services.entry_add(event=event, name=name, organiser=True)
    event_services.round_seat(event=event)
    meta = model._meta
    listing = reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")
    change = reverse(
        f"admin:{meta.app_label}_{meta.model_name}_change", args=[model.objects.first().pk]
    )

    assert admin_client.get(listing).status_code == 200
    assert admin_client.get(change).status_code == 200


def test_a_payment_cannot_be_changed_or_deleted_in_the_admin(admin_client, db):
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    payment = group_services.payment_record(
        group=group, payer="Anna", payee="Bob", amount="3"
    ).payment
    change = reverse("admin:ledger_payment_change", args=[payment.pk])
    delete = reverse("admin:ledger_payment_delete", args=[payment.pk])
    assert admin_client.post(change, {"amount": "300"}).status_code == 403
    assert admin_client.post(delete, {"post": "yes"}).status_code == 403
    payment.refresh_from_db()
    assert payment.amount == 3


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_a_table_with_hands_is_not_deleted_in_the_admin_and_a_message_says_why(
    admin_client, ce_deng
):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    delete = reverse("admin:ledger_tablesession_delete", args=[ce_deng.pk])
    change = reverse("admin:ledger_tablesession_change", args=[ce_deng.pk])

    asked = admin_client.get(delete, follow=True)
    confirmed = admin_client.post(delete, {"post": "yes"}, follow=True)

    for response in (asked, confirmed):
        assert response.redirect_chain == [(change, 302)]
        assert messages_of(response) == [
            f"{ce_deng} has hands recorded: it is kept, with what they paid and their history."
        ]
    assert TableSession.objects.filter(pk=ce_deng.pk).exists()


def test_a_table_with_no_hands_is_deleted_in_the_admin(admin_client, ce_deng):
    delete = reverse("admin:ledger_tablesession_delete", args=[ce_deng.pk])

    response = admin_client.post(delete, {"post": "yes"})

    assert response.status_code == 302 and not TableSession.objects.exists()


@pytest.mark.parametrize("model", [TableSession, Group, Event])
def test_deleting_selected_tables_groups_or_events_with_money_is_refused_with_a_message(
    admin_client, ce_deng, model
):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    group_services.payment_record(group=group, payer="Anna", payee="Bob", amount="3")
    event = event_services.event_create(name="Cup", game="ce-deng", options={}, rounds=1)
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    table = event_services.round_seat(event=event).tables.get()
    services.hand_record(session=table, number=1, data=plain_hand(first=table.first))
    listing = reverse(f"admin:ledger_{model._meta.model_name}_changelist")
    selected = list(model.objects.values_list("pk", flat=True))
    before = model.objects.count()

    for post in ({}, {"post": "yes"}):  # asked, and confirmed as Django's page would
        action = {"action": "delete_selected", "_selected_action": selected, **post}
        response = admin_client.post(listing, action, follow=True)

        assert response.status_code == 200
        refused = messages_of(response)
        assert refused and all("it is kept" in message for message in refused)
    assert model.objects.count() == before  # none of them, not even a table with no hands


def test_deleting_selected_groups_deletes_those_with_no_money_after_asking(admin_client, db):
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    listing = reverse("admin:ledger_group_changelist")
    action = {"action": "delete_selected", "_selected_action": [group.pk]}

    asked = admin_client.post(listing, action)
    assert asked.status_code == 200 and asked.context["deletable_objects"]
    admin_client.post(listing, {**action, "post": "yes"})

    assert not Group.objects.exists() and not TableSession.objects.exists()


def played(table: TableSession) -> None:
    services.hand_record(session=table, number=1, data=plain_hand())
    services.hand_record(session=table, number=2, data=plain_hand(direction="cw", Bob=40))


def history(table: TableSession) -> list[tuple[int, str, str]]:
    changes = HandChange.objects.filter(hand__session=table).order_by("pk")
    return list(changes.values_list("hand__number", "kind", "device"))


def rows(table: TableSession) -> list[tuple[object, ...]]:
    results = Result.objects.filter(session=table).order_by("pk")
    return list(results.values_list("hand__number", "player__name", "net", "reverses"))


@pytest.mark.parametrize("model", [Hand, HandChange, Result, Payment, Seat])
def test_hands_changes_rows_payments_and_seats_are_not_added_changed_or_deleted_in_the_admin(
    admin_client, ce_deng, model
):
    played(ce_deng)
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    group_services.payment_record(group=group, payer="Anna", payee="Bob", amount="3")
    obj = model.objects.order_by("pk").first()
    name = f"admin:ledger_{model._meta.model_name}"
    before = list(model.objects.order_by("pk").values())

    add = admin_client.post(reverse(f"{name}_add"), {})
    change = admin_client.post(reverse(f"{name}_change", args=[obj.pk]), {"version": 9})
    delete = admin_client.post(reverse(f"{name}_delete", args=[obj.pk]), {"post": "yes"})
    listing = admin_client.get(reverse(f"{name}_changelist"))

    assert (add.status_code, change.status_code, delete.status_code) == (403, 403, 403)
    assert listing.status_code == 200 and "delete_selected" not in listing.content.decode()
    assert list(model.objects.order_by("pk").values()) == before


def test_a_hand_s_data_is_not_edited_in_the_admin_around_its_history(admin_client, ce_deng):
    # Before, the admin saved Hand.data as posted and recounted the table, writing no change.
    played(ce_deng)
    hand = ce_deng.hands.get(number=1)
    change = reverse("admin:ledger_hand_change", args=[hand.pk])
    post = {"session": ce_deng.pk, "number": 1, "data": json.dumps(plain_hand(Anna=20, Bob=2))}
    post |= {"voided": "", "version": 1, "device": "admin"}

    response = admin_client.post(change, post)
    page = admin_client.get(change)

    assert response.status_code == 403
    assert Hand.objects.get(pk=hand.pk).data == hand.data and len(history(ce_deng)) == 2
    assert page.status_code == 200 and "Correct this hand" in page.content.decode()
    assert 'name="data"' not in page.content.decode()  # shown, not a field


def test_void_selected_hands_voids_them_through_the_service_with_their_history(
    admin_client, ce_deng
):
    played(ce_deng)
    hands = list(ce_deng.hands.values_list("pk", flat=True))
    listing = reverse("admin:ledger_hand_changelist")

    response = admin_client.post(
        listing, {"action": "void_selected", "_selected_action": hands}, follow=True
    )

    assert response.status_code == 200
    assert messages_of(response) == [f"Hand {n} of {ce_deng} voided." for n in (2, 1)]
    assert all(ce_deng.hands.values_list("voided", flat=True))
    assert history(ce_deng)[2:] == [(2, "void", "admin: admin"), (1, "void", "admin: admin")]
    assert not Result.objects.filter(session=ce_deng).standing().exists()
    ce_deng.refresh_from_db()
    assert ce_deng.revision == 4 and ce_deng.tally["counted"] == 0


def test_void_selected_hands_says_why_one_is_refused_and_voids_the_rest(admin_client, ce_deng):
    played(ce_deng)
    services.hand_void(session=ce_deng, number=2, version=1)
    other = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=other, number=1, data=plain_hand())
    services.table_lock(session=other, locked=True)
    third = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=third, number=1, data=plain_hand())
    selected = list(Hand.objects.values_list("pk", flat=True))
    before = rows(other)

    response = admin_client.post(
        reverse("admin:ledger_hand_changelist"),
        {"action": "void_selected", "_selected_action": selected},
        follow=True,
    )

    assert messages_of(response) == [
        f"Hand 2 of {ce_deng}: This hand is voided: it can no longer be changed.",
        f"Hand 1 of {ce_deng} voided.",
        f"Hand 1 of {other}: This table is locked by its organiser: nothing was saved.",
        f"Hand 1 of {third} voided.",
    ]
    assert not other.hands.get().voided and rows(other) == before


def test_correcting_a_hand_in_the_admin_goes_through_the_service_with_its_history(
    admin_client, ce_deng
):
    played(ce_deng)
    hand = ce_deng.hands.get(number=2)
    correct = reverse("admin:ledger_hand_correct", args=[hand.pk])

    shown = admin_client.get(correct)
    form = shown.context["form"]
    data = json.loads(form["hand"].value())
    data["results"]["Bob"]["pips"] = 12
    response = admin_client.post(
        correct, {"hand": json.dumps(data), "version": form["version"].value()}, follow=True
    )

    assert data == {**hand.named, "results": {**hand.named["results"], "Bob": {"pips": 12}}}
    assert response.redirect_chain == [(reverse("admin:ledger_hand_change", args=[hand.pk]), 302)]
    assert messages_of(response) == [f"Hand 2 of {ce_deng} corrected."]
    hand.refresh_from_db()
    assert hand.version == 2 and hand.named["results"]["Bob"] == {"pips": 12}
    assert history(ce_deng)[-1] == (2, "correct", "admin: admin")
    bob = Result.objects.standing().get(session=ce_deng, hand=hand, player__name="Bob")
    assert bob.score == 12 and Result.objects.filter(hand=hand).exclude(reverses=None).count() == 4


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"Anna": -4}, "Anna"),  # the engine refuses it, and says why
        ({"version": 7}, "This hand was changed meanwhile: look again."),
        ({"hand": "[1, 2]"}, "A hand is a JSON object, its players by name."),
        ({"hand": "{not json"}, "Enter a valid JSON."),
    ],
)
def test_a_correction_the_service_refuses_is_shown_again_with_why_and_saves_nothing(
    admin_client, ce_deng, change, said
):
    played(ce_deng)
    hand = ce_deng.hands.get(number=1)
    data = plain_hand(**{k: v for k, v in change.items() if k == "Anna"})
    post = {"hand": json.dumps(data), "version": 1} | {
        k: v for k, v in change.items() if k != "Anna"
    }
    before = (rows(ce_deng), history(ce_deng), hand.data)

    response = admin_client.post(reverse("admin:ledger_hand_correct", args=[hand.pk]), post)

    assert response.status_code == 200
    assert said in response.content.decode()
    assert (rows(ce_deng), history(ce_deng), Hand.objects.get(pk=hand.pk).data) == before


def test_a_voided_hand_offers_no_correction(admin_client, ce_deng):
    played(ce_deng)
    hand = services.hand_void(session=ce_deng, number=1, version=1)

    page = admin_client.get(reverse("admin:ledger_hand_change", args=[hand.pk]))
    refused = admin_client.post(
        reverse("admin:ledger_hand_correct", args=[hand.pk]),
        {"hand": json.dumps(plain_hand()), "version": 2},
    )

    assert "Correct this hand" not in page.content.decode()
    assert "This hand is voided: it can no longer be changed." in refused.content.decode()


def test_void_selected_payments_voids_them_through_the_service(admin_client, db):
    group = group_services.group_create(name="Club", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    paid = group_services.payment_record(group=group, payer="Anna", payee="Bob", amount="3")
    again = group_services.payment_record(group=group, payer="Bob", payee="Anna", amount="2")
    group_services.payment_void(payment=again.payment)
    revision = Group.objects.get().revision

    response = admin_client.post(
        reverse("admin:ledger_payment_changelist"),
        {"action": "void_selected", "_selected_action": [paid.payment.pk, again.payment.pk]},
        follow=True,
    )

    assert messages_of(response) == [
        f"Payment #{paid.payment.pk} voided.",
        f"Payment #{again.payment.pk}: This payment was already voided.",
    ]
    assert not Payment.objects.filter(void=None).exists()
    assert Group.objects.get().revision == revision + 1  # the group's pages hear of it
    ledger = group_selectors.ledger(group)
    assert ledger.money == {"Anna": Decimal(0), "Bob": Decimal(0)}


def test_a_table_with_hands_keeps_its_game_options_and_seats_in_the_admin(admin_client, ce_deng):
    played(ce_deng)
    change = reverse("admin:ledger_tablesession_change", args=[ce_deng.pk])
    page = admin_client.get(change)
    form = page.context["adminform"].form
    inline = page.context["inline_admin_formsets"][0]

    post = {"game": "jie-long", "options": '{"stake": 5}', "locked": "on"}
    post |= {"seats-TOTAL_FORMS": 0, "seats-INITIAL_FORMS": 0}
    response = admin_client.post(change, post)

    assert response.status_code == 302, response.content.decode()[:2000]
    ce_deng.refresh_from_db()
    assert (ce_deng.game, ce_deng.options, ce_deng.locked) == ("ce-deng", {}, True)
    assert "options" not in form.fields and "game" not in form.fields
    assert not inline.has_add_permission and not inline.has_change_permission


def test_a_table_with_no_hands_has_its_seats_set_in_the_admin(admin_client, ce_deng):
    page = admin_client.get(reverse("admin:ledger_tablesession_change", args=[ce_deng.pk]))

    inline = page.context["inline_admin_formsets"][0]
    assert "options" in page.context["adminform"].form.fields
    assert inline.has_add_permission and inline.has_change_permission


def test_a_table_is_not_started_in_the_admin(admin_client, db):
    assert admin_client.get(reverse("admin:ledger_tablesession_add")).status_code == 403


def test_the_admin_s_messages_are_in_the_reader_s_language(admin_client, ce_deng):
    played(ce_deng)

    response = admin_client.post(
        reverse("admin:ledger_hand_changelist"),
        {"action": "void_selected", "_selected_action": [ce_deng.hands.get(number=2).pk]},
        follow=True,
        headers={"accept-language": "zh-hans"},
    )

    assert messages_of(response) == [f"{ce_deng} 第 2 局已作废。"]
    assert "作废所选的局" in response.content.decode()
