"""Measuring and reporting, shared by the benchmarks: wall times, percentiles, ceilings."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.http import HttpResponseBase

T = TypeVar("T")


def timed(call: Callable[[], T]) -> tuple[float, T]:
    """Call ``call`` once: its wall time in milliseconds, and what it returned."""
    start = time.perf_counter()
    result = call()
    return (time.perf_counter() - start) * 1000, result


def milliseconds(runs: int, call: Callable[[], object]) -> list[float]:
    """The wall time of each of ``runs`` calls, in milliseconds."""
    return [timed(call)[0] for _ in range(runs)]


def response_times(runs: int, request: Callable[[], HttpResponseBase]) -> list[float]:
    """Like ``milliseconds``, for requests that must succeed: a page or its redirect."""
    times = []
    for _ in range(runs):
        took, response = timed(request)
        times.append(took)
        assert response.status_code in (200, 302), response.status_code
    return times


def median_p95(label: str, times: list[float]) -> str:
    p95 = statistics.quantiles(times, n=20)[-1]
    return (
        f"{label}: median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms ({len(times)} runs)"
    )


def percentiles(values: list[float]) -> str:
    """p50, p95 and p99 of latencies in milliseconds."""
    if len(values) < 2:
        return "no requests"
    cuts = statistics.quantiles(values, n=100)
    return f"p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, p99 {cuts[98]:.1f} ms"


@dataclass(frozen=True)
class Ceiling:
    """A figure measured beside its ceiling, in the same run: ``rounds`` of (ceiling, figure)."""

    rounds: tuple[tuple[float, float], ...]

    @property
    def ceiling(self) -> float:
        return statistics.median(ceiling for ceiling, _ in self.rounds)

    @property
    def figure(self) -> float:
        return statistics.median(figure for _, figure in self.rounds)
