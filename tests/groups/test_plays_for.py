"""What the group plays for, at every game (issue 47, item 3): a stake and a chip's value that a
new table of any game takes, whichever its game pays in, another for one game where the group
wants it, and a table's own by its organiser's say. The organiser changes them on the group's
settings page; each change is recorded, with who made it, and shown; bad input says why and
stores nothing."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.test import Client

from ledger.groups import selectors, services
from ledger.groups.forms import SettingsForm
from ledger.groups.models import Group, GroupChange
from ledger.models import Result, TableSession
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand, start_group, start_table

FOUR = [*THREE, "Dan"]


@pytest.fixture
def organiser(db) -> Client:
    return Client()


def settings_post(group: Group, **fields: str) -> dict[str, str]:
    """The settings form as the page fills it, with ``fields`` changed."""
    return {"name": group.name, "game": group.game, "stake": "0.50", "chip": "", **fields}


@pytest.mark.both_databases
def test_another_game_from_a_group_at_half_a_point_plays_at_half_a_point(organiser):
    group = start_group(organiser)  # Jie Long, 0.50 a point

    table = start_table(organiser, group, FOUR, game="ce-deng")
    table_services.hand_record(
        session=table,
        number=1,
        data={"results": {n: {"pips": p} for n, p in zip(FOUR, [2, 12, 34, 18], strict=True)}},
    )

    assert table.options == {"stake": "0.50"}
    # at 1 a point: +58, +18, -70, -6 (tests/browser/test_groups.py); at 0.50 half of it
    nets = dict(Result.objects.filter(hand__session=table).values_list("player__name", "net"))
    assert nets == {
        "Anna": Decimal(29),
        "Bob": Decimal(9),
        "Celine": Decimal(-35),
        "Dan": Decimal(-3),
    }
    assert selectors.ledger(group).money == nets
    page = organiser.get(f"/g/{group.token}/").content.decode()
    line = re.search(r'<span data-plays-for="ce-deng" hidden>([^<]*)</span>', page)
    assert line and line[1] == "0.50 a point, pairwise · head/tail 7/8"


def test_a_chip_game_takes_the_groups_chip_and_one_game_its_own_stake(db):
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    settle(group, stake="0.50", chip="2", **{"ce-deng": "1"})

    assert services.table_start(group=group, seating=THREE, first="Anna").options == {
        "stake": "0.50"
    }
    ce_deng = services.table_start(group=group, seating=FOUR, first="Anna", game="ce-deng")
    assert ce_deng.options == {"stake": "1"}
    # Kko-li-but-i-gi pays chips: its chip, not the stake
    chips = services.table_start(group=group, seating=THREE, first="Anna", game="kkoribuchigi")
    assert chips.options == {"chip": "2"}
    # what the API names is laid under: its own stake, or the group's where it names none
    named = services.table_start(group=group, seating=THREE, first="Anna", options={"stake": "3"})
    assert named.options == {"stake": "3"}


def settle(group: Group, **fields: str) -> GroupChange | None:
    form_data = {"name": group.name, "game": group.game, **fields}
    form = SettingsForm(form_data, group=group)
    assert form.is_valid(), form.errors
    change = services.group_settle(group=group, settings=form.settings(), device="Anna's phone")
    group.refresh_from_db()
    return change


def test_the_organiser_plays_one_table_for_another_stake_a_member_cannot(organiser):
    group = start_group(organiser)
    table = start_table(organiser, group, THREE, paid="2")
    assert table.options == {"stake": "2"}

    member = Client()
    member.get(f"/g/{group.token}/")
    data = {"game": "jie-long", "first": "0", "key": "m" * 22, "paid": "5"}
    data.update({f"player_{i}": name for i, name in enumerate(THREE)})
    refused = member.post(f"/g/{group.token}/tables/new/", data)
    assert refused.status_code == 403 and "organiser" in refused.content.decode()
    assert TableSession.objects.filter(group=group).count() == 1
    assert 'name="paid"' not in member.get(f"/g/{group.token}/").content.decode()


def test_the_settings_page_is_the_organisers_and_records_every_change(organiser):
    group = start_group(organiser)
    member = Client()
    member.get(f"/g/{group.token}/")
    assert member.get(f"/g/{group.token}/settings/").status_code == 403
    assert member.post(f"/g/{group.token}/settings/", settings_post(group)).status_code == 403
    assert 'id="settings-link"' not in member.get(f"/g/{group.token}/").content.decode()
    assert 'id="settings-link"' in organiser.get(f"/g/{group.token}/").content.decode()

    saved = organiser.post(
        f"/g/{group.token}/settings/",
        settings_post(group, name="Teahouse", stake="1", **{"ce-deng": "0.25"}),
    )

    assert saved.status_code == 302
    group.refresh_from_db()
    assert group.name == "Teahouse"
    assert group.plays_for == {"stake": "1", "games": {"ce-deng": {"stake": "0.25"}}}
    change = GroupChange.objects.get()
    assert change.before["name"] == "Thursday teahouse" and change.after["name"] == "Teahouse"
    page = organiser.get(saved["Location"]).content.decode()
    assert "Saved: every new table of the group plays by them." in page
    history = page[page.index('id="settings-history"') :]
    assert "Name of the group" not in history
    assert "Thursday teahouse → Teahouse" in history and "0.50 → 1" in history
    assert "as the group → 0.25" in history
    # the same sent again changes nothing, and records nothing
    organiser.post(
        f"/g/{group.token}/settings/", settings_post(group, stake="1", **{"ce-deng": "0.25"})
    )
    assert GroupChange.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"stake": "abc"}, "stake", "stake"),
        ({"stake": "-1"}, "stake", "stake"),
        ({"chip": "1.234567"}, "chip", "chip"),
        ({"ce-deng": "x"}, "ce-deng", "stake"),
        ({"name": "  "}, "name", "This field is required"),
        ({"name": "a\u202eb"}, "name", "invisible or control characters"),
        ({"game": "chess"}, "game", "Select a valid choice"),
    ],
)
def test_settings_refused_say_why_and_store_nothing(organiser, fields, field, message):
    group = start_group(organiser)

    response = organiser.post(f"/g/{group.token}/settings/", settings_post(group, **fields))

    assert response.status_code == 400
    page = response.content.decode()
    assert message in page
    group.refresh_from_db()
    assert group.name == "Thursday teahouse" and group.plays_for == {"stake": "0.50"}
    assert not GroupChange.objects.exists()


def test_a_refusal_is_said_in_the_readers_language(organiser):
    group = start_group(organiser)
    response = organiser.post(
        f"/g/{group.token}/settings/",
        settings_post(group, stake="abc"),
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert response.status_code == 400
    said = re.search(r'<ul class="errorlist"[^>]*>(.*?)</ul>', response.content.decode(), re.S)
    assert said and re.search(r"[\u4e00-\u9fff]", said[1]) and "stake" not in said[1]


@pytest.mark.both_databases
def test_a_groups_changes_are_insert_only_while_it_has_money(db):
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    change = settle(group, stake="1")
    assert change is not None
    table = services.table_start(group=group, seating=THREE, first="Anna")
    table_services.hand_record(session=table, number=1, data=hand(2, 12, 20))

    for edit in (
        lambda: GroupChange.objects.filter(pk=change.pk).update(device="someone else"),
        lambda: GroupChange.objects.filter(pk=change.pk).delete(),
    ):
        with pytest.raises(IntegrityError, match="insert-only"), transaction.atomic():
            edit()
    assert GroupChange.objects.get().device == "Anna's phone"


@pytest.mark.both_databases
def test_an_empty_group_goes_with_its_changes(db):
    group = services.group_create(name="Teahouse", game="jie-long", options={})
    settle(group, stake="1")

    services.group_delete(group=group)

    assert not Group.objects.exists() and not GroupChange.objects.exists()


@pytest.mark.parametrize("language", ["zh-hans", "zh-hant", "ko"])
def test_the_settings_page_reads_in_the_readers_language(organiser, language):
    group = start_group(organiser)
    organiser.post(f"/g/{group.token}/settings/", settings_post(group, stake="1"))

    page = organiser.get(f"/g/{group.token}/settings/", HTTP_ACCEPT_LANGUAGE=language)

    body = page.content.decode().split("<main", 1)[1]
    body = body.replace(group.name, "")  # the group's own name, as typed
    # Only the games' own names are in Latin letters.
    games = r"Jie Long|Ce Deng|Tsair Deng|Kko-li-but-i-gi|Ding Niu|Tiu Yu"
    spoken = re.sub(games, "", re.sub(r"<[^>]+>", " ", body))
    assert not re.search(r"[A-Za-z]{2,}", spoken), spoken
