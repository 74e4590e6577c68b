"""Past capacity the server sheds what can wait before it slows what cannot (issue 21, item 9):
a table's live poll that waited too long in the queue (nginx's X-Request-Start stamp) is
answered 503 with Retry-After at once, without reading anything; a hand save never is."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.models import Hand
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
