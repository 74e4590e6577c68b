"""Stored means stored (issue 45, item 3): a write whose answer is read back after its commit,
and whose read then finds the database gone (a PostgreSQL restart), is answered as stored,
never with the outage's 503 "Nothing was saved": told that, a person enters a payment again
from a fresh form, and it is paid twice.

The database is lost by a real fault: a wrapper on the connection (Django's
``execute_wrapper``) that raises OperationalError on the first query made after the write's
transaction committed, as psycopg does when the server has gone.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import OperationalError, connection
from rest_framework.test import APIClient

from ledger.groups import services as group_services
from ledger.models import Group, Hand, HandChange, Payment, PaymentVoid, TableSession
from ledger.tables import services
from tests.tables.conftest import plain_hand

# Depends on the database: what is committed, and when, is each database's own.
pytestmark = pytest.mark.both_databases

API = "/api/v1"
SEATING = ["Anna", "Bob", "Celine", "Dominic"]


class LostAfterCommit:
    """Raises OperationalError on every query run outside a transaction once a statement
    writing to ``table`` was seen: the database gone just after that write's commit (on
    PostgreSQL the first such query is the streams' NOTIFY, whose failure is logged and let
    be; the read for the answer comes next)."""

    def __init__(self, table: str) -> None:
        self.written = re.compile(rf'^(INSERT INTO|UPDATE) "{table}"')
        self.armed = False
        self.raised = False

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context):
        if self.armed and not context["connection"].in_atomic_block:
            self.raised = True
            raise OperationalError("server closed the connection unexpectedly")
        if self.written.match(sql):
            self.armed = True
        return execute(sql, params, many, context)


@contextmanager
def lost_after_commit(table: str) -> Iterator[LostAfterCommit]:
    fault = LostAfterCommit(table)
    with connection.execute_wrapper(fault):
        yield fault
    assert fault.raised, "the fault never struck: nothing was read after the commit"
    assert not connection.in_atomic_block


@pytest.fixture
def table(transactional_db) -> TableSession:
    return services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")


@pytest.fixture
def group(transactional_db) -> Group:
    made = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=made, seating=["Anna", "Bob", "Celine"], first="Anna")
    return made


def said_saved(response, caplog) -> None:
    assert response.status_code < 500, response.content[:500]
    if response["Content-Type"].startswith("application/json"):
        assert response.status_code == 202
        assert response.json()["stored"] is True
        text = response.json()["message"]
    else:
        text = response.content.decode()
        assert 'id="saved"' in text
    assert "Nothing was saved" not in text and "Saved." in text
    # Still an outage in the log, a warning with its traceback: not a bug.
    assert [r.levelname for r in caplog.records if r.exc_info] == ["WARNING"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def _api_hand(api: APIClient, table: TableSession):
    body = {"number": 1, "hand": plain_hand()}
    return api.post(
        f"{API}/sessions/{table.token}/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="key-0001"
    )


# A hand saved (on the web and through the API) and a payment on the web read nothing after
# their commit: their answers are made of what was just written, or are a redirect.


def test_a_correction_a_void_and_a_lock_whose_answers_are_not_read_are_said_saved(table, caplog):
    services.hand_record(session=table, number=1, data=plain_hand())
    services.hand_record(session=table, number=2, data=plain_hand())
    api = APIClient(raise_request_exception=False)
    corrected = plain_hand(Bob=10)
    with lost_after_commit("ledger_handchange"):
        response = api.put(
            f"{API}/sessions/{table.token}/hands/1/",
            {"hand": corrected, "version": 1},
            format="json",
        )
    said_saved(response, caplog)
    caplog.clear()
    with lost_after_commit("ledger_handchange"):
        response = api.post(
            f"{API}/sessions/{table.token}/hands/2/void/",
            {"version": 1},
            format="json",
            HTTP_X_ORGANISER_TOKEN=table.organiser_token,
        )
    said_saved(response, caplog)
    caplog.clear()
    with lost_after_commit("ledger_tablesession"):
        response = api.post(
            f"{API}/sessions/{table.token}/lock/",
            {"locked": True},
            format="json",
            HTTP_X_ORGANISER_TOKEN=table.organiser_token,
        )
    said_saved(response, caplog)
    table.refresh_from_db()
    assert table.locked
    kinds = HandChange.objects.filter(hand__session=table).values_list("kind", flat=True)
    assert sorted(kinds) == sorted(["record", "record", "correct", "void"])
    assert Hand.objects.get(session=table, number=2).voided


def test_a_table_started_whose_answer_is_not_read_is_said_saved(transactional_db, caplog):
    api = APIClient(raise_request_exception=False)
    body = {"game": "ce-deng", "seating": SEATING, "first": "Anna"}
    with lost_after_commit("ledger_tablesession"):
        response = api.post(f"{API}/sessions/", body, format="json")
    said_saved(response, caplog)
    assert TableSession.objects.count() == 1


def test_a_group_and_its_table_started_whose_answers_are_not_read_are_said_saved(
    transactional_db, caplog
):
    api = APIClient(raise_request_exception=False)
    with lost_after_commit("ledger_group"):
        response = api.post(
            f"{API}/groups/", {"name": "Teahouse", "game": "jie-long"}, format="json"
        )
    said_saved(response, caplog)
    caplog.clear()
    group = Group.objects.get()
    body = {"game": "jie-long", "seating": ["Anna", "Bob"], "first": "Anna", "group": group.token}
    with lost_after_commit("ledger_tablesession"):
        response = api.post(f"{API}/sessions/", body, format="json")
    said_saved(response, caplog)
    assert group.tables.count() == 1


def test_a_payment_whose_answer_is_not_read_is_said_saved_and_paid_once(group, caplog):
    api = APIClient(raise_request_exception=False)
    url = f"{API}/groups/{group.token}/payments/"
    body = {"from": "Bob", "to": "Anna", "amount": "12"}
    with lost_after_commit("ledger_payment"):
        response = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="pay-bob-0001")
    said_saved(response, caplog)
    again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="pay-bob-0001")
    assert again.status_code == 200 and Payment.objects.count() == 1


def test_a_payment_voided_whose_answer_is_not_read_is_said_saved(group, caplog):
    paid = group_services.payment_record(group=group, payer="Bob", payee="Anna", amount=3)
    api = APIClient(raise_request_exception=False)
    with lost_after_commit("ledger_paymentvoid"):
        response = api.post(
            f"{API}/groups/{group.token}/payments/{paid.payment.pk}/void/",
            HTTP_X_ORGANISER_TOKEN=group.organiser_token,
        )
    said_saved(response, caplog)
    assert PaymentVoid.objects.filter(payment=paid.payment).exists()


def test_a_group_s_table_started_on_the_web_whose_session_is_not_saved_is_said_saved(
    group, client, caplog
):
    client.raise_request_exception = False
    seats = list(group.players.order_by("pk").values_list("pk", flat=True))
    form = {"game": "jie-long", "first": "0", "key": "k" * 22, "seat": seats}
    # The group's member is given the new table's organiser rights in the session, saved
    # after the table's commit.
    with lost_after_commit("ledger_tablesession"):
        response = client.post(f"/g/{group.token}/tables/new/", form)
    said_saved(response, caplog)
    assert group.tables.count() == 2


def test_an_outage_before_anything_is_stored_still_says_nothing_was_saved(table, caplog):
    api = APIClient(raise_request_exception=False)
    fault = LostAfterCommit("ledger_no_such_table")
    fault.armed = True  # the first read outside a transaction: before the hand's
    with connection.execute_wrapper(fault):
        response = _api_hand(api, table)
    assert response.status_code == 503 and "Nothing was saved" in response.json()["error"]
    assert table.hands.count() == 0


def test_the_answer_says_it_was_saved_in_the_reader_s_language(group, client, caplog):
    client.raise_request_exception = False
    seats = list(group.players.order_by("pk").values_list("pk", flat=True))
    form = {"game": "jie-long", "first": "0", "key": "k" * 22, "seat": seats}
    with lost_after_commit("ledger_tablesession"):
        response = client.post(
            f"/g/{group.token}/tables/new/", form, HTTP_ACCEPT_LANGUAGE="zh-hans"
        )
    assert response.status_code == 200 and "已保存" in response.content.decode()


def test_a_page_read_in_an_outage_does_not_say_nothing_was_saved(table, client):
    # Its reader may have just been told that something was saved, and to look again.
    client.raise_request_exception = False
    fault = LostAfterCommit("ledger_no_such_table")
    fault.armed = True
    with connection.execute_wrapper(fault):
        response = client.get(f"/t/{table.token}/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    text = response.content.decode()
    assert "数据库" in text and "没有保存" not in text
