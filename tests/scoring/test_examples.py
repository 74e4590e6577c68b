"""The worked examples in docs/examples give what they promise, in Python and the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import pytest

from scoring import score

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "docs" / "examples"
MISSING = f"the examples folder is missing: {EXAMPLES}"
# The team's reference copy, beside the repository on developers' machines and in CI only.
SHARED = REPO.parent / "shared" / "examples"

# Maps keyed by player name: the result must name exactly the players the example names.
NAME_MAPS = {"scores", "net", "hands_won"}


def example_names() -> list[str]:
    if not EXAMPLES.is_dir():
        return [MISSING]  # collected as one failing case instead of an empty, skipped set
    return sorted(
        path.name.removesuffix(".json")
        for path in EXAMPLES.glob("*.json")
        if not path.name.endswith(".expected.json")
    )


def load(name: str) -> tuple[str, Any]:
    assert EXAMPLES.is_dir(), MISSING
    text = (EXAMPLES / f"{name}.json").read_text(encoding="utf-8")
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
    return text, expected


def as_amount(value: object) -> Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float | str):
        try:
            return Decimal(str(value))
        except InvalidOperation:
            return None
    return None


def assert_gives(expected: Any, actual: Any, path: str = "") -> None:
    """Every field ``expected`` gives is in ``actual`` with the same value (amounts as Decimal)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        if path.rpartition(".")[2] in NAME_MAPS:
            assert set(actual) == set(expected), f"{path}: names {sorted(actual)}"
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} is missing from the result"
            assert_gives(value, actual[key], f"{path}.{key}" if path else key)
    elif isinstance(expected, list):
        assert isinstance(actual, list), f"{path}: expected a list, got {actual!r}"
        assert len(actual) == len(expected), f"{path}: {actual!r} != {expected!r}"
        for i, (want, got) in enumerate(zip(expected, actual, strict=True)):
            assert_gives(want, got, f"{path}[{i}]")
    elif expected == actual:
        return
    else:
        want, got = as_amount(expected), as_amount(actual)
        assert want is not None and want == got, f"{path}: {actual!r} != {expected!r}"


def test_the_examples_folder_holds_examples_with_expected_results() -> None:
    assert EXAMPLES.is_dir(), MISSING
    names = example_names()
    assert names, f"no examples in {EXAMPLES}"
    for name in names:
        assert (EXAMPLES / f"{name}.expected.json").is_file(), f"{name} has no expected result"


@pytest.mark.parametrize("name", example_names())
def test_example_scores_as_expected(name: str) -> None:
    text, expected = load(name)
    assert_gives(expected, score(json.loads(text)))


@pytest.mark.parametrize("name", example_names())
def test_example_scores_the_same_through_the_command_line(name: str) -> None:
    text, expected = load(name)
    run = subprocess.run(
        [sys.executable, "-m", "scoring"],
        input=text.encode("utf-8"),
        capture_output=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr.decode("utf-8", "replace")
    assert run.stderr == b""
    out = json.loads(run.stdout)
    assert_gives(expected, out)
    assert out == score(json.loads(text))


@pytest.mark.skipif(
    not SHARED.is_dir(),
    reason=f"{SHARED} does not exist (a clone on its own): nothing to compare docs/examples with",
)
def test_every_reference_example_has_an_identical_copy_in_docs_examples() -> None:
    originals = sorted(SHARED.glob("*.json"))
    assert originals, f"no examples in {SHARED}"
    for original in originals:
        copy = EXAMPLES / original.name
        assert copy.is_file(), f"{original.name} is not copied into {EXAMPLES}"
        assert copy.read_bytes() == original.read_bytes(), f"{copy} differs from {original}"
