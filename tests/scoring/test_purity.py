"""scoring is a pure library: no Django, no DRF, no ledger, checked two independent ways."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def test_the_import_linter_contract_is_kept() -> None:
    assert LINT_IMPORTS.is_file(), f"import-linter is not installed: {LINT_IMPORTS} is missing"
    run = subprocess.run(
        [str(LINT_IMPORTS)], cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "scoring is a pure library" in run.stdout
    assert "0 broken" in run.stdout


IMPORT_EVERYTHING = textwrap.dedent(
    """
    import importlib, pkgutil, sys
    import scoring
    names = [m.name for m in pkgutil.walk_packages(scoring.__path__, "scoring.")]
    for name in names:
        importlib.import_module(name)
    assert "scoring.games.ce_deng" in sys.modules, names
    assert "scoring.__main__" in sys.modules, names
    bad = sorted(
        m for m in sys.modules
        if m.split(".")[0] in ("django", "rest_framework", "ledger")
    )
    assert not bad, bad
    print(len(names))
    """
)


def test_importing_every_scoring_module_loads_no_django_rest_framework_or_ledger() -> None:
    run = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERYTHING],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert int(run.stdout) >= 10  # the package, its modules and the six games
