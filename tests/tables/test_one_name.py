"""One person, one name: spellings that differ only in case, width or spacing are one player,
and names that hide what they are (control, zero-width, direction-override characters) are
refused with a clear message and nothing stored."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from rest_framework.test import APIClient

from ledger.events import services as event_services
from ledger.models import Player, TableSession
from ledger.tables import services
from tests.tables.test_views import new_table_post

# both_databases on the tests that store a name with a NUL byte or keys that only a byte-for-byte
# comparison keeps apart (dotted and plain capital I); the migration that writes the keys (0007)
# runs on PostgreSQL (postgresql). The spellings are told apart by ledger's own key, in Python,
# before any query: the rest run once.

API = "/api/v1"


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_two_lone_tables_annas_are_two_people_each_seated_as_typed(client, db):
    first = services.session_create(
        game="jie-long", options={}, seating=["Anna", "Bob", "Celine"], first="Anna"
    )

    post = {"game": "jie-long", "first": "0", "player_0": "anna", "player_1": "bob"}
    response = client.post(reverse("session_new"), post | {"player_2": "celine"})

    table = TableSession.objects.exclude(pk=first.pk).get()
    assert response.status_code == 302
    assert table.seating == ["anna", "bob", "celine"] and table.first == "anna"
    for page in ("table", "summary"):
        assert client.get(reverse(page, args=[table.token])).status_code == 200
    csv = client.get(reverse("export", args=[table.token, "hands"]))
    assert csv.status_code == 200 and b"".join(csv.streaming_content)
    assert Player.objects.count() == 6
    assert set(Player.objects.filter(table=first).values_list("name", flat=True)) == {
        "Anna",
        "Bob",
        "Celine",
    }


def test_a_tournament_seats_a_name_as_its_registration_has_it(db):
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=1)
    for name in ("Anna", "Bob", "Celine"):
        event_services.entry_add(event=event, name=name, organiser=True)
    round = event_services.round_seat(event=event)
    table = services.session_create(
        game="jie-long",
        options={},
        seating=["anna", "BOB", " celine "],
        first="anna",
        round=round,
        table_number=9,
    )

    assert table.seating == ["Anna", "Bob", "Celine"] and table.first == "Anna"
    assert Player.objects.filter(event=event).count() == 3  # the entries' players, seated


def test_the_api_seats_names_as_typed_and_plays_them(api, db):
    body = {"game": "jie-long", "seating": ["anna", "BOB", " celine "], "first": "anna"}
    created = api.post(f"{API}/sessions/", body, format="json")

    assert created.status_code == 201
    assert created.json()["seating"] == ["anna", "BOB", "celine"]
    assert created.json()["first"] == "anna"
    hand = {"number": 1, "hand": {"results": {"anna": {"pips": 0}, "BOB": {"pips": 3},
                                              "celine": {"pips": 5}}}}  # fmt: skip
    saved = api.post(
        f"{API}/sessions/{created.json()['token']}/hands/", hand, format="json",
        HTTP_IDEMPOTENCY_KEY="first-hand-key",
    )  # fmt: skip
    assert saved.status_code == 201


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Anna", "Ａｎｎａ"),  # fullwidth letters
        ("Kim", "\u212aim"),  # the Kelvin sign
        ("Anna Li", "anna   li"),  # inner spaces
        ("Strauß", "STRAUSS"),  # case folding, not lower()
    ],
)
def test_look_alike_spellings_are_one_player_in_a_tournament(db, first, second):
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=1)
    one = event_services.entry_add(event=event, name=first, organiser=True)
    two = event_services.entry_add(event=event, name=second, organiser=True)

    assert one.pk == two.pk and one.player.name == first
    assert Player.objects.filter(event=event).count() == 1


@pytest.mark.both_databases
def test_dotted_and_plain_capital_i_are_two_players_and_neither_breaks(client, db):
    for name in ("Ilkay", "İlkay"):
        post = new_table_post(player_0=name, game="jie-long", player_3="")
        assert client.post(reverse("session_new"), post).status_code == 302

    assert sorted(Player.objects.filter(name__endswith="lkay").values_list("name", flat=True)) == [
        "Ilkay",
        "İlkay",
    ]


@pytest.mark.parametrize("name", ["Anna", "ａｎｎａ", "ANNA "])
def test_one_person_cannot_sit_twice_at_a_table_in_another_spelling(client, db, name):
    response = client.post(reverse("session_new"), new_table_post(player_1=name))

    assert response.status_code == 400
    assert "seated twice" in response.content.decode()
    assert not TableSession.objects.exists()


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("Bob\u200b", id="zero-width space"),
        pytest.param("\u202eboB", id="right-to-left override"),
        pytest.param("Bo\u0000b", id="NUL", marks=pytest.mark.both_databases),
        pytest.param("\u200dBob", id="joiner"),
        pytest.param("Bo\u0007b", id="bell"),
    ],
)
def test_names_that_hide_what_they_are_are_refused_everywhere(client, api, db, name):
    page = client.post(reverse("session_new"), new_table_post(player_1=name))
    body = {"game": "ce-deng", "seating": ["Anna", name, "Celine", "Dominic"], "first": "Anna"}
    answer = api.post(f"{API}/sessions/", body, format="json")

    assert page.status_code == 400
    assert answer.status_code == 400
    assert answer.json()["path"] == "seating[1]"
    assert not TableSession.objects.exists() and not Player.objects.exists()


def test_the_refusal_says_what_is_wrong_with_the_name(client, db):
    page = client.post(reverse("session_new"), new_table_post(player_1="Bob\u200b"))

    assert "invisible or control characters" in page.content.decode()


def test_a_tab_or_line_break_inside_a_name_is_a_space(db):
    table = services.session_create(
        game="jie-long", options={}, seating=["Anna\tLi", "Bo\u2028b"], first="Anna Li"
    )

    assert table.seating == ["Anna Li", "Bo b"] and table.first == "Anna Li"


def test_a_tournament_registration_refuses_a_hidden_character_and_finds_look_alikes(client, db):
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=1)
    event_services.entry_add(event=event, name="Anna", organiser=True)

    refused = client.post(
        reverse("event_register", args=[event.register_token]), {"name": "A\u200bnna"}
    )
    again = client.post(
        reverse("event_register", args=[event.register_token]), {"name": "ＡＮＮＡ"}
    )

    assert refused.status_code == 400 and "invisible" in refused.content.decode()
    assert again.status_code == 200
    assert list(event.entries.values_list("player__name", flat=True)) == ["Anna"]


def test_dropping_out_finds_the_player_in_any_spelling(db):
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=1)
    event_services.entry_add(event=event, name="Anna Li", organiser=True)

    event_services.entry_drop(event=event, name="ａｎｎａ  LI")

    assert not event.entries.get().active


@pytest.mark.postgresql
def test_the_migration_gives_every_player_a_key_and_keeps_look_alikes_apart(transactional_db):
    executor = MigrationExecutor(connection)
    executor.migrate([("ledger", "0006_table_tally")])
    old = executor.loader.project_state([("ledger", "0006_table_tally")]).apps
    OldPlayer = old.get_model("ledger", "Player")
    for name in ("Anna", "Ａｎｎａ", "Bob"):
        OldPlayer.objects.create(name=name)

    try:
        executor = MigrationExecutor(connection)
        executor.migrate([("ledger", "0007_player_key")])
        then = executor.loader.project_state([("ledger", "0007_player_key")]).apps
        keys = dict(then.get_model("ledger", "Player").objects.values_list("name", "key"))
        assert keys["Anna"] == "anna" and keys["Bob"] == "bob"
        assert keys["Ａｎｎａ"] != "anna" and keys["Ａｎｎａ"].startswith("anna")
    finally:
        call_command("migrate", verbosity=0)
