"""A group's players registered in an event in one step: the service, and the organiser's page
where the group's link is pasted (through Django's test client, on the real database)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger.events import services
from ledger.events.forms import link_token
from ledger.models import Entry, Event, Group, Player
from ledger.web import limits
from scoring import ScoringError

REGULARS = ["Anna", "Bob", "Celine", "Dmitri"]


@pytest.fixture
def group(db) -> Group:
    group = Group.objects.create(name="Thursday teahouse", game="jie-long")
    for name in REGULARS:
        Player.for_name(name, group=group)
    return group


@pytest.fixture
def cup(db) -> Event:
    """An event where one of the regulars registered already, typed otherwise."""
    event = services.event_create(name="Cup", game="jie-long", options={}, rounds=2, seed="cup")
    services.entry_add(event=event, name="ANNA", organiser=True)
    services.entry_add(event=event, name="Zoe", organiser=True)
    return event


def registered(event: Event) -> list[tuple[str, bool]]:
    return sorted(Entry.objects.filter(event=event).values_list("player__name", "active"))


def rows(event: Event) -> tuple:
    """Everything registering could touch: the event's players and entries, its undo."""
    event.refresh_from_db()
    players = sorted(Player.objects.filter(event=event).values_list("pk", "name"))
    return players, registered(event), event.undo


def test_a_groups_players_are_registered_as_the_events_own_players_of_the_same_names(group, cup):
    group_rows = sorted(Player.objects.filter(group=group).values_list("pk", "name"))

    done = services.group_register(event=cup, group=group)

    assert done.added == ("Bob", "Celine", "Dmitri") and done.already == ("ANNA",)
    assert registered(cup) == [(n, True) for n in ["ANNA", "Bob", "Celine", "Dmitri", "Zoe"]]
    mine = Player.objects.filter(event=cup, name__in=REGULARS)
    assert sorted(mine.values_list("name", flat=True)) == ["Bob", "Celine", "Dmitri"]
    assert not {pk for pk, _ in group_rows} & set(mine.values_list("pk", flat=True))
    assert all(p.group_id is None and p.table_id is None for p in mine)
    # The group's own rows are as they were: two circles, two Bobs.
    assert sorted(Player.objects.filter(group=group).values_list("pk", "name")) == group_rows


def test_registering_the_group_again_adds_nobody_and_says_everyone_was_there(group, cup):
    services.group_register(event=cup, group=group)
    before = rows(cup)

    again = services.group_register(event=cup, group=group)

    assert again.added == () and again.already == ("ANNA", "Bob", "Celine", "Dmitri")
    assert rows(cup) == before


def test_a_player_who_dropped_out_stays_out(group, cup):
    services.entry_drop(event=cup, name="Anna")

    done = services.group_register(event=cup, group=group)

    assert "ANNA" in done.already and ("ANNA", False) in registered(cup)


def test_registering_a_group_leaves_nothing_to_undo_as_registering_one_player_does(group, cup):
    services.entry_drop(event=cup, name="Zoe")
    undo = rows(cup)[2]

    services.group_register(event=cup, group=group)

    assert rows(cup)[2] == undo and services.event_undo(event=cup)["kind"] == "drop"


def test_a_late_group_plays_from_the_next_round(group, cup):
    services.entry_add(event=cup, name="Yuki", organiser=True)
    services.round_begin(round=services.round_seat(event=cup))

    services.group_register(event=cup, group=group)
    services.round_begin(round=services.round_seat(event=cup))

    seated = {name for table in cup.round_set.get(number=2).tables.all() for name in table.seating}
    assert {"Bob", "Celine", "Dmitri"} <= seated | set(cup.round_set.get(number=2).byes)


def test_a_name_the_event_cannot_take_refuses_the_whole_group_and_stores_nothing(group, cup):
    # A row from before names were checked: Player.save does not check, the services do.
    Player.objects.create(name="Eve\u202e", group=group)
    before = rows(cup)

    with pytest.raises(ScoringError, match="invisible or control characters"):
        services.group_register(event=cup, group=group)

    assert rows(cup) == before


def test_a_group_with_no_players_is_refused_with_a_message(cup):
    empty = Group.objects.create(name="New friends", game="jie-long")
    before = rows(cup)

    with pytest.raises(services.Refused, match="New friends has no players yet"):
        services.group_register(event=cup, group=empty)

    assert rows(cup) == before


@pytest.mark.parametrize(
    ("pasted", "token"),
    [
        ("https://ledger.example.org/g/{t}/", "{t}"),
        ("  https://ledger.example.org/g/{t}?utm=chat#players ", "{t}"),
        ("ledger.example.org/g/{t}", "{t}"),
        ("{t}", "{t}"),
        ("https://ledger.example.org/g/{t}/ (our group)", "{t}"),
        ("Thursday teahouse", None),
        ("", None),
    ],
)
def test_the_token_is_the_last_part_of_the_pasted_link_that_can_be_one(pasted, token):
    t = "Kq3_vX-9aZbL0pQrStUvWx"
    assert link_token(pasted.format(t=t)) == (token.format(t=t) if token else None)


# The organiser's page.


@pytest.fixture
def organiser(client, cup):
    """The browser that opened the event's organiser link."""
    client.get(reverse("event_organise", args=[cup.token]))
    return client


def add_group(client, event: Event, link: str):
    return client.post(reverse("event_add_group", args=[event.token]), {"link": link})


@pytest.mark.parametrize("as_pasted", ["https://ledger.example.org/g/{}/", "{}"])
def test_the_organiser_pastes_a_groups_link_and_its_players_are_registered(
    organiser, cup, group, as_pasted
):
    added = add_group(organiser, cup, as_pasted.format(group.token))

    assert added.status_code == 302 and added["Location"] == reverse(
        "event_organise", args=[cup.token]
    )
    page = organiser.get(added["Location"]).content.decode()
    assert "Added 3 players from Thursday teahouse (1 already registered)." in page
    assert 'id="group-added"' in page
    assert [name for name, _ in registered(cup)] == ["ANNA", "Bob", "Celine", "Dmitri", "Zoe"]
    # Said once: the next visit shows no message.
    assert 'id="group-added"' not in organiser.get(added["Location"]).content.decode()


def test_the_page_says_when_everyone_was_already_registered(organiser, cup, group):
    add_group(organiser, cup, group.token)

    again = add_group(organiser, cup, group.token)

    page = organiser.get(again["Location"]).content.decode()
    assert "Everyone in Thursday teahouse was already registered." in page


def test_the_page_offers_the_group_form_beside_the_name_box(organiser, cup):
    page = organiser.get(reverse("event_organise", args=[cup.token])).content.decode()

    assert 'id="group-form"' in page and "Add a group's players" in page
    assert f'action="{reverse("event_add_group", args=[cup.token])}"' in page


@pytest.mark.parametrize("pasted", ["https://ledger.example.org/g/NoSuchGroup0123456789/", "x"])
def test_a_link_no_group_has_is_refused_with_a_message_and_stores_nothing(
    organiser, cup, group, pasted
):
    before = rows(cup)

    refused = add_group(organiser, cup, pasted)

    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'id="group-error"' in page
    assert "No group has this link: copy it again from the group&#x27;s page." in page
    assert f'value="{pasted}"' in page  # kept, to correct
    assert rows(cup) == before


def test_a_wrong_group_link_counts_as_a_guess_and_text_that_is_no_link_does_not(organiser, cup):
    add_group(organiser, cup, "https://ledger.example.org/g/NoSuchGroup0123456789/")
    assert limits.count(limits.GUESSES, "127.0.0.1") == 1

    refused = add_group(organiser, cup, "Thursday teahouse?")

    assert refused.status_code == 400 and limits.count(limits.GUESSES, "127.0.0.1") == 1


def test_an_empty_group_is_refused_on_the_page_and_stores_nothing(organiser, cup):
    empty = Group.objects.create(name="New friends", game="jie-long")
    before = rows(cup)

    refused = add_group(organiser, cup, empty.token)

    assert refused.status_code == 400
    page = refused.content.decode()
    assert 'id="error"' in page and "New friends has no players yet" in page
    assert rows(cup) == before


def test_an_unknown_event_is_404_and_stores_nothing(client, cup, group):
    before = rows(cup)

    assert add_group(client, Event(token="x" * 22), group.token).status_code == 404
    assert rows(cup) == before
