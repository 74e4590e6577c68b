"""Raw bodies into every API operation that reads one: always a 4xx with the error object
(``{"error": ..., "path": ...}``, as JSON), and nothing stored."""

from __future__ import annotations

import json
from datetime import datetime

import pytest
from django.test import override_settings
from hypothesis import given
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.fuzz.conftest import DAYS, FUZZ, GROUP_TOKEN, TEXT, stored

# Depends on the database: generated input finds what one database stores and the other refuses (a
# 500 on one only).
pytestmark = pytest.mark.both_databases

API = "/api/v1"
# Every operation that takes a body (those that take none are tried by schemathesis).
OPERATIONS = [
    ("post", "score"),
    ("post", "auth/token/"),
    ("post", "sessions/"),
    ("post", "sessions/{table}/lock/"),
    ("post", "sessions/{table}/hands/"),
    ("put", "sessions/{table}/hands/1/"),
    ("post", "sessions/{table}/hands/1/void/"),
    ("post", "events/"),
    ("post", "events/{event}/entries/"),
    ("post", "events/{event}/entries/drop/"),
    ("post", "events/{event}/rounds/1/swap/"),
    ("post", "register/{register}/"),
    ("post", "groups/"),
    ("post", "groups/{group}/payments/"),
]
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)
# Bodies no operation takes: not JSON, not UTF-8, too deep, a lone surrogate, or JSON of a
# shape none of them has (no object holds the fields an operation needs).
BODIES = st.one_of(
    st.binary(max_size=200),
    JSON.filter(lambda value: not isinstance(value, dict)).map(json.dumps),
    st.integers(1500, 3000).map(lambda depth: "[" * depth + "]" * depth),
    st.sampled_from(['"\\ud800"', '{"name": "\\udfff"}', '{"a": 1, "a": 2}', "{", "NaN", ""]),
    st.dictionaries(TEXT, JSON, max_size=5).map(json.dumps),
)


def _path(world, template):
    return template.format(
        table=world["table"].token,
        event=world["event"].token,
        register=world["event"].register_token,
        group=GROUP_TOKEN,
    )


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_a_body_no_operation_takes_is_a_4xx_error_object_and_stores_nothing(world, method, path):
    client = APIClient()
    url = f"{API}/{_path(world, path)}"
    headers = {
        "HTTP_AUTHORIZATION": f"Token {world['auth']}",
        "HTTP_X_ORGANISER_TOKEN": world["table"].organiser_token,
        "HTTP_IDEMPOTENCY_KEY": "fuzzed-hand-key",
    }

    @FUZZ
    @given(body=BODIES)
    def send(body):
        before = stored()
        response = getattr(client, method)(url, body, content_type="application/json", **headers)

        assert 400 <= response.status_code < 500, (body, response.content[:2000])
        assert response["Content-Type"] == "application/json", body
        assert set(response.json()) >= {"error", "path"}, body
        assert stored() == before, body

    send()


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_headers_and_links_with_nasty_text_are_a_4xx_error_object(world, method, path):
    client = APIClient()

    @FUZZ
    @given(
        key=TEXT.filter(str.isprintable),
        organiser=TEXT.filter(str.isprintable),
        token=TEXT,
    )
    def send(key, organiser, token):
        before = stored()
        url = f"{API}/{_path(world, path)}".replace(world["table"].token, token or "-")
        url = url.replace(GROUP_TOKEN, token or "-")
        response = getattr(client, method)(
            url, "{}", content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=key, HTTP_X_ORGANISER_TOKEN=organiser,
        )  # fmt: skip

        assert 400 <= response.status_code < 500, (key, organiser, token, response.content[:500])
        assert set(response.json()) >= {"error", "path"}
        assert stored() == before

    send()


# Every operation that reads parameters from the query, with what each takes.
QUERIES = {"groups/{group}/statistics/": {"from": DAYS, "to": DAYS}}


@pytest.mark.parametrize("path", list(QUERIES))
def test_query_parameters_are_answered_or_a_4xx_error_object(world, path):
    client = APIClient()
    url = f"{API}/{_path(world, path)}"

    @FUZZ
    @given(query=st.fixed_dictionaries({}, optional=QUERIES[path]))
    def ask(query):
        response = client.get(url, query)

        assert response.status_code < 500, (query, response.content[:2000])
        if response.status_code >= 400:
            assert set(response.json()) >= {"error", "path"}, query

    ask()


# Moments as a script writes them: with an offset or without (read in the server's zone), any
# a datetime holds, the calendar's ends weighted in; or text.
MOMENTS = st.one_of(
    st.sampled_from(["0001-01-01T00:00:00", "9999-12-31T23:59:59", "9999-12-31T23:59:59Z"]),
    st.datetimes(timezones=st.none() | st.timezones()).map(datetime.isoformat),
    TEXT,
)


def test_a_table_s_end_at_any_moment_is_kept_or_a_4xx_error_object(world):
    client = APIClient()
    body = {"game": "jie-long", "seating": ["Ivy", "Joe"], "first": "Ivy"}

    @FUZZ
    @given(at=MOMENTS, server=st.sampled_from(["UTC", "Asia/Shanghai", "Etc/GMT+12"]))
    def start(at, server):
        with override_settings(TIME_ZONE=server):
            started = client.post(f"{API}/sessions/", {**body, "ends_at": at}, format="json")

        assert started.status_code in (201, 400), (at, started.content[:2000])
        if started.status_code == 400:
            assert started.json()["path"] == "ends_at", at
            return
        token = started.json()["token"]
        for url in (f"/t/{token}/", f"{API}/sessions/{token}/"):
            assert client.get(url).status_code == 200, (at, url)

    start()
