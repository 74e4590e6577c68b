"""Security headers: a Content-Security-Policy that every page keeps, a Referrer-Policy that
never sends a table link elsewhere, and a device cookie that is Secure under HTTPS."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ledger.events import services as event_services
from ledger.models import TableSession
from ledger.tables import services
from tests.tables.conftest import SEATING, plain_hand

# Script types a browser runs; a <script type="application/json"> is data.
SCRIPT_TYPES = {"", "text/javascript", "module", "application/javascript"}


class Inline(HTMLParser):
    """What the policy would block: inline scripts, style elements and attributes, handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        runs = (named.get("type") or "").lower() in SCRIPT_TYPES
        if tag == "script" and runs and not named.get("src"):
            self.found.append(f"<script> at line {self.getpos()[0]}")
        if tag == "style":
            self.found.append(f"<style> at line {self.getpos()[0]}")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f'<{tag} {name}="{value}"> at line {self.getpos()[0]}')
            if name.startswith(("hx-on", "data-hx-on")) or (value or "").startswith("js:"):
                self.found.append(f'<{tag} {name}="{value}"> needs eval')


def inline_in(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.found


@pytest.fixture
def pages(ce_deng) -> dict[str, str]:
    """Every kind of page, by name: its path."""
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    event = event_services.event_create(name="Club", game="jie-long", options={}, rounds=2)
    for name in SEATING:
        event_services.entry_add(event=event, name=name, organiser=True)
    seated = event_services.round_seat(event=event)
    table = TableSession.objects.get(round=seated)
    return {
        "home": reverse("home"),
        "new table": reverse("session_new"),
        "table": reverse("table", args=[ce_deng.token]),
        "hand": reverse("hand_detail", args=[ce_deng.token, 1]),
        "history": reverse("history", args=[ce_deng.token]),
        "summary": reverse("summary", args=[ce_deng.token]),
        "shared": reverse("shared", args=[ce_deng.read_token]),
        "event new": reverse("event_new"),
        "event organise": reverse("event_organise", args=[event.token]),
        "event cards": reverse("event_cards", args=[event.token, seated.number]),
        "event register": reverse("event_register", args=[event.register_token]),
        "event results": reverse("event_results", args=[event.read_token]),
        "event projector": reverse("event_projector", args=[event.read_token]),
        "event player": reverse("event_player", args=[event.read_token, SEATING[0]]),
        "event table": reverse("table", args=[table.token]),
        "api docs": reverse("api-docs"),
        "admin login": reverse("admin:login"),
    }


PAGES = [
    "home", "new table", "table", "hand", "history", "summary", "shared", "event new",
    "event organise", "event cards", "event register", "event results", "event projector",
    "event player", "event table", "api docs", "admin login",
]  # fmt: skip


@pytest.mark.parametrize("name", PAGES)
def test_every_page_sends_the_policy_and_has_nothing_inline(client, pages, name):
    response = client.get(pages[name])

    assert response.status_code == 200
    header = response["Content-Security-Policy"]
    policy = dict(directive.strip().split(" ", 1) for directive in header.split(";"))
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["img-src"] == "'self' data:"
    assert policy["object-src"] == policy["base-uri"] == policy["frame-ancestors"] == "'none'"
    assert policy["form-action"] == "'self'"
    assert inline_in(response.content.decode()) == []
    # Table, hand and event links carry their token: no other site is ever sent one.
    assert response["Referrer-Policy"] == "same-origin"


def test_the_api_docs_set_up_swagger_ui_from_a_script_of_their_own(client, db):
    page = client.get(reverse("api-docs")).content.decode()
    script = client.get(reverse("api-docs"), {"script": ""})

    assert 'src="/api/v1/docs/?script="' in page
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle(" in script.content.decode()
    assert '"validatorUrl": null' in script.content.decode()  # swagger.io is not told the URL


@pytest.fixture
def admin_client(client, db):
    client.force_login(User.objects.create_superuser("admin", password="a long password"))
    return client


@pytest.mark.parametrize(
    "path",
    [
        "/admin/",
        "/admin/ledger/tablesession/",
        "/admin/ledger/player/",
        "/admin/ledger/hand/",
        "/admin/auth/user/add/",
    ],
)
def test_the_admin_has_nothing_inline_either(admin_client, ce_deng, path):
    response = admin_client.get(path)

    assert response.status_code == 200
    assert "Content-Security-Policy" in response
    assert inline_in(response.content.decode()) == []


def test_the_admin_change_form_has_nothing_inline(admin_client, ce_deng):
    response = admin_client.get(reverse("admin:ledger_tablesession_change", args=[ce_deng.pk]))

    assert response.status_code == 200
    assert inline_in(response.content.decode()) == []


def _claimed(client, table, **extra):
    """The answer to a phone's "I am Anna" (ledger.players.views), which holds it in the
    phone's session."""
    return client.post(
        reverse("table_me", args=[table.token]), {"player": table.leader_id}, **extra
    )


def test_whose_phone_it_is_is_kept_in_a_secure_cookie_under_https_never_read_by_scripts(
    client, ce_deng, settings
):
    settings.HTTPS = settings.SESSION_COOKIE_SECURE = True

    cookie = _claimed(client, ce_deng, secure=True).cookies[settings.SESSION_COOKIE_NAME]

    assert cookie["secure"] is True
    assert cookie["httponly"] is True
    assert cookie["samesite"] == "Lax"
    assert cookie["max-age"] == 365 * 24 * 3600  # remembered a year, not two weeks


def test_whose_phone_it_is_is_kept_on_the_plain_http_of_a_home_wifi(client, ce_deng, settings):
    cookie = _claimed(client, ce_deng).cookies[settings.SESSION_COOKIE_NAME]

    assert cookie["secure"] == ""
    assert cookie["httponly"] is True


def test_the_referrer_policy_is_same_origin_in_production_too():
    from tests.ledger.test_settings import PRODUCTION, manage

    code = "from django.conf import settings; print(settings.SECURE_REFERRER_POLICY)"
    result = manage("shell", "-c", code, **PRODUCTION)

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "same-origin"
