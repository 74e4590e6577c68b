"""What a table plays for, in one line: the stake or the chip's value (or points only), how a
hand pays, the head and tail variant where the game has one, and how the game ends. The table
page, its summary (shared or not) and the group page show it (``tables/_stake.html``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import scoring
from ledger.tables.money import readable_amount
from scoring import GAMES, OPTION_SPECS

SEPARATOR = " · "


def stake_line(game: str, options: Mapping[str, Any] | scoring.Options, ends_at: str = "") -> str:
    """The line for a ``game`` table (or a group's usual game) played under ``options`` (as
    stored, or as the engine reads them), ending at the time ``ends_at`` ("22:30") if it has
    one, in the active language: "0.50 a point · every pair settles the difference · head and
    tail 7/8 · to 500 points"."""
    rules = GAMES[game]
    if not isinstance(options, scoring.Options):
        document = {"game": game, "options": dict(options), "seating": []}
        options = scoring.parse_session(document).options
    unit = rules.unit(options)
    parts = []
    if not unit:
        parts.append(_("Points only, nothing paid"))
    else:
        value = str(readable_amount(unit))
        if rules.pays_chips(options):
            parts.append(_("a chip is worth %(amount)s") % {"amount": value})
        else:
            parts.append(_("%(amount)s a point") % {"amount": value})
        payment = rules.payment(options)
        if payment is not None:
            parts.append(_(dict(OPTION_SPECS["payment"].choices)[payment.value]))
    if "head_tail" in rules.option_names:
        parts.append(_("head and tail %(variant)s") % {"variant": options.head_tail.value})
    if options.play_to is not None:
        parts.append(
            ngettext("to %(n)s point", "to %(n)s points", options.play_to) % {"n": options.play_to}
        )
    if options.hands is not None:
        parts.append(ngettext("%(n)s hand", "%(n)s hands", options.hands) % {"n": options.hands})
    if ends_at:
        parts.append(_("until %(time)s") % {"time": ends_at})
    if options.play_to is None and options.hands is None and not ends_at:
        parts.append(_("no set end"))
    line = SEPARATOR.join(parts)
    return line[:1].upper() + line[1:]
