"""What *Share* sends to the group's chat (issue 37, item 10): a table's or an evening's result
and settle-up as plain text, in the reader's language, with the read-only summary's link. The
page carries it (ledger.js only hands it to the phone's share sheet, or the clipboard), so it
reads as the page does.

>>> from decimal import Decimal
>>> from scoring import Transfer
>>> print(table_text("Jie Long", {"Anna": Decimal(3), "Bob": Decimal("-3")}, (
...     Transfer("Bob", "Anna", Decimal(3)),), "https://x/s/t/"))
Jie Long
Anna +3 · Bob −3
Settle up: Bob pays Anna 3
https://x/s/t/
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ledger.web.display import colon, money
from scoring import Transfer

SEPARATOR = " · "


def standing(net: Mapping[str, Decimal | int], *, points: bool = False) -> str:
    """Each player and what they stand at, in order: "Anna +3 · Bob −3" (points: unsigned)."""
    return SEPARATOR.join(
        f"{name} {amount if points else money(Decimal(amount))}" for name, amount in net.items()
    )


def settle_up(transfers: Iterable[Transfer], label: str = "") -> str:
    """ "Settle up: Bob pays Anna 3 · …", or that nobody owes anything."""
    paid = [
        _("%(payer)s pays %(payee)s %(amount)s")
        % {"payer": t.payer, "payee": t.payee, "amount": money(t.amount).removeprefix("+")}
        for t in transfers
    ]
    if not paid:
        return _("Everyone is square: nobody owes anything.")
    return f"{label or _('Settle up')}{colon()}{SEPARATOR.join(paid)}"


def table_text(
    title: str,
    net: Mapping[str, Decimal | int],
    transfers: Sequence[Transfer],
    link: str = "",
    *,
    points: bool = False,
    winner: str = "",
) -> str:
    """A table's result: its game, who won (a game that ends), where each player stands,
    the settle-up (none for points), and the read-only summary's link if given."""
    lines = [title]
    if winner:
        lines.append(_("Game over: %(name)s wins.") % {"name": winner})
    lines.append(standing(net, points=points))
    if not points:
        lines.append(settle_up(transfers))
    if link:
        lines.append(link)
    return "\n".join(lines)


def evening_text(
    name: str,
    tables: Sequence[tuple[str, int, Mapping[str, Decimal | int], bool, str]],
    balances: Sequence[tuple[str, Mapping[str, Decimal], Sequence[Transfer]]],
) -> str:
    """A group's evening: its name, each table of the evening (its game and hands, where each
    player stands there, its read-only summary's link), then the group's balances and their
    settle-up, in money (a chip table's chips at its chip's value)."""
    lines = [name]
    for title, hands, net, points, link in tables:
        counted = ngettext("%(hands)s hand", "%(hands)s hands", hands) % {"hands": hands}
        lines += ["", f"{title}{colon()}{counted}", standing(net, points=points), link]
    for _unit, owed, transfers in balances:
        lines.append("")
        lines.append(f"{_('Balances')}{colon()}{standing({k: v for k, v in owed.items() if v})}")
        lines.append(settle_up(transfers))
    return "\n".join(lines)
