"""`manage.py demo`: an empty database gets a table of every game, every hand checked by the
engine, and a tournament in the middle of its second round; any other database is left alone."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

import scoring
from ledger.events import services as event_services
from ledger.groups import selectors as group_selectors
from ledger.models import Entry, Event, Group, Hand, HandChange, Player, Round, TableSession
from ledger.tables import selectors
from tests.tables.conftest import empty_database

pytestmark = pytest.mark.django_db


def demo() -> str:
    out = StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def stored() -> dict[str, int]:
    models = (TableSession, Hand, HandChange, Player, Event, Entry, Round)
    return {model.__name__: model.objects.count() for model in models}


def tables() -> list[TableSession]:
    return list(TableSession.objects.filter(round=None, group=None).order_by("pk"))


def test_demo_seats_one_table_of_every_game():
    demo()
    assert sorted(table.game for table in tables()) == sorted(scoring.GAMES)
    for table in tables():
        assert len(table.seating) in scoring.GAMES[table.game].player_counts


def test_every_demo_hand_scores_and_only_the_one_hand_saved_twice_is_voided():
    demo()
    voided = []
    for table in tables():
        view = selectors.score_sheet(table)
        assert [row.hand.number for row in view.rows] == list(range(1, len(view.rows) + 1))
        assert len(view.rows) >= 5
        assert all((row.result is None) == row.hand.voided for row in view.rows)
        assert sum(view.result.totals.net.values()) == 0
        voided += [(view, row.hand.number) for row in view.rows if row.hand.voided]
    assert len(voided) == 1
    view, number = voided[0]
    assert view.row(number).hand.data == view.row(number - 1).hand.data  # the copy
    corrected = HandChange.objects.filter(kind=HandChange.Kind.CORRECT)
    assert len(corrected) == 1
    assert corrected[0].before != corrected[0].after


def test_demo_hands_show_every_special_and_event_of_the_games():
    demo()
    seen: set[str] = set()
    for hand in Hand.objects.filter(session__round=None, session__group=None, voided=False):
        seen |= {key for key in ("redeal", "declared_doubles", "blocked") if key in hand.data}
        for result in hand.data.get("results", {}).values():
            seen |= set(result.get("specials", []))
            seen |= {key for key in ("tiles", "large_fish_pips") if key in result}
    events = {str(event) for game in scoring.GAMES.values() for event in game.events}
    specials = {"pass", "head_seven", "tail_eight", "suanzhang"}
    assert events | specials | {"tiles", "large_fish_pips"} <= seen


def test_demo_tournament_has_round_one_played_and_round_two_begun_and_under_way():
    demo()
    event = Event.objects.get()
    assert event.entries.filter(active=True).count() == 12
    first, second = event.round_set.order_by("number")
    assert first.started is not None and second.started is not None

    def counted(round: Round) -> list[int]:
        return [
            table.hands.filter(voided=False).count()
            for table in round.tables.order_by("table_number")
        ]

    assert counted(first) == [event.hands_per_round] * len(counted(first))
    assert all(0 < hands < event.hands_per_round for hands in counted(second))


def test_demo_prints_the_links_of_its_tables_and_tournament_and_they_open(client):
    printed = set(re.findall(r"(/[teo]/[\w-]{22}/)", demo()))
    event = Event.objects.get()
    expected = {reverse("table", args=[table.token]) for table in tables()}
    expected |= {reverse("event_organise", args=[event.token])}
    expected |= {reverse("event_results", args=[event.read_token])}
    assert printed == expected
    for link in sorted(printed):
        assert client.get(link).status_code == 200, link
    for table in tables():
        for page in ("summary", "history"):
            assert client.get(reverse(page, args=[table.token])).status_code == 200


def test_demo_makes_the_same_hands_every_time():
    demo()
    first = sorted((h.session.game, h.number, str(h.named)) for h in Hand.objects.all())
    empty_database()
    demo()
    assert sorted((h.session.game, h.number, str(h.named)) for h in Hand.objects.all()) == first


def test_a_second_demo_refuses_and_stores_nothing():
    demo()
    before = stored()
    with pytest.raises(CommandError, match="not empty.*stored nothing"):
        demo()
    assert stored() == before


def test_demo_refuses_a_database_with_only_an_event():
    event_services.event_create(name="Club", game="jie-long", options={}, rounds=1)
    before = stored()
    with pytest.raises(CommandError, match=r"0 tables, 1 event\)"):
        demo()
    assert stored() == before


def test_demo_group_has_three_evenings_played_again_and_a_payment():
    out = demo()
    group = Group.objects.get()
    assert group.tables.count() == 3 and group.players.count() == 5
    first, again, _ = group.tables.order_by("created")
    assert again.seating == first.seating and again.first == first.first
    payment = group.payments.get()
    ledger = group_selectors.ledger(group)
    assert sum(ledger.money.values()) == 0
    assert payment.note == "cash" and payment.amount > 0  # the biggest debt, paid
    assert reverse("group", args=[group.token]) in out
    assert reverse("group_organise", args=[group.token, group.organiser_token]) in out
