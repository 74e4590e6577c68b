"""The fuzz suite: generated bad values in every web form field and raw bodies into every API
operation. Each answer must be a 4xx (or, where a generated value happens to be good, a
success), never a 5xx; and a refusal stores nothing.

Bounded for CI: a fixed number of examples per test (20 in make test, 40 in make test-deep:
tests/depth.py), drawn from a fixed seed (derandomize), so a run takes the same time and finds
the same things every time; raise FUZZ_EXAMPLES to look further on your own machine.
"""

from __future__ import annotations

import os
from datetime import date

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import (
    Entry,
    Event,
    Group,
    Hand,
    HandChange,
    Payment,
    Player,
    Round,
    Seat,
    TableSession,
)
from ledger.tables import services
from tests.depth import examples
from tests.tables.conftest import SEATING, plain_hand

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", examples(40)))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
STORED = (TableSession, Seat, Hand, HandChange, Player, Event, Entry, Round, Group, Payment)
GROUP_TOKEN = "fuzzed-group-token"  # the group of the world below, known to the forms' posts

# Text a phone or a script can send, with what broke the app before weighted in: digits that
# int() refuses, numbers too long for it or for the database, NUL and invisible characters.
NASTY = st.sampled_from(
    [
        "", " ", "²", "١٢", "-1", "0", "2147483648", "9" * 5000, "1e9", "1.5", "\x00",
        "a\x00b", "\u200b", "\u202eAnna", "Ａｎｎａ", "anna", "=1+1", "@SUM(A1)", "NaN", "null",
        "[]", "{}", "<script>", "' OR 1=1 --", "../../etc/passwd", "x" * 500, "张伟", "🀄",
    ]
)  # fmt: skip
TEXT = st.one_of(NASTY, st.text(st.characters(exclude_categories=["Cs"]), max_size=60))
# Days as a form or a query takes them (YYYY-MM-DD): any day a date can hold, the calendar's
# first and last weighted in (the day after the last is past what a date can hold), or text.
DAYS = st.one_of(
    st.sampled_from(["0001-01-01", "9999-12-31"]),
    st.dates().map(date.isoformat),
    TEXT,
)


def stored() -> dict[str, int]:
    """How many rows of everything the ledger keeps."""
    return {model.__name__: model.objects.count() for model in STORED}


@pytest.fixture
def world(db, settings):
    """A table with a hand, a tournament with a round seated, a group of two, and an organiser
    account; no limits, so that the generated requests are all tried."""
    settings.GUESS_LIMIT = 10**9
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict.fromkeys(
            settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "1000000/min"
        ),
    }
    table = services.session_create(game="ce-deng", options={}, seating=SEATING, first="Anna")
    services.hand_record(session=table, number=1, data=plain_hand())
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=3)
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    event_services.round_seat(event=event)
    group = Group.objects.create(name="Teahouse", game="jie-long", token=GROUP_TOKEN)
    for name in ("Ivy", "Joe"):
        Player.for_name(name, group=group)
    # A played table, so that the group's statistics count something.
    evening = group_services.table_start(group=group, seating=["Ivy", "Joe"], first="Ivy")
    hand = {"results": {"Ivy": {"pips": 2}, "Joe": {"pips": 12}}}
    services.hand_record(session=evening, number=1, data=hand)
    account = User.objects.create_user("organiser", password="a long password")
    return {
        "table": table,
        "event": event,
        "round": event.round_set.get(),
        "auth": Token.objects.create(user=account).key,
    }
