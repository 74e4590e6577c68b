""" "I am Bob", as a test's phone says it: the tap on a name that a table's or a group's page
offers (templates/players/_who.html)."""

from __future__ import annotations

from django.test import Client
from django.urls import reverse

from ledger.models import Group, TableSession


def i_am(client: Client, where: TableSession | Group, name: str) -> None:
    """``client``'s phone is ``name``'s at the table or in the group ``where``."""
    if isinstance(where, TableSession):
        players, url = where.seated, reverse("table_me", args=[where.token])
    else:
        players = dict(where.players.values_list("pk", "name"))
        url = reverse("group_me", args=[where.token])
    player = next(pk for pk, named in players.items() if named == name)
    assert client.post(url, {"player": player}).status_code == 302
