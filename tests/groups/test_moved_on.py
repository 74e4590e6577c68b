"""The group moves on together (issue 37, item 6): a table's page, on a phone of the group's (it
opened the group's link, or the table's: issue 47), is told where the group went on from it
("The group started a new table →"), and nothing of the group on a phone that holds only the
table's read-only link."""

from __future__ import annotations

import pytest
from django.test import Client

from ledger.groups import services
from ledger.groups.models import Group
from ledger.models import TableSession

THREE = ["Anna", "Bob", "Celine"]
NOTICE = "The group started a new table →"


@pytest.fixture
def group(db) -> Group:
    return services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})


def start(group: Group, seating: list[str]) -> TableSession:
    return services.table_start(group=group, seating=seating, first=seating[0])


def notice(client: Client, group: Group, table: TableSession, language: str = "en") -> str:
    url = f"/g/{group.token}/tables/{table.pk}/next/"
    response = client.get(url, headers={"HX-Request": "1", "Accept-Language": language})
    assert response.status_code == 200
    return response.content.decode()


def test_a_table_of_the_group_is_told_of_the_next_table_its_players_sit_at(group, client):
    first = start(group, THREE)
    assert NOTICE not in notice(client, group, first)  # nowhere yet
    start(group, ["Dong", "Ewa", "Fang"])  # others, beside it: not where its players went
    assert NOTICE not in notice(client, group, first)

    again = start(group, ["Celine", "Gao", "Hui"])  # Celine went on
    latest = start(group, ["Anna", "Bob", "Celine", "Dong"])
    said = notice(client, group, first)
    assert NOTICE in said
    assert f'href="/t/{latest.token}/"' in said and again.token not in said
    assert NOTICE not in notice(client, group, latest)


def test_the_notice_is_in_the_readers_language(group, client):
    first = start(group, THREE)
    start(group, THREE)
    said = notice(client, group, first, "zh-hans")
    assert "小组开了新的一桌 →" in said and NOTICE not in said


def test_a_table_of_another_group_or_none_is_told_nothing(group, client):
    other = services.group_create(name="Elsewhere", game="jie-long", options={})
    theirs = start(other, THREE)
    start(other, THREE)
    assert NOTICE not in notice(client, group, theirs)
    assert client.get(f"/g/{'x' * 22}/tables/{theirs.pk}/next/").status_code == 404


def test_a_phone_of_the_group_follows_it_from_a_table_a_reader_does_not(group):
    table = start(group, THREE)
    reader, regular, joined = Client(), Client(), Client()
    page = reader.get(f"/s/{table.read_token}/").content.decode()
    assert "data-group-stream" not in page and group.token not in page

    regular.get(f"/g/{group.token}/")
    for phone in (regular, joined):  # the group's link, or the table's alone
        page = phone.get(f"/t/{table.token}/").content.decode()
        assert f'data-group-stream="/g/{group.token}/stream/"' in page
        assert f'hx-get="/g/{group.token}/tables/{table.pk}/next/"' in page
