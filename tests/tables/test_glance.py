"""The table page and its live part read the table at a cost that does not grow with its hands
(issue 21, item 7): the totals as kept and the latest hands, as their rows keep them
(``selectors.score_sheet``, issue 46). What they show is what scoring every hand shows: after
every save, correction and void, however they come, with every way of choosing who leads next.
After a change, the live part every phone fetches is rendered once per revision and language
(item 2).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.links import NoSuchLink
from ledger.models import Hand, Seat, TableSession
from ledger.tables import selectors, services
from ledger.tables.live import RENDER_WAIT
from ledger.tables.summary import Summary, summarise
from tests.depth import examples
from tests.tables.scored import engine_sheet
from tests.tables.test_results_rows import PLAYERS, SCORES, apply, hand

# Depends on the database: what a table's reads read, in how many queries, by which plan.
pytestmark = pytest.mark.both_databases

# Tables whose hands each score on their own (the rest are scored whole).
OPTIONS = [{}, {"next_first": "rotate"}, {"payment": "chips", "chip": "0.5"}, {"stake": "0"}]

operations = st.lists(
    st.one_of(
        *[st.tuples(st.just("record"), st.sampled_from(SCORES))] * 3,
        st.tuples(st.just("correct"), st.integers(1, 20), st.sampled_from(SCORES)),
        st.tuples(st.just("void"), st.integers(1, 20)),
    ),
    max_size=30,
)


def shown(sheet: selectors.ScoreSheet) -> tuple[Any, ...]:
    """What the table page shows of a sheet."""
    return (
        sheet.next_number,
        sheet.next_first,
        sheet.next_direction,
        sheet.totals,
        sheet.result.settle_up,
        sheet.end,
        [(row.hand, row.result) for row in sheet.latest],
    )


@pytest.mark.django_db
@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.sampled_from(OPTIONS), operations)
def test_the_page_shows_what_scoring_every_hand_shows(options, steps):
    table = services.session_create(game="jie-long", options=options, seating=PLAYERS, first="Anna")
    for operation in steps:
        apply(table, operation)
        table = selectors.session_by_token(table.token)  # as the page reads it
        whole = engine_sheet(table)
        assert shown(selectors.score_sheet(table, latest=True)) == shown(whole)
        assert shown(selectors.score_sheet(table)) == shown(whole)
        if operation[0] != "record":  # the page after a change shows the changed hand
            number = operation[1]
            read = selectors.score_sheet(table, latest=True, number=number)
            assert read.row(number) == whole.row(number)


@pytest.mark.django_db
def test_a_table_its_seats_and_its_latest_hands_are_read_in_three_queries():
    """After every change each phone is shown the table's live part: the table, its seats and
    its latest hands (and their rows, and the totals), whatever the number of hands."""
    table = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
    data = {"results": {name: {"pips": 10 * i} for i, name in enumerate(PLAYERS)}}
    for number in range(1, selectors.LATEST + 3):
        services.hand_record(session=table, number=number, data=data)
    services.hand_void(session=table, number=selectors.LATEST + 2, version=1)
    with CaptureQueriesContext(connection) as captured:
        session = selectors.session_by_token(table.token)
        sheet = selectors.score_sheet(session, latest=True)
    # and the latest hands' rows, and the totals
    assert len([q for q in captured if "ledger_result" not in q["sql"]]) == 3
    assert len(captured) == 5
    seats = Seat.objects.filter(session=table).select_related("player").order_by("position")
    assert list(session.seated.items()) == [(seat.player_id, seat.player.name) for seat in seats]
    newest = table.hands.order_by("-number")[: selectors.LATEST]
    assert [row.hand for row in sheet.latest] == [selectors.StoredHand.of(hand) for hand in newest]
    with pytest.raises(NoSuchLink):
        selectors.session_by_token("no-such-table")


def summary_of_every_hand_scored(table) -> Summary:
    return summarise(engine_sheet(table))


@pytest.mark.django_db
@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.sampled_from(OPTIONS + [{"ties": "lower_total"}]), operations)
def test_the_summary_from_the_kept_rows_is_the_summary_of_every_hand_scored(options, steps):
    table = services.session_create(game="jie-long", options=options, seating=PLAYERS, first="Anna")
    for operation in steps:
        apply(table, operation)
    table = selectors.session_by_token(table.token)
    assert summarise(selectors.score_sheet(table)) == summary_of_every_hand_scored(table)


@pytest.mark.django_db
def test_a_ce_deng_table_turns_and_redeals_as_when_scored_whole():
    seating = [*PLAYERS, "Dominic"]
    table = services.session_create(game="ce-deng", options={}, seating=seating, first="Anna")
    plain = {
        "results": {name: {"pips": p} for name, p in zip(seating, (0, 12, 34, 18), strict=True)}
    }
    for number in range(1, 14):
        data = {"redeal": "Bob"} if number % 5 == 0 else plain
        services.hand_record(session=table, number=number, data=data)
    table = selectors.session_by_token(table.token)
    assert shown(selectors.score_sheet(table, latest=True)) == shown(engine_sheet(table))


def _plan(read: Callable[[], object]) -> list[str]:
    """The steps of the plans of the queries ``read`` sends, in turn, as the database says them."""
    with CaptureQueriesContext(connection) as captured:
        read()
    steps: list[str] = []
    with connection.cursor() as cursor:
        for query in captured.captured_queries:
            if connection.vendor != "postgresql":
                cursor.execute(f"EXPLAIN QUERY PLAN {query['sql']}")
                steps += [row[-1] for row in cursor.fetchall()]
                continue
            cursor.execute("SET LOCAL enable_nestloop = off")  # as if joining by index were dear
            cursor.execute(f"EXPLAIN (FORMAT JSON) {query['sql']}")
            nodes = [cursor.fetchone()[0][0]["Plan"]]
            while nodes:
                node = nodes.pop()
                names = (node["Node Type"], node.get("Relation Name"), node.get("Index Name"))
                steps.append(" ".join(map(str, names + (node.get("Index Cond"),))))
                nodes += node.get("Plans", [])
    return steps


@pytest.mark.django_db
def test_the_read_before_a_save_finds_its_hands_by_a_unique_index():
    """Three sends of a table's four, when its phones all press save, are answered by this
    read alone: the hands from the one before the send's on, one range of the unique index of
    the table's numbers, never a read of every hand of the table; the hand sent under a key
    (asked for only when the key turned up on insert) by the key's unique index."""
    table = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
    data = {"results": {name: {"pips": 10 * i} for i, name in enumerate(PLAYERS)}}
    for number in range(1, 40):
        services.hand_record(session=table, number=number, data=data, idempotency_key=f"k{number}")
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # index scans only: each must be by a unique index
            # The statistics of this table's 39 hands: without them both unique indexes look
            # alike to the planner, and it took either (a run on 2026-11-28 took the numbers').
            cursor.execute("ANALYZE ledger_hand")
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_bitmapscan = off")
    by_number = ("hand_number_unique", "sqlite_autoindex_ledger_hand_1")

    plan = _plan(lambda: selectors.stored_before(table, 39, key="k1"))

    by_range, by_key = [step for step in plan if "hand" in step]
    assert any(index in by_range for index in by_number), plan
    assert "number >" in by_range or "number>" in by_range, plan  # the range, in its condition
    assert "hand_idempotency_key_unique" in by_key, plan


@pytest.mark.django_db
def test_the_read_before_a_save_finds_the_hand_of_its_number_the_newest_and_its_key_s():
    """Every phone of a table sends each hand: what was stored before the send comes in one
    query (two with a key), as the ORM reads each hand (a hand's time to the microsecond,
    voided or not)."""
    table = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
    data = {"results": {name: {"pips": 10 * i} for i, name in enumerate(PLAYERS)}}
    for number in range(1, 5):
        services.hand_record(session=table, number=number, data=data, idempotency_key=f"k{number}")
    services.hand_void(session=table, number=4, version=1)

    # The hands from ``number - 1`` on, else the newest hand (4, voided); and the key's hand.
    cases = [
        (2, "", {1, 2, 3, 4}, 1),
        (4, "", {3, 4}, 1),
        (5, "", {4}, 1),
        (9, "", {4}, 2),  # ahead of the table: the newest hand, read on its own
        (2, "k1", {1, 2, 3, 4}, 2),
        (5, "k9", {4}, 2),
    ]
    for number, key, stored, queries in cases:
        with CaptureQueriesContext(connection) as captured:
            found = selectors.stored_before(table, number, key)
        assert len(captured) == queries
        assert {hand.number for hand in found} == stored
        assert {hand.pk: hand for hand in found} == {
            hand.pk: hand for hand in Hand.objects.filter(session=table, number__in=stored)
        }
        assert all(hand.session is table for hand in found)  # its seats read once

    empty = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
    with CaptureQueriesContext(connection) as captured:
        assert selectors.stored_before(empty, 1) == []
    assert len(captured) == 1


@pytest.mark.django_db
def test_a_table_s_names_are_each_looked_up_by_its_players_key_whatever_the_planner_weighs():
    """A hall's tables are made minutes before its hands, before PostgreSQL's statistics know
    of them. A join of the seats and the players was then planned as a read of every player
    (docs/benchmarks.md). No join is left to the planner: here it is kept from joining by
    index, and each name is still read by its player's key."""
    table = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
    read = TableSession.objects.get(pk=table.pk)
    plan = _plan(lambda: read.seated)

    assert not [step for step in plan if "Join" in step or "Nested Loop" in step]
    by_key = {
        "postgresql": "Index Scan ledger_player ledger_player_pkey",
        "sqlite": "SEARCH U0 USING INTEGER PRIMARY KEY (rowid=?)",
    }
    assert any(step.startswith(by_key[connection.vendor]) for step in plan), plan
    assert list(selectors.session_by_token(table.token).seated) == list(table.seated)


def queries(client, url: str) -> int:
    client.get(url)  # the first request of a phone starts its session
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.django_db
def test_the_page_and_its_live_part_read_as_much_at_hand_60_as_at_hand_12(client):
    counts = []
    for hands in (12, 60):
        table = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
        for number in range(1, hands + 1):
            services.hand_record(session=table, number=number, data=hand(SCORES[number % 6]))
        sheet = selectors.score_sheet(selectors.session_by_token(table.token), latest=True)
        assert len(sheet.rows) == selectors.LATEST and len(sheet.result.hands) == selectors.LATEST
        page = reverse("table", args=[table.token])
        live = reverse("live", args=[table.token]) + "?rev=0"
        counts.append((queries(client, page), queries(client, live)))
    assert counts[0] == counts[1]


def reads_hands(phone, url: str) -> tuple[bool, str]:
    with CaptureQueriesContext(connection) as captured:
        response = phone.get(url)
    assert response.status_code == 200
    return any("ledger_hand" in query["sql"] for query in captured), response.content.decode()


@pytest.mark.django_db
def test_after_a_change_the_live_part_is_rendered_once_for_every_phone_of_a_language():
    table = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
    services.hand_record(session=table, number=1, data=hand(SCORES[0]))
    live = reverse("live", args=[table.token]) + "?rev=0"
    phones = [Client() for _ in range(4)]
    fetched = [reads_hands(phone, live) for phone in phones]
    assert [read for read, _ in fetched] == [True, False, False, False]
    assert len({html for _, html in fetched}) == 1 and "Anna" in fetched[0][1]

    chinese = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    read, html = reads_hands(chinese, live)
    assert read and "合计" in html  # its own language, rendered for it

    services.hand_record(session=table, number=2, data=hand(SCORES[1]))
    read, html = reads_hands(phones[0], live)
    assert read and 'id="hand-2"' in html  # a new revision is rendered anew


@pytest.mark.django_db(transaction=True)  # the other phone's render is kept by another thread
def test_a_fetch_while_another_renders_the_same_live_part_waits_for_that_render():
    """The phones of a table on streams fetch the live part together: one renders it."""
    table = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
    services.hand_record(session=table, number=1, data=hand(SCORES[0]))
    key = f"live:{table.token}:{selectors.revision(table.token)}:en"
    cache.add(f"{key}:rendering", True, RENDER_WAIT)  # another phone's fetch is rendering
    threading.Timer(0.05, cache.set, [key, "<p>the other phone's render</p>", 60]).start()
    live = reverse("live", args=[table.token]) + "?rev=0"
    read, html = reads_hands(Client(), live)
    assert not read and html == "<p>the other phone's render</p>"


@pytest.mark.django_db
def test_a_render_that_never_comes_is_made_after_waiting_for_it():
    table = services.session_create(game="jie-long", options={}, seating=PLAYERS, first="Anna")
    services.hand_record(session=table, number=1, data=hand(SCORES[0]))
    key = f"live:{table.token}:{selectors.revision(table.token)}:en"
    cache.add(f"{key}:rendering", True, 60)  # a fetch that began rendering and failed
    read, html = reads_hands(Client(), reverse("live", args=[table.token]) + "?rev=0")
    assert read and 'id="hand-1"' in html
