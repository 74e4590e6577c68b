"""Bad input found by hand, each once a 500: now a 4xx with a clear message, nothing stored.

The fuzz suite (tests/fuzz) looks for more of the same kind."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledger.models import Event, Hand, Player, TableSession
from tests.tables.conftest import form_post
from tests.tables.test_views import new_table_post

# What one database stores and the other refuses: NUL bytes, lone surrogates, numbers past an
# integer column. The tests and cases that send them carry both_databases (a case alone, as
# pytest.param(..., marks=BOTH)); a refusal the code makes before any query (a score of "²", a
# body too large) runs once.
BOTH = pytest.mark.both_databases

API = "/api/v1"
TOO_MANY_DIGITS = "9" * 5000
PAST_ITS_COLUMN = pytest.param(TOO_MANY_DIGITS, marks=BOTH, id="9" * 8 + "...")


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.mark.parametrize("pips", ["²", PAST_ITS_COLUMN, pytest.param("12\x00", marks=BOTH), "-4"])
def test_a_score_that_is_no_whole_number_is_refused_beside_its_field(client, ce_deng, pips):
    response = client.post(reverse("table", args=[ce_deng.token]), form_post(1, pips_0=pips))

    assert response.status_code == 400
    assert 'class="error"' in response.content.decode()
    assert not Hand.objects.exists()


def test_every_wrong_score_of_a_hand_is_shown_beside_its_player_at_once(client, ce_deng, api):
    # Anna's 1 no tiles make; Bob's 87 is more than 8 tiles hold.
    response = client.post(
        reverse("table", args=[ce_deng.token]), form_post(1, pips_0="1", pips_1="87")
    )

    page = response.content.decode()
    assert response.status_code == 400 and page.count('class="error"') == 2
    for seat, name in enumerate(["Anna", "Bob"]):
        player = page[page.index(f'id="player-{seat}"') :]
        assert f"{name}&#x27;s score of" in player[: player.index("</fieldset>")]
    # The API says both, too.
    pips = {"Anna": 1, "Bob": 87, "Celine": 34, "Dominic": 18}
    body = {"number": 1, "hand": {"results": {name: {"pips": n} for name, n in pips.items()}}}
    answer = api.post(
        f"/api/v1/sessions/{ce_deng.token}/hands/",
        body,
        format="json",
        HTTP_IDEMPOTENCY_KEY="two-wrong-scores",
    )
    assert answer.status_code == 400
    assert [e["path"] for e in answer.json()["errors"]] == [
        "hand.results.Anna.pips",
        "hand.results.Bob.pips",
    ]
    assert not Hand.objects.exists()


@BOTH
def test_nul_bytes_in_the_hidden_key_are_no_error(client, ce_deng):
    response = client.post(
        reverse("table", args=[ce_deng.token]), {**form_post(1), "key": "phone\x00key-123"}
    )

    assert response.status_code == 302
    assert "\x00" not in Hand.objects.get().idempotency_key


@pytest.mark.parametrize("first", ["²", PAST_ITS_COLUMN, pytest.param("\x00", marks=BOTH)])
def test_a_first_player_that_is_no_seat_is_refused(client, db, first):
    response = client.post(reverse("session_new"), new_table_post(first=first))

    assert response.status_code == 400
    assert not TableSession.objects.exists()


@pytest.mark.parametrize("saved", ["²", PAST_ITS_COLUMN, "-1"])
def test_the_saved_notice_ignores_a_number_that_is_no_hand(client, ce_deng, saved):
    assert client.get(reverse("table", args=[ce_deng.token]), {"saved": saved}).status_code == 200


@pytest.mark.parametrize("version", ["²", PAST_ITS_COLUMN, pytest.param("2147483648", marks=BOTH)])
def test_a_correction_with_a_version_that_is_no_number_is_a_conflict(client, ce_deng, version):
    client.post(reverse("table", args=[ce_deng.token]), form_post(1))
    url = reverse("hand_detail", args=[ce_deng.token, 1])

    response = client.post(url, {**form_post(1, pips_0="4"), "version": version})

    assert response.status_code == 409
    assert Hand.objects.get().version == 1


@BOTH
@pytest.mark.parametrize(
    "path",
    [
        "/t/%00/",
        "/t/{token}/hands/99999999999999999999/",
        "/t/{token}/hands/2147483648/",
        "/api/v1/sessions/%00/",
        "/api/v1/sessions/{token}/hands/99999999999999999999/",
        "/o/x%00y/rounds/99999999999/cards/",
    ],
)
def test_links_no_table_can_have_are_not_found(client, ce_deng, path):
    assert client.get(path.format(token=ce_deng.token)).status_code == 404


@BOTH
def test_a_name_with_a_nul_byte_cannot_register(client, db):
    event = Event.objects.create(name="Club", game="jie-long", rounds=1)

    response = client.post(
        reverse("event_register", args=[event.register_token]), {"name": "A\x00"}
    )

    assert response.status_code == 400
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("[" * 2000 + "]" * 2000, "nested too deeply"),
        pytest.param('{"game": "\\ud800", "seating": ["A", "B"]}', "not valid UTF-8", marks=BOTH),
        ('{"game": "jie-long", "game": "ce-deng"}', "given twice"),
        ('{"stake": NaN}', "not a number JSON allows"),
        ("{", "not valid JSON"),
        (b"\xff\xfe", "not valid UTF-8"),
    ],
    ids=["deep", "lone surrogate", "repeated key", "NaN", "cut short", "not UTF-8"],
)
@pytest.mark.parametrize("url", ["score", "sessions/", "events/"])
def test_a_body_the_api_cannot_read_gets_its_error_object(api, db, body, message, url):
    response = api.post(f"{API}/{url}", body, content_type="application/json")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert message in response.json()["error"] and response.json()["path"] == ""
    assert not TableSession.objects.exists() and not Event.objects.exists()


@BOTH
@pytest.mark.parametrize("field", ["game", "method", "tie_breakers"])
def test_lone_surrogates_in_an_event_are_refused(api, db, field):
    body = {"name": "Club", "game": "jie-long", "rounds": 1, field: "\ud800"}
    if field == "tie_breakers":
        body[field] = ["\ud800"]
    raw = json.dumps(body)  # ensure_ascii writes the surrogate as \ud800, as a client would

    response = api.post(f"{API}/events/", raw, content_type="application/json")

    assert response.status_code == 400
    assert not Event.objects.exists()


def test_a_body_over_the_limit_is_413_with_the_error_object(api, db, settings):
    body = json.dumps({"game": "jie-long", "padding": "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE)})

    response = api.post(f"{API}/sessions/", body, content_type="application/json")

    assert response.status_code == 413
    assert "too large" in response.json()["error"]
    assert not TableSession.objects.exists()


def test_a_form_over_the_limit_is_413(client, ce_deng, settings):
    padding = "x" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = client.post(reverse("table", args=[ce_deng.token]), form_post(1, padding=padding))

    assert response.status_code == 413
    assert not Hand.objects.exists()


@pytest.mark.urls("tests.ledger.failing_urls")
def test_a_server_error_under_the_api_is_the_json_error_object(db):
    client = APIClient(raise_request_exception=False)

    api = client.get(f"{API}/fail/")
    page = client.get("/fail/")

    assert api.status_code == 500
    assert api["Content-Type"] == "application/json"
    assert set(api.json()) == {"error", "path", "errors"}
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")
