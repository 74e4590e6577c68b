"""Whose phone this is, as the phone said ("I am Bob"), kept in its Django session: one player
per circle (a lone table's, a tournament's, a group's), by the player's id and name. The pages
speak to that person ("You owe Celine 6.50") and name them as who saved, corrected, voided or
paid from here. A claim gives no right: the organiser's rights come by the organiser's link
only (ledger.web.rights). What other phones claimed is ledger.players.claims's."""

from __future__ import annotations

import secrets
from collections.abc import Iterable

from django.http import HttpRequest

ME = "me"  # in the Django session: {circle: [player id, name]}
PHONE = "phone"  # and this phone's random id, which its claims are kept under


def phone(request: HttpRequest) -> str:
    """This phone's id, made at its first claim (a page read writes no session)."""
    if PHONE not in request.session:
        request.session[PHONE] = secrets.token_urlsafe(12)
    return str(request.session[PHONE])


def phone_if_any(request: HttpRequest) -> str:
    return str(request.session.get(PHONE, ""))


def claim(request: HttpRequest, circle: str, player: int | None, name: str = "") -> None:
    """This phone is ``player``'s (named ``name``) in ``circle``; nobody's for None."""
    mine = dict(request.session.get(ME, {}))
    if player is None:
        mine.pop(circle, None)
    else:
        mine[circle] = [player, name]
    request.session[ME] = mine


def mine(request: HttpRequest, players: Iterable[int]) -> tuple[int, str] | None:
    """The player among ``players`` (the ids of a table's seats or a group's players) this
    phone claimed, with their name; None if it claimed none of them."""
    claimed = dict(request.session.get(ME, {}).values())
    if not claimed:
        return None
    return next(((pk, claimed[pk]) for pk in players if pk in claimed), None)


def name(request: HttpRequest, players: Iterable[int]) -> str:
    """Who is acting from this phone among ``players``: the name claimed, else ""."""
    found = mine(request, players)
    return found[1] if found else ""
