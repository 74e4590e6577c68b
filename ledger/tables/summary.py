"""A table's summary page: what each player took, special results, who owes whom, the chart."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

from django.utils.translation import gettext as _

from ledger.tables import stored
from ledger.tables.display import hand_text
from ledger.tables.selectors import ScoreSheet, Shown
from ledger.web import display
from scoring import HandEvent
from scoring.document import amount


@dataclass(frozen=True, slots=True)
class SummaryRow:
    """One line of the summary's hand table, ready to print."""

    number: int
    led: str  # "Anna ↺"; empty for a voided hand
    cells: list[tuple[int | str, str, str]]  # per seat: score, signed net, CSS class
    entered: str


@dataclass(frozen=True)
class Tick:
    """A labelled mark on an axis, ``at`` its place along the axis in the chart's units."""

    at: float
    label: str
    anchor: str = "middle"  # SVG text-anchor: "end" where a label centred would overrun


@dataclass(frozen=True)
class Line:
    """One player's running total, drawn in a style of their own."""

    name: str
    series: int  # its colour: ledger.css's --series-<n>, light or dark as the phone is set
    dash: str  # stroke-dasharray; "" for a solid line
    shape: str  # the marker, an SVG path in a 10×10 box
    points: str  # SVG polyline points: the start, then one per hand in order


@dataclass(frozen=True, slots=True)
class Step:
    """A step along the chart's bottom axis: a hand of a table, or a day of a group."""

    label: str  # on the axis and in the text alternative's rows: "3", "25/11"
    title: str  # where it is named alone: "Hand 3"
    voided: bool = False  # a voided hand: it changes no total


@dataclass(frozen=True, slots=True)
class ChartHand:
    """A step on the chart (a hand, or a day): its band (where a pointer picks it) and the
    running totals."""

    label: str
    title: str
    voided: bool
    band_x: float
    band_width: float
    totals: list[str]  # per seat, after this hand, as the page prints amounts


@dataclass(frozen=True)
class Chart:
    """The running totals as an SVG chart: a plot area with an axis of hands along the bottom
    and one of amounts on the left, and the same numbers as rows for its text alternative."""

    width: int  # the whole chart, in its own units (its viewBox)
    height: int
    left: float  # the plot area: the start (hand 0) is at the left, the last hand at the
    right: float  # right; the highest amount tick at the top, the lowest at the bottom
    top: float
    bottom: float
    step: float  # from one hand to the next
    zero_y: float
    lines: list[Line]
    hand_ticks: list[Tick]
    amount_ticks: list[Tick]
    hands: list[ChartHand]
    marked: bool  # a marker at every hand, or (too many hands to tell apart) at the end only
    x_title: str  # the bottom axis's name: "Hand", "Day"
    heading: str  # a step's heading in the legend, "{n}" for its label: "Hand {n}"

    # Where the axes' marks, numbers and names go, below and left of the plot area.
    @property
    def middle(self) -> float:
        return round((self.left + self.right) / 2, 1)

    @property
    def tick_end(self) -> float:
        return self.bottom + TICK

    @property
    def hand_label_y(self) -> float:
        return self.bottom + TICK + TEXT

    @property
    def hand_title_y(self) -> float:
        return self.height - TICK

    @property
    def amount_label_x(self) -> float:
        return self.left - TICK

    @property
    def amount_title_y(self) -> float:
        return self.top - TEXT


@dataclass(frozen=True)
class Summary:
    hands: list[SummaryRow]
    specials: list[tuple[str, dict[str, int]]]  # per player: special -> count
    pairwise: list[tuple[str, str, Decimal]]  # (payer, payee, amount) net per pair
    chart: Chart | None  # None before the first hand
    counted: int  # hands that count (voided ones do not)


CALLED = tuple(event for event in HandEvent if event.has_caller)  # recorded with who called it

# Each line has a colour (ledger.css's colour-blind-safe palette, one for light and one for
# dark), and a dash and a marker of its own as well, so that no line is told from another by
# colour alone.
CIRCLE = "M1.5 5a3.5 3.5 0 1 0 7 0a3.5 3.5 0 1 0-7 0z"
SQUARE = "M1.8 1.8h6.4v6.4h-6.4z"
TRIANGLE = "M5 .6l4.4 8h-8.8z"
DIAMOND = "M5 .3l4.7 4.7-4.7 4.7-4.7-4.7z"
STYLES = (
    ("", CIRCLE),  # solid
    ("8 4", SQUARE),  # dashed
    ("2 3", TRIANGLE),  # dotted
    ("10 3 3 3", DIAMOND),  # dash-dot
)
# The chart's box in its own units, drawn about 1:1 on a 360 px phone; TEXT is the size of its
# words and numbers, CHARACTER the width of a digit at that size.
WIDTH, HEIGHT, TEXT, CHARACTER, TICK = 340, 236, 14, 8.4, 5
TOP, BOTTOM, RIGHT = 26, HEIGHT - 2 * TEXT - 20, WIDTH - 14
HAND_TICKS, AMOUNT_PARTS = 7, 5  # at most, so that labels never run into each other
MARKED_HANDS = 30  # more hands than this and markers at every hand would blur into a band


def summarise(
    sheet: ScoreSheet, hands: list[Shown], won_from: Mapping[tuple[str, str], Decimal]
) -> Summary:
    """Counts, pairwise totals and the cumulative-net chart of a table: ``sheet`` for its
    players and game, ``hands`` every hand with what it came to, ``won_from`` who won what
    from whom (selectors.read_for_summary reads all three)."""
    counts: dict[str, dict[str, int]] = {name: {} for name in sheet.seating}
    for row in hands:
        if row.result is None:
            continue
        data = row.hand.data
        for event in CALLED:
            if event in data:
                counts[data[event]][event] = counts[data[event]].get(event, 0) + 1
        for name, result in data.get("results", {}).items():
            for special in stored.specials_of(sheet.session.game, result):
                counts[name][special] = counts[name].get(special, 0) + 1
    pairwise = []
    for i, a in enumerate(sheet.seating):
        for b in sheet.seating[i + 1 :]:
            balance = won_from.get((b, a), Decimal(0)) - won_from.get((a, b), Decimal(0))
            if balance:
                pairwise.append((a, b, balance) if balance > 0 else (b, a, -balance))
    return Summary(
        hands=[_summary_row(row, sheet) for row in hands],
        specials=[(name, counts[name]) for name in sheet.seating],
        pairwise=pairwise,
        chart=_chart(sheet, hands),
        counted=sum(row.result is not None for row in hands),
    )


def _summary_row(row: Shown, sheet: ScoreSheet) -> SummaryRow:
    if row.result is None:
        return SummaryRow(row.hand.number, "", [], hand_text(row.hand.data, sheet))
    arrow = "↻" if row.result.direction == "cw" else "↺"
    cells = [
        (
            row.result.scores.get(name, ""),
            display.money(row.result.net[name]),
            display.sign(row.result.net[name]),
        )
        for name in sheet.seating
    ]
    led = f"{row.result.first} {arrow}"
    return SummaryRow(row.hand.number, led, cells, hand_text(row.hand.data, sheet))


def _chart(sheet: ScoreSheet, hands: list[Shown]) -> Chart | None:
    """Each player's running net after each hand; for points only, their running total score.

    Hands are one step apart in the order played (their numbers go 1, 2, 3… with none
    missing); a voided hand changes no total and is drawn flat. Every line has a point at the
    start and one per hand, so a page's script finds hand ``k`` at the line's point ``k``.
    """
    if not hands:
        return None
    points_only = sheet.points_only
    running = {name: [Decimal(0)] for name in sheet.seating}
    for row in hands:
        counts: Mapping[str, Decimal | int]
        if row.result is None:
            counts = {}  # voided: it changes no total
        elif points_only:
            counts = row.result.scores
        else:
            counts = row.result.net
        for name in sheet.seating:
            running[name].append(running[name][-1] + counts.get(name, 0))
    steps = [
        Step(str(row.hand.number), _("Hand %(n)s") % {"n": row.hand.number}, row.result is None)
        for row in hands
    ]
    return draw(
        running,
        steps,
        signed=not points_only,
        x_title=_("Hand"),
        heading=_("Hand %(n)s") % {"n": "{n}"},
    )


def draw(
    running: dict[str, list[Decimal]],
    steps: list[Step],
    *,
    signed: bool,
    x_title: str,
    heading: str,
) -> Chart:
    """Running totals as a chart: ``running[name]`` starts at 0 and has a total after each of
    ``steps``; ``signed`` for money (+12), else whole points. Each player in a style of their
    own, in the order given."""
    values = [value for series in running.values() for value in series]
    amount_ticks = _amount_ticks(min(values), max(values), whole=not signed)
    low, high = amount_ticks[0], amount_ticks[-1]
    labels = [_amount_text(value, signed=signed) for value in amount_ticks]
    left = max(4 * CHARACTER, CHARACTER * max(map(len, labels))) + 2 * TICK
    step = (RIGHT - left) / len(steps)

    def x(k: int) -> float:
        return round(left + k * step, 1)

    top, scale = float(high), (BOTTOM - TOP) / float(high - low)

    def y(value: Decimal) -> float:
        return round(TOP + (top - float(value)) * scale, 1)

    xs = [x(k) for k in range(len(steps) + 1)]
    lines = []
    for i, (name, series_values) in enumerate(running.items()):
        series = i % len(STYLES)
        dash, shape = STYLES[series]
        points = " ".join(f"{xs[k]},{y(value)}" for k, value in enumerate(series_values))
        lines.append(Line(name, series, dash, shape, points))
    texts = {
        name: [_amount_text(value, signed) for value in series_values]
        for name, series_values in running.items()
    }
    hands = []
    for k, at in enumerate(steps, start=1):
        band_x = max(left, xs[k] - step / 2)
        totals = [texts[name][k] for name in running]
        band_width = round(min(RIGHT, xs[k] + step / 2) - band_x, 1)
        hands.append(ChartHand(at.label, at.title, at.voided, round(band_x, 1), band_width, totals))
    hand_ticks = [Tick(x(k), steps[k - 1].label) for k in _hand_ticks(len(steps))]
    last = hand_ticks[-1]
    if CHARACTER * len(last.label) / 2 > WIDTH - last.at:  # a date at the right end, say
        hand_ticks[-1] = Tick(last.at, last.label, "end")
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=left,
        right=RIGHT,
        top=TOP,
        bottom=BOTTOM,
        step=round(step, 3),
        zero_y=y(Decimal(0)),
        lines=lines,
        hand_ticks=hand_ticks,
        amount_ticks=[Tick(y(v), label) for v, label in zip(amount_ticks, labels, strict=True)],
        hands=hands,
        marked=len(steps) <= MARKED_HANDS,
        x_title=x_title,
        heading=heading,
    )


def _step(span: Decimal, parts: int, *, whole: bool) -> Decimal:
    """The least of 1, 2 or 5 × 10ⁿ (at least 1 if ``whole``) that cuts ``span`` in ``parts``."""
    rough = (span or Decimal(parts)) / parts
    power = Decimal(10) ** rough.adjusted()
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= rough)
    return max(step, Decimal(1)) if whole else step


def _amount_ticks(low: Decimal, high: Decimal, *, whole: bool) -> list[Decimal]:
    """Round amounts from at or below ``low`` to at or above ``high``, 0 among them."""
    low, high = min(low, Decimal(0)), max(high, Decimal(0))
    step = _step(high - low, AMOUNT_PARTS, whole=whole)
    first = int((low / step).to_integral_value(ROUND_FLOOR))
    last = max(int((high / step).to_integral_value(ROUND_CEILING)), first + 1)
    return [step * n for n in range(first, last + 1)]


def _hand_ticks(hands: int) -> list[int]:
    """The first hand, then round numbers of hands up to ``hands``."""
    step = int(_step(Decimal(hands - 1), HAND_TICKS, whole=True))
    return sorted({1, *range(step, hands + 1, step)})


def _amount_text(value: Decimal, signed: bool) -> str:
    """An amount as the page prints it: a net signed (+12, -6.5, 0), points as they are."""
    return display.money(value) if signed else str(amount(value))
