"""Every reader of money reads the rows (issue 46, item 1): the table page, the hand pages,
the summary, the live part, the API's hands and sessions, every CSV, the share text and a
tournament's payments show what the result rows and the hands keep, and never ask the engine.

Two ways to see it. Rows changed behind the ledger's back (the database's guards switched off,
as an operator's psql session could: tests/tampering.py) are what every one of them shows,
and ``ledger_verify`` names the hand; and with the engine's entry points made to raise, every
one of them answers.
"""

from __future__ import annotations

import csv
import io
import json
from collections import defaultdict
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

import scoring
import scoring.session
from ledger.events import services as event_services
from ledger.models import Event, Hand, Player, Result, TableSession
from ledger.tables import services
from ledger.web import display
from tests.tables.conftest import SEATING, plain_hand
from tests.tampering import guards_off


def _body(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return b"".join(response.streaming_content).decode("utf-8").lstrip("\ufeff")


def _csv(client: Client, url: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(_body(client, url))))


def _tournament_table() -> tuple[Event, TableSession]:
    """A one-table tournament of Ce Deng at a stake of 0.50, its table's hands 1 and 2 played."""
    event = event_services.event_create(
        name="Swap night", game="ce-deng", options={"stake": "0.50"}, rounds=1, seed="swap"
    )
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    begun = event_services.round_begin(round=event_services.round_seat(event=event))
    table = begun.tables.get()
    first = table.first
    services.hand_record(session=table, number=1, data=plain_hand(first=first))
    following = TableSession.objects.get(pk=table.pk)
    services.hand_record(
        session=following, number=2, data=plain_hand(first=first, direction="cw", Bob=14)
    )
    return event, TableSession.objects.get(pk=table.pk)


def _swap(table: TableSession, number: int, one: str, other: str) -> None:
    """Swap ``one``'s and ``other``'s outcome of hand ``number`` in its standing rows, as a
    person with the database's password could: each one's net, what each won from whom and
    each payment they made, the two names traded within them, so that the hand still sums to
    zero. With the database's guards off: none of them sees it."""
    ids = dict(Player.objects.filter(seats__session=table).values_list("name", "pk"))
    a, b = str(ids[one]), str(ids[other])

    def traded(pk: str) -> str:
        return {a: b, b: a}.get(str(pk), str(pk))

    rows = {
        row.player_id: row
        for row in Result.objects.filter(hand__session=table, hand__number=number).standing()
    }
    # Every row's flows and payments with the two names traded; then the two rows' outcomes
    # swapped: so each payment of the hand is as it was, but for who made or took it.
    outcomes = {
        player: {
            "net": row.net,
            "won_from": {traded(pk): value for pk, value in row.won_from.items()},
            "paid": [{**item, "to": int(traded(item["to"]))} for item in row.paid],
        }
        for player, row in rows.items()
    }
    mine, theirs = ids[one], ids[other]
    outcomes[mine], outcomes[theirs] = outcomes[theirs], outcomes[mine]
    swapped = {rows[player].pk: fields for player, fields in outcomes.items()}
    with guards_off():
        for pk, fields in swapped.items():
            Result.objects.filter(pk=pk).update(**fields)


# What is stored, and which guards a write behind the ledger's back must pass, is each
# database's own (on PostgreSQL, with its triggers switched off, the swap commits).
@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_after_a_balanced_swap_of_two_nets_every_reader_shows_it_and_verify_names_the_hand():
    event, table = _tournament_table()
    client = Client()
    engine = {row["player"]: row["net"] for row in _api_hands(client, table) if row["hand"] == "1"}
    _swap(table, 1, "Anna", "Celine")

    # What the rows now say of each player's net in each hand, and of hand 1's payments.
    nets: dict[tuple[int, str], Decimal] = {}
    for number, name, net in (
        Result.objects.filter(hand__session=table)
        .standing()
        .values_list("hand__number", "player__name", "net")
    ):
        nets[number, name] = net
    assert nets[1, "Anna"] == Decimal(engine["Celine"]) != Decimal(engine["Anna"])
    assert nets[1, "Celine"] == Decimal(engine["Anna"])

    # hands.csv, as a program reads it, and as a person downloads it from a page
    hands = _api_hands(client, table)
    assert {(int(r["hand"]), r["player"]): Decimal(r["net"]) for r in hands} == nets
    worded = list(
        csv.reader(io.StringIO(_body(client, reverse("export", args=[table.token, "hands"]))))
    )
    assert [row[-1] for row in worded[1:]] == [row["net"] for row in hands]  # the net, last
    # totals.csv is the sum of hands.csv, player by player, and what every page totals
    totals = _csv(client, f"/api/v1/sessions/{table.token}/export/totals.csv")
    summed: dict[str, Decimal] = defaultdict(Decimal)
    for (_, name), net in nets.items():
        summed[name] += net
    assert {row["player"]: Decimal(row["net"]) for row in totals} == summed
    # payments.csv and the tournament's: hand 1's payments, the two names traded
    paid = _csv(client, f"/api/v1/sessions/{table.token}/export/payments.csv")
    in_hand_1 = [(r["from"], r["to"], Decimal(r["amount"])) for r in paid if r["hand"] == "1"]
    _assert_nets(in_hand_1, {name: net for (n, name), net in nets.items() if n == 1})
    settled = _csv(client, f"/api/v1/results/{event.read_token}/settlements.csv")
    assert [(r["from"], r["to"], Decimal(r["amount"])) for r in settled if r["hand"] == "1"] == (
        in_hand_1
    )
    # the hand's API answer, the session's, the shared one
    answer = client.get(f"/api/v1/sessions/{table.token}/hands/1/").json()
    assert {name: Decimal(v) for name, v in answer["result"]["net"].items()} == {
        name: net for (n, name), net in nets.items() if n == 1
    }
    payments = [(p["from"], p["to"], Decimal(p["amount"])) for p in answer["result"]["payments"]]
    assert payments == in_hand_1
    session = client.get(f"/api/v1/sessions/{table.token}/").json()
    assert {row["name"]: Decimal(row["net"]) for row in session["standings"]} == summed
    shared = client.get(f"/api/v1/shared/{table.read_token}/").json()
    assert shared["standings"] == session["standings"]
    # the table page (its latest hands, its totals), the hand's page, the summary
    page = client.get(reverse("table", args=[table.token])).content.decode()
    hand_1 = _between(page, 'id="hand-1"', "</li>")
    assert f"Anna {_money(nets[1, 'Anna'])}" in hand_1
    assert f"Celine {_money(nets[1, 'Celine'])}" in hand_1
    scoreboard = _between(page, 'id="scoreboard"', "</table>")
    assert all(_money(total) in scoreboard for total in summed.values())
    detail = client.get(reverse("hand_detail", args=[table.token, 1])).content.decode()
    assert _money(nets[1, "Anna"]) in _between(detail, "<td>Anna</td>", "</tr>")
    summary = client.get(reverse("summary", args=[table.token])).content.decode()
    row_1 = _between(summary, '<tr id="hand-1">', "</tr>")
    assert [_money(nets[1, name]) in row_1 for name in SEATING] == [True] * 4
    assert _order_in(row_1, [_money(nets[1, name]) for name in table.seating])
    # and ledger_verify names the hand, its players' nets and their totals
    said = StringIO()
    with pytest.raises(SystemExit) as failed:
        call_command("ledger_verify", stdout=said, stderr=said)
    assert failed.value.code == 1
    lines = said.getvalue().splitlines()
    assert any("hand 1, Anna: stored net" in line for line in lines), lines
    assert any("hand 1, Celine: stored net" in line for line in lines), lines
    assert not any("hand 2" in line for line in lines), lines


def _api_hands(client: Client, table: TableSession) -> list[dict[str, str]]:
    return _csv(client, f"/api/v1/sessions/{table.token}/export/hands.csv")


def _assert_nets(payments: list[tuple[str, str, Decimal]], nets: dict[str, Decimal]) -> None:
    """``payments`` net to ``nets``: what a hand's payments show is what its rows say."""
    netted: dict[str, Decimal] = dict.fromkeys(nets, Decimal(0))
    for payer, payee, amount in payments:
        netted[payer] -= amount
        netted[payee] += amount
    assert netted == nets


def _between(page: str, start: str, end: str) -> str:
    at = page.index(start)
    return page[at : page.index(end, at)]


def _order_in(text: str, parts: list[str]) -> bool:
    at = 0
    for part in parts:
        at = text.find(part, at)
        if at < 0:
            return False
    return True


def _money(value: Decimal) -> str:
    return display.money(value)


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_a_hand_whose_next_leader_was_changed_behind_the_ledger_is_named_by_verify():
    _, table = _tournament_table()
    hand = Hand.objects.get(session=table, number=2)
    other = Player.objects.filter(seats__session=table).exclude(pk=hand.next_first_id).first()
    with guards_off():
        Hand.objects.filter(pk=hand.pk).update(next_first=other)

    page = Client().get(reverse("table", args=[table.token])).content.decode()
    assert f'data-next-first="{other.name}"' in page  # what the hand keeps, not the engine
    said = StringIO()
    with pytest.raises(SystemExit):
        call_command("ledger_verify", stdout=said, stderr=said)
    assert "hand 2: keeps led by" in said.getvalue()
    assert f"{other.name} next" in said.getvalue()


def _raise(*args: object, **kwargs: object) -> None:
    raise AssertionError("a reader asked the engine")


@pytest.fixture
def played(db) -> tuple[Event, TableSession, TableSession]:
    """A tournament's Ce Deng table with a tail-eight that the pips prove, a redeal, a
    correction and a void, locked (so its page shares it); and a lone table played to a
    target and over. Played before the engine is taken away."""
    event, table = _tournament_table()
    first = table.first
    services.hand_record(session=table, number=3, data={"redeal": first})
    # 80 pips of a player who did not lead can only be all 8 tiles: a tail-eight
    tail = next(name for name in SEATING if name != first)
    services.hand_record(session=table, number=4, data=plain_hand(first=first, **{tail: 80}))
    services.hand_record(session=table, number=5, data=plain_hand(first=first, direction="cw"))
    services.hand_correct(session=table, number=2, data=plain_hand(first=first, Bob=16), version=1)
    services.hand_void(session=table, number=5, version=1)
    services.table_lock(session=table, locked=True)
    ended = services.session_create(
        game="jie-long", options={"play_to": 30}, seating=SEATING, first="Anna"
    )
    services.hand_record(session=ended, number=1, data=plain_hand())
    return event, TableSession.objects.get(pk=table.pk), TableSession.objects.get(pk=ended.pk)


def test_no_page_api_answer_export_share_or_tournament_payment_asks_the_engine(
    client, played, monkeypatch
):
    event, table, ended = played
    for module in (scoring, scoring.session):
        monkeypatch.setattr(module, "score_session", _raise)
        monkeypatch.setattr(module, "explain", _raise)

    pages = []
    for session in (table, ended):
        token, read = session.token, session.read_token
        pages += [
            reverse("table", args=[token]),
            reverse("table", args=[token]) + "?saved=1",
            reverse("table", args=[token]) + "?changed=2",
            reverse("live", args=[token]),
            reverse("hand_detail", args=[token, 1]),
            reverse("summary", args=[token]),
            reverse("shared", args=[read]),
            *(reverse("export", args=[token, kind]) for kind in EXPORTS),
            *(reverse("shared_export", args=[read, kind]) for kind in EXPORTS),
            f"/api/v1/sessions/{token}/",
            f"/api/v1/sessions/{token}/hands/",
            f"/api/v1/sessions/{token}/hands/1/",
            f"/api/v1/shared/{read}/",
            *(f"/api/v1/sessions/{token}/export/{kind}.csv" for kind in EXPORTS),
        ]
    pages += [
        reverse("hand_detail", args=[table.token, 3]),  # the redeal
        reverse("hand_detail", args=[table.token, 4]),  # the tail-eight
        reverse("hand_detail", args=[table.token, 5]),  # the void
        reverse("table", args=[table.token]) + "?saved=4",
        reverse("event_export", args=[event.read_token, "settlements"]),
        f"/api/v1/results/{event.read_token}/settlements.csv",
        reverse("event_results", args=[event.read_token]),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)

    saved = client.get(reverse("table", args=[table.token]) + "?saved=4").content.decode()
    tail = next(name for name in SEATING if name != table.first)
    assert f"{tail}&#x27;s 80 pips need 8 tiles, so {tail} has tail-eight 尾八" in saved
    shared = _between(saved, '<textarea id="share-text"', "</textarea>")  # locked: it shares
    assert all(name in shared for name in SEATING)
    over = client.get(reverse("table", args=[ended.token])).content.decode()
    assert "Game over: Anna wins." in over
    asked = client.post(reverse("hand_void", args=[table.token, 1]))  # asked first: a read
    assert asked.status_code in (200, 403)
    assert json.loads(client.get(f"/api/v1/sessions/{ended.token}/").content)["end"]["over"]


EXPORTS = ("hands", "payments", "settle-up", "totals", "rules")
