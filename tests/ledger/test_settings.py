"""Production settings: `check --deploy` is clean, and nonsense stops the start."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "SECRET_KEY": secrets.token_urlsafe(50),
    "DATABASE_URL": "postgres://ledger:secret@127.0.0.1:5432/ledger",
    "ALLOWED_HOSTS": "ledger.example.org",
    "HTTPS": "true",
}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE for their live server; a server never has it.
    test_only = {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION and k not in test_only}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_deploy_has_no_warnings_with_the_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_a_shared_database_without_a_secret_key_refuses_to_start():
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}

    result = manage("check", **env)

    assert result.returncode != 0
    assert "SECRET_KEY must be set when DATABASE_URL is" in result.stderr


def test_a_nonsense_setting_is_named_at_start_up():
    result = manage("check", **PRODUCTION | {"HTTPS": "maybe"})

    assert result.returncode != 0
    assert "HTTPS must be true or false, not 'maybe'" in result.stderr


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("STREAMS_PER_PROCESS", "-1", "STREAMS_PER_PROCESS must be at least 0, not '-1'"),
        ("STREAMS_PER_ADDRESS", "a hall", "STREAMS_PER_ADDRESS must be a whole number"),
    ],
)
def test_a_stream_cap_that_is_not_a_count_is_named_at_start_up(setting, value, said):
    result = manage("check", **PRODUCTION | {setting: value})

    assert result.returncode != 0
    assert said in result.stderr


def test_pages_send_security_headers(client, db):
    response = client.get("/")

    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"


def test_a_time_zone_the_tz_database_does_not_know_is_named_at_start_up():
    result = manage("check", **PRODUCTION | {"TIME_ZONE": "Asia/Atlantis"})

    assert result.returncode != 0
    assert "TIME_ZONE must name a time zone such as Asia/Hong_Kong" in result.stderr
    assert manage("check", **PRODUCTION | {"TIME_ZONE": "Asia/Hong_Kong"}).returncode == 0


def test_a_postgresql_url_is_served_by_djangos_backend_with_kept_and_checked_connections():
    read = (
        "from django.conf import settings; database = settings.DATABASES['default'];"
        " print(database['ENGINE'], database['CONN_MAX_AGE'], database['CONN_HEALTH_CHECKS'])"
    )
    engine = "from django.conf import settings; print(settings.DATABASES['default']['ENGINE'])"

    result = manage("shell", "-v", "0", "-c", read, **PRODUCTION)

    assert result.stdout.strip() == "django.db.backends.postgresql 600 True", result.stderr
    assert manage("shell", "-v", "0", "-c", engine).stdout.strip() == "django.db.backends.sqlite3"
