"""CSV exports of a table: hands, payments, settle-up and totals (docs/exports.md lists every
column)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from django.http import Http404, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from ledger.models import TableSession
from ledger.tables import selectors, stored
from ledger.tables.display import hand_event
from ledger.web import display, exports
from ledger.web.games import special_label
from scoring import GAMES, standing
from scoring.document import amount


def hands_rows(sheet: selectors.ScoreSheet, *, words: bool = False) -> Iterator[list[Any]]:
    """One row per player per hand; with ``words``, as a person reads it: specials and the
    hand's event by their names, the direction as a word, in the page's language."""
    yield [
        "hand", "voided", "first", "direction", "event", "player", "seat", "turn",
        "score", "specials", "rank", "net",
    ]  # fmt: skip
    yes = str(_("yes")) if words else "yes"
    for row in sheet.rows:
        data, result = row.hand.data, row.result
        recorded, _caller = hand_event(data)
        event = "" if recorded is None else special_label(recorded.value) if words else recorded
        for seat, name in enumerate(sheet.seating, start=1):
            entered = data.get("results", {}).get(name, {})
            turn: int | str
            score: int | str
            rank: int | str
            if result is not None:
                first, direction = result.first, result.direction.value
                turn = result.order.index(name) + 1
                score = result.scores.get(name, "")
                rank = result.ranking.index(name) + 1 if name in result.ranking else ""
                # Points only: nothing is paid, so no net of 0 is listed.
                net: Any = "" if sheet.points_only else amount(result.net[name])
            else:
                first, direction = data.get("first", ""), data.get("direction", "")
                turn, score, rank, net = "", entered.get("pips", ""), "", ""
            specials = stored.specials_of(sheet.session.game, entered)
            yield [
                row.hand.number, yes if row.hand.voided else "", first,
                display.direction(direction) if words and direction else direction,
                event, name, seat, turn, score,
                display.comma().join(map(special_label, specials)) if words else " ".join(specials),
                rank, net,
            ]  # fmt: skip


def payments_rows(sheet: selectors.ScoreSheet) -> Iterator[list[Any]]:
    yield ["hand", "from", "to", "amount", "multiplier", "reason"]
    for row in sheet.rows:
        if row.result is None:
            continue
        for p in row.result.payments:
            yield [row.hand.number, p.payer, p.payee, amount(p.amount), p.multiplier, p.reason]


def settle_up_rows(sheet: selectors.ScoreSheet) -> Iterator[list[Any]]:
    yield ["from", "to", "amount"]
    for transfer in sheet.result.settle_up:
        yield [transfer.payer, transfer.payee, amount(transfer.amount)]


def totals_rows(sheet: selectors.ScoreSheet) -> Iterator[list[Any]]:
    """One row per player, best first: by the money where money moves (who won the most
    first), else as the game's winner is found from the points (scoring.standing), which also
    breaks ties of money."""
    yield ["place", "player", "seat", "points", "hands_won", "net", "end"]
    counted = sheet.result.totals
    end = sheet.end
    seats = {name: seat for seat, name in enumerate(sheet.seating, start=1)}
    ranked = standing(GAMES[sheet.session.game], sheet.seating, counted)
    if not sheet.points_only:
        ranked = sorted(ranked, key=lambda name: -counted.net[name])
    for place, name in enumerate(ranked, start=1):
        won = "winner" if end is not None and end.over and end.winner == name else ""
        yield [
            place, name, seats[name], counted.scores[name], counted.hands_won[name],
            amount(counted.net[name]), won,
        ]  # fmt: skip


def rules_rows(sheet: selectors.ScoreSheet, *, words: bool = False) -> Iterator[list[Any]]:
    """One row per option the table's game takes: the value it plays with, and whether that is
    the game's usual (an option left unset plays the usual); with ``words``, the option and its
    value by their names in the page's language."""
    yield ["option", "value", "usual"]
    game = GAMES[sheet.session.game]
    stored = sheet.session.options
    for spec in game.option_specs:
        usual = game.option_values(spec.name)[0] if spec.name == "payment" else spec.default
        value = str(stored.get(spec.name, usual))
        is_usual = value == str(usual)
        if not words:
            yield [spec.name, value, "yes" if is_usual else ""]
            continue
        named = dict(spec.choices).get(value)
        yield [_(spec.label), _(named) if named else value, _("yes") if is_usual else ""]
    # Ends by time: the ledger's option, not the engine's (ledger.tables.clock). A moment, so
    # a program reads it in ISO 8601 and a person on the table's clock.
    ends_at = sheet.session.ends_at
    if not words:
        yield ["ends_at", ends_at.isoformat() if ends_at else "", "" if ends_at else "yes"]
    else:
        time = sheet.time_end
        yield [_("Until"), time.at if time else "", "" if time else _("yes")]


EXPORTS: dict[str, Callable[[selectors.ScoreSheet], Iterator[list[Any]]]] = {
    "hands": hands_rows,
    "payments": payments_rows,
    "settle-up": settle_up_rows,
    "totals": totals_rows,
    "rules": rules_rows,
}


def response(session: TableSession, kind: str, *, words: bool = False) -> StreamingHttpResponse:
    """The table's export ``kind``; with ``words``, as a person downloading it from a page
    reads it (headers, specials, events and directions in the page's language), else as a
    program reads it (docs/exports.md)."""
    rows = EXPORTS.get(kind)
    if rows is None:
        raise Http404("No such export")
    sheet = selectors.rescored_sheet(session)
    day = timezone.localdate(session.created).isoformat()
    worded = {"hands": hands_rows, "rules": rules_rows}.get(kind) if words else None
    found = worded(sheet, words=True) if worded else rows(sheet)
    return exports.download(
        exports.readable(found) if words else found, session.game, day, *sheet.seating, kind
    )
