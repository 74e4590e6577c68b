"""How hard the generated tests look: `make test` at half the examples, `make test-deep`
(``TEST_DEPTH=deep``) at the full counts, which a change to the engine, the API's schema or the
streams runs (docs/development.md)."""

from __future__ import annotations

import os

DEEP = os.environ.get("TEST_DEPTH") == "deep"


def examples(full: int) -> int:
    """The examples a hypothesis test or schemathesis tries: ``full`` in make test-deep, half
    of it in make test."""
    return full if DEEP else max(1, full // 2)
