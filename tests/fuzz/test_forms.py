"""Every web form field, filled with generated values: no 5xx, and a refusal stores nothing."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from ledger.models import Player
from tests.fuzz.conftest import DAYS, FUZZ, GROUP_TOKEN, TEXT, stored
from tests.tables.conftest import form_post

# Depends on the database: generated input finds what one database stores and the other refuses (a
# 500 on one only).
pytestmark = pytest.mark.both_databases

HAND_FIELDS = [
    "number", "key", "device", "first", "direction", "event", "event_player", "action",
    *(f"{kind}-{i}" for kind in ("pips", "tiles", "large", "red", "specials") for i in range(4)),
]  # fmt: skip
FORMS = {
    # form: (url name, the tokens it takes, a good post, the fields to fill)
    "new table": (
        "session_new", [], {"game": "ce-deng", "first": "0", "player_0": "Eve", "player_1": "Fay",
                            "player_2": "Gus", "player_3": "Hal"},
        ["game", "first", "stake", "chip", "head_tail", "redeal_doubles", "payment",
         "next_first", *(f"player_{i}" for i in range(4))],
    ),
    "hand": ("hand_save", ["table"], form_post(2, first="Dominic", direction="cw"), HAND_FIELDS),
    "preview": (
        "hand_preview", ["table"], form_post(2, first="Dominic", direction="cw"), HAND_FIELDS
    ),
    "hand, at the table's address": (
        "table", ["table"], form_post(2, first="Dominic", direction="cw"), HAND_FIELDS
    ),
    "correction": (
        "hand_detail", ["table", 1], {**form_post(1), "version": "1"},
        [*HAND_FIELDS, "version"],
    ),
    "lock": ("lock", ["table"], {"locked": "1"}, ["locked"]),
    "new event": (
        "event_new", [], {"name": "Cup", "game": "jie-long", "rounds": "2", "method": "mixing"},
        ["name", "game", "rounds", "hands_per_round", "minutes_per_round", "method", "tie_1",
         "tie_2", "tie_3", "stake", "chip", "head_tail", "payment", "next_first"],
    ),
    "organise": (
        "event_add", ["event"], {"name": "Ivy"}, ["name"],
    ),
    "group's players": (
        "event_add_group", ["event"], {"link": f"https://example.org/g/{GROUP_TOKEN}/"}, ["link"],
    ),
    "register": ("event_register", ["register"], {"name": "Joe"}, ["name"]),
    "new group": (
        "group_new", [], {"name": "Club", "game": "jie-long"},
        ["name", "game", "stake", "chip", "payment", "next_first", "ties"],
    ),
    "group's table": (
        "group_table_new", ["group"],
        {"game": "jie-long", "first": "0", "player_0": "Ivy", "player_1": "Joe"},
        ["game", "first", *(f"player_{i}" for i in range(4))],
    ),
    "payment": (
        "payment_new", ["group"],
        {"payer": "Ivy", "payee": "Joe", "amount": "5", "unit": "money", "key": "k" * 16},
        ["payer", "payee", "amount", "unit", "note", "key"],
    ),
    "language": ("set_language", [], {"language": "zh-hans", "next": "/"}, ["language", "next"]),
}  # fmt: skip


def _url(world, name, args):
    tokens = {
        "table": world["table"].token,
        "event": world["event"].token,
        "register": world["event"].register_token,
        "group": GROUP_TOKEN,
    }
    return reverse(name, args=[tokens.get(arg, arg) for arg in args])


@pytest.mark.parametrize("form", list(FORMS))
def test_no_form_field_value_breaks_the_server_and_refusals_store_nothing(world, form):
    name, args, good, fields = FORMS[form]
    url = _url(world, name, args)
    organiser = Client()  # the table's and the event's organiser, as the pages make them
    organiser.get(reverse("organise", args=[world["table"].token, world["table"].organiser_token]))
    organiser.get(reverse("event_organise", args=[world["event"].token]))

    @FUZZ
    @given(
        changes=st.dictionaries(st.sampled_from(fields), TEXT, min_size=1, max_size=4),
        htmx=st.booleans(),
    )
    def post(changes, htmx):
        before = stored()
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = organiser.post(url, {**good, **changes}, **headers)

        assert response.status_code < 500, (changes, response.content[:2000])
        if response.status_code >= 400:
            assert stored() == before, changes

    post()


def test_no_statistics_period_or_pair_breaks_the_group_s_statistics(world):
    """The statistics page's GET form: its period (all time, this month, or between two days)
    and the two players it compares."""
    url = reverse("group_statistics", args=[GROUP_TOKEN])
    players = Player.objects.filter(group__token=GROUP_TOKEN).values_list("pk", flat=True)
    someone = st.one_of(st.sampled_from([str(pk) for pk in players]), TEXT)
    period = {
        "period": st.one_of(st.just("between"), st.sampled_from(["all", "month"]), TEXT),
        "start": DAYS,
        "end": DAYS,
    }

    @FUZZ
    @given(query=st.fixed_dictionaries(period, optional={"a": someone, "b": someone}))
    def ask(query):
        before = stored()
        response = Client().get(url, query)

        assert response.status_code < 500, (query, response.content[:2000])
        assert stored() == before, query

    ask()


@pytest.mark.parametrize("form", ["hand", "new table", "register"])
def test_a_refused_form_says_why_on_the_page(world, form):
    """Values no field takes: the answer is 400 with the reason on the page, nothing stored."""
    name, args, good, _ = FORMS[form]
    bad = {
        "hand": {"pips-1": "-3"},
        "new table": {"player_1": "Eve\u200b"},
        "register": {"name": ""},
    }
    before = stored()

    response = Client().post(_url(world, name, args), {**good, **bad[form]})

    assert response.status_code == 400
    assert re.search(r'class="error(list)?"', response.content.decode())
    assert stored() == before
