"""Tables' streams across server processes, behind real gunicorn on PostgreSQL.

Two ASGI servers (gunicorn with uvicorn's workers, as deploy/domino-ledger-streams.service) and
the pages' sync workers share one database: a save on any of them reaches, within a second, a
phone whose stream is held by another (PostgreSQL's LISTEN/NOTIFY: ledger/web/push.py). A
stream worker killed: its phones connect again and are sent what they missed. Runs on a
throwaway database of the PostgreSQL server at POSTGRES_URL.
"""

from __future__ import annotations

import json
import os
import queue
import secrets
import signal
import subprocess
import time
import urllib.request

import psycopg
import pytest

from deploy.stack import Stream, production_stack
from tests.faults.conftest import SERVER, postgres
from tests.live import a_group, an_event
from tests.live import save as save_at

# Brings its own PostgreSQL database: in make test's PostgreSQL pass (skips without a server).
pytestmark = pytest.mark.own_postgresql

PHONES = 4  # per table


@pytest.fixture(scope="module")
def stack():
    postgres()
    with production_stack(SERVER, workers=1, streams=2) as running:
        yield running


def api(base: str, path: str, body: dict[str, object]) -> dict[str, object]:
    request = urllib.request.Request(
        base + "/api/v1/" + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Idempotency-Key": secrets.token_hex(8)},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return dict(json.load(response))


def new_table(base: str) -> str:
    body = {"game": "jie-long", "seating": ["Anna", "Bob", "Celine"], "first": "Anna"}
    return str(api(base, "sessions/", body)["token"])


def save(base: str, token: str, number: int) -> float:
    """Record hand ``number`` at ``base``; when it was acknowledged."""
    pips = {"Anna": {"pips": 2}, "Bob": {"pips": 12}, "Celine": {"pips": 30 + number}}
    hand = {"first": "Anna" if number == 1 else "Bob", "direction": "ccw", "results": pips}
    api(base, f"sessions/{token}/hands/", {"number": number, "hand": hand})
    return time.monotonic()


def test_a_save_on_one_server_reaches_the_phones_on_another_within_a_second(stack):
    token = new_table(stack.base)
    left, right = stack.streams
    phones = [Stream(f"{right}/t/{token}/stream/") for _ in range(PHONES)]
    try:
        for phone in phones:
            assert phone.next(timeout=5)[1] == 0, "a stream opens with the table's revision"
        # Saved on the other ASGI server, then on the pages' own workers.
        for number, saved_on in enumerate((left, stack.base), start=1):
            acknowledged = save(saved_on, token, number)
            for phone in phones:
                came, revision = phone.next(timeout=5)
                assert revision == number
                assert came - acknowledged < 1.0, f"{came - acknowledged:.2f} s after the save"
    finally:
        for phone in phones:
            phone.close()


def test_a_stream_sends_nothing_for_a_change_rolled_back(stack):
    """A refused hand (here, out of order) changes nothing and announces nothing."""
    token = new_table(stack.base)
    with Stream(f"{stack.streams[0]}/t/{token}/stream/") as phone:
        assert phone.next(timeout=5)[1] == 0
        with pytest.raises(urllib.error.HTTPError):
            save(stack.base, token, 2)
        save(stack.base, token, 1)
        assert phone.next(timeout=5)[1] == 1


def test_a_save_at_an_events_or_groups_table_reaches_their_pages_on_another_server(stack):
    """The save's NOTIFY names the table's event and group: their pages' streams hear it."""
    read, _, event_table, event_seating = an_event(stack)
    group, group_table, group_seating = a_group(stack)
    left, right = stack.streams
    with (
        Stream(f"{right}/e/{read}/stream/") as results,
        Stream(f"{left}/g/{group}/stream/") as ours,
    ):
        results.next(timeout=5)
        ours.next(timeout=5)
        for table, seating, page, quiet in (
            (event_table, event_seating, results, ours),
            (group_table, group_seating, ours, results),
        ):
            saved = save_at(stack.base, table, seating, 1)
            came, _ = page.next(timeout=5)
            assert came - saved < 1.0, f"{came - saved:.2f} s after the save"
            with pytest.raises(queue.Empty):
                quiet.next(timeout=0.5)  # the other's page: not its table


DROP = """
from ledger.events import services
from ledger.models import Event
event = Event.objects.get(read_token=%r)
services.entry_drop(event=event, name=%r)
"""


def test_an_organisers_change_reaches_the_events_pages_with_no_table_changed(stack):
    """A player dropped (or a round seated or begun) changes no table's revision: the event's
    own NOTIFY reaches its pages' streams all the same."""
    read, _, _, seating = an_event(stack)
    with Stream(f"{stack.streams[1]}/e/{read}/stream/") as page:
        first = page.next(timeout=5)[1]
        stack.manage("shell", "-c", DROP % (read, seating[0]))
        done = time.monotonic()
        came, number = page.next(timeout=5)
    assert number > first
    assert came - done < 1.0, f"{came - done:.2f} s after the drop"


PAY = """
from ledger.groups import services
from ledger.models import Group
group = Group.objects.get(token=%r)
services.payment_record(group=group, payer=%r, payee=%r, amount="5")
"""


def test_a_payment_and_a_new_table_reach_the_groups_page_on_another_server(stack):
    """Neither changes a table that the group's page had: the group's own NOTIFY, and the new
    table's, reach its page's stream all the same."""
    group, _, seating = a_group(stack)
    with Stream(f"{stack.streams[1]}/g/{group}/stream/") as page:
        first = page.next(timeout=5)[1]
        stack.manage("shell", "-c", PAY % (group, seating[1], seating[0]))
        paid = time.monotonic()
        came, number = page.next(timeout=5)
        assert number > first
        assert came - paid < 1.0, f"{came - paid:.2f} s after the payment"
        body = {"game": "jie-long", "seating": seating, "first": seating[0], "group": group}
        api(stack.base, "sessions/", body)
        started = time.monotonic()
        came, _ = page.next(timeout=5)
        assert came - started < 1.0, f"{came - started:.2f} s after the table was started"


def test_an_events_stream_sends_nothing_for_a_change_rolled_back(stack):
    read, _, table, seating = an_event(stack)
    with Stream(f"{stack.streams[0]}/e/{read}/stream/") as page:
        page.next(timeout=5)
        with pytest.raises(urllib.error.HTTPError):
            save_at(stack.base, table, seating, 2)  # out of order: refused, rolled back
        with pytest.raises(queue.Empty):
            page.next(timeout=1.5)
        save_at(stack.base, table, seating, 1)
        page.next(timeout=5)


def test_wrong_event_and_group_stream_links_are_404(stack):
    for kind in "eg":
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{stack.streams[0]}/{kind}/{secrets.token_urlsafe(16)}/stream/")
        assert refused.value.code == 404


def test_a_killed_stream_worker_its_phones_catch_up(stack):
    token = new_table(stack.base)
    server = stack.processes[2]  # the second ASGI server's gunicorn
    url = f"{stack.streams[1]}/t/{token}/stream/"
    phone = Stream(url)
    assert phone.next(timeout=5)[1] == 0
    worker = int(subprocess.check_output(["pgrep", "-P", str(server.pid)]).split()[0])
    os.kill(worker, signal.SIGKILL)
    save(stack.base, token, 1)
    save(stack.base, token, 2)
    with pytest.raises(queue.Empty):
        phone.next(timeout=1)  # its stream is gone with the worker
    # The browser connects again (after the stream's retry: 2 s) with the last revision it saw,
    # and is sent the table's revision now, once gunicorn has a new worker up.
    deadline = time.monotonic() + 30
    while True:
        try:
            again = Stream(url, last_event_id="0")
            break
        except OSError:
            assert time.monotonic() < deadline, "no new stream worker within 30 s"
            time.sleep(0.2)
    with again:
        assert again.next(timeout=5)[1] == 2


def test_open_streams_hold_no_database_connection(stack):
    """A stream lasts as long as its page: it must not keep a connection of its own (PostgreSQL
    allows about a hundred). The process's one listening connection is all they share."""
    token = new_table(stack.base)
    database = stack.database_url.rsplit("/", 1)[1]

    def connections() -> int:
        with psycopg.connect(SERVER, dbname="postgres") as db:
            sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
            return int(db.execute(sql, [database]).fetchone()[0])

    url = f"{stack.streams[0]}/t/{token}/stream/"
    with Stream(url) as first:
        first.next(timeout=5)
        before = connections()
        phones = [Stream(url) for _ in range(10)]
        for phone in phones:
            assert phone.next(timeout=5)[1] == 0
        assert connections() <= before + 1
        for phone in phones:
            phone.close()
