"""Installable, and usable with no network: the web app manifest, the service worker, and the
page the worker shows for a page this phone never opened.

The worker is served at /sw.js, not from /static/: a worker controls only the pages under its
own path, and it must control the tables' pages (/t/<token>/...). Its source is
templates/web/sw.js; this view gives it the app shell to keep (the static files every page
loads, by their served names) and a version made from those files, so that a phone installs the
new worker, and keeps the new files, whenever a deploy changes them.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

# ledger.css's --accent and --bg, as base.html's <meta name="theme-color"> says. The light
# scheme's: a manifest has one of each, and a dark phone's page says its own in base.html.
THEME_COLOUR = "#0b4f9c"
BACKGROUND_COLOUR = "#ffffff"
ICONS = {"ledger/icon-192.png": "192x192", "ledger/icon-512.png": "512x512"}
ICON_SVG = "ledger/icon.svg"
# What base.html loads on every page (htmx as django-htmx's {% htmx_script %} names it).
SHELL = ("ledger/ledger.css", "ledger/ledger.js", "django_htmx/htmx-2.min.js", ICON_SVG, *ICONS)


@functools.cache
def shell_version() -> str:
    """A digest of the shell's files. Read once: a deploy that changes them restarts the
    server, as it must anyway for the hashed static names to change."""
    digest = hashlib.sha256()
    for name in SHELL:
        found = finders.find(name)
        if not isinstance(found, str):
            raise FileNotFoundError(f"the app shell's {name} is not among the static files")
        digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:16]


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    offline_url = reverse("offline")
    config = {
        "version": shell_version(),
        "shell": [static(name) for name in SHELL] + [offline_url],
        "offline": offline_url,
    }
    response = render(
        request,
        "web/sw.js",
        {"config": json.dumps(config)},
        content_type="text/javascript; charset=utf-8",
    )
    # Browsers look for a new worker on every visit; they must ask, not use a copy.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """What a phone needs to install the app on its home screen, in the page's language."""
    icons = [
        {"src": static(name), "sizes": sizes, "type": "image/png"} for name, sizes in ICONS.items()
    ]
    icons.append({"src": static(ICON_SVG), "sizes": "any", "type": "image/svg+xml"})
    data = {
        "id": reverse("home"),
        "name": _("Domino ledger"),
        "short_name": _("Domino ledger"),
        "description": _("Scores and settles Chinese domino games at the table."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": reverse("home"),
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": icons,
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """Shown by the worker, with no connection, for a page this phone never opened."""
    return render(request, "web/offline.html")
