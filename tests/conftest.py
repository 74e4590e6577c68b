"""Fixtures every web test needs, wherever it lives (tests/ledger, api, events, browser)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Hashed manifest names need collectstatic; tests serve static files as they are."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _forget_wrong_links():
    """Wrong links counted by one test must not rate-limit the next (ledger/middleware.py)."""
    from django.core.cache import caches

    caches["guesses"].clear()
    yield
    caches["guesses"].clear()
