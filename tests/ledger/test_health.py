"""The probes: /healthz answers without the database, /readyz only when the database answers
and every migration is applied, and names what failed otherwise (503, never 500)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import dj_database_url
import pytest
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.loader import MigrationLoader
from django.db.utils import load_backend
from django.urls import reverse

# both_databases on the tests that ask the test database: readyz reads the applied migrations
# (migrating back and forth), the guess limit's count, healthz's count of queries. The probes
# against an unreachable database bring their own, of each kind (UNREACHABLE), and the ones
# run in a subprocess their own SQLite folder: each runs once, as on either pass it is the same.

ROOT = Path(__file__).resolve().parents[2]
# Databases that cannot answer: no server listens on port 1, and no directory holds the file.
UNREACHABLE = {
    "postgresql": dj_database_url.parse("postgres://ledger@127.0.0.1:1/ledger"),
    "sqlite": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": "/nonexistent/directory/ledger.sqlite3",
    },
}


@contextmanager
def default_database(settings_dict: dict[str, object]) -> Iterator[None]:
    """The default database is ``settings_dict`` while inside: a real connection to it, which
    the app uses as it would use any database."""
    settings_dict = connections.configure_settings({DEFAULT_DB_ALIAS: dict(settings_dict)})[
        DEFAULT_DB_ALIAS
    ]
    backend = load_backend(str(settings_dict["ENGINE"]))
    kept = connections[DEFAULT_DB_ALIAS]
    connections[DEFAULT_DB_ALIAS] = backend.DatabaseWrapper(settings_dict, DEFAULT_DB_ALIAS)
    try:
        yield
    finally:
        connections[DEFAULT_DB_ALIAS].close()
        connections[DEFAULT_DB_ALIAS] = kept


def assert_probe_headers(response) -> None:
    assert response["Content-Type"] == "application/json"
    assert "no-store" in response["Cache-Control"]
    assert not response.cookies


@pytest.mark.both_databases
@pytest.mark.django_db
def test_healthz_answers_ok_without_asking_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert_probe_headers(response)


@pytest.mark.django_db
@pytest.mark.parametrize("vendor", sorted(UNREACHABLE))
def test_healthz_answers_ok_while_the_database_is_down(client, vendor):
    with default_database(UNREACHABLE[vendor]):
        response = client.get(reverse("healthz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.both_databases
@pytest.mark.django_db
def test_readyz_is_ready_on_a_migrated_database(client):
    response = client.get(reverse("readyz"))
    assert response.status_code == 200
    assert response.json() == {
        "status": "ready",
        "checks": {"database": "ok", "migrations": "ok", "cache": "ok"},
    }
    assert_probe_headers(response)


@pytest.mark.django_db
@pytest.mark.parametrize("vendor", sorted(UNREACHABLE))
def test_readyz_is_unavailable_and_names_the_database_when_it_does_not_answer(client, vendor):
    with default_database(UNREACHABLE[vendor]):
        response = client.get(reverse("readyz"))
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        # The live parts' cache is in this process's memory: it answers.
        "checks": {"database": "unavailable", "migrations": "not checked", "cache": "ok"},
    }
    assert_probe_headers(response)
    assert "127.0.0.1" not in response.content.decode()  # nothing about where it is


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)
def test_readyz_is_unavailable_and_names_the_migration_not_applied(client):
    loader = MigrationLoader(connections[DEFAULT_DB_ALIAS])
    (latest,) = (name for app, name in loader.graph.leaf_nodes() if app == "ledger")
    (previous,) = (
        parent for parent in loader.graph.node_map["ledger", latest].parents
        if parent.key[0] == "ledger"
    )  # fmt: skip
    call_command("migrate", "ledger", previous.key[1], verbosity=0)
    try:
        response = client.get(reverse("readyz"))
    finally:
        call_command("migrate", "ledger", verbosity=0)
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {
            "database": "ok",
            "migrations": f"1 not applied: ledger.{latest}",
            "cache": "ok",
        },
    }
    assert client.get(reverse("readyz")).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("probe", ["healthz", "readyz"])
def test_probes_take_no_post(client, probe):
    assert client.post(reverse(probe)).status_code == 405


@pytest.mark.both_databases
@pytest.mark.django_db
@pytest.mark.parametrize("probe", ["healthz", "readyz"])
def test_probes_are_not_rate_limited_after_the_guess_limit(client, settings, probe):
    settings.GUESS_LIMIT = 2
    for _ in range(3):
        client.get("/t/AAAAAAAAAAAAAAAAAAAAAA/")
    assert client.get("/t/AAAAAAAAAAAAAAAAAAAAAA/").status_code == 429
    assert client.get(reverse(probe)).status_code == 200


@pytest.mark.both_databases
@pytest.mark.django_db(transaction=True)  # as served: a failed read aborts no transaction
def test_readyz_is_unavailable_and_names_the_cache_when_it_does_not_answer(client, settings):
    # As Redis that does not answer would (CACHE_URL): here Django's database cache on a table
    # that is not there, since the Redis client is not installed.
    settings.CACHES = settings.CACHES | {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "no_such_table",
        }
    }
    response = client.get(reverse("readyz"))
    assert response.status_code == 503
    assert response.json()["checks"] == {
        "database": "ok",
        "migrations": "ok",
        "cache": "unavailable",
    }


MIGRATE_THEN_START_A_TABLE = """
import django, json
django.setup()
from django.test import Client
client = Client()
body = {"game": "jie-long", "seating": ["Anna", "Bob"], "first": "Anna"}
made = client.post("/api/v1/sessions/", json.dumps(body), content_type="application/json")
print(made.status_code, Client().get("/readyz").status_code)
"""


def test_migrate_alone_readies_a_new_database_for_every_request(tmp_path):
    # A new database, readied by migrate alone, not by the test runner.
    env = {
        **os.environ,
        "DATA_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "ledger.settings",
        "ALLOWED_HOSTS": "testserver",
    }
    env.pop("DATABASE_URL", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--noinput", "-v", "0"], env=env, check=True, cwd=ROOT)
    run = subprocess.run(
        [sys.executable, "-c", MIGRATE_THEN_START_A_TABLE],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.split() == ["201", "200"], run.stderr[-3000:]


@pytest.mark.django_db
@pytest.mark.parametrize("vendor", sorted(UNREACHABLE))
@pytest.mark.parametrize(
    "path", ["/t/AAAAAAAAAAAAAAAAAAAAAA/", "/api/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA/"]
)
def test_a_database_that_does_not_answer_is_an_outage_503_with_retry_after(
    client, vendor, path, caplog
):
    client.raise_request_exception = False
    with default_database(UNREACHABLE[vendor]):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    text = response.json()["error"] if path.startswith("/api/") else response.content.decode()
    assert "数据库" in text  # in the reader's language: try again shortly
    # Logged once with its traceback, as a warning: an outage is not a bug (a restart of 1.6 s
    # wrote 72 ERROR lines, burying the real ones).
    said = [(r.name, r.levelname) for r in caplog.records if r.exc_info]
    assert said == [("django.request", "WARNING")]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.urls("tests.ledger.failing_urls")
def test_a_bug_is_still_a_500_and_logged_with_its_traceback(tmp_path):
    # With DEBUG off, as on a server: the traceback must reach stderr through settings.LOGGING.
    script = (
        "import django; django.setup()\n"
        "from django.test import Client\n"
        "from django.test.utils import override_settings\n"
        "with override_settings(ROOT_URLCONF='tests.ledger.failing_urls'):\n"
        "    print(Client(raise_request_exception=False).get('/fail/').status_code)\n"
    )
    env = {**os.environ, "DATA_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "ledger.settings"}
    env.pop("DATABASE_URL", None)
    env.pop("DEBUG", None)
    run = subprocess.run(
        [sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True
    )
    assert run.stdout.strip() == "500", run.stderr[-3000:]
    assert "ERROR django.request" in run.stderr
    assert "RuntimeError: a bug" in run.stderr  # the traceback's last line
