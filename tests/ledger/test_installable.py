"""Installable, and usable with no network (ledger/web/pwa.py): the manifest, the service worker,
the page it shows for a page never opened, and what every page says about them. The worker
itself runs in tests/browser/test_offline.py."""

from __future__ import annotations

import json
import re
import struct
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import translation

from ledger.web import pwa
from tests.tables.conftest import form_post

CSS = Path(finders.find("ledger/ledger.css"))


def css_colour(name: str, scheme: str = "light") -> str:
    """A colour ledger.css defines, as #rrggbb: the light scheme's, or the dark's."""
    text = CSS.read_text()
    if scheme == "dark":
        text = text[text.index("(prefers-color-scheme: dark)") :]
    value = re.search(rf"--{name}: #(\w+);", text)[1]
    return "#" + (value if len(value) == 6 else "".join(c * 2 for c in value))


def png_size(path: Path) -> str:
    """A PNG's width x height, from its header."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return f"{width}x{height}"


def static_file(url: str) -> Path:
    found = finders.find(url.removeprefix("/static/"))
    assert isinstance(found, str), f"{url} is not a static file"
    return Path(found)


class Loads(HTMLParser):
    """The files a page loads: its scripts, style sheets, icons and manifest."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.meta: dict[str, str] = {}
        self.body: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script" and named.get("src"):
            self.urls.append(str(named["src"]))
        if tag == "link" and named.get("rel") in ("stylesheet", "icon", "apple-touch-icon"):
            self.urls.append(str(named["href"]))
        if tag == "link" and named.get("rel") == "manifest":
            self.meta["manifest"] = str(named["href"])
        if tag == "meta" and named.get("name") == "theme-color":
            media = named.get("media")
            self.meta[f"theme-color {media}" if media else "theme-color"] = str(named["content"])
        if tag == "body":
            self.body = named


def loads(html: str) -> Loads:
    parser = Loads()
    parser.feed(html)
    return parser


def worker_config(client: Client) -> dict:
    script = client.get(reverse("service_worker")).content.decode()
    return json.loads(re.search(r"^const CONFIG = (.*);$", script, re.MULTILINE)[1])


def test_the_manifest_names_the_app_its_start_its_colours_and_icons(client, db):
    response = client.get("/manifest.webmanifest")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == manifest["short_name"] == "Domino ledger"
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == css_colour("accent")
    assert manifest["background_color"] == css_colour("bg")
    sizes = {icon["sizes"]: icon for icon in manifest["icons"]}
    assert sizes.keys() == {"192x192", "512x512", "any"}
    for size in ("192x192", "512x512"):
        assert sizes[size]["type"] == "image/png"
        assert png_size(static_file(sizes[size]["src"])) == size
    assert sizes["any"]["type"] == "image/svg+xml"
    assert static_file(sizes["any"]["src"]).read_text().startswith("<svg ")


def test_the_manifest_is_in_the_page_language(client, db):
    with translation.override("zh-hans"):
        name = translation.gettext("Domino ledger")

    manifest = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="zh-hans").json()

    assert manifest["lang"] == "zh-hans"
    assert manifest["name"] == name != "Domino ledger"


def test_the_service_worker_is_served_from_the_root_so_it_covers_the_tables(client, db):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    # Browsers look for a new worker on every visit: they must not keep a copy unasked.
    assert response["Cache-Control"] == "no-cache"
    # A worker's scope is its own folder: / covers /t/<token>/ without Service-Worker-Allowed.
    assert reverse("service_worker") == "/sw.js"
    assert "Service-Worker-Allowed" not in response
    config = worker_config(client)
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert config["offline"] == reverse("offline") in config["shell"]


def test_the_worker_keeps_every_file_a_table_page_loads(client, ce_deng):
    page = loads(client.get(reverse("table", args=[ce_deng.token])).content.decode())

    shell = worker_config(client)["shell"]

    assert page.urls  # the parser found them
    assert set(page.urls) <= set(shell)
    assert all(static_file(url).exists() for url in shell if url.startswith("/static/"))


def test_the_workers_version_changes_with_the_shells_files(monkeypatch, tmp_path):
    pwa.shell_version.cache_clear()
    before = pwa.shell_version()
    changed = tmp_path / "ledger.js"
    changed.write_text("// a new version")
    find = finders.find
    monkeypatch.setattr(
        finders, "find", lambda name: str(changed) if name == "ledger/ledger.js" else find(name)
    )

    pwa.shell_version.cache_clear()
    after = pwa.shell_version()

    pwa.shell_version.cache_clear()
    assert after != before


def test_the_offline_page_says_this_page_was_not_opened_here(client, db):
    response = client.get(reverse("offline"))

    assert response.status_code == 200
    assert "was not opened on this phone before" in response.content.decode()


@pytest.mark.parametrize("name", ["home", "session_new", "offline"])
def test_every_page_links_the_manifest_the_theme_colour_and_the_worker(client, db, name):
    page = loads(client.get(reverse(name)).content.decode())

    assert page.meta["manifest"] == "/manifest.webmanifest"
    assert page.meta["theme-color"] == css_colour("accent")
    dark = page.meta["theme-color (prefers-color-scheme: dark)"]
    assert dark == css_colour("bg", scheme="dark")  # a dark phone's bar the page's own colour
    assert page.body["data-service-worker"] == "/sw.js"


def test_the_policy_lets_the_manifest_and_the_worker_come_from_this_server_only(client, db):
    header = client.get(reverse("home"))["Content-Security-Policy"]

    policy = dict(directive.strip().split(" ", 1) for directive in header.split(";"))

    assert policy["manifest-src"] == policy["worker-src"] == "'self'"


def test_a_table_page_kept_on_the_phone_keeps_a_csrf_token_that_works(ce_deng):
    """A page reopened offline from the worker's copy sends the token it was served with,
    after the phone has loaded other pages (each with a token of its own): Django accepts
    every token made from the CSRF cookie, which stays the same."""
    phone = Client(enforce_csrf_checks=True)
    url = reverse("table", args=[ce_deng.token])
    token = re.compile(r'"x-csrftoken": "([\w-]+)"')
    kept = token.search(phone.get(url).content.decode())[1]
    later = token.search(phone.get(url).content.decode())[1]
    assert later != kept

    response = phone.post(
        url, form_post(1, key="kept-page-key"), HTTP_X_CSRFTOKEN=kept, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    assert 'id="saved"' in response.content.decode()
    assert ce_deng.hands.get().idempotency_key == "kept-page-key"
