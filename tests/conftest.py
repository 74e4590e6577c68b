"""Fixtures every web test needs, wherever it lives (tests/ledger, api, events, browser)."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.utils import translation

from tests.toy_game import toy  # noqa: F401 - the fixture, for any test that names it


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Hashed manifest names need collectstatic; tests serve static files as they are."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    # WhiteNoise would walk staticfiles/ each time a test client starts, while a test of the
    # production stack in another worker runs collectstatic there, which deletes and writes
    # its hashed files again: a file listed and gone fails the walk. Looked up per request, no
    # walk is made.
    settings.WHITENOISE_AUTOREFRESH = True


@pytest.fixture(autouse=True)
def _in_english():
    """Every test starts in the default language: a page asked for in Chinese leaves Chinese
    active on its thread, and a message made outside a request (a service's refusal) would be
    in it in whatever test the worker runs next."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _forget_the_cache():
    """What one test kept in this process's caches (a table's live parts: ledger/tables/live.py;
    what the worker last read of the guess counts) must not show in the next."""
    yield
    for cache in caches.all():
        cache.clear()
