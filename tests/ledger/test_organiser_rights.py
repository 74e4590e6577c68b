"""A player's link never makes anyone an organiser, nor does what an organiser does (issue 45,
item 1): every route of the URLconf, pages and API, is either an organiser's (it grants or
uses the organiser's rights of a table, group or tournament) or a player's; a route that is
neither fails here, so a new one cannot be forgotten.

A browser holding only players' and read-only links (a lone table's, a group's and its table's,
a tournament's table, registration and results links) first sends what it likes to every
player's route, with each of its links in every token's place; then to every organiser's
route, the same way (the API also with each link as ``X-Organiser-Token``): every organiser's
route refuses it (403, or 404 for a link that is not that route's), and nothing is stored.
Before the fix, a lone table's link started a group at ``/t/<token>/group/`` with that browser
its organiser, who then locked the table."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from rest_framework.test import APIClient

from ledger.events import services as event_services
from ledger.groups import services as group_services
from ledger.models import LimitCount, TableSession
from ledger.tables import services

# The organiser's routes: each grants the organiser's rights (the organiser links; a group made
# of a lone table, whose organiser organises the table) or uses them.
ORGANISERS = {
    "/t/<token:token>/hands/<number:number>/void/",
    "/t/<token:token>/lock/",
    "/t/<token:token>/ends/",
    "/t/<token:token>/organise/<token:organiser_token>/",
    "/t/<token:token>/group/",
    "/t/<token:token>/remove/",
    # A tournament's organiser link is its token: every /o/ route is the organiser's.
    "/o/<token:token>/",
    "/o/<token:token>/players/",
    "/o/<token:token>/players/group/",
    "/o/<token:token>/players/drop/",
    "/o/<token:token>/rounds/",
    "/o/<token:token>/undo/",
    "/o/<token:token>/rounds/<number:number>/begin/",
    "/o/<token:token>/rounds/<number:number>/swap/",
    "/o/<token:token>/rounds/<number:number>/cards/",
    "/g/<token:token>/organise/<token:organiser_token>/",
    "/g/<token:token>/payments/<number:payment>/void/",
    "/g/<token:token>/settings/",
    "/g/<token:token>/evening/",
    "/api/v1/sessions/<token:token>/lock/",
    "/api/v1/sessions/<token:token>/ends/",
    "/api/v1/sessions/<token:token>/hands/<number:number>/void/",
    "/api/v1/events/<token:event_token>/",
    "/api/v1/events/<token:event_token>/entries/",
    "/api/v1/events/<token:event_token>/entries/drop/",
    "/api/v1/events/<token:event_token>/rounds/",
    "/api/v1/events/<token:event_token>/rounds/<number:number>/begin/",
    "/api/v1/events/<token:event_token>/rounds/<number:number>/swap/",
    "/api/v1/groups/<token:group_token>/payments/<number:payment>/void/",
}

# A player's route whose other methods are the organiser's: a table's players read it through
# the API, its organiser alone removes it (DELETE).
ORGANISERS_METHODS = {"/api/v1/sessions/<token:token>/": {"delete"}}

# A player's routes: what a joined phone, a group's member or a read-only link may do. Those
# that start something (a table, a group, a tournament) make the sender organise what they
# started, and nothing else.
PLAYERS = {
    # The site's own pages, and starting a table, a group or a tournament.
    "/",
    "/ping/",
    "/healthz",
    "/readyz",
    "/manifest.webmanifest",
    "/sw.js",
    "/offline/",
    "/new/",
    "/events/new/",
    "/groups/new/",
    "/i18n/setlang/",
    # A table's players' link: its hands, corrections, pages, exports; play again (a new table).
    "/t/<token:token>/",
    "/t/<token:token>/hands/",
    "/t/<token:token>/preview/",
    "/t/<token:token>/me/",  # "I am Bob": names who acts from the phone, gives no right
    "/t/<token:token>/live/",
    "/t/<token:token>/stream/",
    "/t/<token:token>/qr.svg",
    "/t/<token:token>/hands/<number:number>/",
    "/t/<token:token>/history/",
    "/t/<token:token>/again/",
    "/t/<token:token>/summary/",
    "/t/<token:token>/export/<slug:kind>.csv",
    # The read-only link.
    "/s/<token:token>/",
    "/s/<token:token>/export/<slug:kind>.csv",
    # A tournament's registration and results links.
    "/j/<token:token>/",
    "/e/<token:token>/",
    "/e/<token:token>/stream/",
    "/e/<token:token>/projector/",
    "/e/<token:token>/players/<path:name>/",
    "/e/<token:token>/<slug:kind>.csv",
    # A group's members' link: its pages, its tables (started ones too) and payments.
    "/g/<token:token>/",
    "/g/<token:token>/stream/",
    "/g/<token:token>/me/",
    "/g/<token:token>/tables/",
    "/g/<token:token>/tables/new/",
    "/g/<token:token>/tables/<number:table>/again/",
    "/g/<token:token>/tables/<number:table>/next/",
    "/g/<token:token>/payments/",
    "/g/<token:token>/payments/new/",
    "/g/<token:token>/players/<number:player>/",
    "/g/<token:token>/statistics/",
    "/g/<token:token>/export/<slug:kind>.csv",
    # The API, as the pages.
    "/api/v1/score",
    "/api/v1/games/",
    "/api/v1/players/",
    "/api/v1/auth/token/",
    "/api/v1/sessions/",
    "/api/v1/sessions/<token:token>/",
    "/api/v1/sessions/<token:token>/hands/",
    "/api/v1/sessions/<token:token>/hands/<number:number>/",
    "/api/v1/sessions/<token:token>/history/",
    "/api/v1/sessions/<token:token>/export/<slug:kind>.csv",
    "/api/v1/shared/<token:read_token>/",
    "/api/v1/events/",
    "/api/v1/register/<token:register_token>/",
    "/api/v1/results/<token:results_token>/",
    "/api/v1/results/<token:results_token>/<slug:kind>.csv",
    "/api/v1/groups/",
    "/api/v1/groups/<token:group_token>/",
    "/api/v1/groups/<token:group_token>/statistics/",
    "/api/v1/groups/<token:group_token>/ratings/",
    "/api/v1/groups/<token:group_token>/export/<slug:kind>.csv",
    "/api/v1/groups/<token:group_token>/payments/",
    "/api/v1/schema/",
    "/api/v1/docs/",
}

# Streams hold the answer open: read-only, tested on their own (tests/tables/test_streams.py).
NOT_SENT = {route for route in PLAYERS if route.endswith("/stream/")}


def _routes(patterns: list[URLPattern | URLResolver], prefix: str = "/") -> Iterator[str]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if route == "/admin/":  # Django's admin: its staff accounts, not a table's links
            continue
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        else:
            yield route


def test_every_route_is_an_organiser_s_or_a_player_s():
    routes = set(_routes(get_resolver().url_patterns))

    assert routes - ORGANISERS - PLAYERS == set(), "say whose each new route is"
    assert not ORGANISERS & PLAYERS
    assert (ORGANISERS | PLAYERS) - routes == set(), "a route no longer there"


HAND = {
    "first": "Anna",
    "direction": "ccw",
    "results": {"Anna": {"pips": 2}, "Bob": {"pips": 12}, "Celine": {"pips": 20}},
}
THREE = ["Anna", "Bob", "Celine"]


class World:
    """A lone table, a group with a table and a payment, a tournament with a round seated:
    each with a hand played where it has a table."""

    def __init__(self) -> None:
        self.lone = services.session_create(
            game="jie-long", options={}, seating=THREE, first="Anna"
        )
        services.hand_record(session=self.lone, number=1, data=HAND)
        self.group = group_services.group_create(name="Teahouse", game="jie-long", options={})
        self.at_group = group_services.table_start(group=self.group, seating=THREE, first="Anna")
        services.hand_record(session=self.at_group, number=1, data=HAND)
        self.payment = group_services.payment_record(
            group=self.group, payer="Anna", payee="Bob", amount="5"
        ).payment
        self.event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=2)
        for name in THREE:
            event_services.entry_add(event=self.event, name=name, organiser=True)
        event_services.round_seat(event=self.event)
        self.at_event = TableSession.objects.get(round__event=self.event)
        services.hand_record(session=self.at_event, number=1, data=HAND)

    @property
    def links(self) -> list[str]:
        """Every player's and read-only link there is."""
        tables = (self.lone, self.at_group, self.at_event)
        return [
            *(table.token for table in tables),
            *(table.read_token for table in tables),
            self.group.token,
            self.event.register_token,
            self.event.read_token,
        ]

    @property
    def pages(self) -> list[str]:
        """Where those links lead: what the player's browser opened."""
        tables = (self.lone, self.at_group, self.at_event)
        return [
            *(f"/t/{table.token}/" for table in tables),
            *(f"/s/{table.read_token}/" for table in tables),
            f"/g/{self.group.token}/",
            f"/j/{self.event.register_token}/",
            f"/e/{self.event.read_token}/",
        ]

    def _numbered(self, route: str) -> str:
        """``route`` with what its numbers name (a hand or a round, a payment, the group's
        table, a player), an export and a player's name in place: its tokens left to fill."""
        numbers = {
            "number": "1",
            "payment": str(self.payment.pk),
            "table": str(self.at_group.pk),
            "player": str(self.payment.payer_id),
        }
        fixed = re.sub(r"<number:(\w+)>", lambda m: numbers[m[1]], route)
        return fixed.replace("<slug:kind>", "hands").replace("<path:name>", "Anna")

    def urls(self, route: str) -> Iterator[str]:
        """``route`` with each link in each token's place."""
        fixed = self._numbered(route)
        slots = re.findall(r"<token:\w+>", fixed)
        if not slots:
            yield fixed
            return
        for link in self.links:
            for other in self.links if len(slots) > 1 else [link]:
                first = fixed.replace(slots[0], link, 1)
                yield first.replace(slots[1], other, 1) if len(slots) > 1 else first

    def organised(self, route: str) -> tuple[str, str]:
        """``route`` as its organiser asks it: the right links in it, and the organiser token
        the API is sent with."""
        table, event, group = self.lone, self.event, self.group
        rights = {  # by the start of the route: its links, and its organiser token
            "/t/": ([table.token, table.organiser_token], table.organiser_token),
            "/api/v1/sessions/": ([table.token], table.organiser_token),
            "/o/": ([event.token], ""),
            "/api/v1/events/": ([event.token], ""),
            "/g/": ([group.token, group.organiser_token], group.organiser_token),
            "/api/v1/groups/": ([group.token], group.organiser_token),
        }
        links, organiser = next(held for start, held in rights.items() if route.startswith(start))
        url = self._numbered(route)
        for slot, link in zip(re.findall(r"<token:\w+>", url), links, strict=False):
            url = url.replace(slot, link, 1)
        return url, organiser


# What an organiser would send to each organiser's route (and much besides): sent by a player,
# it must not matter.
FORM = {
    "locked": "1",
    "play_to": "500",
    "version": "1",
    "name": "Mallory",
    "reason": "mine now",
    "first": "Anna",
    "second": "Bob",
    "steps": "1",
    "game": "jie-long",
    "player_0": "Anna",
    "player_1": "Bob",
    "player_2": "Celine",
    "from": "Anna",
    "to": "Bob",
    "payer": "Anna",
    "payee": "Bob",
    "amount": "1",
    "unit": "money",
}
BODY = {
    "locked": True,
    "play_to": 500,
    "hands": None,
    "version": 1,
    "name": "Mallory",
    "reason": "mine now",
    "first": "Anna",
    "second": "Bob",
    "game": "jie-long",
    "seating": THREE,
    "from": "Anna",
    "to": "Bob",
    "amount": "1",
}


def _sent(
    browser: Client,
    api: APIClient,
    url: str,
    organiser: str = "",
    *,
    only: set[str] | None = None,
    but: set[str] | frozenset[str] = frozenset(),
) -> list[int]:
    """Every way ``url`` may be asked: a page's GET and form, the API's methods as JSON (those
    named ``only``, if given, and none of ``but``)."""
    if url.startswith("/api/"):
        headers = {"HTTP_IDEMPOTENCY_KEY": secrets.token_urlsafe(12)}
        if organiser:
            headers["HTTP_X_ORGANISER_TOKEN"] = organiser
        view = resolve(url).func.cls  # type: ignore[attr-defined]
        methods = [
            method
            for method in ("get", "post", "put", "patch", "delete")
            if hasattr(view, method) and method not in but and (only is None or method in only)
        ]
        return [
            getattr(api, method)(
                url, None if method == "get" else BODY, format="json", **headers
            ).status_code
            for method in methods
        ]
    form = {**FORM, "key": secrets.token_urlsafe(12)}
    return [browser.get(url).status_code, browser.post(url, form).status_code]


def _stored() -> dict[str, list[dict[str, Any]]]:
    """Everything the ledger stores, but the guess and throttle counts."""
    return {
        model.__name__: json.loads(
            json.dumps(list(model.objects.order_by("pk").values()), default=str)
        )
        for model in apps.get_app_config("ledger").get_models()
        if model is not LimitCount
    }


@pytest.fixture
def unlimited(settings):
    """A player sending everything everywhere is no guesser, and sends more than a minute's."""
    settings.GUESS_LIMIT = 10**9
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"writes": "1000000/min", "codes": "1000000/min"},
    }


def test_no_player_s_or_read_only_link_reaches_an_organiser_s_route(db, unlimited):
    world = World()
    browser, api = Client(), APIClient()
    for page in world.pages:
        assert browser.get(page).status_code == 200, page

    for route in sorted(PLAYERS - NOT_SENT):
        for url in world.urls(route):
            answers = _sent(browser, api, url, but=ORGANISERS_METHODS.get(route, frozenset()))
            assert all(status < 500 for status in answers), (url, answers)

    before = _stored()
    for route in sorted(ORGANISERS | set(ORGANISERS_METHODS)):
        reached = []
        only = ORGANISERS_METHODS.get(route)
        for url in world.urls(route):
            answers = _sent(browser, api, url, only=only)
            assert set(answers) <= {403, 404, 405}, (url, answers)
            reached += [status for status in answers if status != 405]
            if url.startswith("/api/") and set(answers) != {404}:  # the route's own link
                for organiser in world.links:  # sent as the organiser token
                    answers = _sent(browser, api, url, organiser, only=only)
                    assert set(answers) <= {403, 404, 405}, (url, organiser, answers)
        assert reached, f"{route}: no method was tried"
        assert _stored() == before, f"{route} changed what is stored"

    for table in (world.lone, world.at_group, world.at_event):
        page = browser.get(f"/t/{table.token}/").content.decode()
        assert table.organiser_token not in page and 'id="organiser"' not in page
    assert (
        world.group.organiser_token not in browser.get(f"/g/{world.group.token}/").content.decode()
    )


def test_every_organiser_s_route_answers_its_organiser(db, unlimited):
    """The refusals above are the rights': each route, with the right links, is reached by its
    organiser (a browser that opened the organiser links; the API with the organiser token)."""
    world = World()
    browser, api = Client(), APIClient()
    for table_or_group in (world.lone, world.group):
        kind = "t" if table_or_group is world.lone else "g"
        token, organiser = table_or_group.token, table_or_group.organiser_token
        assert browser.get(f"/{kind}/{token}/organise/{organiser}/").status_code == 302
    assert browser.get(f"/o/{world.event.token}/").status_code == 200

    for route in sorted(ORGANISERS | set(ORGANISERS_METHODS)):
        url, organiser = world.organised(route)
        answers = _sent(browser, api, url, organiser, only=ORGANISERS_METHODS.get(route))
        assert all(status < 500 for status in answers), (url, answers)
        assert set(answers) - {403, 404, 405}, (url, answers)
