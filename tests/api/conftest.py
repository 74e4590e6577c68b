import pytest

from tests.ledger.conftest import ce_deng  # noqa: F401 - a fixture shared with the web tests


@pytest.fixture(autouse=True)
def _fresh_throttles():
    """One test's requests must not throttle the next (DRF counts in the default cache)."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
