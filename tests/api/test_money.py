"""Money in the API is one type (issue 45, item 9): every amount of every answer is a decimal
string with the places it needs and at least two ("-14.00", "0.125", "14.35"), never a JSON
number, never the database's four places, never the places a stake was typed with.

The schema says which properties are amounts (a string of format "decimal"); the walk below
reads every answer an evening of tables, a group and a tournament gives, beside the schema of
its operation, and holds each amount to the form. Every amount the schema marks must turn up
in some answer, and a property named as amounts are (``net``, ``amount``, ``balances``, a
stake) that the schema does not mark is a failure: a new amount cannot slip past either way.
The engine's contract (``/score``, as ``python -m scoring``) keeps its own form: CONTRACT.md.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from rest_framework.test import APIClient

from ledger.api.money import PATTERN, money

# Depends on the database: the amounts are its sums (four places on both, as stored).
pytestmark = pytest.mark.both_databases

API = "/api/v1"
THREE = ["Anna", "Bob", "Celine"]
FOUR = ["Anna", "Bob", "Celine", "Dominic"]
# What the issue asks of every amount: at least two places, no zero after them, no "-0.00".
MONEY = re.compile(r"-?(0|[1-9][0-9]*)\.[0-9]{2}([0-9]*[1-9])?")
# Properties that hold an amount, or a name-to-amount map, wherever an answer has them.
AMOUNT_NAMES = {"amount", "net", "balance", "balances", "chips", "stake", "chip"}
DECIMAL_TEXT = re.compile(r"-?[0-9]+\.[0-9]+")
# Amounts no answer can hold: a group just started has no players yet (its balances are {}).
NEVER_FILLED = {"CreatedGroupOut.balances"}


class Evening:
    """Calls the API as a client would, keeping every JSON answer with the schema path and
    method of its operation."""

    def __init__(self, api: APIClient) -> None:
        self.api = api
        self.answers: list[tuple[str, str, int, Any]] = []
        self.tokens: dict[str, Any] = {}  # what fills the paths' {names}

    def __call__(self, method: str, path: str, body: Any = None, **headers: str) -> Any:
        url = API + path.format(**self.tokens)
        response = getattr(self.api, method)(url, body, format="json", **headers)
        assert response.status_code in (200, 201), (method, path, response.content)
        self.answers.append((path, method, response.status_code, response.json()))
        return response.json()


def hand(seating: list[str], *pips: int) -> dict[str, Any]:
    return {"results": {name: {"pips": p} for name, p in zip(seating, pips, strict=True)}}


def an_evening(api: APIClient) -> Evening:
    """Everything that answers with money: a group's tables (a stake typed as the number 0.5,
    one as the string "0.35", a chip table), hands recorded, corrected and voided, payments in
    money and chips, one voided; the group's statistics; a tournament played a hand."""
    call = Evening(api)
    group = call(
        "post", "/groups/", {"name": "Teahouse", "game": "jie-long", "options": {"stake": 0.5}}
    )
    call.tokens |= {"group_token": group["token"], "number": 1}
    organiser = {"HTTP_X_ORGANISER_TOKEN": group["organiser_token"]}
    tables = [
        ({"game": "jie-long", "seating": THREE}, [(2, 12, 21), (0, 3, 8), (5, 0, 9)]),
        ({"game": "ce-deng", "seating": FOUR, "options": {"stake": "0.35"}}, [(2, 12, 34, 18)]),
        ({"game": "kkoribuchigi", "seating": THREE, "options": {"chip": "0.5"}}, [(20, 9, 14)]),
    ]
    for started, hands in tables:
        table = call("post", "/sessions/", {**started, "group": group["token"]},
                     HTTP_IDEMPOTENCY_KEY=f"start-{started['game']}")  # fmt: skip
        call.tokens |= {"token": table["token"], "read_token": table["read_token"]}
        for number, pips in enumerate(hands, start=1):
            body = {"number": number, "hand": hand(started["seating"], *pips)}
            call("post", "/sessions/{token}/hands/", body,
                 HTTP_IDEMPOTENCY_KEY=f"hand-{table['token']}-{number}"[:64])  # fmt: skip
        call("get", "/sessions/{token}/")
        call("get", "/shared/{read_token}/")
        call("get", "/sessions/{token}/hands/")
        call("get", "/sessions/{token}/hands/{number}/")
    # The first table's second hand corrected, its third voided, the end set, locked, opened.
    group_tables = call("get", "/groups/{group_token}/")["tables"]  # the first first
    call.tokens |= {"token": group_tables[0]["token"], "number": 2}
    call("put", "/sessions/{token}/hands/{number}/", {"hand": hand(THREE, 4, 0, 7), "version": 1},
         **organiser)  # fmt: skip
    call.tokens |= {"number": 3}
    call("post", "/sessions/{token}/hands/{number}/void/", {"version": 1}, **organiser)
    call("put", "/sessions/{token}/ends/", {"play_to": None, "hands": 10}, **organiser)
    call("post", "/sessions/{token}/lock/", {"locked": True}, **organiser)
    call("post", "/sessions/{token}/lock/", {"locked": False}, **organiser)
    call("get", "/sessions/{token}/history/")
    assert len(group_tables) == 3

    payments = "/groups/{group_token}/payments/"
    paid = call("post", payments, {"from": "Celine", "to": "Anna", "amount": 2},
                HTTP_IDEMPOTENCY_KEY="pay-celine-1")  # fmt: skip
    call("post", payments, {"from": "Bob", "to": "Anna", "amount": "3", "unit": "chips"},
         HTTP_IDEMPOTENCY_KEY="pay-bob-chips")  # fmt: skip
    call("post", payments, {"from": "Bob", "to": "Celine", "amount": "0.125"},
         HTTP_IDEMPOTENCY_KEY="pay-bob-0001")  # fmt: skip
    call.tokens |= {"payment": paid["id"]}
    call("post", "/groups/{group_token}/payments/{payment}/void/", {"reason": "twice"}, **organiser)
    call("get", "/groups/{group_token}/")
    call("get", "/groups/{group_token}/statistics/")
    call("get", "/groups/{group_token}/ratings/")

    event = call("post", "/events/", {"name": "Club night", "game": "jie-long",
                                      "options": {"stake": 0.25}, "rounds": 2})  # fmt: skip
    call.tokens |= {"event_token": event["token"], "results_token": event["read_token"]}
    call.tokens |= {"register_token": event["register_token"], "number": 1}
    call("post", "/register/{register_token}/", {"name": "Anna"})
    call("post", "/events/{event_token}/entries/", {"group": group["token"]})
    for name in ("Emil", "Frida"):
        call("post", "/events/{event_token}/entries/", {"name": name})
    call("post", "/events/{event_token}/entries/drop/", {"name": "Frida"})
    seated = call("post", "/events/{event_token}/rounds/")
    begun = call("post", "/events/{event_token}/rounds/{number}/begin/")
    assert seated["played"] and begun["played"][0]["started"]
    for table in begun["played"][0]["tables"]:
        call.tokens |= {"token": table["token"]}
        played = hand(table["seating"], *[3, 10, 21, 6][: len(table["seating"])])
        call("post", "/sessions/{token}/hands/", {"number": 1, "hand": played},
             HTTP_IDEMPOTENCY_KEY=f"event-{table['token']}"[:64])  # fmt: skip
    call("get", "/events/{event_token}/")
    call("get", "/results/{results_token}/")
    return call


# -- walking an answer beside its schema -------------------------------------------------------


def resolve(schema: dict[str, Any], components: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The schema behind a $ref (or a lone allOf around one), and the component's name."""
    name = ""
    while True:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            schema = components[name]
        elif len(schema.get("allOf", [])) == 1:
            schema = schema["allOf"][0]
        else:
            return schema, name


def is_money(schema: dict[str, Any], components: dict[str, Any]) -> bool:
    """An amount, or a list or name-to-value map of amounts."""
    schema, _ = resolve(schema, components)
    if schema.get("type") == "array":
        return is_money(schema.get("items", {}), components)
    if schema.get("type") == "object" and "properties" not in schema:
        return is_money(schema.get("additionalProperties", {}) or {}, components)
    return schema.get("type") == "string" and schema.get("format") == "decimal"


def walk(value: Any, schema: dict[str, Any], where: str, seen: set[str], api: dict) -> None:
    """Check ``value`` against ``schema`` where amounts are concerned; ``where`` names the
    component and property it stands in, for the messages and for ``seen``."""
    components = api["components"]["schemas"]
    schema, name = resolve(schema, components)
    if value is None:
        return
    for branch in schema.get("oneOf", []) + schema.get("anyOf", []):
        walk(value, branch, where, seen, api)
    if schema.get("type") == "string" and schema.get("format") == "decimal":
        seen.add(where)
        assert isinstance(value, str) and MONEY.fullmatch(value), (where, value)
        assert re.fullmatch(schema["pattern"], value), (where, value, schema["pattern"])
        assert value != "-0.00", where
        return
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key, item in value.items():
            inner = properties.get(key, schema.get("additionalProperties") or {})
            here = f"{name or where}.{key}" if key in properties else where
            if key in AMOUNT_NAMES:
                assert is_money(inner, components), f"{here}: an amount the schema does not mark"
            walk(item, inner, here, seen, api)
    elif isinstance(value, list):
        for item in value:
            walk(item, schema.get("items", {}), where, seen, api)
    elif isinstance(value, float):
        assert schema.get("type") == "number", (where, value)
    elif isinstance(value, str):
        assert not DECIMAL_TEXT.fullmatch(value), f"{where}: {value!r}, an amount not marked"


def marked_amounts(api: dict) -> set[str]:
    """Every property the schema marks as an amount in an answer of the ledger's operations
    (``/score`` answers the engine's contract), as ``walk`` names them."""
    components = api["components"]["schemas"]
    found: set[str] = set()
    done: set[str] = set()

    def visit(schema: dict[str, Any], where: str) -> None:
        schema, name = resolve(schema, components)
        if name:
            if name in done:
                return
            done.add(name)
        for branch in schema.get("oneOf", []) + schema.get("anyOf", []):
            visit(branch, where)
        if is_money(schema, components) and schema.get("type") == "string":
            found.add(where)
        for key, inner in schema.get("properties", {}).items():
            here = f"{name or where}.{key}"
            if is_money(inner, components):
                found.add(here)
            else:
                visit(inner, here)
        for inner in (schema.get("items"), schema.get("additionalProperties")):
            if isinstance(inner, dict):
                visit(inner, where)

    for path, operations in api["paths"].items():
        if path == f"{API}/score":
            continue
        for operation in operations.values():
            for response in operation.get("responses", {}).values():
                content = response.get("content", {}).get("application/json")
                if content:
                    visit(content["schema"], "")
    return found


@pytest.fixture
def schema(db) -> dict:
    answer = APIClient().get(f"{API}/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert answer.status_code == 200
    return answer.json()


def test_every_amount_of_every_answer_is_a_decimal_string_with_two_places_or_more(db, schema):
    evening = an_evening(APIClient())
    seen: set[str] = set()

    for path, method, status, body in evening.answers:
        operation = schema["paths"][API + path][method]
        declared = operation["responses"][str(status)]["content"]["application/json"]["schema"]
        walk(body, declared, f"{method} {path}", seen, schema)

    missed = marked_amounts(schema) - NEVER_FILLED - seen
    assert missed == set(), "amounts the schema has that no answer gave"


def test_the_schema_marks_every_amount_as_a_decimal_string_with_its_pattern(schema):
    marked = marked_amounts(schema)
    assert {"StandingOut.net", "TransferOut.amount", "GroupOut.balances"} <= marked
    money_schema = schema["components"]["schemas"]["StandingOut"]["properties"]["net"]
    assert money_schema["type"] == "string" and money_schema["format"] == "decimal"
    assert money_schema["pattern"] == PATTERN


def test_a_hand_s_amounts_read_with_two_places_whatever_the_stake_was_typed_with(db):
    api = APIClient()
    started = {"game": "ce-deng", "seating": FOUR, "options": {"stake": 0.5}}
    table = api.post(f"{API}/sessions/", started, format="json").json()
    body = {"number": 1, "hand": hand(FOUR, 2, 13, 34, 18)}
    saved = api.post(f"{API}/sessions/{table['token']}/hands/", body, format="json",
                     HTTP_IDEMPOTENCY_KEY="hand-one-0001").json()  # fmt: skip

    # The engine's own document writes 5.5, 16, 8, 10.5, 2.5, 8 and 29.5, 7.5, -34.5, -2.5.
    paid = [p["amount"] for p in saved["result"]["payments"]]
    assert paid == ["5.50", "16.00", "8.00", "10.50", "2.50", "8.00"]
    net = {"Anna": "29.50", "Bob": "7.50", "Celine": "-34.50", "Dominic": "-2.50"}
    assert saved["result"]["net"] == net
    read = api.get(f"{API}/sessions/{table['token']}/").json()
    assert {row["name"]: row["net"] for row in read["standings"]} == net  # not "29.5000"
    assert read["options"] == {"stake": "0.50"}
    assert api.get(f"{API}/sessions/{table['token']}/hands/1/").json()["result"] == saved["result"]


def test_the_score_endpoint_keeps_the_engine_s_contract_numbers_when_whole(db):
    document = {"game": "ce-deng", "options": {"stake": 0.5}, "seating": FOUR,
                "hands": [hand(FOUR, 2, 12, 34, 18)]}  # fmt: skip

    scored = APIClient().post(f"{API}/score", document, format="json").json()

    assert scored["hands"][0]["net"] == {"Anna": 29, "Bob": 9, "Celine": -35, "Dominic": -3}


@pytest.mark.parametrize(
    ("kept", "written"),
    [
        ("12.5000", "12.50"),  # PostgreSQL's sum of the four-place column
        ("12.5", "12.50"),  # a stake typed with one place
        ("-14.0000", "-14.00"),
        ("-14", "-14.00"),
        ("14.35", "14.35"),
        ("0.1250", "0.125"),
        ("0.0001", "0.0001"),
        ("7E+1", "70.00"),
        ("-0.0000", "0.00"),
        ("0E-4", "0.00"),
        ("922337203685477.5807", "922337203685477.5807"),
    ],
)
def test_money_writes_the_places_an_amount_needs_and_at_least_two(kept, written):
    assert money(Decimal(kept)) == written
    assert re.fullmatch(PATTERN, written)
