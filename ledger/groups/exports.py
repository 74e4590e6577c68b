"""CSV exports of a group: its tables, payments, balances and statistics (docs/exports.md lists
every column). No table's link is written: a file travels further than the group's link."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

from django.http import Http404, StreamingHttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ledger.amounts import readable_amount
from ledger.groups import selectors, stats
from ledger.groups.models import Group
from ledger.web import display, exports
from ledger.web.games import special_label
from scoring import GAMES
from scoring.document import amount

UNITS = {
    "money": gettext_lazy("money"),
    "chips": gettext_lazy("chips"),
    "points": gettext_lazy("points"),
}


def _money(value: Decimal) -> int | str:
    return amount(readable_amount(value))


class _Words:
    """How values read: as codes for a program, or as words in the page's language."""

    def __init__(self, words: bool) -> None:
        self.words = words

    def header(self, *keys: str) -> list[str]:
        # Built here rather than by exports.readable: a player's name heads a column of
        # tables.csv, and a player called "Date" is not to be translated.
        return [str(exports.HEADERS[key]) if self.words else key for key in keys]

    def game(self, key: str) -> str:
        return _(GAMES[key].label) if self.words else key

    def unit(self, unit: str) -> str:
        return str(UNITS[unit]) if self.words else unit

    def yes(self, value: bool) -> str:
        if not value:
            return ""
        return _("yes") if self.words else "yes"

    def specials(self, counts: dict[str, int]) -> str:
        if self.words:
            return display.comma().join(f"{special_label(k)} {n}" for k, n in counts.items())
        return " ".join(f"{kind}:{n}" for kind, n in counts.items())


def tables_rows(group: Group, words: _Words) -> Iterator[list[Any]]:
    """One row per table, the first first, with each player's result there in its unit."""
    ledger = selectors.ledger(group)
    yield [*words.header("table", "date", "game", "unit", "value", "hands"), *ledger.players]
    for number, line in enumerate(reversed(ledger.tables), start=1):
        results = [_money(line.net[n]) if n in line.net else "" for n in ledger.players]
        yield [
            number, timezone.localdate(line.created).isoformat(), words.game(line.game),
            words.unit(line.unit), _money(line.value), line.hands, *results,
        ]  # fmt: skip


def payments_rows(group: Group, words: _Words) -> Iterator[list[Any]]:
    """Every payment recorded, voided ones too, the first first."""
    yield words.header("date", "from", "to", "amount", "unit", "chip", "note", "voided")
    for payment in group.payments.select_related("payer", "payee", "void"):
        chip = "" if payment.chip is None else _money(payment.chip)
        yield [
            timezone.localdate(payment.created).isoformat(), payment.payer.name,
            payment.payee.name, _money(payment.amount), words.unit(payment.unit), chip,
            payment.note, words.yes(payment.voided is not None),
        ]  # fmt: skip


def balances_rows(group: Group, words: _Words) -> Iterator[list[Any]]:
    """Where each player stands, payments counted (as the group's page shows it): one amount of
    money, chip tables at their chips' values."""
    ledger = selectors.ledger(group)
    games = list(ledger.points)
    points = [_per_game("points", game, words) for game in games]
    yield [*words.header("player", "money", "hands", "hands_won"), *points]
    for name in ledger.players:
        yield [
            name, _money(ledger.money[name]), ledger.hands[name], ledger.won[name],
            *(ledger.points[game].get(name, "") for game in games),
        ]  # fmt: skip


def statistics_rows(group: Group, words: _Words) -> Iterator[list[Any]]:
    """One row per player: stats.player_stats over all time; the average score in a column
    for each game played (averaged within one game only)."""
    played = stats.player_stats(group)
    games = [game for game in GAMES if any(game in one.average_scores for one in played)]
    yield words.header(
        "player", "tables", "hands", "hands_won", "won_share", "specials",
        "best_table", "best_unit", "best_result", "worst_table", "worst_unit", "worst_result",
        "money",
    ) + [_per_game("average_score", game, words) for game in games]  # fmt: skip
    for one in played:
        yield [
            one.name, one.tables, one.hands, one.won, _number(one.won_share),
            words.specials(one.specials),
            *_table(one.best_table, words), *_table(one.worst_table, words),
            _money(one.money_over_time[-1][1]) if one.money_over_time else 0,
            *(_number(one.average_scores.get(game)) for game in games),
        ]  # fmt: skip


def _per_game(key: str, game: str, words: _Words) -> str:
    """A column of one game's ``key`` (points, average score): "points_jie-long", or in words
    "Points (Jie Long 接龙)"."""
    return f"{words.header(key)[0]} ({words.game(game)})" if words.words else f"{key}_{game}"


def _number(value: float | None) -> float | str:
    return "" if value is None else value


def _table(mark: stats.TableMark | None, words: _Words) -> list[Any]:
    if mark is None:
        return ["", "", ""]
    return [mark.number, words.unit(mark.unit), _money(mark.amount)]


EXPORTS: dict[str, Callable[[Group, _Words], Iterator[list[Any]]]] = {
    "tables": tables_rows,
    "payments": payments_rows,
    "balances": balances_rows,
    "statistics": statistics_rows,
}


def response(group: Group, kind: str, *, words: bool = False) -> StreamingHttpResponse:
    """The group's export ``kind``; with ``words``, as a person downloading it from a page
    reads it (headers, games, units in the page's language), else as a program reads it
    (docs/exports.md). Http404 for a kind there is not."""
    rows = EXPORTS.get(kind)
    if rows is None:
        raise Http404("No such export")
    return exports.download(rows(group, _Words(words)), group.name, kind)
