# A frozen copy of default_tie_breakers from ledger/models.py at commit 59ac0d6 (migration
# 0005), for the migrations and the model that names it: never edit it
# (ledger/migrations/_frozen/__init__.py says why).
"""A tournament's standings' tie-breakers, in order, where its organiser chose none."""

from __future__ import annotations


def default_tie_breakers() -> list[str]:
    return ["hands_won", "fewest_points", "head_to_head"]
