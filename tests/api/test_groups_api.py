"""Groups through the API (issue 20, item 7): start one, start its tables, read its balances and
settle-up, record payments once per Idempotency-Key, void one as its organiser; rights for a
member, the organiser and an outsider."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from ledger.models import Payment, Player, TableSession

# both_databases on the tests that read balances the database sums, record a payment once per key,
# or void one twice. The refusals, the rights and the tables' options run once.

API = "/api/v1"
THREE = ["Anna", "Bob", "Celine"]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


@pytest.fixture
def group(api, db) -> dict:
    made = api.post(f"{API}/groups/", {"name": "Teahouse", "game": "jie-long"}, format="json")
    assert made.status_code == 201, made.content
    return made.json()


def play(api: APIClient, group: dict, scores: tuple[int, int, int], seating=THREE) -> str:
    """A table of ``group`` with its options, and one hand of ``scores``; its token."""
    body = {
        "game": "jie-long", "options": group["options"], "seating": seating,
        "first": seating[0], "group": group["token"],
    }  # fmt: skip
    table = api.post(f"{API}/sessions/", body, format="json").json()["token"]
    hand = {"results": {n: {"pips": p} for n, p in zip(seating, scores, strict=True)}}
    saved = api.post(
        f"{API}/sessions/{table}/hands/", {"number": 1, "hand": hand}, format="json",
        HTTP_IDEMPOTENCY_KEY=f"hand-{table}"[:64],
    )  # fmt: skip
    assert saved.status_code == 201, saved.content
    return table


def pay(api: APIClient, group: dict, key: str, **body: object):
    return api.post(
        f"{API}/groups/{group['token']}/payments/", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


@pytest.mark.both_databases
def test_a_group_s_tables_make_its_balances_and_settle_up(api, group):
    assert {group["name"], group["game"]} == {"Teahouse", "jie-long"} and group["tables"] == []
    table = play(api, group, (2, 12, 20))
    read = api.get(f"{API}/groups/{group['token']}/").json()
    assert read["players"] == THREE
    # Each player's id: the group's own player, whose account is /g/<token>/players/<id>/.
    ids = read["player_ids"]
    players = Player.objects.filter(group__token=group["token"])
    assert ids == dict(players.values_list("name", "pk"))
    assert read["balances"] == {"Anna": "28.00", "Bob": "-2.00", "Celine": "-26.00"}
    assert sorted((t["from"], t["to"], t["amount"]) for t in read["settle_up"]) == [
        ("Bob", "Anna", "2.00"),
        ("Celine", "Anna", "26.00"),
    ]
    assert [t["token"] for t in read["tables"]] == [table]
    # A table's document says nothing of its group.
    assert group["token"] not in api.get(f"{API}/sessions/{table}/").content.decode()


@pytest.mark.both_databases
def test_a_payment_is_recorded_once_however_often_it_is_sent(api, group):
    play(api, group, (2, 12, 20))
    first = pay(api, group, "pay-celine-1", **{"from": "Celine", "to": "Anna", "amount": "26"})
    again = pay(api, group, "pay-celine-1", **{"from": "Celine", "to": "Anna", "amount": "26"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["id"] == again.json()["id"] and Payment.objects.count() == 1
    other = pay(api, group, "pay-celine-1", **{"from": "Celine", "to": "Anna", "amount": "25"})
    assert other.status_code == 422 and Payment.objects.count() == 1
    pay(api, group, "pay-bob-0001", **{"from": "Bob", "to": "Anna", "amount": 2})
    read = api.get(f"{API}/groups/{group['token']}/").json()
    assert read["balances"] == dict.fromkeys(THREE, "0.00") and read["settle_up"] == []


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"from": "Zoe", "to": "Anna", "amount": "1"}, "from"),
        ({"from": "Bob", "to": "Bob", "amount": "1"}, "to"),
        ({"from": "Bob", "to": "Anna", "amount": "0"}, "amount"),
        ({"from": "Bob", "to": "Anna", "amount": "lots"}, "amount"),
        ({"from": "Bob", "to": "Anna"}, "amount"),
        ({"from": "Bob", "to": "Anna", "amount": "1", "unit": "beans"}, "unit"),
        # Text shown to others passes the check names do: nothing invisible, no overrides.
        ({"from": "Bob", "to": "Anna", "amount": "1", "note": "in\u200bcash"}, "note"),
        ({"from": "Bob", "to": "Anna", "amount": "1", "note": "\u202ehsac ni"}, "note"),
        ({"from": "Bob", "to": "Anna", "amount": "1", "device": "Bob\u202es phone"}, "device"),
        ({"from": "Bob", "to": "Anna", "amount": "1", "device": "\u200b"}, "device"),
    ],
)
def test_a_payment_that_cannot_be_is_refused_and_says_where(api, group, body, path):
    play(api, group, (2, 12, 20))
    refused = pay(api, group, "refused-payment", **body)
    assert refused.status_code == 400
    assert refused.json()["path"] == path
    assert not Payment.objects.exists()


def test_a_payment_needs_an_idempotency_key(api, group):
    play(api, group, (2, 12, 20))
    body = {"from": "Bob", "to": "Anna", "amount": "2"}
    refused = api.post(f"{API}/groups/{group['token']}/payments/", body, format="json")
    assert refused.status_code == 400 and refused.json()["path"] == "Idempotency-Key"


@pytest.mark.both_databases
def test_only_the_organiser_voids_a_payment_and_an_outsider_finds_nothing(api, group):
    play(api, group, (2, 12, 20))
    made = pay(api, group, "pay-bob-0001", **{"from": "Bob", "to": "Anna", "amount": 2}).json()
    url = f"{API}/groups/{group['token']}/payments/{made['id']}/void/"

    assert api.post(url).status_code == 403  # the group's link reads, but cannot void
    too_long = {"reason": "x" * 81}
    refused = api.post(
        url, too_long, format="json", HTTP_X_ORGANISER_TOKEN=group["organiser_token"]
    )
    assert refused.status_code == 400 and refused.json()["path"] == "reason"
    why = {"reason": "paid twice", "device": "Anna's phone"}
    voided = api.post(url, why, format="json", HTTP_X_ORGANISER_TOKEN=group["organiser_token"])
    assert voided.status_code == 200 and voided.json()["voided"]
    assert (voided.json()["voided_by"], voided.json()["void_reason"]) == (
        "Anna's phone",
        "paid twice",
    )
    again = api.post(url, HTTP_X_ORGANISER_TOKEN=group["organiser_token"])
    assert again.status_code == 409  # as on the web: a conflict with what is stored
    assert again.json()["error"] == "This payment was already voided."
    read = api.get(f"{API}/groups/{group['token']}/").json()
    assert read["balances"]["Bob"] == "-2.00" and read["payments"][0]["voided"]

    assert api.get(f"{API}/groups/{'x' * 22}/").status_code == 404
    assert api.post(f"{API}/groups/{'x' * 22}/payments/{made['id']}/void/").status_code == 404


def test_the_group_s_organiser_token_organises_its_tables_as_its_link_does_on_the_web(api, group):
    table = play(api, group, (2, 12, 20))
    other = api.post(f"{API}/groups/", {"name": "Other", "game": "jie-long"}, format="json").json()
    void, lock = f"{API}/sessions/{table}/hands/1/void/", f"{API}/sessions/{table}/lock/"
    tokens = {"member": "", "another group's organiser": other["organiser_token"]}
    for who, token in tokens.items():
        refused = api.post(void, {"version": 1}, format="json", HTTP_X_ORGANISER_TOKEN=token)
        assert refused.status_code == 403, who

    organiser = {"format": "json", "HTTP_X_ORGANISER_TOKEN": group["organiser_token"]}
    assert api.post(void, {"version": 1}, **organiser).status_code == 200
    assert api.post(lock, {"locked": True}, **organiser).status_code == 200
    # On the web, the group's organiser link gives the same rights over the table.
    web = Client()
    web.get(f"/g/{group['token']}/organise/{group['organiser_token']}/")
    assert web.post(f"/t/{table}/lock/", {"locked": "0"}).status_code == 302
    assert Client().post(f"/t/{table}/lock/", {"locked": "0"}).status_code == 403
    assert not TableSession.objects.get(token=table).locked


def test_a_table_for_a_group_that_does_not_exist_is_not_made(api, db):
    body = {"game": "jie-long", "seating": THREE, "first": "Anna", "group": "x" * 22}
    assert api.post(f"{API}/sessions/", body, format="json").status_code == 404
    assert not TableSession.objects.exists()


def test_a_group_with_a_name_or_rules_that_cannot_be_is_refused(api, db):
    for body, path in [
        ({"name": " ", "game": "jie-long"}, "name"),
        ({"name": "A\u202eB", "game": "jie-long"}, "name"),
        ({"name": "Club", "game": "jie-long", "options": {"stake": "-1"}}, "options.stake"),
        ({"name": "Club", "game": "chess"}, "game"),
    ]:
        refused = api.post(f"{API}/groups/", body, format="json")
        assert refused.status_code == 400, body
        assert refused.json()["path"] == path, body


def test_a_group_s_table_takes_its_usual_options_unless_it_names_its_own(api, db):
    made = api.post(
        f"{API}/groups/",
        {"name": "Quarter club", "game": "jie-long", "options": {"stake": "0.25"}},
        format="json",
    ).json()

    def start(**fields: object) -> TableSession:
        body = {"game": "jie-long", "seating": THREE, "group": made["token"], **fields}
        started = api.post(f"{API}/sessions/", body, format="json")
        assert started.status_code == 201, started.content
        return TableSession.objects.get(token=started.json()["token"])

    usual = start()
    assert usual.options == {"stake": "0.25"}  # as the group's tables on the web
    assert api.get(f"{API}/sessions/{usual.token}/").json()["options"] == {"stake": "0.25"}
    assert start(options={"stake": "2"}).options == {"stake": "2"}
    # Named: the game's own usual rules, for what the group plays for (issue 47).
    assert start(options={}).options == {"stake": "0.25"}
    # Another game than the group's is played by that game's usual rules, as on the web, and
    # for what the group plays for.
    four = [*THREE, "Dan"]
    assert start(game="ce-deng", seating=four).options == {"stake": "0.25"}
