"""A phone belongs to the group (issue 47, item 1): a group table's player link, and so its QR
code, brings the phone into the group by itself. Its table pages lead to the group, it follows
the group to its next table, and the table's Join section offers the group's link. No right
travels with it: the organiser's come only by the organiser's link."""

from __future__ import annotations

import pytest
from django.test import Client

from ledger.groups.models import Payment
from ledger.models import TableSession
from ledger.tables import services as table_services
from ledger.web import rights
from tests.groups.test_pages import THREE, start_group, start_table


@pytest.fixture
def organiser(db) -> Client:
    """The phone that started the group."""
    return Client()


def test_a_phone_that_opens_a_group_tables_link_belongs_to_the_group(organiser):
    group = start_group(organiser)
    table = start_table(organiser, group, THREE)
    phone = Client()  # scanned the table's QR code: it holds the table's link only

    page = phone.get(f"/t/{table.token}/").content.decode()

    # its table page leads to the group, with Play again, and keeps the group on the phone
    assert 'id="group-line"' in page and f'href="/g/{group.token}/"' in page
    assert f'id="way-back-group" hidden data-url="/g/{group.token}/"' in page
    # the Join section invites to the group too, its link and QR code
    invite = page[page.index('id="group-invite"') :]
    assert f"http://testserver/g/{group.token}/" in invite and "<svg" in invite
    # and it follows the group to its next table, told by the group's notice
    newer = start_table(organiser, group, THREE)
    notice = phone.get(f"/g/{group.token}/tables/{table.pk}/next/").content.decode()
    assert f"/t/{newer.token}/" in notice
    assert 'id="group-line"' in phone.get(f"/t/{newer.token}/").content.decode()


def test_a_member_by_a_tables_link_plays_and_reads_but_organises_nothing(organiser):
    group = start_group(organiser)
    table = start_table(organiser, group, THREE)
    paid = organiser.post(
        f"/g/{group.token}/payments/new/",
        {"payer": "Bob", "payee": "Anna", "amount": "3", "unit": "money", "key": "k" * 16},
    )
    assert paid.status_code == 302
    phone = Client()
    phone.get(f"/t/{table.token}/")

    group_page = phone.get(f"/g/{group.token}/").content.decode()
    assert group.organiser_token not in group_page
    assert group.organiser_token not in phone.get(f"/t/{table.token}/").content.decode()
    payment = Payment.objects.get()
    refused = phone.post(f"/g/{group.token}/payments/{payment.pk}/void/", {"reason": "mine"})
    assert refused.status_code == 403 and payment.voided is None
    assert phone.post(f"/t/{table.token}/lock/", {"locked": "1"}).status_code == 403
    assert not TableSession.objects.get(pk=table.pk).locked


def test_a_read_only_link_and_a_lone_table_bring_no_group(organiser):
    group = start_group(organiser)
    table = start_table(organiser, group, THREE)
    lone = table_services.session_create(game="jie-long", options={}, seating=THREE, first="Anna")
    phone = Client()

    shared = phone.get(f"/s/{table.read_token}/").content.decode()
    assert group.token not in shared and "group-invite" not in shared
    page = phone.get(f"/t/{lone.token}/").content.decode()
    assert "group-invite" not in page and "way-back-group" not in page
    # the read-only link made the phone no member: the group's next table says nothing of it
    newer = start_table(organiser, group, THREE)
    assert 'id="group-line"' not in phone.get(f"/s/{newer.read_token}/").content.decode()
    assert rights.SEEN not in phone.session
