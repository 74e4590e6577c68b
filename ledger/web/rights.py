"""An organiser's rights as a browser holds them: in its Django session, by the links it opened.

A browser organises a table it started or whose organiser link it opened, and every table of an
event or a group whose organiser link it opened (or that it started); an organiser account has
the same rights wherever it signs in (``TableSession.organised_by``). A new table's start key
is its sender's (``sender``), so that a key sent again by someone else opens nothing of theirs.

What the rights are held over is read through the few fields they need (``Table``, ``Held``),
which the tables', events' and groups' models have: what every page shares imports no domain.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Protocol, TypeVar

from django.conf import settings
from django.http import HttpRequest

from ledger.web.limits import client_address

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser

TABLES = "organiser_of"  # in the Django session: pks of the tables this browser organises
EVENTS = "events_organised"  # and of the events whose organiser link it opened
GROUPS = "groups_organised"  # and of the groups it started or whose organiser link it opened
SEEN = "groups_seen"  # pks of the groups this browser belongs to (opened their or a table's link)


class Held(Protocol):
    """What a right is held over, by its id: an event or a group (ledger.events.models.Event,
    ledger.groups.models.Group)."""

    @property
    def pk(self) -> int: ...


class Round(Protocol):
    """A tournament's round, for the event that seated a table (ledger.events.models.Round)."""

    @property
    def event(self) -> Held: ...


Group = TypeVar("Group", bound=Held, covariant=True)


class Table(Protocol[Group]):
    """A table as its rights are read (ledger.tables.models.TableSession)."""

    @property
    def pk(self) -> int: ...

    @property
    def group_id(self) -> int | None: ...

    @property
    def group(self) -> Group | None: ...

    @property
    def round(self) -> Round | None: ...

    def organised_by(self, user: AbstractBaseUser | AnonymousUser) -> bool: ...


def organises(request: HttpRequest, session: Table[Held]) -> bool:
    """This browser started the table or opened its organiser link, or is signed in as the
    organiser account that started it through the API; at a tournament's table, it organises
    the tournament (opened the event's organiser link, or is the account that set it up)."""
    if session.organised_by(request.user) or session.pk in request.session.get(TABLES, []):
        return True
    if session.group_id is not None and session.group_id in request.session.get(GROUPS, []):
        return True  # a group's organiser organises its tables
    event = session.round.event if session.round is not None else None
    return event is not None and event.pk in request.session.get(EVENTS, [])


def grant_table(request: HttpRequest, session: Table[Held]) -> None:
    if session.pk not in request.session.get(TABLES, []):
        request.session[TABLES] = [*request.session.get(TABLES, []), session.pk]


def grant_event(request: HttpRequest, event: Held) -> None:
    """This browser organises the event's tables too (lock, void), as the organiser link does."""
    if event.pk not in request.session.get(EVENTS, []):
        request.session[EVENTS] = [*request.session.get(EVENTS, []), event.pk]


def organises_group(request: HttpRequest, group: Held) -> bool:
    """This browser started the group or opened its organiser link: it voids payments, and
    organises the group's tables."""
    return group.pk in request.session.get(GROUPS, [])


def grant_group(request: HttpRequest, group: Held) -> None:
    if group.pk not in request.session.get(GROUPS, []):
        request.session[GROUPS] = [*request.session.get(GROUPS, []), group.pk]


def saw_group(request: HttpRequest, group: Held) -> None:
    """This browser opened the group's link: it belongs to the group, and its tables' pages
    lead back to it."""
    _belongs(request, group.pk)


def joined_table(request: HttpRequest, session: Table[Held]) -> None:
    """This browser opened a table's player link: at a group's table, it belongs to the group
    as if it had opened the group's link (it reads and plays there, and follows the group to
    its next table). The organiser's rights come only by the organiser's link."""
    if session.group_id is not None:
        _belongs(request, session.group_id)


def _belongs(request: HttpRequest, group: int) -> None:
    if group not in request.session.get(SEEN, []):
        request.session[SEEN] = [*request.session.get(SEEN, []), group]


def group_of(request: HttpRequest, session: Table[Group]) -> Group | None:
    """The table's group, where this browser belongs to it (it opened the group's link or the
    player link of one of its tables): a read-only link says nothing of its group."""
    if session.group_id is None or session.group_id not in request.session.get(SEEN, []):
        return None
    return session.group


def sender(request: HttpRequest, user: AbstractBaseUser | AnonymousUser) -> str:
    """Whose a new table's start key is (``TableSession.sender``): the signed-in ``user``'s
    account; else the organiser token sent (the API's ``X-Organiser-Token``, a group's say);
    else this browser, by its CSRF cookie, which every form it posts carries and which was set
    when the form (and its key) was shown; else the address it comes from (a script with
    neither). Tokens, cookies and addresses are kept hashed: what is stored opens nothing."""
    if user.is_authenticated:
        return f"account:{user.pk}"
    held = [
        ("organiser", request.headers.get("X-Organiser-Token", "")),
        ("browser", request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")),
        ("address", client_address(request)),
    ]
    kind, secret = next((kind, secret) for kind, secret in held if secret or kind == "address")
    return f"{kind}:{hashlib.sha256(secret.encode()).hexdigest()}"
