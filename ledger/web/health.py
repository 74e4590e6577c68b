"""The probes that systemd, a load balancer or an orchestrator call: /healthz and /readyz.

``/healthz`` says the process answers (liveness: restart it if not); ``/readyz`` says it can
serve (readiness: send it no traffic if not): the database answers (the limits count there
too), every migration is applied, and the shared cache (Django's: a database table, or Redis)
takes a write and gives it back, since every live part of a table is kept there.
Both answer JSON, are never cached and set no cookie; no table link is in their path, so no
limit counts them (ledger/web/middleware.py).
"""

from __future__ import annotations

import logging

from django.core.cache import caches
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

logger = logging.getLogger(__name__)

OK = "ok"


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """The process answers. Nothing else is asked, the database least of all: a database
    outage must not have every app server restarted."""
    return JsonResponse({"status": "ok"})


@never_cache
@require_safe
def readyz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers, every migration is applied and the limits' store
    answers; otherwise 503, naming what failed. A probe reports: it never answers 500,
    whatever it finds."""
    checks = {"database": _database(), "migrations": "not checked", "cache": _cache()}
    if checks["database"] == OK:
        checks["migrations"] = _migrations()
    if all(state == OK for state in checks.values()):
        return JsonResponse({"status": "ready", "checks": checks})
    return JsonResponse({"status": "unavailable", "checks": checks}, status=503)


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # connecting can fail in more ways than DatabaseError
        # The details go to the log, not to whoever asks: they may name hosts and users.
        logger.warning("readyz: the database does not answer: %r", error)
        return "unavailable"
    return OK


def _cache() -> str:
    """A write and a read of the cache the tables' live parts are kept in (tables/live.py)."""
    store = caches["default"]
    try:
        store.set("readyz", OK, 10)
        if store.get("readyz") != OK:
            return "does not keep what is written"
    except Exception as error:  # a missing table, Redis down: not ready
        logger.warning("readyz: the cache does not answer: %r", error)
        return "unavailable"
    return OK


def _migrations() -> str:
    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except Exception as error:  # a broken migration history is "not ready", not a crash
        logger.warning("readyz: cannot read the migrations: %r", error)
        return "cannot be read"
    if not plan:
        return OK
    unapplied = [f"{migration.app_label}.{migration.name}" for migration, _ in plan]
    return f"{len(unapplied)} not applied: {', '.join(unapplied)}"
