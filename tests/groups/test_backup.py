"""A backup keeps a group whole: its links, players, tables and payments (voided ones too), so
that after ledger_export and ledger_import into an empty database its ledger is the same."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ledger.groups import selectors, services
from ledger.groups.forms import SettingsForm
from ledger.models import Group, GroupChange, Player, TableSession
from ledger.tables import services as table_services
from tests.tables.conftest import empty_database

# Depends on the database: export and import: ids, JSON and decimals as each database gives them
# back.
pytestmark = pytest.mark.both_databases

THREE = ["Anna", "Bob", "Celine"]


def hand(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


@pytest.fixture
def group(db) -> Group:
    group = services.group_create(name="Teahouse", game="jie-long", options={"stake": "0.50"})
    money = services.table_start(group=group, seating=THREE, first="Anna")
    table_services.hand_record(session=money, number=1, data=hand(2, 12, 20))
    chips = services.table_start(
        group=group, seating=THREE, first="Bob", options={"payment": "chips", "chip": "1"}
    )
    table_services.hand_record(session=chips, number=1, data=hand(9, 5, 20))
    services.payment_record(group=group, payer="Celine", payee="Anna", amount="13", note="cash")
    paid = services.payment_record(group=group, payer="Bob", payee="Anna", amount="1")
    services.payment_void(payment=paid.payment)
    return group


def exported(tmp_path, capsys):
    call_command("ledger_export")
    backup = tmp_path / "backup.json"
    backup.write_text(capsys.readouterr().out, encoding="utf-8")
    return backup


def test_a_group_comes_back_whole_with_the_same_ledger(group, tmp_path, capsys):
    before = selectors.ledger(group)
    tokens = (group.token, group.organiser_token)
    tables = set(group.tables.values_list("token", flat=True))
    backup = exported(tmp_path, capsys)
    empty_database()
    assert not TableSession.objects.exists() and not Player.objects.exists()

    call_command("ledger_import", str(backup))

    back = Group.objects.get()
    assert (back.token, back.organiser_token) == tokens
    assert set(back.tables.values_list("token", flat=True)) == tables
    after = selectors.ledger(back)
    assert (after.money, after.points) == (before.money, before.points)
    assert back.payments.count() == 2 and back.payments.exclude(void=None).count() == 1
    assert Player.objects.filter(group=back).count() == 3


def test_a_group_already_in_the_database_is_not_imported_again(group, tmp_path, capsys):
    backup = exported(tmp_path, capsys)
    document = json.loads(backup.read_text(encoding="utf-8"))
    document["tables"] = []  # the tables are not asked for again, the group is
    backup.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match="groups are already in this database"):
        call_command("ledger_import", str(backup))


def test_a_payment_in_chips_of_a_backup_made_before_chips_had_a_value_takes_its_tables(
    group, tmp_path, capsys
):
    # A backup of version 5 kept no chip's value: the group's chips were all worth 1 there.
    services.payment_record(group=group, payer="Anna", payee="Bob", amount="2", unit="chips")
    before = selectors.ledger(group)
    backup = exported(tmp_path, capsys)
    document = json.loads(backup.read_text(encoding="utf-8"))
    document["version"] = 5
    for raw in document["groups"]:
        for payment in raw["payments"]:
            del payment["chip"]
    backup.write_text(json.dumps(document), encoding="utf-8")
    empty_database()

    call_command("ledger_import", str(backup))

    back = Group.objects.get()
    assert back.payments.get(unit="chips").chip == 1
    assert selectors.ledger(back).money == before.money


def test_what_a_group_plays_for_and_its_changes_come_back_and_an_older_backup_splits(
    group, tmp_path, capsys
):
    form = SettingsForm(
        {"name": "Teahouse", "game": "jie-long", "stake": "0.50", "ce-deng": "1"}, group=group
    )
    assert form.is_valid()
    services.group_settle(group=group, settings=form.settings(), device="Anna's phone")
    backup = exported(tmp_path, capsys)
    empty_database()

    call_command("ledger_import", str(backup))

    back = Group.objects.get()
    assert back.plays_for == {"stake": "0.50", "games": {"ce-deng": {"stake": "1"}}}
    change = GroupChange.objects.get()
    assert change.device == "Anna's phone" and change.after["plays_for"] == back.plays_for

    # A backup of version 6: the usual game's options held the stake, and there was no history.
    document = json.loads(backup.read_text(encoding="utf-8"))
    document["version"] = 6
    for raw in document["groups"]:
        raw["options"] = {"stake": "0.50", "next_first": "rotate"}
        del raw["plays_for"], raw["changes"]
    backup.write_text(json.dumps(document), encoding="utf-8")
    empty_database()

    call_command("ledger_import", str(backup))

    back = Group.objects.get()
    assert (back.options, back.plays_for) == ({"next_first": "rotate"}, {"stake": "0.50"})
    assert not GroupChange.objects.exists()
