"""A table that ends by time (rules rev 3): the hand saved once the time has passed is the last,
the page says when it ends and who won, and its organiser can extend the time to play on."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ledger.models import Hand, HandChange, TableSession
from ledger.tables import backup, clock, selectors, services
from scoring import ScoringError
from tests.tables.conftest import SEATING, empty_database, form_post, plain_hand

# both_databases on a backup's export and import, a stored moment compared to the microsecond,
# and a moment read back under another server TIME_ZONE. Whether the time has passed is the
# code's comparison, not the database's (no query compares ends_at): the rest run once.

DIRECTIONS = ("ccw", "cw", "ccw", "cw")  # Ce Deng alternates; Anna (2) wins every hand
HONG_KONG = "Asia/Hong_Kong"


def table_ending(at: datetime | None) -> TableSession:
    return services.session_create(
        game="ce-deng",
        options={},
        seating=SEATING,
        first="Anna",
        ends_at=at,
        time_zone=HONG_KONG,
    )


def record(client: Client, table: TableSession, number: int):
    return client.post(
        reverse("table", args=[table.token]), form_post(number, direction=DIRECTIONS[number - 1])
    )


def page(client: Client, table: TableSession) -> str:
    return client.get(reverse("table", args=[table.token])).content.decode()


def organiser(table: TableSession) -> Client:
    client = Client()
    client.get(reverse("organise", args=[table.token, table.organiser_token]))
    return client


def passed(table: TableSession) -> None:
    """The table's time runs out now."""
    TableSession.objects.filter(pk=table.pk).update(ends_at=timezone.now() - timedelta(seconds=1))


@pytest.mark.django_db
def test_the_page_says_when_the_time_runs_out_on_the_clock_of_the_phone_that_set_it(client):
    at = datetime(2030, 1, 1, 22, 30, tzinfo=ZoneInfo(HONG_KONG))
    table = table_ending(at)
    assert record(client, table, 1).status_code == 302
    shown = page(client, table)
    assert "Ends at 22:30: the hand during which that time passes is the last." in shown
    assert 'id="record-form"' in shown


@pytest.mark.django_db
def test_the_hand_saved_after_the_time_is_the_last_and_no_more_are_taken(client):
    table = table_ending(timezone.now() + timedelta(hours=1))
    record(client, table, 1)
    assert not table.hands.get(number=1).named.get("last")
    passed(table)
    assert "The time is up: the hand being played is the last." in page(client, table)

    assert record(client, table, 2).status_code == 302
    assert table.hands.get(number=2).named["last"] is True
    shown = page(client, table)
    assert "Game over: Anna wins." in shown and "The time ran out." in shown
    assert 'id="record-form"' not in shown
    refused = record(client, table, 3)
    assert refused.status_code == 400
    assert "its time ran out, and Anna won" in refused.content.decode()
    assert table.hands.count() == 2
    end = selectors.score_sheet(table).end
    assert end is not None and (end.over, str(end.reason)) == (True, "time")


@pytest.mark.django_db
def test_a_redeal_after_the_time_is_not_the_last_the_next_dealt_hand_is():
    table = table_ending(timezone.now() - timedelta(minutes=1))
    services.hand_record(session=table, number=1, data={"redeal": "Bob"})
    assert "last" not in table.hands.get(number=1).named
    services.hand_record(session=table, number=2, data=plain_hand())
    assert table.hands.get(number=2).named["last"] is True


@pytest.mark.django_db
def test_a_correction_keeps_the_last_hand_last_and_a_void_frees_the_next():
    table = table_ending(timezone.now() - timedelta(minutes=1))
    services.hand_record(session=table, number=1, data=plain_hand())
    corrected = services.hand_correct(session=table, number=1, data=plain_hand(Bob=14), version=1)
    assert corrected.data["last"] is True
    assert selectors.score_sheet(table).end.over

    services.hand_void(session=table, number=1, version=2)
    assert not selectors.score_sheet(table).end
    services.hand_record(session=table, number=2, data=plain_hand())
    assert table.hands.get(number=2).named["last"] is True


@pytest.mark.django_db
def test_a_phone_or_script_cannot_mark_the_last_hand_itself():
    table = table_ending(None)
    with pytest.raises(ScoringError) as caught:
        services.hand_record(session=table, number=1, data={**plain_hand(), "last": True})
    assert caught.value.path == "hand.last"
    assert not table.hands.exists()


@pytest.mark.django_db
def test_the_organiser_extends_the_time_and_the_last_hand_is_ordinary_again(client):
    table = table_ending(timezone.now() - timedelta(minutes=1))
    record(client, table, 1)
    assert selectors.score_sheet(table).end.over

    answer = organiser(table).post(
        reverse("ends", args=[table.token]), {"play_to": "", "hands": "", "minutes": "30"}
    )
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.ends_at > timezone.now() + timedelta(minutes=29)
    hand = table.hands.get(number=1)
    assert "last" not in hand.named and hand.version == 2
    change = hand.changes.last()
    assert change.kind == HandChange.Kind.CORRECT and change.before["last"] is True
    assert record(client, table, 2).status_code == 302  # play goes on
    assert not selectors.score_sheet(table).end


@pytest.mark.both_databases
@pytest.mark.django_db
def test_sending_back_the_clock_time_shown_keeps_the_time_as_it_was():
    at = timezone.now() - timedelta(minutes=1)  # already past: read again it would be tomorrow
    table = table_ending(at)
    shown = clock.shown(at, ZoneInfo(HONG_KONG)).strftime("%H:%M")
    answer = organiser(table).post(
        reverse("ends", args=[table.token]), {"play_to": "100", "hands": "", "until": shown}
    )
    assert answer.status_code == 302
    table.refresh_from_db()
    assert table.ends_at == at and table.options == {"play_to": "100"}


@pytest.mark.django_db
def test_clearing_the_time_ends_the_table_no_more_by_time(client):
    table = table_ending(timezone.now() + timedelta(minutes=5))
    organiser(table).post(reverse("ends", args=[table.token]), {"play_to": "", "hands": ""})
    table.refresh_from_db()
    assert table.ends_at is None
    assert "Ends at" not in page(client, table)


@pytest.mark.django_db
def test_minutes_and_a_clock_time_together_are_refused_in_the_reader_s_language():
    table = table_ending(None)
    answer = organiser(table).post(
        reverse("ends", args=[table.token]),
        {"play_to": "", "hands": "", "minutes": "30", "until": "23:00"},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert answer.status_code == 400
    assert "Give the minutes or a clock time" not in answer.content.decode()
    table.refresh_from_db()
    assert table.ends_at is None


def new_table(client: Client, **fields: str):
    post = {
        "game": "jie-long",
        "player_0": "Anna",
        "player_1": "Bob",
        "first": "0",
        **fields,
    }
    return client.post(reverse("session_new"), post)


@pytest.mark.django_db
def test_a_new_table_ends_after_so_many_minutes(client):
    before = timezone.now()
    assert new_table(client, minutes="90").status_code == 302
    table = TableSession.objects.get()
    assert before + timedelta(minutes=90) <= table.ends_at <= timezone.now() + timedelta(minutes=90)


@pytest.mark.django_db
def test_a_new_table_ends_at_the_phone_s_clock_time(client):
    assert new_table(client, until="23:00", time_zone=HONG_KONG).status_code == 302
    table = TableSession.objects.get()
    local = table.ends_at.astimezone(ZoneInfo(HONG_KONG))
    assert (local.hour, local.minute) == (23, 0)
    assert timezone.now() < table.ends_at <= timezone.now() + timedelta(days=1)
    assert table.time_zone == HONG_KONG


@pytest.mark.django_db
def test_an_unknown_time_zone_reads_the_clock_time_on_the_server_s_clock(client):
    assert new_table(client, until="23:00", time_zone="Mars/Olympus").status_code == 302
    table = TableSession.objects.get()
    local = table.ends_at.astimezone(clock.zone(""))
    assert (local.hour, local.minute) == (23, 0)
    assert table.time_zone == ""


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"minutes": "30", "until": "23:00"}, "until"),
        ({"minutes": "0"}, "minutes"),
        ({"minutes": "1441"}, "minutes"),
        ({"until": "25:00"}, "until"),
    ],
)
def test_a_time_that_cannot_be_is_refused_and_nothing_is_stored(client, fields, field):
    answer = new_table(client, **fields)
    assert answer.status_code == 400
    assert answer.context["form"].errors[field]
    assert not TableSession.objects.exists()


@pytest.mark.django_db
def test_the_rules_export_says_when_the_time_runs_out(client):
    at = datetime(2030, 1, 1, 22, 30, tzinfo=ZoneInfo(HONG_KONG))
    table = table_ending(at)
    program = client.get(reverse("api-export", args=[table.token, "rules"]))
    assert "ends_at,2030-01-01T14:30:00+00:00," in b"".join(program.streaming_content).decode()
    person = client.get(reverse("export", args=[table.token, "rules"]))
    assert "Until,22:30," in b"".join(person.streaming_content).decode()


@pytest.mark.both_databases
@pytest.mark.django_db
def test_a_backup_keeps_the_time_and_the_last_hand():
    table = table_ending(timezone.now() - timedelta(minutes=1))
    services.hand_record(session=table, number=1, data=plain_hand())
    document = backup.export_tables([table])
    ends_at = table.ends_at
    empty_database()
    (restored,) = backup.import_tables(document)
    assert (restored.ends_at, restored.time_zone) == (ends_at, HONG_KONG)
    assert Hand.objects.get(session=restored).named["last"] is True
    assert selectors.score_sheet(restored).end.over


@pytest.mark.both_databases
@pytest.mark.django_db
def test_a_table_whose_time_no_phone_set_shows_it_on_the_server_s_clock(client, settings):
    settings.TIME_ZONE = HONG_KONG  # the operator's TIME_ZONE: where the games are played
    table = services.session_create(
        game="jie-long",
        options={},
        seating=["Anna", "Bob"],
        first="Anna",
        ends_at=datetime(2030, 1, 1, 14, 30, tzinfo=ZoneInfo("UTC")),
    )
    assert "Ends at 22:30" in page(client, table)
