"""A table that plays to a target, through the API: its document says where the game stands,
no hand is taken after the end, and only its organiser changes the end (PUT .../ends/)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ledger.models import Hand, TableSession
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand

# both_databases on the tests that send moments at the calendar's ends or read a stored moment
# back in UTC, and on those whose end turns on the totals the result rows sum (points to go, a
# target reached). The refusals of a bad end or time, the rights and the schema run once.

API = "/api/v1"
DIRECTIONS = ("ccw", "cw", "ccw", "cw")  # Ce Deng alternates; Anna (2 a hand) wins every hand
POINTS_TO_60 = {"stake": 0, "play_to": 60}  # Celine's 34 a hand reach 60 in hand 2


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def to_60(api, db) -> TableSession:
    """Ce Deng for points only, to 60, started through the API."""
    body = {"game": "ce-deng", "options": POINTS_TO_60, "seating": SEATING, "first": "Anna"}
    started = api.post(f"{API}/sessions/", body, format="json")
    assert started.status_code == 201, started.content
    return TableSession.objects.get(token=started.json()["token"])


def record(api: APIClient, table: TableSession, number: int):
    body = {"number": number, "hand": plain_hand(direction=DIRECTIONS[number - 1])}
    url = f"{API}/sessions/{table.token}/hands/"
    return api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"hand-key-{number:04}")


def ends(api: APIClient, table: TableSession, body: object, *, organiser: bool = True):
    headers = {"HTTP_X_ORGANISER_TOKEN": table.organiser_token} if organiser else {}
    return api.put(f"{API}/sessions/{table.token}/ends/", body, format="json", **headers)


def document(api: APIClient, table: TableSession) -> dict:
    return api.get(f"{API}/sessions/{table.token}/").json()


def said(response) -> dict:
    """The error object's first problem: what and where."""
    body = response.json()
    return {"error": body["error"], "path": body["path"]}


def unchanged(table: TableSession, revision: int) -> bool:
    stored = TableSession.objects.get(pk=table.pk)
    return stored.options == POINTS_TO_60 and stored.revision == revision


@pytest.mark.both_databases
def test_the_table_document_says_who_leads_and_what_is_left(api, to_60):
    assert document(api, to_60)["end"] == {"over": False, "leader": "Anna", "points_to_go": 60}
    assert record(api, to_60, 1).status_code == 201

    table = document(api, to_60)
    shared = api.get(f"{API}/shared/{to_60.read_token}/").json()

    assert table["end"] == {"over": False, "leader": "Anna", "points_to_go": 26}
    assert shared["end"] == table["end"]
    assert table["settle_up"] == [] and {s["net"] for s in table["standings"]} == {"0.00"}


def test_a_table_without_an_end_leaves_the_key_out(api, ce_deng):
    assert "end" not in document(api, ce_deng)
    assert "end" not in api.get(f"{API}/shared/{ce_deng.read_token}/").json()


@pytest.mark.both_databases
def test_the_game_ends_with_the_hand_that_reaches_the_target_and_takes_no_more(api, to_60):
    record(api, to_60, 1)
    assert record(api, to_60, 2).status_code == 201
    revision = TableSession.objects.get().revision

    refused = record(api, to_60, 3)

    assert refused.status_code == 400
    assert said(refused) == {
        "error": "the game is over: a total reached 60, and Anna won. Raise the target to play on",
        "path": "hand",
    }
    assert Hand.objects.count() == 2 and TableSession.objects.get().revision == revision
    assert document(api, to_60)["end"] == {"over": True, "reason": "play_to", "winner": "Anna"}


@pytest.mark.both_databases
def test_the_organiser_raises_the_target_to_play_on(api, to_60):
    record(api, to_60, 1)
    record(api, to_60, 2)

    raised = ends(api, to_60, {"play_to": 200, "hands": 4})

    assert raised.status_code == 200, raised.content
    body = raised.json()
    assert body["token"] == to_60.token  # the table document, as the lock endpoint answers
    assert body["end"] == {"over": False, "leader": "Anna", "points_to_go": 132, "hands_to_go": 2}
    assert TableSession.objects.get().options == {"stake": 0, "play_to": 200, "hands": 4}
    assert record(api, to_60, 3).status_code == 201


def test_the_organiser_clears_the_end(api, to_60):
    record(api, to_60, 1)
    record(api, to_60, 2)

    cleared = ends(api, to_60, {"play_to": None, "hands": None})

    assert cleared.status_code == 200 and "end" not in cleared.json()
    assert TableSession.objects.get().options == {"stake": 0}
    assert record(api, to_60, 3).status_code == 201


def test_the_owner_account_may_change_the_end(api, db):
    from django.contrib.auth.models import User
    from rest_framework.authtoken.models import Token

    owner = User.objects.create_user("org", password="a long password")
    table = services.session_create(
        game="ce-deng", options={}, seating=SEATING, first="Anna", owner=owner
    )
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=owner).key}")

    answer = ends(api, table, {"play_to": None, "hands": 8}, organiser=False)

    assert answer.status_code == 200
    assert answer.json()["end"] == {"over": False, "leader": "Anna", "hands_to_go": 8}


def test_a_player_cannot_change_the_end(api, to_60):
    record(api, to_60, 1)
    record(api, to_60, 2)
    revision = TableSession.objects.get().revision

    refused = ends(api, to_60, {"play_to": 200, "hands": None}, organiser=False)
    wrong = api.put(
        f"{API}/sessions/{to_60.token}/ends/",
        {"play_to": 200, "hands": None},
        format="json",
        HTTP_X_ORGANISER_TOKEN=to_60.organiser_token[:-1],
    )

    assert refused.status_code == 403 and wrong.status_code == 403
    assert said(refused) == {"error": "Only the table's organiser can do this.", "path": ""}
    assert unchanged(to_60, revision)
    assert record(api, to_60, 3).status_code == 400


WHOLE_POINTS = "expected a whole number from 1 to 100000, or null for none"
WHOLE_HANDS = "expected a whole number from 1 to 1000, or null for none"


@pytest.mark.parametrize(
    ("body", "path", "message"),
    [
        ({"play_to": "200", "hands": None}, "play_to", WHOLE_POINTS),
        ({"play_to": 200.0, "hands": None}, "play_to", WHOLE_POINTS),
        ({"play_to": True, "hands": None}, "play_to", WHOLE_POINTS),
        ({"play_to": 0, "hands": None}, "play_to", WHOLE_POINTS),
        ({"play_to": 100_001, "hands": None}, "play_to", WHOLE_POINTS),
        ({"play_to": 200, "hands": 0}, "hands", WHOLE_HANDS),
        ({"play_to": 200, "hands": 1001}, "hands", WHOLE_HANDS),
        ({"play_to": 200}, "hands", "send it: a whole number, or null for none"),
        ({}, "play_to", "send it: a whole number, or null for none"),
        (
            {"play_to": 30, "hands": None},
            "hands[1]",
            "the game is over: a total reached 30, and Anna won. Raise the target to play on",
        ),
        (
            {"play_to": None, "hands": 1},
            "hands[1]",
            "the game is over: all 1 hands were played, and Anna won. "
            "Raise the number of hands to play on",
        ),
    ],
)
def test_a_bad_end_is_refused_with_where_and_nothing_changes(api, to_60, body, path, message):
    record(api, to_60, 1)
    record(api, to_60, 2)
    revision = TableSession.objects.get().revision

    refused = ends(api, to_60, body)

    assert refused.status_code == 400
    assert said(refused) == {"error": message, "path": path}
    assert unchanged(to_60, revision)


def test_a_locked_table_keeps_its_end(api, to_60):
    services.table_lock(session=to_60, locked=True)
    revision = TableSession.objects.get().revision

    refused = ends(api, to_60, {"play_to": 200, "hands": None})

    assert refused.status_code == 423 and said(refused)["error"]
    assert unchanged(to_60, revision)


def test_the_schema_documents_the_end_and_the_ends_endpoint(api, db):
    schema = api.get(f"{API}/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()

    operation = schema["paths"]["/api/v1/sessions/{token}/ends/"]["put"]
    shapes = schema["components"]["schemas"]
    assert {"200", "400", "403", "404", "423"} <= set(operation["responses"])
    assert shapes["EndsInRequest"]["required"] == ["hands", "play_to"]
    assert shapes["EndShape"]["required"] == ["over"]
    assert shapes["ScoreShape"]["properties"]["end"]["allOf"] == [
        {"$ref": "#/components/schemas/EndShape"}
    ]
    assert "end" not in shapes["ScoreShape"]["required"]
    assert "end" in shapes["SessionOut"]["properties"]
    assert set(shapes["OptionsShapeRequest"]["properties"]) >= {"play_to", "hands"}


# -- by time -------------------------------------------------------------------------------


def start(api: APIClient, **time: object):
    body = {"game": "ce-deng", "seating": SEATING, "first": "Anna", **time}
    return api.post(f"{API}/sessions/", body, format="json")


def test_a_table_started_with_minutes_says_when_its_time_runs_out(api, db):
    started = start(api, minutes=90)
    assert started.status_code == 201
    table = TableSession.objects.get(token=started.json()["token"])
    assert started.json()["ends_at"] == table.ends_at.isoformat()
    assert 89 * 60 < (table.ends_at - table.created).total_seconds() <= 90 * 60


@pytest.mark.both_databases
def test_a_table_started_with_a_moment_keeps_it(api, db):
    started = start(api, ends_at="2030-01-01T23:00:00+08:00")
    assert started.json()["ends_at"] == "2030-01-01T15:00:00+00:00"


@pytest.mark.parametrize(
    ("time", "path"),
    [
        ({"minutes": 30, "ends_at": "2030-01-01T23:00:00+08:00"}, "ends_at"),
        ({"minutes": 0}, "minutes"),
        ({"minutes": "30"}, "minutes"),
        ({"ends_at": "tonight"}, "ends_at"),
    ],
)
def test_a_time_that_cannot_be_is_refused_and_no_table_is_made(api, db, time, path):
    refused = start(api, **time)
    assert refused.status_code == 400
    assert refused.json()["path"] == path
    assert not TableSession.objects.exists()


@pytest.mark.both_databases
@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai", "Etc/GMT+12"])
@pytest.mark.parametrize(
    "at",
    [
        "0001-01-01T00:00:00", "9999-12-31T23:59:59", "0001-01-01T00:00:00Z",
        "9999-12-31T12:00:00+00:00", "0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00",
    ],
)  # fmt: skip
def test_a_moment_within_a_day_of_the_calendar_s_ends_is_refused_not_a_500(
    api, db, settings, zone, at
):
    # Turned into the server's zone (read in it, without an offset), or shown in a phone's, it
    # would be past what a date holds: no zone is a day from UTC.
    settings.TIME_ZONE = zone
    refused = start(api, ends_at=at)
    assert refused.status_code == 400
    assert said(refused) == {"error": "Datetime value out of range.", "path": "ends_at"}
    assert not TableSession.objects.exists()
    table = TableSession.objects.get(token=start(api).json()["token"])
    refused = ends(api, table, {"play_to": None, "hands": None, "ends_at": at})
    assert refused.status_code == 400 and said(refused)["path"] == "ends_at"
    assert TableSession.objects.get(pk=table.pk).ends_at is None


@pytest.mark.both_databases
@pytest.mark.parametrize("phone", ["Etc/GMT-14", "Etc/GMT+12"])
@pytest.mark.parametrize("at", ["0001-01-02T00:00:00Z", "9999-12-30T00:00:00Z"])
def test_a_moment_a_day_from_the_calendar_s_ends_is_kept_and_shown_in_any_zone(api, db, phone, at):
    table = services.session_create(
        game="ce-deng", options={}, seating=SEATING, first="Anna", time_zone=phone
    )
    assert ends(api, table, {"play_to": None, "hands": None, "ends_at": at}).status_code == 200
    for path in (f"/t/{table.token}/", f"/t/{table.token}/summary/", f"/s/{table.read_token}/"):
        assert Client().get(path).status_code == 200, path
    assert document(api, table)["ends_at"].startswith(at[:10])


def test_after_the_time_the_next_hand_is_the_last_and_the_end_says_time(api, db):
    started = start(api, ends_at="2000-01-01T00:00:00Z")
    table = TableSession.objects.get(token=started.json()["token"])
    assert record(api, table, 1).status_code == 201
    assert document(api, table)["end"] == {"over": True, "reason": "time", "winner": "Anna"}
    refused = record(api, table, 2)
    assert refused.status_code == 400
    assert "its time ran out" in refused.json()["error"]


def test_a_script_cannot_mark_the_last_hand(api, db):
    table = TableSession.objects.get(token=start(api).json()["token"])
    body = {"number": 1, "hand": {**plain_hand(), "last": True}}
    url = f"{API}/sessions/{table.token}/hands/"
    refused = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="hand-key-0001")
    assert refused.status_code == 400
    assert said(refused)["path"] == "hand.last"
    assert not Hand.objects.exists()


def test_the_organiser_extends_clears_or_keeps_the_time(api, db):
    table = TableSession.objects.get(
        token=start(api, ends_at="2000-01-01T00:00:00Z").json()["token"]
    )
    record(api, table, 1)
    kept = ends(api, table, {"play_to": None, "hands": None})
    assert kept.json()["ends_at"] == "2000-01-01T00:00:00+00:00" and kept.json()["end"]["over"]

    extended = ends(api, table, {"play_to": None, "hands": None, "minutes": 30})
    assert extended.status_code == 200 and "end" not in extended.json()
    assert "last" not in Hand.objects.get(number=1).named

    cleared = ends(api, table, {"play_to": None, "hands": None, "ends_at": None})
    assert cleared.json()["ends_at"] is None


@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai", "Asia/Kolkata", "America/New_York"])
@pytest.mark.parametrize("at", ["1800-01-01T00:00:00Z", "0100-06-01T12:00:00+08:00"])
def test_ends_at_is_answered_in_utc_as_it_is_read_back_whatever_the_server_s_zone(
    api, db, settings, zone, at
):
    # In the server's zone, a moment before the zone's first rule was answered at its local
    # mean time (+08:05:43 in Shanghai): an offset no client expects, and not what a read says.
    settings.TIME_ZONE = zone
    started = start(api, ends_at=at)
    table = TableSession.objects.get(token=started.json()["token"])
    changed = ends(api, table, {"play_to": None, "hands": None, "ends_at": at})

    read = document(api, table)["ends_at"]
    assert read.endswith("+00:00")
    assert started.json()["ends_at"] == changed.json()["ends_at"] == read
