"""``manage.py bench_load`` refuses what it cannot run before it starts anything (the hall itself
is measured, not tested: docs/benchmarks.md)."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command


@pytest.mark.parametrize("halls", ["", "600,lots", "0,600", "-5"])
def test_halls_that_are_not_table_counts_are_refused(halls):
    with pytest.raises(CommandError, match="table counts of 1 or more"):
        call_command("bench_load", "--halls", halls)


def test_a_mode_that_is_not_streams_or_polling_is_refused():
    with pytest.raises(CommandError, match="--modes takes stream and poll, not 'stream,push'"):
        call_command("bench_load", "--modes", "stream,push")
