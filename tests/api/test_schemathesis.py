"""Schemathesis against the live schema over real HTTP: every check, nothing suppressed.

Every operation is fuzzed with valid and invalid data; each answer must be no server error,
with a status, content type, headers and body the schema declares.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.tables import services
from tests.depth import DEEP
from tests.tables.conftest import SEATING, plain_hand

# Runs once, not on both databases: it checks the answers against the schema, which no database
# changes. What one database stores and the other refuses (NUL bytes, numbers past a column, the
# calendar's ends) the fuzz suite sends to every operation on both (tests/fuzz/test_api.py).
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "schemathesis"


@pytest.mark.django_db(transaction=True)
def test_the_api_conforms_to_its_schema(live_server, settings):
    # Thousands of requests from one address: throttling (tested on its own in
    # test_permissions.py) would answer most of them with 429 and leave the API untried.
    settings.GUESS_LIMIT = 1_000_000
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"writes": "100000/min", "codes": "100000/min"},
    }
    # A real table with a hand, an event with a round seated, and an organiser account: the
    # operations are tried on things that exist, as a player and as the organiser (the checks
    # also try them without).
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    account = User.objects.create_user("organiser", password="a long password")
    token = Token.objects.create(user=account).key
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=2)
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    event_services.round_seat(event=event)
    env = {**os.environ, "LEDGER_TABLE_TOKEN": table.token, "LEDGER_READ_TOKEN": table.read_token}
    env |= {"LEDGER_EVENT_TOKEN": event.token, "LEDGER_REGISTER_TOKEN": event.register_token}
    env |= {"LEDGER_RESULTS_TOKEN": event.read_token}
    group = group_services.group_create(name="Teahouse", game="jie-long", options={})
    group_services.table_start(group=group, seating=["Anna", "Bob"], first="Anna")
    paid = group_services.payment_record(group=group, payer="Bob", payee="Anna", amount=1)
    env |= {"LEDGER_GROUP_TOKEN": group.token, "LEDGER_PAYMENT": str(paid.payment.pk)}
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    run = subprocess.run(
        [
            sys.executable, "-m", "schemathesis.cli",
            "--config-file", str(Path(__file__).with_name("schemathesis.toml")),
            "run",
            f"{live_server.url}/api/v1/schema/",
            "--checks", "all",
            "--max-examples", "30" if DEEP else "10",  # make test-deep, make test
            "--seed", "1",
            "--workers", "1",
            "--generation-database", "none",
            "--no-color",
            "--report", "junit",
            "--report-dir", str(ARTIFACTS),
            "--header", f"Authorization: Token {token}",
            "--header", f"X-Organiser-Token: {table.organiser_token}",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )  # fmt: skip

    print(run.stdout[-5000:])
    assert run.returncode == 0, run.stdout[-20000:] + run.stderr[-3000:]
