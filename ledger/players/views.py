""" "I am Bob": a phone says which player of a table's or a group's it belongs to, by one tap
on a name (POST /t/<token>/me/, /g/<token>/me/), and the pages show who it is (``picker``).
The claim is kept in the phone's session (ledger.web.me) and recorded for the other phones
(ledger.players.claims). It names who did what; it gives no right."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ledger.groups import selectors as group_selectors
from ledger.players import claims
from ledger.players.models import Player
from ledger.tables import selectors as table_selectors
from ledger.web import me
from ledger.web.forms import whole_number


@dataclass(frozen=True)
class Picker:
    """The names a phone may choose from, and which it chose: what templates/players/_who.html
    shows. ``elsewhere``: the names another phone has claimed."""

    action: str
    players: list[tuple[int, str]]
    mine: tuple[int, str] | None
    elsewhere: list[str]


def picker(request: HttpRequest, players: dict[int, str], action: str) -> Picker:
    """The choice of ``players`` (id: name) for this phone, posted to ``action``."""
    taken = claims.claimed_elsewhere(players, me.phone_if_any(request))
    return Picker(
        action=action,
        players=list(players.items()),
        mine=me.mine(request, players),
        elsewhere=[name for pk, name in players.items() if pk in taken],
    )


@require_POST
def table_me(request: HttpRequest, token: str) -> HttpResponse:
    session = table_selectors.session_by_token(token)
    players = Player.objects.filter(pk__in=session.seated)
    return _claimed(request, players, reverse("table", args=[token]))


@require_POST
def group_me(request: HttpRequest, token: str) -> HttpResponse:
    group = group_selectors.group_by_token(token)
    return _claimed(request, group.players.all(), reverse("group", args=[token]))


def _claimed(request: HttpRequest, players: QuerySet[Player], page: str) -> HttpResponse:
    """The posted ``player`` claimed by this phone, or (empty) none of ``players``; back to the
    page where it was chosen. A name not of these is refused, and nothing changes."""
    posted = str(request.POST.get("player", ""))
    if posted == "":
        if (held := me.mine(request, players.values_list("pk", flat=True))) is not None:
            player = Player.objects.get(pk=held[0])
            claims.release(phone=me.phone(request), circle=player)
            me.claim(request, claims.circle(player), None)
        return redirect(f"{page}#who")
    found = players.filter(pk=whole_number(posted) or 0).first()
    if found is None:
        message = _("That name is not one of the players here: nothing was changed.")
        return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    claims.claim(player=found, phone=me.phone(request))
    me.claim(request, claims.circle(found), found.pk, found.name)
    return redirect(f"{page}#who")
