import pytest


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Hashed manifest names need collectstatic; tests serve static files as they are."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
