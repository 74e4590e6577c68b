"""``python -m scoring``: the result and exit 0, or exit 2 and one line of JSON on stderr."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring import score

from .documents import FOUR, hand, session

REPO = Path(__file__).resolve().parents[2]


def run_cli(
    stdin: bytes | str, *, deadline: float = 60, **env: str
) -> subprocess.CompletedProcess[bytes]:
    """Run ``python -m scoring`` from the repository root with ``stdin`` and extra ``env``."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    try:
        return subprocess.run(
            [sys.executable, "-m", "scoring"],
            input=data,
            capture_output=True,
            cwd=REPO,
            env={**os.environ, **env},
            timeout=deadline,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"python -m scoring took more than {deadline} s")


def error_of(run: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    """The one JSON line on stderr of a rejected run, after checking the exit and stdout."""
    stderr = run.stderr.decode("utf-8")
    assert run.returncode == 2, stderr
    assert run.stdout == b""
    assert "Traceback" not in stderr
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    error: dict[str, Any] = json.loads(lines[0])
    assert set(error) == {"error", "path", "errors"}
    assert error["errors"][0] == {"error": error["error"], "path": error["path"]}
    assert isinstance(error["error"], str) and error["error"].strip()
    assert isinstance(error["path"], str)
    return error


SEED = session("jie-long", FOUR, [hand(dict(zip(FOUR, [2, 12, 34, 18], strict=True)))])


def test_valid_input_prints_the_result_document_and_exits_0() -> None:
    run = run_cli(json.dumps(SEED))
    assert run.returncode == 0
    assert run.stderr == b""
    assert json.loads(run.stdout) == score(SEED)


@pytest.mark.parametrize(
    ("document", "path", "words"),
    [
        pytest.param({**SEED, "game": "poker"}, "game", ["poker"], id="unknown game"),
        pytest.param({**SEED, "seating": ["Anna"]}, "seating", ["players"], id="one player"),
        pytest.param(
            session("jie-long", FOUR, [hand({"Anna": 2, "Bob": 1, "Celine": 4, "Dominic": 4})]),
            "hands[0].results.Bob.pips",
            ["Bob", "impossible"],
            id="impossible score",
        ),
        pytest.param(
            session("jie-long", FOUR, [hand({"Anna": 2, "Bob": 3, "Celine": 4})]),
            "hands[0].results.Dominic",
            ["Dominic", "missing"],
            id="missing result",
        ),
        pytest.param(
            {**SEED, "options": {"stake": "abc"}}, "options.stake", ["abc"], id="bad stake"
        ),
    ],
)
def test_invalid_input_exits_2_with_one_line_of_json_error_on_stderr(
    document: dict[str, Any], path: str, words: list[str]
) -> None:
    error = error_of(run_cli(json.dumps(document)))
    assert error["path"] == path
    for word in words:
        assert word in error["error"]


@pytest.mark.parametrize(
    "stdin",
    [
        pytest.param(b"", id="empty"),
        pytest.param(b"not json", id="words"),
        pytest.param(b'{"game": "jie-long",', id="cut short"),
        pytest.param(b"\xff\xfe\xfa", id="not UTF-8"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, id="nested too deep"),
    ],
)
def test_input_that_is_not_json_exits_2_with_a_json_error(stdin: bytes) -> None:
    error = error_of(run_cli(stdin))
    assert "JSON" in error["error"]


def test_a_json_value_that_is_not_an_object_exits_2() -> None:
    error = error_of(run_cli("[1, 2]"))
    assert "object" in error["error"]


def test_a_key_given_twice_is_rejected_instead_of_keeping_the_last() -> None:
    text = '{"game": "jie-long", "game": "ce-deng", "seating": ["A", "B"], "hands": []}'
    error = error_of(run_cli(text))
    assert "'game'" in error["error"]
    assert "twice" in error["error"]


def test_a_result_given_twice_for_one_player_is_rejected() -> None:
    text = (
        '{"game": "jie-long", "seating": ["A", "B"], "first": "A", "hands": [{"results": '
        '{"A": {"pips": 2}, "B": {"pips": 12}, "B": {"pips": 4}}}]}'
    )
    error = error_of(run_cli(text))
    assert "'B'" in error["error"]
    assert "twice" in error["error"]


CJK = ["张三", "李四", "김철수", "박영희"]


def test_chinese_and_korean_names_round_trip_through_the_command_line() -> None:
    document = session("ce-deng", CJK, [hand(dict(zip(CJK, [0, 12, 30, 18], strict=True)))])
    run = run_cli(json.dumps(document, ensure_ascii=False))
    assert run.returncode == 0, run.stderr.decode("utf-8")
    out = json.loads(run.stdout.decode("utf-8"))
    assert out == score(document)
    assert out["hands"][0]["order"] == CJK
    assert set(out["totals"]["net"]) == set(CJK)
    for name in CJK:
        assert name.encode("utf-8") in run.stdout


def test_names_round_trip_even_when_the_locale_is_not_utf8() -> None:
    document = session("jie-long", CJK, [hand(dict(zip(CJK, [2, 12, 34, 18], strict=True)))])
    run = run_cli(json.dumps(document), LC_ALL="C", PYTHONCOERCECLOCALE="0", PYTHONUTF8="0")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.decode("utf-8")) == score(document)


def test_an_unseated_korean_name_is_named_in_the_error_path() -> None:
    document = session(
        "jie-long", CJK[:2], [hand({"张三": 2, "李四": 12, "이영호": 4})], first="张三"
    )
    error = error_of(run_cli(json.dumps(document, ensure_ascii=False)))
    assert error["path"] == "hands[0].results.이영호"
    assert "이영호" in error["error"]


def test_a_huge_score_is_rejected_quickly_instead_of_hanging() -> None:
    # A score of 10^1,000,000 is one short line of JSON; it must not take the engine minutes.
    text = json.dumps(SEED).replace('"pips": 12', '"pips": 1e1000000')
    error = error_of(run_cli(text, deadline=5))
    assert error["path"] == "hands[0].results.Bob.pips"
