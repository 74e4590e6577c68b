from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from ledger import selectors, services
from ledger.models import Hand, HandChange, Player, TableSession
from tests.ledger.conftest import plain_hand


def _played(session):
    services.hand_record(session=session, number=1, data=plain_hand(), device="A")
    services.hand_record(session=session, number=2, data=plain_hand(direction="cw", Bob=40))
    services.hand_correct(session=session, number=2, data=plain_hand(direction="cw"), version=1)
    services.hand_void(session=session, number=1, version=1, device="B")


def _wipe():
    for model in (HandChange, Hand, TableSession, Player):
        model.objects.all().delete()


def test_export_and_import_into_an_empty_database_give_identical_totals(ce_deng, tmp_path, capsys):
    _played(ce_deng)
    before = selectors.scored(ce_deng).result
    call_command("ledger_export")
    backup = tmp_path / "backup.json"
    backup.write_text(capsys.readouterr().out, encoding="utf-8")
    _wipe()

    call_command("ledger_import", str(backup))

    table = selectors.session_by_token(ce_deng.token)  # the same links still work
    after = selectors.scored(table).result
    assert after.totals == before.totals and after.settle_up == before.settle_up
    assert HandChange.objects.count() == 4 and Hand.objects.get(number=1).voided
    assert table.read_token == ce_deng.read_token


def test_export_of_one_table_by_its_token(ce_deng, capsys):
    other = services.session_create(game="jie-long", options={}, seating=["X", "Y"], first="X")

    call_command("ledger_export", f"--table={other.token}")  # a token may begin with "-"

    tables = json.loads(capsys.readouterr().out)["tables"]
    assert [table["token"] for table in tables] == [other.token]


def test_import_refuses_tables_already_there_and_stores_nothing(ce_deng, tmp_path, capsys):
    _played(ce_deng)
    call_command("ledger_export")
    backup = tmp_path / "backup.json"
    backup.write_text(capsys.readouterr().out, encoding="utf-8")

    with pytest.raises(CommandError, match="already in this database"):
        call_command("ledger_import", str(backup))

    assert TableSession.objects.count() == 1 and Hand.objects.count() == 2
