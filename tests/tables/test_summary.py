"""The summary's chart: its axes, zero line, palette and text alternative (issue 11)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from ledger.tables import selectors, services
from ledger.tables.summary import (
    HAND_TICKS,
    STYLES,
    Chart,
    _amount_ticks,
    _hand_ticks,
    summarise,
)
from ledger.web import display
from scoring.document import amount
from tests.tables.conftest import SEATING, plain_hand

# Ce Deng, counter-clockwise from Anna: 2, 12, 34, 18 nets +58, +18, -70, -6.
HAND_1 = ["+58", "+18", "−70", "−6"]  # a minus sign, not a hyphen


def chart_of(session) -> Chart:
    chart = summarise(selectors.score_sheet(session)).chart
    assert chart is not None
    return chart


@pytest.fixture
def three_hands(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_record(session=ce_deng, number=2, data=plain_hand(direction="cw", Anna=20, Bob=4))
    services.hand_record(session=ce_deng, number=3, data=plain_hand(first="Bob"))
    return ce_deng


def test_there_is_no_chart_before_the_first_hand(client, ce_deng):
    assert summarise(selectors.score_sheet(ce_deng)).chart is None

    page = client.get(reverse("summary", args=[ce_deng.token])).content.decode()

    assert '<svg class="chart"' not in page and "No hands yet." in page


def test_the_hand_axis_has_every_hands_number_and_the_amount_axis_round_values(three_hands):
    chart = chart_of(three_hands)

    assert [tick.label for tick in chart.hand_ticks] == ["1", "2", "3"]
    assert [tick.at for tick in chart.hand_ticks] == [
        round(chart.left + k * chart.step, 1) for k in (1, 2, 3)
    ]
    assert chart.hand_ticks[-1].at == chart.right
    # Totals run from -200 to +112: round hundreds on either side, 0 among them.
    assert [tick.label for tick in chart.amount_ticks] == ["−200", "−100", "0", "+100", "+200"]
    assert [tick.at for tick in chart.amount_ticks] == sorted(
        (tick.at for tick in chart.amount_ticks), reverse=True
    )  # up the page as amounts grow
    assert chart.amount_ticks[0].at == chart.bottom and chart.amount_ticks[-1].at == chart.top


def test_the_zero_line_is_where_the_zero_tick_is_and_every_line_starts_on_it(three_hands):
    chart = chart_of(three_hands)

    zero = next(tick for tick in chart.amount_ticks if tick.label == "0")
    assert chart.zero_y == zero.at
    for line in chart.lines:
        x, y = line.points.split()[0].split(",")
        assert (float(x), float(y)) == (chart.left, chart.zero_y)


@pytest.mark.parametrize(
    ("hands", "ticks"),
    [
        (1, [1]),
        (7, [1, 2, 3, 4, 5, 6, 7]),
        (12, [1, 2, 4, 6, 8, 10, 12]),
        (40, [1, 10, 20, 30, 40]),
        (500, [1, 100, 200, 300, 400, 500]),
    ],
)
def test_hand_numbers_are_labelled_from_the_first_in_round_steps(hands, ticks):
    assert _hand_ticks(hands) == ticks
    assert len(ticks) <= HAND_TICKS + 1  # the first hand, and at most HAND_TICKS steps


@pytest.mark.parametrize(
    ("low", "high", "whole", "ticks"),
    [
        ("-200", "112", False, ["-200", "-100", "0", "100", "200"]),
        ("0", "0", False, ["0", "1"]),  # nothing won yet: still an axis
        ("-1.5", "2", False, ["-2", "-1", "0", "1", "2"]),
        ("0", "2", False, ["0", "0.5", "1", "1.5", "2"]),  # a stake of 0.50
        ("0", "2", True, ["0", "1", "2"]),  # points are whole
        ("0", "4870", True, ["0", "1000", "2000", "3000", "4000", "5000"]),
    ],
)
def test_amounts_are_labelled_in_round_steps_around_zero(low, high, whole, ticks):
    found = _amount_ticks(Decimal(low), Decimal(high), whole=whole)

    assert [str(amount(value)) for value in found] == ticks


def test_each_line_has_a_colour_a_dash_and_a_marker_of_its_own(three_hands):
    chart = chart_of(three_hands)

    assert [line.name for line in chart.lines] == SEATING
    styles = [(line.series, line.dash, line.shape) for line in chart.lines]
    assert styles == [(series, *style) for series, style in enumerate(STYLES)]
    for part in zip(*styles, strict=True):
        assert len(set(part)) == len(SEATING)  # colour, dash and marker each tell lines apart
    # The colours themselves are ledger.css's, light and dark: tests/ledger/test_colours.py.


def test_the_text_alternative_is_each_players_running_total_ending_at_the_totals(three_hands):
    sheet = selectors.score_sheet(three_hands)
    chart = chart_of(three_hands)

    assert [hand.label for hand in chart.hands] == ["1", "2", "3"]
    assert chart.hands[0].totals == HAND_1
    running = dict.fromkeys(SEATING, Decimal(0))
    for hand, result in zip(chart.hands, sheet.result.hands, strict=True):
        running = {name: running[name] + result.net[name] for name in SEATING}
        assert hand.totals == [display.money(running[name]) for name in SEATING]
    assert chart.hands[-1].totals == [display.money(net) for _, net, _, _ in sheet.totals]


def test_a_voided_hand_is_flat_on_the_chart_and_says_so_in_its_table(client, three_hands):
    services.hand_void(session=three_hands, number=2, version=1)
    chart = chart_of(three_hands)

    assert [hand.voided for hand in chart.hands] == [False, True, False]
    assert chart.hands[1].totals == chart.hands[0].totals == HAND_1
    for line in chart.lines:
        ys = [point.split(",")[1] for point in line.points.split()]
        assert len(ys) == 4 and ys[1] == ys[2]  # the start, then one point per hand
    page = client.get(reverse("summary", args=[three_hands.token])).content.decode()
    assert '<tr><th scope="row">2 (voided)</th>' in page


def test_points_only_charts_running_points_unsigned(db):
    session = services.session_create(
        game="ce-deng", options={"stake": 0}, seating=SEATING, first="Anna"
    )
    services.hand_record(session=session, number=1, data=plain_hand())

    chart = chart_of(session)

    assert chart.hands[0].totals == ["2", "12", "34", "18"]
    assert [tick.label for tick in chart.amount_ticks] == ["0", "10", "20", "30", "40"]
    assert chart.zero_y == chart.bottom


def test_many_hands_have_markers_only_at_the_end(ce_deng):
    for number in range(1, 32):
        services.hand_record(
            session=ce_deng, number=number, data={"results": plain_hand()["results"]}
        )

    chart = chart_of(ce_deng)

    assert not chart.marked and len(chart.hands) == 31


def test_the_summary_page_draws_the_axes_and_the_table_of_the_chart(client, three_hands):
    page = client.get(reverse("summary", args=[three_hands.token])).content.decode()

    chart = page.split('<svg class="chart"')[1].split("</svg>")[0]
    assert 'aria-labelledby="chart-heading"' in chart and 'aria-details="chart-data"' in chart
    assert '<text class="title" x="0" y="12">Net</text>' in chart
    assert ">Hand</text>" in chart and ">0</text>" in chart and ">+200</text>" in chart
    assert chart.count("<polyline") == 4 and chart.count('class="band"') == 3
    assert "<title>Hand 1: Anna +58, Bob +18, Celine −70, Dominic −6</title>" in chart
    table = page.split('<table id="chart-table">')[1].split("</table>")[0]
    assert (
        '<tr><th scope="row">1</th>' + "".join(f'<td class="num">{net}</td>' for net in HAND_1)
        in table
    )


def test_the_chart_reads_in_chinese(client, three_hands):
    url = reverse("summary", args=[three_hands.token])
    client.post(reverse("set_language"), {"language": "zh-hans", "next": url})

    page = client.get(url).content.decode()

    chart = page.split('<svg class="chart"')[1].split("</svg>")[0]
    assert ">Hand</text>" not in chart and ">Net</text>" not in chart
    assert "<title>第 1 局：Anna +58，Bob +18，Celine −70，Dominic −6</title>" in chart
    assert 'data-heading="第 {n} 局"' in page


def test_a_players_name_is_escaped_in_the_charts_titles(client, db):
    seating = ["<b>Ann</b>", "Bob", "Celine", "Dominic"]
    session = services.session_create(game="ce-deng", options={}, seating=seating, first="Bob")
    data = {
        "results": {name: {"pips": p} for name, p in zip(seating, [2, 12, 34, 18], strict=True)}
    }
    services.hand_record(session=session, number=1, data=data)

    page = client.get(reverse("summary", args=[session.token])).content.decode()

    assert "<b>Ann</b>" not in page and "&lt;b&gt;Ann&lt;/b&gt; +58" in page
