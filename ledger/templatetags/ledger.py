"""Small filters and tags for showing money, directions, hands and QR codes (see
ledger.web.display)."""

from __future__ import annotations

import secrets
from datetime import datetime
from html import escape
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ledger.events.standings import Standing
from ledger.tables.display import hand_text
from ledger.tables.selectors import ScoreSheet
from ledger.tables.stakes import stake_line as line_of_stake
from ledger.tables.summary import Chart, SummaryRow
from ledger.web import display, share
from ledger.web.forms import in_page_language
from ledger.web.games import special_label
from scoring import GAMES

register = template.Library()

register.filter("money", display.money)
register.filter("entered", display.entered)
register.filter("sign", display.sign)
register.filter("in_unit", display.in_unit)
register.filter("chips_worth", display.chips_worth)
register.filter("paid", display.paid)
register.filter("figure", display.figure)
register.filter("outcome", display.outcome)
register.filter("direction", display.direction)
register.filter("hand_text", hand_text)
register.filter("special", special_label)
register.filter("in_page_language", in_page_language)
register.simple_tag(display.comma, name="comma")
register.simple_tag(display.colon, name="colon")


@register.simple_tag
def stake_line(game: str, options: Any, ends_at: Any = "") -> str:
    """What a table (or a group's usual game) plays for, in one line (ledger.tables.stakes)."""
    return line_of_stake(game, options, str(ends_at or ""))


@register.simple_tag
def new_key() -> str:
    """A new idempotency key for a form that starts a table (128 random bits, as a hand's):
    however often the form is sent, one table is started."""
    return secrets.token_urlsafe(16)


@register.filter
def listed(items: list[str]) -> str:
    """Names one after the other, as the page's language lists them ("Anna, Bob"; "Anna，Bob")."""
    return display.comma().join(items)


register.simple_tag(display.qr_svg, name="qr_svg")


@register.simple_tag
def share_table(sheet: ScoreSheet) -> str:
    """What Share sends from a table (ledger.web.share), but for its read-only summary's link,
    which the phone adds (the live part it is in is the same for every phone and server)."""
    totals, end = sheet.result.totals, sheet.end
    points = sheet.points_only
    return share.table_text(
        _(GAMES[sheet.session.game].label),
        {name: totals.scores[name] if points else totals.net[name] for name in sheet.seating},
        sheet.result.settle_up,
        points=points,
        winner=end.winner if end is not None and end.over else "",
    )


@register.filter
def game_title(key: str) -> str:
    """A game's name in the page's language, from its key."""
    return _(GAMES[key].label)


@register.simple_tag
def table_name(created: datetime, game: str) -> SafeString:
    """A table as every list names it: when it began (weekday, date, time) and its game, so two
    tables of one day read apart ("Thu 26/11/2026, 20:10 · Ce Deng 斜钉")."""
    return format_html("{} · {}", display.when(created), game_title(game))


@register.filter
def get(mapping: dict[str, Any], key: str) -> Any:
    return mapping.get(key, "")


@register.simple_tag
def summary_hand_rows(rows: list[SummaryRow], seats: int) -> SafeString:
    """The summary's hand table body: for each hand a row of everyone's score and net, and
    under it who led and the hand as entered, across the players' columns. So the table is as
    wide as its players' columns and fits a phone with four (issue 45, item 15; with the two
    as columns of their own it was 599 px wide at 360).

    Built here with the standard library's escape rather than in template loops or with
    format_html: a 500-hand session has thousands of cells, and both took most of the page's
    time. Every text that comes from a player goes through ``escape``.
    """
    voided = escape(str(_("voided")))
    led_by, colon = escape(str(_("Led by"))), escape(display.colon())
    lines = []
    for row in rows:
        if row.led:
            cells = "".join(
                f'<td class="num">{escape(str(score))}<br><span class="{css}">{net}</span></td>'
                for score, net, css in row.cells
            )
            entered = f"{led_by}{colon}{escape(row.led)} · {escape(row.entered)}"
        else:
            cells = f'<td colspan="{seats}">{voided}</td>'
            entered = escape(row.entered)
        lines.append(
            f'<tr id="hand-{row.number}"><td>{row.number}</td>{cells}</tr>'
            f'<tr class="entered"><td></td><td colspan="{seats}"><p>{entered}</p></td></tr>'
        )
    return mark_safe("\n".join(lines))  # every player text is escaped above


@register.simple_tag
def chart_bands(chart: Chart) -> SafeString:
    """A band across the plot for each hand, titled with everyone's total after it: pointing
    at a hand shows them, with no script.

    Built as ``summary_hand_rows`` is, and for the same reason (a band for each of 500 hands).
    """
    names = [escape(line.name) for line in chart.lines]
    voided, colon, comma = (
        escape(str(text)) for text in (_("voided"), display.colon(), display.comma())
    )
    height = round(chart.bottom - chart.top, 1)
    bands = []
    for hand in chart.hands:
        title = escape(hand.title)
        if hand.voided:
            title += f" ({voided})"
        totals = comma.join(
            f"{name} {total}" for name, total in zip(names, hand.totals, strict=True)
        )
        bands.append(
            f'<rect class="band" x="{hand.band_x}" y="{chart.top}" width="{hand.band_width}"'
            f' height="{height}"><title>{title}{colon}{totals}</title></rect>'
        )
    return mark_safe("".join(bands))  # every player text is escaped above


@register.simple_tag
def chart_rows(chart: Chart) -> SafeString:
    """The chart's text alternative: a row per hand of everyone's total after it."""
    voided = escape(str(_("voided")))
    rows = []
    for hand in chart.hands:
        note = f" ({voided})" if hand.voided else ""
        cells = "".join(f'<td class="num">{total}</td>' for total in hand.totals)
        rows.append(f'<tr><th scope="row">{escape(hand.label)}{note}</th>{cells}</tr>')
    return mark_safe("\n".join(rows))  # amounts, and every text escaped


@register.simple_tag
def standings_rows(rows: list[Standing], read_token: str = "") -> SafeString:
    """The standings table body (600 players in a big event), built as ``summary_hand_rows``
    is and for the same reason; with ``read_token`` each name opens the player's rounds."""
    dropped = escape(str(_("dropped out")))
    lines = []
    for row in rows:
        name = escape(row.name)
        if read_token:
            url = reverse("event_player", args=[read_token, row.name])
            name = f'<a href="{escape(url)}">{name}</a>'
        if not row.active:
            name += f" ({dropped})"
        lines.append(
            f'<tr><td class="num">{row.place}</td><td>{name}</td>'
            f'<td class="num {display.sign(row.net)}"><strong>{display.money(row.net)}</strong>'
            f'</td><td class="num">{row.hands_won}</td><td class="num">{row.points}</td>'
            f'<td class="num">{row.hands}</td></tr>'
        )
    return mark_safe("\n".join(lines))  # every player text is escaped above
