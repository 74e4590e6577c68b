"""``python -m scoring < session.json``: the result document on stdout, or exit 2.

On invalid input nothing is printed on stdout; stderr gets one line of JSON,
``{"error": "...", "path": "...", "errors": [...]}`` (the first problem, then all of them),
and the exit status is 2.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal

from scoring.document import score
from scoring.errors import ScoringError


def _no_duplicate_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in pairs:
        if key in result:
            raise ScoringError("{key} is given twice in the same object", key=repr(key))
        result[key] = value
    return result


def main() -> int:
    try:
        document = json.loads(
            sys.stdin.buffer.read(),
            parse_float=Decimal,
            object_pairs_hook=_no_duplicate_keys,
        )
        result = score(document)
    except ScoringError as error:
        print(json.dumps(error.as_dict(), ensure_ascii=False), file=sys.stderr)
        return 2
    except (ValueError, RecursionError) as error:  # not JSON at all
        refusal = ScoringError("the input is not a JSON document: {why}", why=str(error))
        print(json.dumps(refusal.as_dict(), ensure_ascii=False), file=sys.stderr)
        return 2
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
