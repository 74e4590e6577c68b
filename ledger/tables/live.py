"""A table's live part: its totals, who leads next and its latest hands (#live on its page),
and the stake line, which says where the game ends as #end does.

After a change every phone at the table is shown it again: a stream carries it to each
(ledger.web.push), and a phone that polls or has no stream fetches it (views.live). It is
the same for every phone (no link, form or right of one phone's is in it), so it is rendered
once per revision and language and kept for them all in the cache (settings.CACHES): each
server process's own, or Redis that they share. The phones ask at the same moment: the first
renders it, and the others wait for that render rather than making their own.
"""

from __future__ import annotations

import time

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation

from ledger.models import TableSession
from ledger.tables import selectors
from scoring import GAMES

KEPT = 60  # seconds a live part is kept once rendered
RENDER_WAIT = 0.5  # seconds one asking waits for another's render of the same live part
RENDER_LOOK_EVERY = 0.005


def part(token: str, revision: int, language: str) -> str:
    """The live part of the table ``token`` at ``revision``, in ``language``. A render made
    meanwhile shows the table as it is then, which may be a later revision: the part says
    which it shows (data-revision)."""
    key = f"live:{token}:{revision}:{language}"
    html = cache.get(key)
    if html is None and not cache.add(f"{key}:rendering", True, RENDER_WAIT):
        html = _rendered_meanwhile(key)
    if html is None:
        with translation.override(language):
            html = render(selectors.session_by_token(token))
        cache.set(key, html, KEPT)
    return str(html)


def render(session: TableSession) -> str:
    sheet = selectors.score_sheet(session, latest=True)
    # Alone (not in the page), it brings the title's stake line too, out of band: where the
    # game ends is in both.
    context = {"sheet": sheet, "session": session, "game": GAMES[session.game], "live_only": True}
    return render_to_string("tables/table.html#live", context)


def _rendered_meanwhile(key: str) -> str | None:
    """The live part another is rendering, once it is kept; None if it is not within
    RENDER_WAIT (that render failed, or is slow): then this one renders it too."""
    deadline = time.monotonic() + RENDER_WAIT
    while time.monotonic() < deadline:
        time.sleep(RENDER_LOOK_EVERY)
        if (html := cache.get(key)) is not None:
            return str(html)
    return None
