"""A group's live page (issue 21, item 5): /g/<token>/ follows the group's stream
(/g/<token>/stream/, ledger/web/push.py) and fetches its latest tables and balances again when
one of its tables changes, never the forms to start a table or record a payment. A fetch
carries the mark the page shows (``?v=``) and is answered 204 while it is still the mark."""

from __future__ import annotations

import re

import pytest

from ledger.groups import selectors, services
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand, played

# Depends on the database: the page's mark is a sum the database makes of its tables' revisions.
pytestmark = pytest.mark.both_databases

HTMX = {"HTTP_HX_REQUEST": "true"}


def shown_mark(page: str) -> str:
    return re.search(r'\?v=([\d.]+)"', page)[1]


def test_the_group_page_names_its_stream_and_fetches_nothing_while_its_mark_stands(client, db):
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    table = played(group)
    page = client.get(f"/g/{group.token}/").content.decode()

    assert f'data-stream="/g/{group.token}/stream/"' in page
    mark = shown_mark(page)
    assert client.get(f"/g/{group.token}/", {"v": mark}, **HTMX).status_code == 204
    table_services.hand_record(session=table, number=2, data=hand(20, 2, 12))
    changed = client.get(f"/g/{group.token}/", {"v": mark}, **HTMX)
    assert changed.status_code == 200
    assert shown_mark(changed.content.decode()) == selectors.mark(group) != mark


def test_a_new_table_of_the_group_changes_its_mark(db):
    group = services.group_create(name="Teahouse", game="jie-long", options={})
    before = selectors.mark(group)
    services.table_start(group=group, seating=THREE, first="Anna")

    assert selectors.mark(group) != before


def test_a_payment_recorded_or_voided_changes_its_mark_and_its_balances_by_push(client, db):
    """A payment moves balances and changes no table: the group's own revision, which the
    mark has, rises (and on PostgreSQL its stream hears it: tests/faults/test_streams.py)."""
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    played(group)
    before = selectors.mark(group)
    paid = services.payment_record(group=group, payer="Celine", payee="Anna", amount="5").payment
    after_payment = selectors.mark(group)
    shown = client.get(f"/g/{group.token}/", {"v": before}, **HTMX)
    services.payment_void(payment=paid)

    assert before != after_payment != selectors.mark(group)
    assert shown.status_code == 200
    assert shown_mark(shown.content.decode()) == after_payment


def test_the_groups_live_parts_are_its_latest_tables_and_balances_with_nothing_to_type_in(
    client, db
):
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    table = played(group)
    part = client.get(f"/g/{group.token}/", {"v": "stale"}, **HTMX).content.decode()

    assert part.startswith('<div id="follow" hidden')
    assert '<div id="latest-tables" hx-swap-oob="true">' in part
    assert f'id="table-{table.pk}"' in part and "1 hand" in part
    assert '<section id="balances" hx-swap-oob="true">' in part
    assert "Anna pays" not in part and "Celine pays Anna" in part
    # Nothing to type in, but a settle-up line's Paid, which a swap keeps as it is (hx-preserve)
    paid = r'<details class="paid-line" id="[\w-]+" hx-preserve="true">.*?</details>'
    assert len(re.findall(paid, part, re.S)) == 2  # Celine pays Anna, Bob pays Anna
    rest = re.sub(paid, "", part, flags=re.S)
    assert re.findall(r'<input(?![^>]*type="hidden")', rest) == []  # the "Again" buttons' forms
    assert "<html" not in part


def test_the_full_group_page_has_each_live_part_once_and_not_out_of_band(client, db):
    group = services.group_create(name="Teahouse", game="jie-long", options={})
    played(group)
    page = client.get(f"/g/{group.token}/").content.decode()

    assert page.count('id="latest-tables"') == 1 and page.count('id="balances"') == 1
    assert "hx-swap-oob" not in page


def test_a_sync_server_answers_a_groups_stream_503(client, db):
    group = services.group_create(name="Teahouse", game="jie-long", options={})

    assert client.get(f"/g/{group.token}/stream/").status_code == 503


def test_the_payments_move_with_the_balances_they_change(client, db):
    """A payment recorded on another phone moves the balances of a page open here: its
    payments list comes in the same fetch, so the two never disagree (issue 45, item 13)."""
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    played(group)
    mark = shown_mark(client.get(f"/g/{group.token}/").content.decode())
    paid = services.payment_record(group=group, payer="Celine", payee="Anna", amount="5").payment

    part = client.get(f"/g/{group.token}/", {"v": mark}, **HTMX).content.decode()

    assert '<div id="payments-list" hx-swap-oob="true">' in part
    assert f'id="payment-{paid.pk}"' in part and "Celine paid Anna 5 (money)" in part
    assert "No payments recorded." not in part


def test_play_again_moves_with_the_latest_tables(client, db):
    """*Play again* names the last table's players: a table started on another phone is the
    last one now, in the latest tables and in "Play again" alike."""
    group = services.group_create(name="Teahouse", game="jie-long", options={})
    played(group)
    mark = shown_mark(client.get(f"/g/{group.token}/").content.decode())
    newer = services.table_start(group=group, seating=["Dong", "Anna", "Bob"], first="Dong")

    part = client.get(f"/g/{group.token}/", {"v": mark}, **HTMX).content.decode()

    again = re.search(r'<section id="again" hx-swap-oob="true".*?</section>', part, re.S)[0]
    assert f"/tables/{newer.pk}/again/" in again and "Dong, Anna, Bob" in again


def test_a_void_reason_being_typed_is_kept_when_the_payments_come_again(client, db):
    group = services.group_create(name="Teahouse", game="jie-long", options={})
    played(group)
    paid = services.payment_record(group=group, payer="Celine", payee="Anna", amount="5").payment
    client.get(f"/g/{group.token}/organise/{group.organiser_token}/")

    part = client.get(f"/g/{group.token}/", {"v": "stale"}, **HTMX).content.decode()

    reason = re.search(r'<input type="text" name="reason"[^>]*>', part)[0]
    assert f'id="void-reason-{paid.pk}"' in reason and "hx-preserve" in reason
