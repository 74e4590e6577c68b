"""`make test` runs every test: once on SQLite, and again on PostgreSQL those that depend on the
database (marked ``both_databases``), with the browser tests and those marked ``postgresql`` on
PostgreSQL alone, as production runs (docs/development.md). The Makefile chooses each pass's
tests by marker (ON_SQLITE, ON_POSTGRES, and ON_SQLITE_DEEP for make test-deep): pytest itself is
asked here which tests those expressions leave out."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def passes() -> dict[str, str]:
    """The Makefile's marker expressions, by name."""
    text = (ROOT / "Makefile").read_text()
    return dict(re.findall(r"^(ON_SQLITE|ON_POSTGRES|ON_SQLITE_DEEP) := (.+)$", text, re.MULTILINE))


def chosen(expression: str, *paths: str) -> tuple[list[str], int]:
    """The tests that ``-m expression`` chooses, as pytest collects them for make test, and how
    many it left out."""
    found = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", expression, *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert found.returncode in (0, 5), found.stdout + found.stderr  # 5: none chosen
    left_out = re.search(r"(\d+) deselected", found.stdout)
    return [line for line in found.stdout.splitlines() if "::" in line], int(
        left_out[1] if left_out else 0
    )


def test_the_two_passes_run_every_test_and_only_those_marked_both_databases_twice():
    sqlite, postgres = f"({passes()['ON_SQLITE']})", f"({passes()['ON_POSTGRES']})"
    wrong = {
        "in neither pass": f"not {sqlite} and not {postgres}",
        "in both, not marked both_databases": f"{sqlite} and {postgres} and not both_databases",
        "a browser test not on PostgreSQL": f"browser and not {postgres}",
        "a test marked postgresql not on PostgreSQL": f"postgresql and not {postgres}",
        "one bringing its own PostgreSQL not on PostgreSQL": f"own_postgresql and not {postgres}",
        "a test not on SQLite, neither a browser test nor marked postgresql": (
            f"not browser and not postgresql and not own_postgresql and not {sqlite}"
        ),
    }
    found, right = chosen(" or ".join(f"({expression})" for expression in wrong.values()))
    assert right > 2000  # every test, scoring's too
    assert not found, f"{len(found)} tests are chosen wrongly (one of: {', '.join(wrong)}):\n" + (
        "\n".join(found[:20])
    )


def test_every_browser_test_is_marked_browser():
    found, marked = chosen("not browser", "tests/browser")
    assert not found and marked > 100, found


def test_make_test_deep_runs_the_migration_tests_on_sqlite_too_and_the_browser_tests_not():
    deep, sqlite = f"({passes()['ON_SQLITE_DEEP']})", f"({passes()['ON_SQLITE']})"
    found, _ = chosen(f"({sqlite} and not {deep}) or (postgresql and not {deep})")
    assert not found, found[:20]
    found, _ = chosen(f"(browser or own_postgresql) and {deep} and not both_databases")
    assert not found, found[:20]


def test_one_browser_test_runs_on_sqlite_the_one_of_make_runs_own_stream_server():
    found, _ = chosen(f"browser and ({passes()['ON_SQLITE']})", "tests/browser")
    assert found == [
        "tests/browser/test_push.py::"
        "test_two_phones_on_streams_see_each_others_saves_within_a_second[chromium]"
    ], found
