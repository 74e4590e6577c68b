from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.urls import reverse

from ledger.models import Hand, HandChange, Player, TableSession
from ledger.tables import selectors, services, tally
from ledger.tables.backup import export_tables
from tests.tables.conftest import SEATING, empty_database, plain_hand, stored_hands

# Depends on the database: export and import: ids, JSON and decimals as each database gives them
# back.
pytestmark = pytest.mark.both_databases


def _played(session):
    services.hand_record(session=session, number=1, data=plain_hand(), device="A")
    services.hand_record(session=session, number=2, data=plain_hand(direction="cw", Bob=40))
    services.hand_correct(session=session, number=2, data=plain_hand(direction="cw"), version=1)
    services.hand_void(session=session, number=1, version=1, device="B")


def test_export_and_import_into_an_empty_database_give_identical_totals(ce_deng, tmp_path, capsys):
    _played(ce_deng)
    before = selectors.score_sheet(ce_deng).result
    backup = _exported(tmp_path, capsys)
    empty_database()

    call_command("ledger_import", str(backup))

    table = selectors.session_by_token(ce_deng.token)  # the same links still work
    after = selectors.score_sheet(table).result
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
    backup = _exported(tmp_path, capsys)

    with pytest.raises(CommandError, match="already in this database"):
        call_command("ledger_import", str(backup))

    assert TableSession.objects.count() == 1 and Hand.objects.count() == 2


def _history(table):
    return [(c.number, c.kind, c.before, c.after, c.device, c.at) for c in selectors.changes(table)]


def _exported(tmp_path, capsys, *args):
    call_command("ledger_export", *args)
    backup = tmp_path / "backup.json"
    backup.write_text(capsys.readouterr().out, encoding="utf-8")
    return backup


@pytest.fixture
def owned(db):
    """A locked table started by an organiser account, with a correction and a voided hand."""
    owner = User.objects.create_user("organiser", password="a long password")
    table = services.session_create(
        game="ce-deng", options={}, seating=SEATING, first="Anna", owner=owner
    )
    _played(table)
    services.table_lock(session=table, locked=True)
    return TableSession.objects.get(pk=table.pk)


def test_import_keeps_the_lock_organiser_link_owner_tally_and_history(
    owned, tmp_path, capsys, client
):
    before, history = selectors.score_sheet(owned).result, _history(owned)
    counted = tally.current_tally(owned)
    backup = _exported(tmp_path, capsys)
    empty_database()  # the tables go; the organiser's account is in the new database too

    call_command("ledger_import", str(backup))

    assert capsys.readouterr().out == "imported 1 tables\n"
    table = selectors.session_by_token(owned.token)
    assert table.locked and table.organiser_token == owned.organiser_token
    assert table.owner.get_username() == "organiser"
    # The tally is counted again, at the revision the table came with: the standings read it.
    assert table.revision == owned.revision
    assert counted is not None and tally.current_tally(table) == counted
    after = selectors.score_sheet(table).result
    assert after.totals == before.totals and after.settle_up == before.settle_up
    assert _history(table) == history and Hand.objects.get(number=1).voided
    with pytest.raises(services.TableLocked):
        services.hand_record(session=table, number=3, data=plain_hand())
    # The organiser link works again: an outsider cannot open the table, its organiser can.
    lock = reverse("lock", args=[table.token])
    assert client.post(lock, {"locked": "0"}).status_code == 403
    organise = reverse("organise", args=[table.token, owned.organiser_token])
    assert client.get(organise).status_code == 302
    assert client.post(lock, {"locked": "0"}).status_code == 302
    assert not TableSession.objects.get(pk=table.pk).locked


def test_an_owner_with_no_account_here_imports_without_one_and_the_command_says_so(
    owned, tmp_path, capsys
):
    backup = _exported(tmp_path, capsys, f"--table={owned.token}")
    empty_database()
    User.objects.all().delete()

    call_command("ledger_import", str(backup))

    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "owners not found here (their tables have no owner): organiser"
    table = selectors.session_by_token(owned.token)
    assert table.owner is None and table.locked


def test_a_version_1_document_still_imports(owned, tmp_path):
    before = selectors.score_sheet(owned).result
    document = export_tables([owned])
    document["version"] = 1
    for raw in document["tables"]:  # what version 1 did not keep
        for key in ("locked", "organiser_token", "owner"):
            del raw[key]
    backup = tmp_path / "version-1.json"
    backup.write_text(json.dumps(document), encoding="utf-8")
    empty_database()

    call_command("ledger_import", str(backup))

    table = selectors.session_by_token(owned.token)
    assert not table.locked and table.owner is None
    assert table.organiser_token and table.organiser_token != owned.organiser_token
    assert tally.current_tally(table) is not None  # counted on import
    assert selectors.score_sheet(table).result.totals == before.totals


def test_import_refuses_a_version_it_does_not_know(owned, tmp_path, capsys):
    backup = _exported(tmp_path, capsys)
    backup.write_text(backup.read_text().replace('"version": 7', '"version": 8'))

    with pytest.raises(CommandError, match="version 1 to 7"):
        call_command("ledger_import", str(backup))


def test_a_table_imported_beside_another_with_the_same_names_keeps_its_own_players(
    ce_deng, tmp_path, capsys, client
):
    _played(ce_deng)
    before = selectors.score_sheet(ce_deng).result
    backup = _exported(tmp_path, capsys)
    empty_database()
    # The target database has another table whose players go by the same names, spelled
    # otherwise: they are other people (a lone table's players are its own).
    other = services.session_create(
        game="ce-deng", options={}, seating=["ANNA", "bob", "Ｃｅｌｉｎｅ", "dominic"], first="bob"
    )

    call_command("ledger_import", str(backup))

    table = selectors.session_by_token(ce_deng.token)
    after = selectors.score_sheet(table).result
    assert table.seating == SEATING and table.first == "Anna"
    assert list(after.totals.net.values()) == list(before.totals.net.values())
    assert table.tally == tally.stored(
        table, tally.count(table, stored_hands(table)), table.revision
    )
    for page in ("table", "summary", "history"):
        assert client.get(reverse(page, args=[table.token])).status_code == 200
    assert Player.objects.filter(table=table).count() == Player.objects.filter(table=other).count()
    assert Player.objects.count() == 8


def test_a_backup_whose_table_does_not_score_imports_nothing(ce_deng, tmp_path):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    document = export_tables([ce_deng])
    document["tables"][0]["hands"][0]["data"]["results"]["Anna"]["pips"] = -4
    empty_database()
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(document), encoding="utf-8")

    with pytest.raises(CommandError, match="does not score"):
        call_command("ledger_import", str(backup))

    assert not TableSession.objects.exists()


def test_a_kkoribuchigi_table_of_an_older_backup_keeps_the_payment_it_was_played_under(
    db, tmp_path, capsys
):
    table = services.session_create(
        game="kkoribuchigi", options={"payment": "each"}, seating=SEATING, first="Anna"
    )
    services.hand_record(session=table, number=1, data=plain_hand())  # each pays 3, highest 1
    before = selectors.score_sheet(table).result.totals
    backup = _exported(tmp_path, capsys)
    old = json.loads(backup.read_text())
    old["version"] = 2  # made before payment defaulted to "highest", when "each" went unsaid
    del old["tables"][0]["options"]["payment"]
    backup.write_text(json.dumps(old))
    empty_database()

    call_command("ledger_import", str(backup))

    imported = TableSession.objects.get()
    assert imported.options == {"payment": "each"}
    assert selectors.score_sheet(imported).result.totals == before
    assert tally.current_tally(imported) is not None  # counted again, for the options written in


def test_a_tournament_survives_a_backup_whole(db, tmp_path, capsys):
    from ledger.events import selectors as event_selectors
    from ledger.events import services as event_services
    from ledger.models import Entry, Event, Round
    from tests.events.test_events import TWELVE, play

    event = event_services.event_create(
        name="Spring Cup", game="jie-long", options={"stake": "0.50"}, rounds=3
    )
    for name in TWELVE:
        event_services.entry_add(event=event, name=name, organiser=True)
    one = event_services.round_begin(round=event_services.round_seat(event=event))
    for table, pips in zip(one.tables.order_by("table_number"), [(2, 12, 34, 18)] * 3, strict=True):
        play(table, *pips)
    event_services.entry_drop(event=event, name=TWELVE[0])
    event_services.round_seat(event=event)  # round 2 seated, not begun
    before = event_selectors.standings(event)
    seating = {(t.round.number, t.table_number): t.seating for t in TableSession.objects.all()}
    entries = sorted(Entry.objects.values_list("player__name", "active"))
    rounds = sorted(Round.objects.values_list("number", "method", "byes"))
    backup = _exported(tmp_path, capsys)
    empty_database()

    call_command("ledger_import", str(backup))

    event = Event.objects.get()
    assert capsys.readouterr().out.startswith("imported 6 tables and 1 events")
    after = event_selectors.standings(event)
    assert [(r.name, r.net, r.hands_won, r.place) for r in after.rows] == [
        (r.name, r.net, r.hands_won, r.place) for r in before.rows
    ]
    assert {(t.round.number, t.table_number): t.seating for t in TableSession.objects.all()} == (
        seating
    )
    assert sorted(Entry.objects.values_list("player__name", "active")) == entries
    assert sorted(Round.objects.values_list("number", "method", "byes")) == rounds
    assert (event.name, event.options, event.rounds) == ("Spring Cup", {"stake": "0.50"}, 3)
