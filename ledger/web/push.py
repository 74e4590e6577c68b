"""Push: a table's new revision reaches every phone that holds its stream, as it happens, and
the pages of its event (the standings, projector and organiser's page) and of its group hear
that it changed.

A change to a table (a save, correction, void, lock, change of ends; a group's new table)
raises its revision. Every server process hears of it:

- on PostgreSQL by ``NOTIFY``, which the database itself queues in the transaction that raises
  the revision (a trigger, migration 0042) and delivers when it commits: whoever raises it,
  never for a change rolled back, and no statement of the app's. An event's or group's own
  change, which no table's revision carries, its domain announces once it is committed (the
  signals of ledger.changes, which ``announce_changes`` connects in every process), and this
  process sends the NOTIFY. Each server process holds one connection that ``LISTEN``s and
  hands what it hears to the streams it serves (``Hub``): one connection per process,
  whatever the number of phones, and every process sharing the database hears every change,
  whichever process made it.
- on the embedded SQLite, which has no such thing, each process reads the revisions of the
  tables it has streams open for, all in one query, and the marks of the events and groups
  it has streams open for, every ``SQLITE_EVERY`` seconds while it has any: the cost is a
  small read or three per process, not one per phone.

What a stream's link opens, how the tables' revisions and the events' and groups' marks are
read, and how a table's live part is rendered, the streams do not know: each domain tells them
(``register``, from ledger.apps), and they look it up.

A table's stream (``events``) sends the table's revision when it opens and whenever it changes,
and again every ``HEARTBEAT`` seconds so that the page knows its stream is alive (and a proxy
does not close an idle one). A table's page says which revision it shows (``?rev=``, then
``Last-Event-ID`` when its browser opens the stream again), and is sent the table's live part
itself (event ``live``) whenever its revision is not that one: the page shows it as it comes
(ledger/static/ledger/ledger.js), with no request of its own. The live part is rendered once
per revision and language (ledger.tables.live): once in this process for all its streams,
and kept for the other processes and for the phones that fetch it. A stream opened without
``?rev=`` (a page from before streams carried it) is sent revisions only, and its page
fetches the live part when the revision is not the one it shows.

An event's or group's stream says only that one of its tables changed, or that it changed
itself (an organiser's change, a payment: ``event_changed``, ``group_changed``): its number is
this process's count of the changes heard while it has streams open for it, and rises by one for
each (a sum of its tables' revisions, worked out in the saving transaction, would not do: two
tables saved at once would both announce the same sum). Its page fetches its live parts when
the number changes, and when a stream opens, since it may have missed something before; each
fetch carries the mark the page shows, and is answered 204 if it is still the mark, so a
fetch for nothing costs two small reads.

Streams do not go through Django's request handler (``streams``, which ledger/asgi.py puts in
front of it): that handler keeps a thread, and until the request ends a database connection,
for every request, and a stream's request lasts as long as its page. Here a stream is a task
of the event loop and nothing more; the link is looked up, and the guess limit applied, by
the same code as for a page (ledger.web.middleware.GuessLimitMiddleware), on a thread of a small
shared pool. A process holds at most ``settings.STREAMS_PER_PROCESS`` streams, and one address
at most ``settings.STREAMS_PER_ADDRESS`` of them (``Held``): past either, the page polls.

A stream that breaks comes back with the last revision it saw, and is sent the table's
current one at once: nothing is missed. If the listening connection is lost (PostgreSQL
restarted), it connects again and, before listening on, reads the revisions of the tables it
watches, and tells the events' and groups' streams that something may have changed, since what
was announced meanwhile was not heard.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from typing import Any
from weakref import WeakKeyDictionary

import psycopg
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import (
    DatabaseError,
    InterfaceError,
    OperationalError,
    close_old_connections,
    connection,
)
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from ledger import changes
from ledger.links import NoSuchLink
from ledger.web import limits
from ledger.web.middleware import GuessLimitMiddleware
from ledger.web.shedding import Shedding, busy, retry_after, shed
from ledger.web.views import outage

log = logging.getLogger(__name__)

CHANNEL = "ledger_tables"  # migration 0042's trigger sends on it too
HEARTBEAT = 20.0  # seconds between two sends of an unchanged revision
RETRY_MS = 2000  # how soon a browser connects again after a stream broke
SQLITE_EVERY = 0.5  # seconds between two reads of the watched revisions, on SQLite
RECONNECT_FIRST, RECONNECT_MOST = 0.5, 10.0  # seconds between two tries to listen again

# What a stream watches: ("table", pk), ("event", pk) or ("group", pk).
Key = tuple[str, int]


@dataclass(frozen=True, slots=True)
class Tables:
    """What the tables' streams need from the tables' domain."""

    watched: Callable[[str], tuple[int, int]]
    """The table a link opens and its revision now; NoSuchLink if it opens none."""
    revisions: Callable[[list[int]], Mapping[int, int]]
    """Tables' revisions now."""
    part: Callable[[str, int, str], str]
    """A table's live part, from its link, at a revision, in a language."""


@dataclass(frozen=True, slots=True)
class Around:
    """What an event's or group's streams need from its domain."""

    watched: Callable[[str], tuple[int, str]]
    """The event or group a link opens and its mark now; NoSuchLink if it opens none."""
    marks: Callable[[list[int]], Mapping[int, str]]
    """Events' or groups' marks now (SQLite)."""


_kinds: dict[str, Tables | Around] = {}  # by what a stream watches: table, event, group
_letters: dict[str, str] = {}  # what a stream watches, by the letter of its path


def register(letter: str, kind: str, found: Tables | Around) -> None:
    """Streams at /<letter>/<link>/stream/ watch a ``kind``: "table" (``Tables``), "event" or
    "group" (``Around``), found as ``found`` says. Every process registers each at startup
    (ledger.apps)."""
    _kinds[kind] = found
    _letters[letter] = kind


def _tables() -> Tables:
    found = _kinds.get("table")
    if not isinstance(found, Tables):
        raise RuntimeError("No tables' streams are registered (ledger.apps registers them)")
    return found


def announce_changes() -> None:
    """Tell every server process of the changes the domains announce (ledger.changes): on
    PostgreSQL by NOTIFY. Connected once in every process (ledger.apps). A table's new revision
    PostgreSQL announces itself, in the same payload (migration 0042)."""
    changes.event_changed.connect(_event_changed, dispatch_uid="ledger.web.push")
    changes.group_changed.connect(_group_changed, dispatch_uid="ledger.web.push")


def _event_changed(sender: object, *, event: int, **signal: object) -> None:
    _notify(f"0 0 {event} 0")


def _group_changed(sender: object, *, group: int, **signal: object) -> None:
    _notify(f"0 0 0 {group}")


def _notify(payload: str) -> None:
    """NOTIFY every server process (see ``Hub.hear``), on PostgreSQL; on SQLite they read the
    changes themselves. Sent once the change is committed: if the database cannot be reached
    meanwhile, the change stays made, and the phones see it with the next."""
    if connection.vendor != "postgresql":
        return
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload])
    except DatabaseError as error:
        log.warning("A change was saved but not announced to the streams (%s)", error)


class Watch:
    """What a stream sends, as this process last heard it, and a way to wait for the next: a
    table's revision, or how many changes to an event's or group's tables it heard. ``mark``:
    on SQLite, an event's or group's mark as last read (``Around.marks``)."""

    def __init__(self, revision: int, mark: str = "") -> None:
        self.revision = revision
        self.mark = mark
        self.streams = 0
        self._changed = asyncio.Event()
        self._parts: dict[tuple[int, str], asyncio.Future[str]] = {}  # (revision, language)

    def publish(self, revision: int) -> None:
        """A revision heard; revisions only rise, so an older one heard late changes nothing."""
        if revision > self.revision:
            self.revision = revision
            self._parts = {}
            self._changed.set()
            self._changed = asyncio.Event()

    def part(self, carried: Carried, revision: int) -> Awaitable[str]:
        """The table's live part at ``revision`` in the page's language: rendered (or read
        from the shared cache) once for all this process's streams of the table. A render
        that failed is tried again by the next stream that asks."""
        key = (revision, carried.language)
        made = self._parts.get(key)
        if made is None or (made.done() and (made.cancelled() or made.exception() is not None)):
            render = sync_to_async(_render, thread_sensitive=False)
            made = self._parts[key] = asyncio.ensure_future(
                render(carried.token, revision, carried.language)
            )
        return asyncio.shield(made)  # a stream that goes does not cancel it for the others

    def touch(self) -> None:
        """A change heard to one of an event's or group's tables."""
        self.publish(self.revision + 1)

    async def after(self, seen: int, timeout: float) -> int:
        """The revision once it is not ``seen``, or as it is after ``timeout`` seconds."""
        if self.revision == seen:
            with suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout)
        return self.revision


class Hub:
    """The tables, events and groups this process has streams open for, and the one task that
    hears of their changes: PostgreSQL's listener, or SQLite's reader."""

    def __init__(self) -> None:
        self.watches: dict[Key, Watch] = {}
        self._hearing: asyncio.Task[None] | None = None
        self._wait = RECONNECT_FIRST  # before listening again, after a failure
        self._lost = False  # the listening connection was lost: changes may have gone unheard

    @contextmanager
    def watch(self, key: Key, revision: int, mark: str = "") -> Iterator[Watch]:
        watch = self.watches.get(key)
        if watch is None:
            watch = self.watches[key] = Watch(revision, mark)
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
                del self.watches[key]

    def watched(self, kind: str) -> list[int]:
        return [pk for watched_kind, pk in self.watches if watched_kind == kind]

    def publish(self, revisions: Iterable[tuple[int, int]]) -> None:
        """Tables' revisions heard."""
        for table, revision in revisions:
            if (watch := self.watches.get(("table", table))) is not None:
                watch.publish(revision)

    def touch(self, keys: Iterable[Key]) -> None:
        """Changes heard to events' or groups' tables."""
        for key in keys:
            if (watch := self.watches.get(key)) is not None:
                watch.touch()

    def hear(self, payload: str) -> None:
        """A NOTIFY's payload: "table revision event group", 0 for none (just "table revision"
        from a server of before events' and groups' streams; "0 0 event group" for a change to
        an event or group that no table's revision carries)."""
        table, revision, *around = (int(part) for part in payload.split())
        self.publish([(table, revision)])
        self.touch(key for key in zip(("event", "group"), around, strict=False) if key[1])

    def compare(self, marks: Mapping[Key, str]) -> None:
        """Events' and groups' marks as read now (SQLite): each that differs is a change."""
        for key, mark in marks.items():
            if (watch := self.watches.get(key)) is not None and watch.mark != mark:
                watch.mark = mark
                watch.touch()

    async def _listen(self) -> None:
        """PostgreSQL: one connection per process listens, for as long as the process runs."""
        while True:
            try:
                await self._listen_once()
            except (psycopg.Error, OSError, DatabaseError) as error:
                self._lost = True
                log.warning(
                    "Listening for table changes failed (%s): again in %.1f s", error, self._wait
                )
            await asyncio.sleep(self._wait)
            self._wait = min(self._wait * 2, RECONNECT_MOST)

    async def _listen_once(self) -> None:
        params = listener_params(settings.DATABASES["default"])
        async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as listener:
            await listener.execute(f"LISTEN {CHANNEL}")
            # What changed while nobody listened (the first time, or after a lost connection).
            if tables := self.watched("table"):
                read = sync_to_async(_revisions_now, thread_sensitive=False)
                self.publish(await read(tables))
            if self._lost:
                self.touch(key for key in self.watches if key[0] != "table")
                self._lost = False
            log.info("Listening for table changes")
            self._wait = RECONNECT_FIRST
            while True:
                async for heard in listener.notifies(timeout=HEARTBEAT):
                    self.hear(heard.payload)
                await listener.execute("SELECT 1")  # a quiet while: is the connection alive?

    async def _read(self) -> None:
        """SQLite: read the watched tables' revisions, events' and groups' marks, while there
        are any."""
        while self.watches:
            try:
                revisions, marks = await sync_to_async(_read_now)(list(self.watches))
                self.publish(revisions)
                self.compare(marks)
            except Exception:  # the next read tries again; a stream must not die of it
                log.exception("Reading the watched tables' revisions failed")
            await asyncio.sleep(SQLITE_EVERY)


# Options of settings.DATABASES that Django's backend reads itself and psycopg does not know.
_DJANGO_OPTIONS = ("assume_role", "isolation_level", "pool", "server_side_binding")


def listener_params(database: Mapping[str, Any]) -> dict[str, Any]:
    """What psycopg needs to reach ``database`` (an entry of ``settings.DATABASES``) for the
    listening connection, which is not one of Django's (it is async, and held for as long as
    the process runs): its name, user, password, host and port in psycopg's words, and its
    options but Django's own, as Django's PostgreSQL backend passes them; no statement is
    prepared, as in Django's own connections.

    >>> params = listener_params({"NAME": "ledger", "USER": "app", "PASSWORD": "", "HOST": "db",
    ...     "PORT": 5432, "OPTIONS": {"sslmode": "require", "isolation_level": 2}})
    >>> sorted(params.items())  # doctest: +NORMALIZE_WHITESPACE
    [('client_encoding', 'UTF8'), ('dbname', 'ledger'), ('host', 'db'), ('port', 5432),
     ('prepare_threshold', None), ('sslmode', 'require'), ('user', 'app')]
    """
    options = {
        key: value
        for key, value in database.get("OPTIONS", {}).items()
        if key not in _DJANGO_OPTIONS
    }
    params = {"dbname": database["NAME"], **options} if database.get("NAME") else options
    params["client_encoding"] = "UTF8"
    params.setdefault("prepare_threshold", None)
    named = {"user": "USER", "password": "PASSWORD", "host": "HOST", "port": "PORT"}
    params.update({key: database[name] for key, name in named.items() if database.get(name)})
    return params


def _revisions_now(tables: list[int]) -> list[tuple[int, int]]:
    """The revisions of ``tables``, read as listening begins (again), on a thread of the shared
    pool: on a connection of its own, closed after, as the one before may have died with the
    server."""
    close_old_connections()
    try:
        return list(_tables().revisions(tables).items())
    finally:
        connection.close()


def _read_now(watched: list[Key]) -> tuple[list[tuple[int, int]], dict[Key, str]]:
    """The watched tables' revisions, and the watched events' and groups' marks: a read for
    each kind watched."""
    revisions: list[tuple[int, int]] = []
    marks: dict[Key, str] = {}
    for kind, found in _kinds.items():
        if not (pks := [pk for watched_kind, pk in watched if watched_kind == kind]):
            continue
        if isinstance(found, Tables):
            revisions = list(found.revisions(pks).items())
        else:
            marks.update(((kind, pk), mark) for pk, mark in found.marks(pks).items())
    return revisions, marks


_hubs: WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = WeakKeyDictionary()


def hub() -> Hub:
    """This process's hub (one per event loop: a server process runs one)."""
    loop = asyncio.get_running_loop()
    if loop not in _hubs:
        _hubs[loop] = Hub()
    return _hubs[loop]


def message(revision: int) -> str:
    return f"id: {revision}\nevent: revision\ndata: {revision}\n\n"


def live_message(revision: int, html: str) -> str:
    """The live part as one event: a line of data for each of its lines."""
    data = "".join(f"data: {line}\n" for line in re.split(r"\r\n|\r|\n", html.strip()))
    return f"id: {revision}\nevent: live\n{data}\n"


@dataclass(frozen=True, slots=True)
class Carried:
    """A table's page that takes its live part in its stream: the table's link, the page's
    language and the revision it shows."""

    token: str
    language: str
    shown: int


async def events(
    key: Key, revision: int, mark: str = "", carried: Carried | None = None
) -> AsyncIterator[str]:
    """A stream: a table's revision now, then each new one (an event's or group's number of
    changes heard), and the same every HEARTBEAT seconds while nothing changes; for a page
    that takes it (``carried``), the live part instead of each revision it does not show.
    Ends when the phone goes (``_stream`` cancels it)."""
    yield f"retry: {RETRY_MS * settings.LIVE_WAITS_PERCENT // 100}\n\n"
    with hub().watch(key, revision, mark) as watch:
        shown = carried.shown if carried else None
        sent = watch.revision
        while True:
            if carried is None or sent == shown:
                yield message(sent)
            else:
                yield await _live(watch, carried, sent)
                shown = sent
            sent = await watch.after(sent, HEARTBEAT)


async def _live(watch: Watch, carried: Carried, revision: int) -> str:
    """The live part's event; if it cannot be had, the revision's, and the page fetches it."""
    try:
        return live_message(revision, await watch.part(carried, revision))
    except DatabaseError as error:  # an outage (PostgreSQL restarting): not a bug
        log.warning("The live part of a table could not be read (%s): sent its revision", error)
    except Exception:
        log.exception("Rendering the live part of a table failed: sent its revision")
    return message(revision)


def _render(token: str, revision: int, language: str) -> str:
    """The live part, on a thread of the shared pool (``Watch.part``)."""
    close_old_connections()  # this thread's connection, if it is too old or broken
    return _tables().part(token, revision, language)


# ASGI, as uvicorn speaks it.
Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# A stream's path: /t/ a table's link, /e/ an event's results' link, /g/ a group's link (as
# registered).
STREAM = re.compile(r"/(\w)/([\w-]{1,32})/stream/")
HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),  # nginx: send each event as it comes
]


def streams(app: App) -> App:
    """``app`` with the tables', events' and groups' streams answered in front of it."""

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        match = STREAM.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if match is None or match[1] not in _letters:
            return await app(scope, receive, send)
        if scope["method"] not in ("GET", "HEAD"):
            return await _answer(send, HttpResponse(status=405, headers={"Allow": "GET, HEAD"}))
        request = ASGIRequest(scope, io.BytesIO())
        address = limits.client_address(request)
        if refused := held.take(request, address):
            return await _answer(send, refused)
        try:
            opened = await sync_to_async(_open, thread_sensitive=False)(request, *match.groups())
            if isinstance(opened, HttpResponse):
                return await _answer(send, opened)
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            if scope["method"] == "HEAD":
                return await send({"type": "http.response.body", "body": b""})
            await _stream(receive, send, opened)
        finally:
            held.give_back(address)

    return serve


STREAMS_RETRY_AFTER = 60  # seconds: the page polls meanwhile, and tries a stream again as late
_TOO_MANY_HERE = gettext_lazy(
    "Too many live pages are open from here: this page checks for changes every few seconds "
    "instead."
)
_FULL = gettext_lazy(
    "This server follows as many live pages as it can: this page checks for changes every few "
    "seconds instead."
)


class Held:
    """The streams this process holds, in all and per client address: past
    ``settings.STREAMS_PER_ADDRESS`` from one address (a club's Wi-Fi puts a hall behind one)
    the next is refused with 429, past ``settings.STREAMS_PER_PROCESS`` with 503, each with
    Retry-After, and its page polls. Counted in this process alone, by its event loop's one
    thread (docs/operations.md says why not in the shared store)."""

    def __init__(self) -> None:
        self.streams = 0
        self.of: Counter[str] = Counter()
        self.refused = Shedding("streams refused past a cap (503, or 429 for an address)")

    def take(self, request: HttpRequest, address: str) -> HttpResponse | None:
        """Count one more stream for ``address``; past a cap, the refusal, and nothing counted."""
        if self.of[address] >= settings.STREAMS_PER_ADDRESS:
            return self._refusal(request, 429, _TOO_MANY_HERE)
        if self.streams >= settings.STREAMS_PER_PROCESS:
            return self._refusal(request, 503, _FULL)
        self.streams += 1
        self.of[address] += 1
        return None

    def _refusal(self, request: HttpRequest, status: int, message: Promise) -> HttpResponse:
        self.refused.add()
        with translation.override(translation.get_language_from_request(request)):
            body = str(message)
        refusal = HttpResponse(body, status=status, content_type="text/plain; charset=utf-8")
        refusal["Retry-After"] = retry_after(STREAMS_RETRY_AFTER)
        return refusal

    def give_back(self, address: str) -> None:
        self.streams -= 1
        self.of[address] -= 1
        if not self.of[address]:
            del self.of[address]


held = Held()


@dataclass(frozen=True, slots=True)
class Opened:
    """What a stream watches, and what it starts from (``events``)."""

    key: Key
    revision: int = 0
    mark: str = ""
    carried: Carried | None = None


def _opened(kind: str, token: str) -> Opened:
    """What a stream of a ``kind`` at the link ``token`` watches, and what it starts from;
    NoSuchLink if the link opens nothing."""
    found = _kinds[kind]
    if isinstance(found, Tables):
        table, revision = found.watched(token)
        return Opened((kind, table), revision)
    pk, mark = found.watched(token)
    return Opened((kind, pk), mark=mark)


def _open(request: ASGIRequest, letter: str, token: str) -> Opened | HttpResponse:
    """What a stream's link opens, or the answer to give instead: 404 for a link that matches
    nothing, 429 past the guess limit, as for any page's link; past capacity (a request that
    waited too long to be taken, as for a poll) or without the database (an outage: the guess
    limit's count or the link cannot be read) 503 with Retry-After, and the page polls."""
    if shed(request):
        return busy(request)
    close_old_connections()  # this thread's connection, if it is too old or broken
    found: list[Opened] = []

    def look_up(request: HttpRequest) -> HttpResponse:
        try:
            found.append(_opened(_letters[letter], token))
        except NoSuchLink as missing:
            limits.mark_wrong_link(request)
            return HttpResponse(str(missing), status=404, content_type="text/plain")
        return HttpResponse()

    language = translation.get_language_from_request(request)
    with translation.override(language):
        try:
            answer = GuessLimitMiddleware(look_up)(request)
        except (OperationalError, InterfaceError) as error:  # as ledger.web.views.server_error
            log.warning("A stream could not be opened, the database is out of reach: %s", error)
            return outage(request)
    if not found or answer.status_code != 200:
        return answer
    if found[0].key[0] == "table" and "rev" in request.GET:
        return replace(found[0], carried=Carried(token, language, _shown(request)))
    return found[0]


def _shown(request: HttpRequest) -> int:
    """The revision a table's page shows: the last its stream sent when its browser opens the
    stream again (Last-Event-ID), else the one it was shown with (``?rev=``); -1 if neither
    is a revision, and the page is sent the live part as it is."""
    shown = request.headers.get("Last-Event-ID") or request.GET.get("rev", "")
    return int(shown) if shown.isascii() and shown.isdigit() and len(shown) < 10 else -1


async def _answer(send: Send, response: HttpResponse) -> None:
    headers = [(k.lower().encode(), v.encode()) for k, v in response.items()]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})


async def _stream(receive: Receive, send: Send, opened: Opened) -> None:
    """Send the stream's events until the phone goes."""

    async def sending() -> None:
        async for event in events(opened.key, opened.revision, opened.mark, opened.carried):
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
