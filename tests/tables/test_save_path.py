"""A save reads top to bottom: view, form (its clean() asks the engine, once), service, rows,
response. Counted as a reviewer would: the statements sent to the database, the sessions the
engine parses, and the files the request's path enters (tests/path.py says how)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

import scoring
from ledger.models import Hand, TableSession
from ledger.tables import checks, services
from tests.path import followed
from tests.phones import i_am
from tests.tables.conftest import IN_PLACE, SEATING, form_post, plain_hand

pytestmark = [pytest.mark.both_databases, pytest.mark.django_db(transaction=True)]

MOST_QUERIES = 10
TRANSACTIONS = ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE SAVEPOINT")


class Counted:
    """What one request cost: its statements (not a transaction's begin or end), the
    sessions the engine parsed (``parsed``; ``scored``: those with hands, not a table's
    options read alone), and its path."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, send: Any) -> None:
        parsed: list[dict[str, Any]] = []
        parse = scoring.parse_session

        def counted(document: Any) -> Any:
            parsed.append(document)
            return parse(document)

        monkeypatch.setattr(scoring, "parse_session", counted)
        with CaptureQueriesContext(connection) as sent:
            self.response, self.path = followed(send)
        monkeypatch.setattr(scoring, "parse_session", parse)
        self.parsed = len(parsed)
        self.scored = sum("hands" in document for document in parsed)
        self.queries = [
            query["sql"]
            for query in sent.captured_queries
            if not query["sql"].startswith(TRANSACTIONS)
        ]

    def holds(self) -> None:
        """≤ 10 statements, one parse, no file entered more than twice."""
        assert len(self.queries) <= MOST_QUERIES, "\n".join(self.queries)
        assert self.parsed == 1
        entered = {file: n for file, n in self.path.entries.items() if n > 2}
        assert not entered, f"{entered}\n{self.path}"


def _table(game: str = "ce-deng", **options: str) -> TableSession:
    return services.session_create(game=game, options=options, seating=SEATING, first="Anna")


def _post(client: Any, table: TableSession, number: int, **headers: str) -> Any:
    url = reverse("hand_save", args=[table.token])
    return client.post(url, form_post(number, first=SEATING[number - 1]), **headers)


def _api(client: Any, table: TableSession, number: int) -> Any:
    return client.post(
        f"/api/v1/sessions/{table.token}/hands/",
        {"number": number, "hand": plain_hand(first=SEATING[number - 1])},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=f"hand-{number}-of-{table.pk}",
    )


@pytest.mark.parametrize("headers", [IN_PLACE, {}], ids=["in place", "whole page"])
@pytest.mark.parametrize("claimed", [False, True], ids=["", "by Anna's phone"])
def test_a_save_from_the_table_page(client, monkeypatch, headers, claimed):
    table = _table()
    if claimed:  # "I am Anna": the phone's session is read, and the save records her name
        i_am(client, table, "Anna")
    _post(client, table, 1, **headers)  # the client's counts of writes begun, caches filled

    save = Counted(monkeypatch, lambda: _post(client, table, 2, **headers))

    assert save.response.status_code in (200, 302)
    assert Hand.objects.get(session=table, number=2).device == ("Anna" if claimed else "")
    save.holds()
    files = save.path.entries
    assert files["tables/forms.py"] == files["tables/services.py"] == 1  # called by the view


@pytest.mark.parametrize("options", [{}, {"play_to": "500"}], ids=["plain", "to a target"])
def test_a_save_through_the_api(client, monkeypatch, options):
    table = _table(**options)  # at a target, scored whole: every hand that counts, read once
    _api(client, table, 1)

    save = Counted(monkeypatch, lambda: _api(client, table, 2))

    assert save.response.status_code == 201
    save.holds()


def test_a_save_at_a_table_that_ends_at_a_target_reads_its_hands_once(client, monkeypatch):
    # Scored whole: the new hand is scored with every hand that counts, read once, by the form.
    table = _table(play_to="500")
    _post(client, table, 1, **IN_PLACE)

    save = Counted(monkeypatch, lambda: _post(client, table, 2, **IN_PLACE))

    assert save.response.status_code == 200
    save.holds()


@pytest.mark.parametrize("hands", [1, 30])
def test_a_refused_save_scores_only_the_hand_refused(client, monkeypatch, hands):
    # The form's check found what is wrong; the answer reads the table as its page does (its
    # latest hands), whatever the number of hands played.
    table = _table()
    for number in range(1, hands + 1):
        services.hand_record(session=table, number=number, data=plain_hand(SEATING[number % 4]))
    wrong = form_post(hands + 1, first=SEATING[hands % 4], pips_0="-3")
    url = reverse("hand_save", args=[table.token])
    client.post(reverse("hand_preview", args=[table.token]), wrong)  # the writes' count begun

    refused = Counted(monkeypatch, lambda: client.post(url, wrong, **IN_PLACE))

    assert refused.response.status_code == 200  # htmx: the form again, with the message
    assert "-3" in refused.response.content.decode()
    assert refused.scored == 1  # the form's check; the form shown reads the options alone
    assert len(refused.queries) <= MOST_QUERIES, "\n".join(refused.queries)
    assert not Hand.objects.filter(session=table, number=hands + 1).exists()


def test_a_hand_another_phone_saved_asks_nothing_of_the_engine(client, monkeypatch):
    table = _table()
    _post(client, table, 1, **IN_PLACE)

    taken = Counted(monkeypatch, lambda: _post(client, table, 1, **IN_PLACE))

    assert 'id="taken"' in taken.response.content.decode()
    assert taken.parsed == 0


def _checked(table: TableSession, number: int) -> Any:
    """Hand ``number`` as the form checks it, for the table as read now."""
    read = TableSession.objects.get(pk=table.pk)
    return read, checks.sent(read, number, plain_hand(SEATING[number - 1]))


def test_a_hand_checked_before_the_table_moved_is_checked_again_under_its_lock():
    table = _table(play_to="500")
    services.hand_record(session=table, number=1, data=plain_hand())
    read, checked = _checked(table, 2)
    services.table_ends(session=table, play_to=40, hands=None, ends_at=None)  # hand 2 ends it

    saved = services.hand_record(session=read, number=2, data=checked.entered, checked=checked)

    assert checked.end is not None and not checked.end.over  # as checked: playing on
    assert saved.end is not None and saved.end.over  # as saved: the new target reached
    assert TableSession.objects.get(pk=table.pk).tally["time_up"] is False
    assert services.tally.current_tally(TableSession.objects.get(pk=table.pk)).counted == 2


def test_a_hand_checked_before_its_table_was_locked_is_refused():
    table = _table()
    read, checked = _checked(table, 1)
    services.table_lock(session=table, locked=True)

    with pytest.raises(services.TableLocked):
        services.hand_record(session=read, number=1, data=checked.entered, checked=checked)
    assert not Hand.objects.filter(session=table).exists()


def test_a_hand_checked_before_its_table_s_time_ran_out_is_its_last():
    table = _table()
    read, checked = _checked(table, 1)
    TableSession.objects.filter(pk=table.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    read.ends_at = timezone.now() - timedelta(seconds=1)  # the time ran out while it was saved

    saved = services.hand_record(session=read, number=1, data=checked.entered, checked=checked)

    assert "last" not in checked.stored and saved.hand.data["last"] is True
    assert TableSession.objects.get(pk=table.pk).tally["time_up"] is True


def test_a_hand_another_phone_saved_after_this_one_was_checked_is_taken_without_the_lock():
    # As when a table's phones all press save: this one read the table before the first
    # save committed. Its update finds the table moved and it reads what was stored, without
    # queueing for the table's lock behind the others.
    table = _table()
    read, checked = _checked(table, 1)
    other = services.hand_record(session=table, number=1, data=plain_hand(Anna=4))

    with (
        CaptureQueriesContext(connection) as sent,
        pytest.raises(services.HandAlreadyRecorded) as taken,
    ):
        services.hand_record(session=read, number=1, data=checked.entered, checked=checked)

    assert taken.value.hand.pk == other.hand.pk and Hand.objects.count() == 1
    assert not any('AS "last"' in query["sql"] for query in sent.captured_queries)


def test_a_retry_is_answered_from_what_its_first_send_stored(monkeypatch):
    table = _table(play_to="30")  # hand 1 ends it: Celine's 34
    first = services.hand_record(session=table, number=1, data=plain_hand(), idempotency_key="k1")

    again = Counted(
        monkeypatch,
        lambda: services.hand_record(
            session=table, number=1, data=plain_hand(), idempotency_key="k1"
        ),
    )

    retry = again.response
    assert retry.replayed and retry.hand.pk == first.hand.pk
    assert retry.played.net == first.played.net and retry.end == first.end
    assert first.end is not None and first.end.over
    assert again.scored == 0  # its rows say what it settled (its options read, nothing scored)
