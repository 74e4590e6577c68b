"""CSV exports keep names from running as formulas in a spreadsheet (docs/exports.md)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger.events import services as event_services
from ledger.models import Event, Player, TableSession
from ledger.tables import services
from ledger.web.exports import HEADERS

HYPERLINK = '=HYPERLINK("http://evil","x")'
FORMULAS = ["=1+1", "@SUM(A1)", "+1", "-2+3", "\tx", "\rx", HYPERLINK]
STAKE = {"stake": "0.50"}  # half a pip: fractional amounts, "-2.50" among them


# A page's download names its columns in the reader's language; these tests read them by key.
KEY_OF = {str(label): key for key, label in HEADERS.items()}


def _keys(header: list[str]) -> list[str]:
    return [KEY_OF.get(column, column) for column in header]


def _body(response) -> str:
    assert response.status_code == 200
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeff")
    return body[1:]


def _number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def _assert_neutralised(body: str, names: list[str]) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(body)))
    cells = {cell for row in rows for cell in row}
    for name in names:
        assert "'" + name in cells and name not in cells
    # Nothing a spreadsheet would run: text that starts like a formula is prefixed; only
    # numbers start with a minus sign.
    assert all(_number(cell) for cell in cells if cell.startswith(("=", "+", "-", "@", "\t", "\r")))
    for name in names:
        if any(char in name for char in ',"\r'):  # quoted whole, its quotes doubled: one cell
            assert '"' + ("'" + name).replace('"', '""') + '"' in body
    return rows


def _negative_numbers(rows: list[list[str]], column: str) -> list[str]:
    at = _keys(rows[0]).index(column)
    negative = [row[at] for row in rows[1:] if row[at].startswith("-")]
    assert negative and all(_number(cell) for cell in negative)
    return negative


def _play(table: TableSession, *hands: tuple[int, ...]) -> None:
    """Record ``hands``: each seat's pips in seating order, the first seat leading."""
    seating = table.seating
    for pips in hands:
        results = {name: {"pips": p} for name, p in zip(seating, pips, strict=True)}
        data = {"first": seating[0], "direction": "ccw", "results": results}
        services.hand_record(session=table, number=table.hands.count() + 1, data=data)


def _as_stored(names: dict[str, str]) -> None:
    """Rename players as an imported backup may hold them: the forms fold whitespace, so a
    name beginning with a tab or a carriage return arrives only by such means."""
    for name, stored in names.items():
        assert Player.objects.filter(name=name).update(name=stored) == 1


@pytest.fixture
def formula_tables(db) -> list[TableSession]:
    tables = []
    for seating in (["=1+1", "@SUM(A1)", "+1", "Tab"], ["-2+3", HYPERLINK, "Anna", "CR"]):
        tables.append(
            services.session_create(
                game="ce-deng", options=STAKE, seating=seating, first=seating[0]
            )
        )
    _as_stored({"Tab": "\tx", "CR": "\rx"})
    tables = [TableSession.objects.get(pk=table.pk) for table in tables]  # read as renamed
    for table in tables:
        _play(table, (2, 12, 34, 18), (3, 12, 34, 18))
    return tables


@pytest.mark.parametrize(
    ("kind", "amounts"),
    [("hands", "net"), ("payments", "amount"), ("settle-up", "amount"), ("totals", "net")],
)
def test_table_exports_prefix_names_that_look_like_formulas_and_keep_amounts_numbers(
    client, formula_tables, kind, amounts
):
    for table in formula_tables:
        export = client.get(reverse("export", args=[table.token, kind]))

        rows = _assert_neutralised(_body(export), [n for n in table.seating if n != "Anna"])
        at = _keys(rows[0]).index(amounts)
        assert all(_number(row[at]) for row in rows[1:])  # every amount, none prefixed
        if kind == "hands":
            assert "-2.50" in _negative_numbers(rows, "net")  # a fractional loss, as written


def test_amounts_as_scoring_writes_them_stay_plain_numbers(client, formula_tables):
    # As a program reads it (the API's download): the direction as its code.
    api = f"/api/v1/sessions/{formula_tables[0].token}/export/hands.csv"
    body = _body(client.get(api))

    assert "\r\n1,,'=1+1,ccw,,'+1,3,3,34,,4,-35\r\n" in body
    assert ",-2.50\r\n" in body  # not prefixed, not quoted: a spreadsheet adds it up


@pytest.fixture
def formula_event(client, db) -> Event:
    """An event whose players registered themselves through its public link."""
    event = event_services.event_create(
        name="Open night", game="jie-long", options=STAKE, rounds=1, seed="formulas"
    )
    register = reverse("event_register", args=[event.register_token])
    for name in [*FORMULAS[:4], HYPERLINK, "Tab", "CR", "P1", "P2", "P3", "P4", "P5"]:
        assert client.post(register, {"name": name}).status_code == 200
    assert event.entries.count() == 12
    # Not "\tx" and "\rx": one name to the rules ("x"), so one player in the standings.
    _as_stored({"Tab": "\tTab", "CR": "\rCR"})
    played = event_services.round_begin(round=event_services.round_seat(event=event))
    for table in played.tables.all():
        _play(table, (2, 12, 34, 18), (3, 12, 34, 17))
    return event


@pytest.mark.parametrize(("kind", "amounts"), [("standings", "net"), ("settlements", "amount")])
def test_event_exports_prefix_names_registered_through_the_public_link(
    client, formula_event, kind, amounts
):
    export = client.get(reverse("event_export", args=[formula_event.read_token, kind]))

    rows = _assert_neutralised(_body(export), [*FORMULAS[:4], HYPERLINK, "\tTab", "\rCR"])
    at = _keys(rows[0]).index(amounts)
    assert all(_number(row[at]) for row in rows[1:])
    if kind == "standings":
        _negative_numbers(rows, "net")
        assert sum(float(row[at]) for row in rows[1:]) == 0  # a spreadsheet adds them up


# -- totals.csv ------------------------------------------------------------------------------

TOTALS = ["place", "player", "seat", "points", "hands_won", "net", "end"]


def _rows(client, table: TableSession, kind: str = "totals", *, shared: bool = False):
    url = (
        reverse("shared_export", args=[table.read_token, kind])
        if shared
        else reverse("export", args=[table.token, kind])
    )
    rows = list(csv.reader(io.StringIO(_body(client.get(url)))))
    return [_keys(rows[0]), *rows[1:]]


def _record_results(table: TableSession, *hands: dict[str, int]) -> None:
    """Record hands given as each player's pips, the rules deciding who leads."""
    for pips in hands:
        results = {name: {"pips": p} for name, p in pips.items()}
        number = table.hands.count() + 1
        services.hand_record(session=table, number=number, data={"results": results})


def test_totals_of_a_points_only_table_rank_by_points_then_hands_won_then_seat(client, db):
    table = services.session_create(
        game="jie-long", options={"stake": "0"}, seating=["A", "B", "C"], first="A"
    )
    # Level on 14 points each: B and C won a hand, A none; B sits before C.
    _record_results(table, {"A": 7, "B": 0, "C": 11}, {"A": 7, "B": 14, "C": 3})

    rows = _rows(client, table)

    assert rows == [
        TOTALS,
        ["1", "B", "2", "14", "1", "0", ""],
        ["2", "C", "3", "14", "1", "0", ""],
        ["3", "A", "1", "14", "0", "0", ""],
    ]
    assert _rows(client, table, shared=True) == rows


def test_totals_of_a_money_table_give_each_net_and_no_winner(client, ce_deng):
    _play(ce_deng, (2, 12, 34, 18))

    rows = _rows(client, ce_deng)

    assert [row[1] for row in rows[1:]] == ["Anna", "Bob", "Dominic", "Celine"]
    assert [row[5] for row in rows[1:]] == ["58", "18", "-6", "-70"]
    assert sum(int(row[5]) for row in rows[1:]) == 0
    assert all(row[6] == "" for row in rows[1:])


def test_totals_name_the_winner_once_the_table_has_ended_and_not_before(client, db):
    table = services.session_create(
        game="ce-deng",
        options={"stake": "0", "play_to": "60"},
        seating=["Anna", "Bob", "Celine", "Dominic"],
        first="Anna",
    )
    _record_results(table, {"Anna": 2, "Bob": 12, "Celine": 34, "Dominic": 18})
    going_on = _rows(client, table)
    _record_results(table, {"Anna": 2, "Bob": 12, "Celine": 34, "Dominic": 18})

    over = _rows(client, table)

    assert [row[6] for row in going_on[1:]] == ["", "", "", ""]  # Anna leads: no winner yet
    assert over[1:] == [
        ["1", "Anna", "1", "4", "2", "0", "winner"],
        ["2", "Bob", "2", "24", "0", "0", ""],
        ["3", "Dominic", "4", "36", "0", "0", ""],
        ["4", "Celine", "3", "68", "0", "0", ""],
    ]
    assert "Totals (CSV)" in client.get(reverse("summary", args=[table.token])).content.decode()


def test_in_a_money_game_the_place_follows_the_money(client, db):
    # Kko-li-but-i-gi: Bob scores the most points over two hands but wins the chips.
    table = services.session_create(
        game="kkoribuchigi", options={"chip": "2"}, seating=["Anna", "Bob", "Celine"], first="Anna"
    )
    _record_results(
        table, {"Anna": 20, "Bob": 4, "Celine": 30}, {"Anna": 6, "Bob": 40, "Celine": 8}
    )

    rows = _rows(client, table)

    nets = [int(row[5]) for row in rows[1:]]
    assert nets == sorted(nets, reverse=True)
    assert [row[0] for row in rows[1:]] == ["1", "2", "3"]


def test_a_points_only_table_lists_no_net_after_each_hand(client, db):
    table = services.session_create(
        game="jie-long", options={"stake": "0"}, seating=["A", "B"], first="A"
    )
    _record_results(table, {"A": 7, "B": 11})

    rows = _rows(client, table, "hands")

    assert [row[-1] for row in rows[1:]] == ["", ""]


def test_a_download_is_named_by_game_date_and_players_never_by_a_database_id(client, db):
    table = services.session_create(
        game="jie-long", options={}, seating=["Anna", "李 明", "Bob/Carl"], first="Anna"
    )
    day = timezone.localdate(table.created).isoformat()

    disposition = client.get(reverse("export", args=[table.token, "hands"]))["Content-Disposition"]

    assert disposition.startswith("attachment; filename")
    assert f"filename*=utf-8''jie-long-{day}-Anna-%E6%9D%8E-%E6%98%8E-Bob-Carl-hands.csv" in (
        disposition
    )
    # Not as a part of either name (a table numbered 6 is in "%E6", the name's bytes), nor
    # of the day or the charset (a table numbered 8 is in "utf-8").
    named = disposition.replace(day, "").replace("utf-8''", "''")
    assert str(table.pk) not in re.split(r"[-.;=\"']", named)


def test_an_event_download_is_named_by_the_event(client, db):
    event = event_services.event_create(
        name="Spring Cup: final", game="jie-long", options={}, rounds=1
    )
    url = reverse("event_export", args=[event.read_token, "standings"])
    assert client.get(url)["Content-Disposition"] == (
        'attachment; filename="Spring-Cup-final-standings.csv"'
    )


def test_a_download_from_the_page_speaks_the_readers_language_and_the_apis_stays_keys(client, db):
    table = services.session_create(
        game="ce-deng", options={}, seating=["Anna", "Bob", "Celine", "Dominic"], first="Anna"
    )
    data = {"results": {"Anna": {"pips": 0}, "Bob": {"pips": 12}, "Celine": {"pips": 34},
                        "Dominic": {"pips": 18}}}  # fmt: skip
    services.hand_record(session=table, number=1, data=data)

    page = client.get(
        reverse("export", args=[table.token, "hands"]), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    api = client.get(f"/api/v1/sessions/{table.token}/export/hands.csv")

    readable = list(csv.reader(io.StringIO(_body(page))))
    keys = list(csv.reader(io.StringIO(_body(api))))
    assert readable[0][:3] == ["局", "作废", "先出"] or readable[0] != keys[0]
    assert "玩家" in readable[0] and "player" not in readable[0]
    assert readable[1][readable[0].index("特殊结果")] == "通"  # Anna's 0: a pass, by its name
    assert keys[0][:3] == ["hand", "voided", "first"] and keys[1][9] == "pass"


def test_the_rules_a_table_plays_are_exported_with_every_option_of_its_game(client, db):
    table = services.session_create(
        game="jie-long",
        options={"payment": "chips", "chip": "2", "ties": "lower_total"},
        seating=["Anna", "Bob"],
        first="Anna",
    )
    api = f"/api/v1/sessions/{table.token}/export/rules.csv"

    rows = list(csv.reader(io.StringIO(_body(client.get(api)))))
    page = list(csv.reader(io.StringIO(_body(
        client.get(reverse("export", args=[table.token, "rules"]), HTTP_ACCEPT_LANGUAGE="zh-hans")
    ))))  # fmt: skip

    assert rows[0] == ["option", "value", "usual"]
    played = {option: (value, usual) for option, value, usual in rows[1:]}
    assert played["payment"] == ("chips", "") and played["ties"] == ("lower_total", "")
    assert played["chip"] == ("2", "") and played["stake"] == ("1", "yes")
    assert played["next_first"] == ("winner", "yes") and "chi_tsun" not in played
    assert ["付款方式", "输家各付赢家一个筹码", ""] in page
