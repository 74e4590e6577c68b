# A frozen copy of new_token and TOKEN_BYTES from ledger/models.py at commit fb543a1 (migration
# 0001), for the migrations and the models that name it: never edit it
# (ledger/migrations/_frozen/__init__.py says why).
"""A new link's token: what a table's, a group's and a tournament's tokens default to."""

from __future__ import annotations

import secrets

TOKEN_BYTES = 16  # 128 bits: a link nobody can guess


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)
