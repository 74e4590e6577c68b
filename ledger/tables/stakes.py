"""What a table plays for, in one line: the stake or the chip's value (or points only), how a
hand pays, the head and tail variant where the game has one, and how the game ends (nothing
where it has no set end). The table
page, its summary (shared or not) and the group page show it (``tables/_stake.html``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from ledger.amounts import readable_amount
from scoring import GAMES, ChipPayment

SEPARATOR = " · "


def stake_line(game: str, options: Mapping[str, Any] | scoring.Options, ends_at: str = "") -> str:
    """The line for a ``game`` table (or a group's usual game) played under ``options`` (as
    stored, or as the engine reads them), ending at the time ``ends_at`` ("22:30") if it has
    one, in the active language: "0.50 a point, pairwise · head/tail 7/8 · to 500 points".
    Short, so that at 360 px the table page keeps the whole hand form in the first screen."""
    rules = GAMES[game]
    if not isinstance(options, scoring.Options):
        document = {"game": game, "options": dict(options), "seating": []}
        options = scoring.parse_session(document).options
    parts = [_paid(rules, options)]
    if "head_tail" in rules.option_names:
        parts.append(_("head/tail %(variant)s") % {"variant": options.head_tail.value})
    if options.play_to is not None:
        parts.append(
            ngettext("to %(n)s point", "to %(n)s points", options.play_to) % {"n": options.play_to}
        )
    if options.hands is not None:
        parts.append(ngettext("%(n)s hand", "%(n)s hands", options.hands) % {"n": options.hands})
    if ends_at:
        parts.append(_("until %(time)s") % {"time": ends_at})
    line = SEPARATOR.join(parts)
    return line[:1].upper() + line[1:]


def _paid(rules: scoring.Game, options: scoring.Options) -> str:
    """What a point or a chip is worth, and who pays it."""
    unit = rules.unit(options)
    if not unit:
        return _("Points only, nothing paid")
    value = {"amount": number_format(readable_amount(unit), force_grouping=True)}
    payment = rules.payment(options)
    if not rules.pays_chips(options):
        if payment is ChipPayment.PAIRWISE:
            return _("%(amount)s a point, pairwise") % value
        return _("%(amount)s a point") % value
    if payment in (ChipPayment.CHIPS, ChipPayment.EACH):
        return _("a chip of %(amount)s from each loser") % value
    if payment is ChipPayment.HIGHEST:
        return _("a chip of %(amount)s from the last and anyone over 30") % value
    return _("a chip is worth %(amount)s") % value
