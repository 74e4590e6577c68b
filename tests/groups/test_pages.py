"""A group's pages over HTTP (issue 20, items 3 and 4): start a group, start its tables and play
again in one tap, record and void payments, and trace every balance to its tables and payments.
Bad input is said in the reader's language and stores nothing."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.test import Client

from ledger.groups import selectors, services
from ledger.groups.models import Group, Payment
from ledger.models import Player, TableSession
from ledger.tables import services as table_services
from tests.phones import i_am

# both_databases on the tests that read balances, points or statistics the database sums, send a
# payment's form twice (once per key) or void one twice, or ask for a period at the calendar's
# ends. The forms' refusals, the links, the lists' pages and the wording run once.

THREE = ["Anna", "Bob", "Celine"]


def hand(a: int, b: int, c: int) -> dict:
    return {"results": {"Anna": {"pips": a}, "Bob": {"pips": b}, "Celine": {"pips": c}}}


@pytest.fixture
def organiser(db) -> Client:
    return Client()


def start_group(client: Client, **fields: str) -> Group:
    data = {"name": "Thursday teahouse", "game": "jie-long", "stake": "0.50", **fields}
    response = client.post("/groups/new/", data)
    assert response.status_code == 302, response.content.decode()
    group = Group.objects.get()
    assert response["Location"] == f"/g/{group.token}/"
    return group


def start_table(client: Client, group: Group, seating: list[str], **fields: str) -> TableSession:
    data = {"game": "jie-long", "first": "0", **fields}
    data.update({f"player_{i}": name for i, name in enumerate(seating)})
    response = client.post(f"/g/{group.token}/tables/new/", data)
    assert response.status_code == 302, response.content.decode()
    table = TableSession.objects.get(token=response["Location"].split("/")[2])
    return table


def test_a_group_starts_with_a_name_and_its_usual_game(organiser):
    assert organiser.get("/groups/new/").status_code == 200
    group = start_group(organiser)
    assert (group.name, group.game, group.options, group.plays_for) == (
        "Thursday teahouse",
        "jie-long",
        {},
        {"stake": "0.50"},  # at every game (issue 47)
    )
    page = organiser.get(f"/g/{group.token}/").content.decode()
    assert "Thursday teahouse" in page
    assert f"/g/{group.token}/organise/{group.organiser_token}/" in page  # the starter organises
    assert "<svg" in page  # the link's QR code, drawn here
    # Another phone with the link sees the group, without the organiser's link.
    other = Client().get(f"/g/{group.token}/").content.decode()
    assert "Thursday teahouse" in other and group.organiser_token not in other


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"name": "  "}, "name", "This field is required."),
        ({"stake": "-1"}, "stake", "stake"),
        ({"game": "chess"}, "game", "Select a valid choice"),
    ],
)
def test_a_group_refused_says_why_and_stores_nothing(organiser, fields, field, message):
    data = {"name": "Club", "game": "jie-long", **fields}
    response = organiser.post("/groups/new/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Group.objects.exists()


def test_a_group_refused_is_said_in_the_readers_language(organiser):
    response = organiser.post(
        "/groups/new/",
        {"name": "Club", "game": "jie-long", "stake": "-1"},
        HTTP_ACCEPT_LANGUAGE="ko",
    )
    assert response.status_code == 400
    assert re.search("[\uac00-\ud7a3]", response.content.decode())  # Hangul
    assert not Group.objects.exists()


def test_tables_of_the_group_seat_its_players_and_suggest_only_its_names(organiser):
    group = start_group(organiser)
    start_group_other = services.group_create(name="Other club", game="jie-long", options={})
    services.table_start(group=start_group_other, seating=["Zed", "Anna"], first="Zed")

    table = start_table(organiser, group, THREE)
    assert table.group == group and table.seating == THREE and table.first == "Anna"
    assert table.options == {"stake": "0.50"}  # the group's usual options
    page = organiser.get(f"/g/{group.token}/").content.decode()
    suggested = re.search(r'<datalist id="group-players">(.*?)</datalist>', page, re.S)[1]
    assert re.findall(r'value="([^"]+)"', suggested) == THREE  # not the other group's Zed
    # The group's organiser organises its tables.
    assert organiser.post(f"/t/{table.token}/lock/", {"locked": "1"}).status_code == 302
    # Another game is played by its own usual rules, for what the group plays for.
    other = start_table(organiser, group, ["Anna", "Bob", "Celine", "Dan"], game="ce-deng")
    assert other.game == "ce-deng" and other.options == {"stake": "0.50"}
    assert Player.objects.filter(group=group).count() == 4


def test_a_table_the_engine_refuses_says_why_and_stores_nothing(organiser):
    group = start_group(organiser)
    response = organiser.post(
        f"/g/{group.token}/tables/new/", {"game": "jie-long", "player_0": "Anna", "first": "draw"}
    )
    assert response.status_code == 400
    assert "player" in response.content.decode()
    assert not TableSession.objects.exists() and not Player.objects.exists()


def test_play_again_in_one_tap(organiser):
    group = start_group(organiser)
    table = start_table(organiser, group, THREE, first="1")
    response = organiser.post(f"/g/{group.token}/tables/{table.pk}/again/", {"seats": "same"})
    again = TableSession.objects.get(token=response["Location"].split("/")[2])
    assert again != table and again.seating == THREE and again.first == "Bob"
    assert again.options == table.options and again.group == group
    response = organiser.post(f"/g/{group.token}/tables/{table.pk}/again/", {"seats": "draw"})
    drawn = TableSession.objects.get(token=response["Location"].split("/")[2])
    assert sorted(drawn.seating) == sorted(THREE)
    # A table of another group is not this group's to play again.
    stranger = services.group_create(name="Other", game="jie-long", options={})
    theirs = services.table_start(group=stranger, seating=THREE, first="Anna")
    assert organiser.post(f"/g/{group.token}/tables/{theirs.pk}/again/").status_code == 404


def played(group: Group) -> TableSession:
    table = services.table_start(group=group, seating=THREE, first="Anna")
    # 0.50 a point, pairwise: Anna 2, Bob 12, Celine 20 -> Anna +14, Bob -1, Celine -13.
    table_services.hand_record(session=table, number=1, data=hand(2, 12, 20))
    return table


def pay(client: Client, group: Group, **fields: str):
    data = {"payer": "Celine", "payee": "Anna", "amount": "13", "unit": "money", "key": "k" * 16}
    return client.post(f"/g/{group.token}/payments/new/", {**data, **fields})


@pytest.mark.both_databases
def test_balances_settle_up_and_a_payment_that_squares_them(organiser):
    group = start_group(organiser)
    played(group)
    page = organiser.get(f"/g/{group.token}/").content.decode()
    assert "+14" in page and "−13" in page  # a minus sign, not a hyphen
    assert "Celine pays Anna 13" in page and "Bob pays Anna 1" in page

    assert pay(organiser, group).status_code == 302
    assert pay(organiser, group).status_code == 302  # the same form sent again: one payment
    assert pay(organiser, group, payer="Bob", amount="1", key="b" * 16).status_code == 302
    assert Payment.objects.count() == 2
    page = organiser.get(f"/g/{group.token}/").content.decode()
    assert "Everyone is square: nobody owes anything." in page
    assert "Celine paid Anna 13 (money)" in page
    assert selectors.ledger(group).money == dict.fromkeys(THREE, Decimal(0))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"amount": "-5"}, "An amount is more than 0"),
        ({"amount": "1.23456"}, "An amount is more than 0"),
        ({"amount": "abc"}, "An amount is more than 0"),
        ({"amount": ""}, "This field is required."),
        ({"payer": "Zed"}, "Zed does not play in this group."),
        ({"payee": "Celine"}, "A payment is between two players."),
        ({"unit": "gold"}, "Select a valid choice"),
        ({"note": "a\u202eb"}, "invisible or control characters"),
        ({"note": "in\u200bcash"}, "invisible or control characters"),
    ],
)
def test_a_payment_refused_says_why_and_stores_nothing(organiser, fields, message):
    group = start_group(organiser)
    played(group)
    response = pay(organiser, group, **fields)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Payment.objects.exists()


@pytest.mark.both_databases
def test_points_are_added_within_one_game_never_across_games(organiser):
    # Jie Long, where the lowest total wins, and Tiu Yu, where the highest does: the group's
    # Points column once added them (Anna 2 + 54 = 56), which says nothing (rules rev 5).
    group = start_group(organiser)
    played(group)
    fishing = services.table_start(group=group, seating=["Anna", "Bob"], first="Bob", game="tiu-yu")
    catches = {"Anna": ["6:5", "5:6", "1:4", "1:4"], "Bob": ["3:3", "1:5"]}  # 54 and 10
    data = {"results": {name: {"tiles": tiles} for name, tiles in catches.items()}}
    table_services.hand_record(session=fishing, number=1, data=data)
    every = {
        "jie-long": {"Anna": 2, "Bob": 12, "Celine": 20},
        "tiu-yu": {"Anna": 54, "Bob": 10},
    }
    assert selectors.ledger(group).points == every

    page = organiser.get(f"/g/{group.token}/").content.decode()
    head = re.search(r'<table class="balances">\s*<thead>(.*?)</thead>', page, re.S)[1]
    assert "Points" not in head  # no column adds every table's scores
    lines = dict(re.findall(r'<li data-game="([^"]+)">(.*?)</li>', page, re.S))
    assert re.sub(r"<[^>]+>", "", lines["jie-long"]) == (
        "Jie Long 接龙 (the lowest total wins): Anna 2 · Bob 12 · Celine 20"
    )
    assert re.sub(r"<[^>]+>", "", lines["tiu-yu"]) == (
        "Tiu Yu (the highest total wins): Anna 54 · Bob 10"
    )
    shown = re.sub(r"<time.*?</time>|<[^>]+>", " ", page[page.index('id="balances"') :], flags=re.S)
    assert not re.search(r"(?<![\d.,])56(?![\d.,])", shown)  # 2 + 54 nowhere (times aside)

    api = Client().get(f"/api/v1/groups/{group.token}/").json()["points"]
    assert api == every
    download = Client().get(f"/g/{group.token}/export/balances.csv").streaming_content
    found = list(csv.reader(io.StringIO(b"".join(download).decode("utf-8-sig"))))
    assert found[0] == [
        "Player", "Money", "Hands", "Hands won", "Points (Jie Long 接龙)", "Points (Tiu Yu)",
    ]  # fmt: skip
    assert [row[-2:] for row in found[1:]] == [["2", "54"], ["12", "10"], ["20", ""]]

    anna = selectors.ledger(group).ids["Anna"]
    account = organiser.get(f"/g/{group.token}/players/{anna}/").content.decode()
    assert "Points at points-only tables" not in account
    mine = dict(re.findall(r'<li data-game="([^"]+)">(.*?)</li>', account, re.S))
    assert mine == {
        "jie-long": "Points at Jie Long 接龙: 2 (the lowest total wins)",
        "tiu-yu": "Points at Tiu Yu: 54 (the highest total wins)",
    }


KEY = re.compile(r'<input type="hidden" name="key" value="([^"]*)">')
NO_KEY = "This form came without its one-time key"


@pytest.mark.parametrize("key", [None, "", "short", "k" * 65, "not a key!"])
def test_a_payment_without_a_proper_key_is_refused_not_stored_unprotected(organiser, key):
    # The key stores a payment once however often its form is sent; without one, a retry
    # would pay twice.
    group = start_group(organiser)
    played(group)
    data = {"payer": "Celine", "payee": "Anna", "amount": "13", "unit": "money"}
    url = f"/g/{group.token}/payments/new/"
    posted = {**data, "key": key} if key is not None else data
    sent = organiser.post(url, posted)
    assert sent.status_code == 400
    assert NO_KEY in sent.content.decode()
    in_chinese = organiser.post(url, posted, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "缺少一次性编号" in in_chinese.content.decode()
    assert not Payment.objects.exists()
    # The page sent back carries a proper key of its own: sent as it is, it records.
    again = {**data, "key": KEY.search(sent.content.decode())[1]}
    assert organiser.post(f"/g/{group.token}/payments/new/", again).status_code == 302
    assert Payment.objects.get().idempotency_key == again["key"]


def test_the_group_page_s_payment_form_always_carries_a_key_of_its_own(organiser):
    group = start_group(organiser)
    played(group)
    shown = [
        organiser.get(f"/g/{group.token}/"),
        pay(organiser, group, amount="lots"),  # refused: the form again
        pay(organiser, group, key="x" * 16, note="a\u202eb"),
    ]
    keys = [KEY.search(page.content.decode())[1] for page in shown]
    assert all(re.fullmatch(r"[\w-]{8,64}", key, re.ASCII) for key in keys)
    assert len(set(keys)) == len(keys) and "x" * 16 not in keys
    assert NO_KEY not in "".join(page.content.decode() for page in shown)


@pytest.mark.both_databases
def test_only_the_organiser_voids_a_payment_and_it_stays_on_record(organiser):
    group = start_group(organiser)
    played(group)
    pay(organiser, group)
    payment = Payment.objects.get()
    member = Client()
    assert member.post(f"/g/{group.token}/payments/{payment.pk}/void/").status_code == 403
    i_am(organiser, group, "Anna")
    void = f"/g/{group.token}/payments/{payment.pk}/void/"
    assert organiser.post(void, {"reason": " counted  twice "}).status_code == 302
    assert organiser.post(void).status_code == 409
    # The payment is kept as it was; its void is a row of its own: who, when, why.
    stored = Payment.objects.select_related("void").get()
    assert (stored.amount, stored.payer, stored.payee) == (
        payment.amount,
        payment.payer,
        payment.payee,
    )
    assert (stored.void.device, stored.void.reason) == ("Anna", "counted twice")
    assert stored.voided == stored.void.at
    assert selectors.ledger(group).money["Celine"] == Decimal(-13)
    assert "voided: counted twice" in member.get(f"/g/{group.token}/").content.decode()
    # The organiser link gives another phone the same rights; a wrong one is no link.
    phone = Client()
    bad = f"/g/{group.token}/organise/{'x' * 22}/"
    assert phone.get(bad).status_code == 404
    assert phone.get(f"/g/{group.token}/organise/{group.organiser_token}/").status_code == 302
    pay(phone, group, key="n" * 16)
    again = Payment.objects.filter(void=None).get()
    assert phone.post(f"/g/{group.token}/payments/{again.pk}/void/").status_code == 302


@pytest.mark.both_databases
def test_a_players_account_traces_their_balance_to_tables_and_payments(organiser):
    group = start_group(organiser)
    first = played(group)
    second = played(group)
    pay(organiser, group, amount="6.50")
    celine = Player.objects.get(group=group, name="Celine")
    page = organiser.get(f"/g/{group.token}/players/{celine.pk}/").content.decode()
    for table in (first, second):
        assert f"/t/{table.token}/summary/" in page
    assert page.count("−13") >= 2  # each table
    assert "Celine paid Anna 6.50 (money)" in page
    assert "−19.50" in page  # -13 - 13 + 6.50: the balance the group's page shows
    assert "−19.50" in organiser.get(f"/g/{group.token}/").content.decode()
    # Another group's player is not found here.
    other = services.group_create(name="Other", game="jie-long", options={})
    stranger = services.table_start(group=other, seating=["Zed", "Yan"], first="Zed")
    zed = stranger.seats.first().player
    assert organiser.get(f"/g/{group.token}/players/{zed.pk}/").status_code == 404


SIGNED_CELL = re.compile(r'<td class="num (?:plus|minus|zero)">([+−]?[\d.]+)</td>')


def signed(text: str) -> Decimal:
    """An amount as a page shows it, with a minus sign (U+2212), as a number."""
    return Decimal(text.replace("−", "-"))


@pytest.mark.both_databases
def test_a_players_account_lines_add_up_to_its_balance_a_voided_payment_not_counted(organiser):
    group = start_group(organiser)
    played(group)
    played(group)  # Celine -13 at each
    pay(organiser, group, amount="6.50")  # Celine pays: +6.50 on her account
    pay(organiser, group, payer="Bob", payee="Celine", amount="1", key="b" * 16)  # -1
    pay(organiser, group, amount="3", key="v" * 16)
    voided = Payment.objects.get(amount=3)
    assert organiser.post(f"/g/{group.token}/payments/{voided.pk}/void/").status_code == 302
    celine = Player.objects.get(group=group, name="Celine")

    page = organiser.get(f"/g/{group.token}/players/{celine.pk}/").content.decode()

    lines = [signed(text) for text in SIGNED_CELL.findall(page)]
    balance = signed(re.search(r"Money: <strong[^>]*>([+−]?[\d.]+)</strong>", page)[1])
    assert sorted(lines) == [Decimal(-13), Decimal(-13), Decimal(-1), Decimal("6.50")]
    assert sum(lines) == balance == Decimal("-20.50")
    assert balance == selectors.ledger(group).money["Celine"]
    row = re.search(rf'<tr id="payment-{voided.pk}" class="voided">(.*?)</tr>', page, re.S)[1]
    assert "voided" in row and "<del>3</del> not counted" in row


@pytest.mark.both_databases
def test_counts_agree_with_their_nouns_in_every_language(organiser):
    group = start_group(organiser)
    played(group)
    ids = dict(Player.objects.filter(group=group).values_list("name", "pk"))
    url = f"/g/{group.token}/statistics/"
    query = {"period": "all", "a": ids["Anna"], "b": ids["Bob"]}

    def pair(language: str) -> str:
        page = organiser.get(url, query, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        return re.search(r'<p id="pair">(.*?)</p>', page)[1]

    one = {language: pair(language) for language in ("en", "zh-hans", "ko")}
    played(group)
    played(group)
    three = {language: pair(language) for language in ("en", "zh-hans", "ko")}
    assert (one["en"], three["en"]) == (
        "1 hand together, at 1 table.",
        "3 hands together, at 3 tables.",
    )
    assert (one["zh-hans"], three["zh-hans"]) == (
        "同桌打了 1 局，共 1 桌。",
        "同桌打了 3 局，共 3 桌。",
    )
    assert (one["ko"], three["ko"]) == (
        "함께 1판, 테이블 1개에서 쳤습니다.",
        "함께 3판, 테이블 3개에서 쳤습니다.",
    )


def test_unknown_links_are_404(db):
    client = Client()
    assert client.get(f"/g/{'a' * 22}/").status_code == 404
    assert client.post(f"/g/{'a' * 22}/payments/new/", {}).status_code == 404


def test_a_groups_links_are_random_128_bits_each(organiser):
    """docs/groups.md: the group's link is random (128 bits), and without it the group cannot
    be found; nor can it from its organiser's link, or another group's."""
    groups = [
        start_group(organiser),
        *(services.group_create(name=f"Club {n}", game="jie-long", options={}) for n in (2, 3)),
    ]
    tokens = [token for group in groups for token in (group.token, group.organiser_token)]
    assert len(set(tokens)) == len(tokens)
    for token in tokens:  # 16 random bytes, URL-safe base64 without padding
        assert re.fullmatch(r"[A-Za-z0-9_-]{22}", token)
    one = groups[0]
    assert organiser.get(f"/g/{one.token}/").status_code == 200
    assert Client().get(f"/g/{one.organiser_token}/").status_code == 404
    assert Client().get(f"/api/v1/groups/{one.organiser_token}/").status_code == 404


@pytest.mark.both_databases
def test_the_statistics_page_for_a_period_with_ratings_and_head_to_head(organiser):
    group = start_group(organiser)
    played(group)
    played(group)
    url = f"/g/{group.token}/statistics/"
    page = organiser.get(url).content.decode()
    # Anna won both hands of both tables: 2 of 2, an average of 2 pips; first, by what she won.
    anna = re.search(r'<ol id="ranking"[^>]*>\s*<li id="player-(\d+)">(.*?)</li>', page, re.S)
    assert Player.objects.get(pk=anna[1]).name == "Anna"
    figures = re.sub(r"<[^>]+>", "", re.search(r'<p class="figures">(.*?)</p>', anna[2])[1])
    assert figures == "2 hands, 2 won (100%), average score 2.00"
    assert 'id="ratings-list"' in page and 'class="chart"' in page
    ids = dict(Player.objects.filter(group=group).values_list("name", "pk"))
    page = organiser.get(url, {"period": "month", "a": ids["Anna"], "b": ids["Celine"]})
    assert page.status_code == 200
    assert "2 hands together, at 2 tables." in page.content.decode()
    # Nothing played in the period: nothing counted, and said.
    page = organiser.get(url, {"period": "between", "start": "2020-01-01", "end": "2020-01-31"})
    assert "No money tables in this period." in page.content.decode()


@pytest.mark.both_databases
@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai", "Etc/GMT+12"])
@pytest.mark.parametrize(
    ("start", "end", "hands"),
    [("0001-01-01", "9999-12-31", 1), ("0001-01-01", "0001-01-01", 0), ("", "9999-12-31", 1)],
)
def test_a_period_at_the_calendar_s_ends_is_answered(organiser, settings, zone, start, end, hands):
    # East of UTC (Shanghai) the first day's midnight is before what a date can hold in UTC; the
    # last day's next midnight is past it everywhere.
    settings.TIME_ZONE = zone
    group = start_group(organiser)
    played(group)
    ids = dict(Player.objects.filter(group=group).values_list("name", "pk"))
    query = {"period": "between", "start": start, "end": end, "a": ids["Anna"], "b": ids["Bob"]}
    response = organiser.get(f"/g/{group.token}/statistics/", query)
    assert response.status_code == 200
    page = response.content.decode()
    anna = re.search(rf'<li id="player-{ids["Anna"]}">(.*?)</li>', page, re.S)[1]
    assert re.search(r'data-figure="hands">(\d+) hands?<', anna)[1] == str(hands)
    assert re.search(r'data-figure="tables">(\d+)<', anna)[1] == ("1" if hands else "0")
    assert re.search(rf'<p id="pair">{hands} hands? together', page)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (
            {"period": "between", "start": "2026-12-01", "end": "2026-01-01"},
            "The first day comes after the last.",
        ),
        ({"period": "between"}, "Give the first day, the last day, or both."),
        ({"period": "between", "start": "31/31/2026"}, "Enter a valid date."),
        ({"period": "decade"}, "Select a valid choice"),
        ({"a": "x"}, "Enter a whole number."),
    ],
)
def test_a_period_that_cannot_be_says_why(organiser, query, message):
    group = start_group(organiser)
    response = organiser.get(f"/g/{group.token}/statistics/", query)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_the_group_page_lists_the_latest_tables_and_all_are_a_tap_away(organiser):
    group = start_group(organiser)
    started = [services.table_start(group=group, seating=THREE, first="Anna") for _ in range(12)]
    page = organiser.get(f"/g/{group.token}/").content.decode()
    assert page.count('<li id="table-') == 10 and f'id="table-{started[-1].pk}"' in page
    assert "All 12 tables" in page
    every = organiser.get(f"/g/{group.token}/tables/").content.decode()
    assert every.count('<li id="table-') == 12
    assert organiser.get(f"/g/{group.token}/tables/", {"page": "99"}).status_code == 200


def test_a_tables_page_leads_back_to_its_group_for_its_members(organiser):
    group = start_group(organiser)
    table = start_table(organiser, group, THREE)
    page = organiser.get(f"/t/{table.token}/").content.decode()
    assert f'href="/g/{group.token}/"' in page and 'id="group-line"' in page
    # Play again from the table, in one tap.
    response = organiser.post(f"/g/{group.token}/tables/{table.pk}/again/", {"seats": "same"})
    assert response.status_code == 302
    # The read-only link learns nothing of the group (tests/groups/test_belonging.py: a
    # player's link makes its phone a member).
    shared = Client().get(f"/s/{table.read_token}/").content.decode()
    assert group.token not in shared and "Thursday teahouse" not in shared


def test_the_group_page_lists_the_latest_payments_and_all_are_a_tap_away(organiser):
    group = start_group(organiser)
    played(group)
    for i in range(12):
        services.payment_record(group=group, payer="Celine", payee="Anna", amount=str(i + 1))
    page = organiser.get(f"/g/{group.token}/").content.decode()
    assert page.count('<li id="payment-') == 10 and "All 12 payments" in page
    assert "Celine paid Anna 12 (money)" in page and "Celine paid Anna 1 (money)" not in page
    every = organiser.get(f"/g/{group.token}/payments/").content.decode()
    assert every.count('<li id="payment-') == 12
    assert organiser.get(f"/g/{group.token}/payments/", {"page": "x"}).status_code == 200


def test_every_payment_is_a_page_or_two_away(organiser):
    group = start_group(organiser)
    played(group)
    for i in range(51):
        services.payment_record(group=group, payer="Celine", payee="Anna", amount=str(i + 1))
    first = organiser.get(f"/g/{group.token}/payments/").content.decode()
    assert first.count('<li id="payment-') == 50 and 'rel="next"' in first
    assert "Newest first: page 1 of 2." in first and 'rel="prev"' not in first
    second = organiser.get(f"/g/{group.token}/payments/", {"page": "2"}).content.decode()
    assert second.count('<li id="payment-') == 1 and 'rel="prev"' in second
    assert "Celine paid Anna 1 (money)" in second
