"""What the fault tests share: the PostgreSQL server they make their throwaway databases on."""

from __future__ import annotations

import os

import psycopg
import pytest

SERVER = os.environ.get("POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def postgres() -> str:
    """The server at POSTGRES_URL, once it answers; else the test skips (fails in CI)."""
    try:
        psycopg.connect(SERVER, dbname="postgres", connect_timeout=3).close()
    except psycopg.OperationalError as error:
        if os.environ.get("REQUIRE_POSTGRES"):
            pytest.fail(f"PostgreSQL does not answer at {SERVER} (REQUIRE_POSTGRES is set)")
        pytest.skip(f"needs a PostgreSQL server at POSTGRES_URL ({SERVER}): {error}")
    return SERVER
