"""The layers hold where a tool checks them (pyproject.toml, docs/development.md "Layers"):
every module of a domain is in a layer, and an import that goes the wrong way is caught."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
LAYERS = "pages above ledger.web, above services and selectors, above models"
WEB = "ledger.web imports no domain"
# Outside the layers: Django's start (settings, asgi, wsgi), its list of every model
# (ledger/models.py, the layers' one ignored import), and what is not the app's requests.
OUTSIDE = {"ledger", "ledger.settings", "ledger.asgi", "ledger.wsgi", "ledger.models"}
OUTSIDE |= {"ledger.bench", "ledger.management", "ledger.migrations"}


def layered() -> set[str]:
    contracts = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in contracts["contracts"] if c["name"] == LAYERS]
    return {name.strip() for layer in layers for name in layer.split(":")}


def modules() -> list[str]:
    found = []
    for path in sorted((REPO / "ledger").rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        found.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_every_module_of_the_app_is_in_a_layer():
    """A new module of a domain is placed: as a page, or below ledger.web."""
    placed = layered() | OUTSIDE
    unplaced = [
        module
        for module in modules()
        if not any(module == p or module.startswith(f"{p}.") for p in placed)
        and module not in ("ledger.tables", "ledger.events", "ledger.groups", "ledger.players")
    ]

    assert not unplaced, f"not in a layer of {LAYERS!r} (pyproject.toml): {unplaced}"


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The app's and the engine's modules, and the contracts, somewhere a bad import can go."""
    root = tmp_path_factory.mktemp("repo")
    not_python = shutil.ignore_patterns("*.html", "*.po", "*.mo", "*.js", "*.css", "*.png")
    for package in ("ledger", "scoring"):
        shutil.copytree(REPO / package, root / package, ignore=not_python)
    (root / "tests").mkdir()
    for name in ("pyproject.toml", "tests/__init__.py", "tests/import_contracts.py"):
        shutil.copy(REPO / name, root / name)
    return root


def lint(root: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": str(root), "COLUMNS": "300"}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=root,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize(
    ("module", "bad", "broken"),
    [
        ("ledger/web/display.py", "from ledger.tables import selectors", WEB),
        ("ledger/web/rights.py", "from ledger.models import TableSession", WEB),
        ("ledger/web/limits.py", "import ledger.players.models", WEB),
        ("ledger/web/views.py", "from ledger.api import errors", LAYERS),
        # through a module below them all, which the streams import
        ("ledger/changes.py", "from ledger.groups import selectors", WEB),
        ("ledger/tables/services.py", "from ledger.web import display", LAYERS),
        ("ledger/tables/results.py", "from ledger.web import limits", LAYERS),
        ("ledger/events/standings.py", "from ledger.web.games import special_label", LAYERS),
        ("ledger/groups/models.py", "from ledger.web import rights", LAYERS),
        ("ledger/groups/selectors.py", "from ledger.tables import summary", LAYERS),
        ("ledger/amounts.py", "from ledger.tables import money", LAYERS),
    ],
)
def test_an_import_the_wrong_way_is_caught(copy, module, bad, broken):
    source = (copy / module).read_text()
    (copy / module).write_text(f"{source}\n{bad}  # noqa\n")
    try:
        run = lint(copy)
    finally:
        (copy / module).write_text(source)

    assert run.returncode == 1, run.stdout + run.stderr
    assert f"{broken} BROKEN" in run.stdout, run.stdout


def test_the_copy_as_it_is_keeps_every_contract(copy):
    run = lint(copy)

    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout
