"""The probes: /healthz answers without the database, /readyz only when the database answers
and every migration is applied, and names what failed otherwise (503, never 500)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import dj_database_url
import pytest
from django.core.management import call_command
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.loader import MigrationLoader
from django.db.utils import load_backend
from django.urls import reverse

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


@pytest.mark.django_db
def test_readyz_is_ready_on_a_migrated_database(client):
    response = client.get(reverse("readyz"))
    assert response.status_code == 200
    assert response.json() == {"status": "ready", "checks": {"database": "ok", "migrations": "ok"}}
    assert_probe_headers(response)


@pytest.mark.django_db
@pytest.mark.parametrize("vendor", sorted(UNREACHABLE))
def test_readyz_is_unavailable_and_names_the_database_when_it_does_not_answer(client, vendor):
    with default_database(UNREACHABLE[vendor]):
        response = client.get(reverse("readyz"))
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "unavailable", "migrations": "not checked"},
    }
    assert_probe_headers(response)
    assert "127.0.0.1" not in response.content.decode()  # nothing about where it is


@pytest.mark.django_db(transaction=True)
def test_readyz_is_unavailable_and_names_the_migration_not_applied(client):
    loader = MigrationLoader(connections[DEFAULT_DB_ALIAS])
    (latest,) = (name for app, name in loader.graph.leaf_nodes() if app == "ledger")
    (previous,) = loader.graph.node_map["ledger", latest].parents
    call_command("migrate", "ledger", previous.key[1], verbosity=0)
    try:
        response = client.get(reverse("readyz"))
    finally:
        call_command("migrate", "ledger", verbosity=0)
    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "migrations": f"1 not applied: ledger.{latest}"},
    }
    assert client.get(reverse("readyz")).status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("probe", ["healthz", "readyz"])
def test_probes_take_no_post(client, probe):
    assert client.post(reverse(probe)).status_code == 405


@pytest.mark.django_db
@pytest.mark.parametrize("probe", ["healthz", "readyz"])
def test_probes_are_not_rate_limited_after_the_guess_limit(client, settings, probe):
    settings.GUESS_LIMIT = 2
    for _ in range(3):
        client.get("/t/AAAAAAAAAAAAAAAAAAAAAA/")
    assert client.get("/t/AAAAAAAAAAAAAAAAAAAAAA/").status_code == 429
    assert client.get(reverse(probe)).status_code == 200
