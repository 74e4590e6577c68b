"""Past capacity the server sheds what can wait before it slows what cannot (issue 21, item 9):
a table's live poll that waited too long in the queue (nginx's X-Request-Start stamp) is
answered 503 with Retry-After at once, without reading anything; a hand save never is."""

from __future__ import annotations

import logging
import time

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.models import Hand
from ledger.web import shedding
from tests.tables.conftest import form_post


def stamped(seconds_ago: float) -> dict[str, str]:
    return {"HTTP_X_REQUEST_START": f"t={time.time() - seconds_ago:.3f}"}


def test_a_poll_that_waited_too_long_is_shed_at_once(client, ce_deng):
    url = reverse("live", args=[ce_deng.token]) + f"?rev={ce_deng.revision}"
    with CaptureQueriesContext(connection) as queries:
        shed = client.get(url, **stamped(2.0))
    assert shed.status_code == 503 and shed["Retry-After"] == "5"
    assert len(queries) == 0

    assert client.get(url, **stamped(0.1)).status_code == 204
    assert client.get(url).status_code == 204  # no proxy's stamp: nothing to shed by


def test_never_when_turned_off(client, ce_deng, settings):
    settings.SHED_POLLS_AFTER_MS = 0
    url = reverse("live", args=[ce_deng.token]) + f"?rev={ce_deng.revision}"
    assert client.get(url, **stamped(60.0)).status_code == 204


@pytest.mark.parametrize("stamp", ["", "t=", "t=yesterday", "t=nan"])
def test_a_stamp_that_is_not_a_time_sheds_nothing(client, ce_deng, stamp):
    url = reverse("live", args=[ce_deng.token]) + f"?rev={ce_deng.revision}"
    assert client.get(url, HTTP_X_REQUEST_START=stamp).status_code == 204


def test_a_save_that_waited_as_long_is_stored(client, ce_deng):
    saved = client.post(reverse("hand_save", args=[ce_deng.token]), form_post(1), **stamped(2.0))
    assert saved.status_code == 302 and Hand.objects.count() == 1


def test_sheds_are_counted_in_the_log_not_logged_as_errors_one_by_one(client, ce_deng, caplog):
    """Past capacity, thousands of polls a minute are shed: Django would log each 503 as an
    error, burying the real ones. The process says how many it shed, once a minute at most."""
    shedding.shedding = shedding.Shedding()  # as a process that has shed nothing yet
    url = reverse("live", args=[ce_deng.token]) + f"?rev={ce_deng.revision}"
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            assert client.get(url, **stamped(2.0)).status_code == 503
        assert client.get(reverse("live", args=["no-such-table"])).status_code == 404

    said = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    assert not [line for line in said if line[1] == "ERROR"]
    counted = [line for line in said if line[0] == "ledger.web.shedding"]
    assert counted == [
        (
            "ledger.web.shedding",
            "WARNING",
            "Past capacity: 1 live fetches or stream openings shed (503, Retry-After) since "
            "the last line like this one",
        )
    ]  # the first at once; the next two wait for the minute to pass
    assert ("django.request", "WARNING", "Not Found: /t/no-such-table/live/") in said


def test_a_server_error_is_still_logged_as_one(caplog):
    """Only a shed answer is left out of Django's log: any other 503 is an error still."""
    record = logging.LogRecord(
        "django.request", logging.ERROR, "", 0, "Service Unavailable", (), None
    )
    record.request = RequestFactory().get("/t/x/live/")
    assert shedding.NotShed().filter(record)
    shedding.busy(record.request)
    assert not shedding.NotShed().filter(record)
