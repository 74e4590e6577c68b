"""`make run` serves on the port asked for, `make run PORT=8080`, and on 8000 unless asked (the
newcomer's first question, answered on the README's first screen)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("asked", "port"), [([], "8000"), (["PORT=8080"], "8080")])
def test_make_run_passes_the_port_to_the_server(asked, port):
    if shutil.which("make") is None:
        pytest.skip("needs make")
    # -n: what make would run, without running it (nothing installed, nothing served).
    # --no-print-directory: under `make test` the outer make's flags would have it say where
    # it went in and out.
    planned = subprocess.run(
        ["make", "-n", "--no-print-directory", "run", *asked],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert planned.splitlines()[-1].endswith(f"manage.py serve --port {port}")
