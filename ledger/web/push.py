"""Push: a table's new revision reaches every phone that holds its stream, as it happens.

A change to a table (a save, correction, void, lock, change of ends) raises its revision
(ledger.tables.services.table_changed), and ``announce`` tells every server process:

- on PostgreSQL with ``NOTIFY``, in the change's own transaction, so it is heard when the
  change is committed and never for a change rolled back. Each server process holds one
  connection that ``LISTEN``s and hands what it hears to the streams it serves (``Hub``):
  one connection per process, whatever the number of phones, and every process sharing the
  database hears every change, whichever process made it.
- on the embedded SQLite, which has no such thing, each process reads the revisions of the
  tables it has streams open for, all in one query, every ``SQLITE_EVERY`` seconds while it
  has any: the cost is one small read per process, not one per phone.

A stream (``events``) sends the table's revision when it opens and whenever it changes, and
again every ``HEARTBEAT`` seconds so that the page knows its stream is alive (and a proxy
does not close an idle one). The page fetches the table's live part when the revision is not
the one it shows (ledger/static/ledger/ledger.js); that part is rendered once per revision.

Streams do not go through Django's request handler (``streams``, which ledger/asgi.py puts in
front of it): that handler keeps a thread, and until the request ends a database connection,
for every request, and a stream's request lasts as long as its page. Here a stream is a task
of the event loop and nothing more; the link is looked up, and the guess limit applied, by
the same code as for a page (ledger.web.middleware.GuessLimitMiddleware), on a thread of a small
shared pool.

A stream that breaks comes back with the last revision it saw, and is sent the table's
current one at once: nothing is missed. If the listening connection is lost (PostgreSQL
restarted), it connects again and, before listening on, reads the revisions of the tables it
watches, since what was announced meanwhile was not heard.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connection, connections
from django.http import HttpRequest, HttpResponse
from django.utils import translation

from ledger.tables import selectors
from ledger.tables.models import TableSession
from ledger.web import limits
from ledger.web.middleware import GuessLimitMiddleware

log = logging.getLogger(__name__)

CHANNEL = "ledger_tables"
HEARTBEAT = 20.0  # seconds between two sends of an unchanged revision
RETRY_MS = 2000  # how soon a browser connects again after a stream broke
SQLITE_EVERY = 0.5  # seconds between two reads of the watched revisions, on SQLite
RECONNECT_FIRST, RECONNECT_MOST = 0.5, 10.0  # seconds between two tries to listen again


def announce(table: int, revision: int) -> None:
    """Tell every server process that ``table`` is now at ``revision``, when the transaction
    this runs in commits (PostgreSQL's NOTIFY). On SQLite the processes read it themselves."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{table} {revision}"])


class Watch:
    """One table's revision as this process last heard it, and a way to wait for the next."""

    def __init__(self, revision: int) -> None:
        self.revision = revision
        self.streams = 0
        self._changed = asyncio.Event()

    def publish(self, revision: int) -> None:
        """A revision heard; revisions only rise, so an older one heard late changes nothing."""
        if revision > self.revision:
            self.revision = revision
            self._changed.set()
            self._changed = asyncio.Event()

    async def after(self, seen: int, timeout: float) -> int:
        """The revision once it is not ``seen``, or as it is after ``timeout`` seconds."""
        if self.revision == seen:
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)
        return self.revision


class Hub:
    """The tables this process has streams open for, and the one task that hears of their
    changes: PostgreSQL's listener, or SQLite's reader."""

    def __init__(self) -> None:
        self.watches: dict[int, Watch] = {}
        self._hearing: asyncio.Task[None] | None = None
        self._wait = RECONNECT_FIRST  # before listening again, after a failure

    @contextmanager
    def watch(self, table: int, revision: int) -> Iterator[Watch]:
        watch = self.watches.get(table)
        if watch is None:
            watch = self.watches[table] = Watch(revision)
        watch.publish(revision)
        watch.streams += 1
        if self._hearing is None or self._hearing.done():
            hear = self._listen if connection.vendor == "postgresql" else self._read
            self._hearing = asyncio.create_task(hear())
        try:
            yield watch
        finally:
            watch.streams -= 1
            if not watch.streams:
                del self.watches[table]

    def publish(self, revisions: Iterable[tuple[int, int]]) -> None:
        for table, revision in revisions:
            if (watch := self.watches.get(table)) is not None:
                watch.publish(revision)

    async def _listen(self) -> None:
        """PostgreSQL: one connection per process listens, for as long as the process runs."""
        while True:
            try:
                await self._listen_once()
            except (psycopg.Error, OSError) as error:
                log.warning(
                    "Listening for table changes failed (%s): again in %.1f s", error, self._wait
                )
            await asyncio.sleep(self._wait)
            self._wait = min(self._wait * 2, RECONNECT_MOST)

    async def _listen_once(self) -> None:
        params = connections["default"].get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as listener:
            await listener.execute(f"LISTEN {CHANNEL}")
            # What changed while nobody listened (the first time, or after a lost connection).
            watched = list(self.watches)
            cursor = await listener.execute(_REVISIONS_ANY, [watched])
            self.publish(await cursor.fetchall())
            log.info("Listening for table changes")
            self._wait = RECONNECT_FIRST
            while True:
                async for heard in listener.notifies(timeout=HEARTBEAT):
                    table, revision = heard.payload.split()
                    self.publish([(int(table), int(revision))])
                await listener.execute("SELECT 1")  # a quiet while: is the connection alive?

    async def _read(self) -> None:
        """SQLite: read the watched tables' revisions while there are any."""
        while self.watches:
            try:
                self.publish(await sync_to_async(_revisions)(list(self.watches)))
            except Exception:  # the next read tries again; a stream must not die of it
                log.exception("Reading the watched tables' revisions failed")
            await asyncio.sleep(SQLITE_EVERY)


_REVISIONS_ANY = f"SELECT id, revision FROM {TableSession._meta.db_table} WHERE id = ANY(%s)"


def _revisions(tables: list[int]) -> list[tuple[int, int]]:
    return list(TableSession.objects.filter(pk__in=tables).values_list("pk", "revision"))


_hubs: WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = WeakKeyDictionary()


def hub() -> Hub:
    """This process's hub (one per event loop: a server process runs one)."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]


def message(revision: int) -> str:
    return f"id: {revision}\nevent: revision\ndata: {revision}\n\n"


async def events(table: int, revision: int) -> AsyncIterator[str]:
    """A table's stream: its revision now, then each new one, and the same every HEARTBEAT
    seconds while nothing changes. Ends when the phone goes (``_stream`` cancels it)."""
    yield f"retry: {RETRY_MS}\n\n"
    with hub().watch(table, revision) as watch:
        sent = watch.revision
        yield message(sent)
        while True:
            sent = await watch.after(sent, HEARTBEAT)
            yield message(sent)


# ASGI, as uvicorn speaks it.
Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

STREAM = re.compile(r"/t/([\w-]{1,32})/stream/")
HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),  # nginx: send each event as it comes
]


def streams(app: App) -> App:
    """``app`` with the tables' streams answered in front of it."""

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        match = STREAM.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if match is None:
            return await app(scope, receive, send)
        if scope["method"] not in ("GET", "HEAD"):
            return await _answer(send, HttpResponse(status=405, headers={"Allow": "GET, HEAD"}))
        opened = await sync_to_async(_open, thread_sensitive=False)(scope, match[1])
        if isinstance(opened, HttpResponse):
            return await _answer(send, opened)
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        if scope["method"] == "HEAD":
            return await send({"type": "http.response.body", "body": b""})
        await _stream(receive, send, *opened)

    return serve


def _open(scope: Scope, token: str) -> tuple[int, int] | HttpResponse:
    """The table a stream's link opens and its revision now, or the answer to give instead:
    404 for a link that matches nothing, 429 past the guess limit, as any table link."""
    close_old_connections()  # this thread's connection, if it is too old or broken
    request = ASGIRequest(scope, io.BytesIO())
    found: list[tuple[int, int]] = []

    def look_up(request: HttpRequest) -> HttpResponse:
        try:
            found.append(selectors.watched(token))
        except limits.NoSuchLink:
            limits.mark_wrong_link(request)
            return HttpResponse("No such table", status=404, content_type="text/plain")
        return HttpResponse()

    with translation.override(translation.get_language_from_request(request)):
        answer = GuessLimitMiddleware(look_up)(request)
    return found[0] if found and answer.status_code == 200 else answer


async def _answer(send: Send, response: HttpResponse) -> None:
    headers = [(k.lower().encode(), v.encode()) for k, v in response.items()]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


async def _stream(receive: Receive, send: Send, table: int, revision: int) -> None:
    """Send the table's events until the phone goes."""

    async def sending() -> None:
        async for event in events(table, revision):
            await send({"type": "http.response.body", "body": event.encode(), "more_body": True})

    async def gone() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    tasks = [asyncio.create_task(sending()), asyncio.create_task(gone())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with suppress(asyncio.CancelledError, OSError):
                await task
