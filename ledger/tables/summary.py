"""A table's summary page: what each player took, special results, who owes whom, the chart."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import scoring
from ledger import display
from ledger.tables.selectors import Row, ScoreSheet
from scoring import HandEvent


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    points: str  # SVG polyline points
    last_y: float


@dataclass(frozen=True, slots=True)
class SummaryRow:
    """One line of the summary's hand table, ready to print."""

    number: int
    led: str  # "Anna ↺"; empty for a voided hand
    cells: list[tuple[int | str, str, str]]  # per seat: score, signed net, CSS class
    entered: str


@dataclass(frozen=True)
class Summary:
    hands: list[SummaryRow]
    specials: list[tuple[str, dict[str, int]]]  # per player: special -> count
    pairwise: list[tuple[str, str, Decimal]]  # (payer, payee, amount) net per pair
    chart: list[Line]
    chart_zero_y: float
    chart_width: int
    chart_height: int


CALLED = tuple(event for event in HandEvent if event.has_caller)  # recorded with who called it
COLOURS = ("#1b5e20", "#b71c1c", "#0d47a1", "#e65100")
CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 320, 160, 8


def summarise(sheet: ScoreSheet) -> Summary:
    """Counts, pairwise totals and the cumulative-net chart of a scored session."""
    counts: dict[str, dict[str, int]] = {name: {} for name in sheet.seating}
    for row in sheet.rows:
        if row.result is None:
            continue
        data = row.hand.data
        for event in CALLED:
            if event in data:
                counts[data[event]][event] = counts[data[event]].get(event, 0) + 1
        for name, result in data.get("results", {}).items():
            for special in result.get("specials", []):
                counts[name][special] = counts[name].get(special, 0) + 1
    won_from = scoring.won_from(sheet.result.hands)
    pairwise = []
    for i, a in enumerate(sheet.seating):
        for b in sheet.seating[i + 1 :]:
            balance = won_from.get((b, a), Decimal(0)) - won_from.get((a, b), Decimal(0))
            if balance:
                pairwise.append((a, b, balance) if balance > 0 else (b, a, -balance))
    lines, zero_y = _chart(sheet)
    return Summary(
        hands=[_summary_row(row, sheet.seating) for row in sheet.rows],
        specials=[(name, counts[name]) for name in sheet.seating],
        pairwise=pairwise,
        chart=lines,
        chart_zero_y=zero_y,
        chart_width=CHART_WIDTH,
        chart_height=CHART_HEIGHT,
    )


def _summary_row(row: Row, seating: list[str]) -> SummaryRow:
    if row.result is None:
        return SummaryRow(row.hand.number, "", [], display.hand_text(row.hand.data, seating))
    arrow = "↻" if row.result.direction == "cw" else "↺"
    cells = [
        (
            row.result.scores.get(name, ""),
            display.money(row.result.net[name]),
            display.sign(row.result.net[name]),
        )
        for name in seating
    ]
    led = f"{row.result.first} {arrow}"
    return SummaryRow(row.hand.number, led, cells, display.hand_text(row.hand.data, seating))


def _chart(sheet: ScoreSheet) -> tuple[list[Line], float]:
    """Each player's running net; for points only, their running total score."""
    running = {name: [Decimal(0)] for name in sheet.seating}
    for hand in sheet.result.hands:
        counts = hand.scores if sheet.points_only else hand.net
        for name in sheet.seating:
            running[name].append(running[name][-1] + counts.get(name, 0))
    values = [value for series in running.values() for value in series]
    low, high = min(values), max(values)
    span = (high - low) or Decimal(1)
    steps = max(len(sheet.result.hands), 1)

    def y(value: Decimal) -> float:
        return round(CHART_PAD + float((high - value) / span) * (CHART_HEIGHT - 2 * CHART_PAD), 1)

    lines = []
    for i, name in enumerate(sheet.seating):
        series = running[name]
        points = " ".join(
            f"{round(k * CHART_WIDTH / steps, 1)},{y(value)}" for k, value in enumerate(series)
        )
        lines.append(Line(name, COLOURS[i % len(COLOURS)], points, y(series[-1])))
    return lines, y(Decimal(0))
