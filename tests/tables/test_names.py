"""Names are not published: the new-table form suggests only a signed-in organiser's own
tables' names (the phone adds the names it has used itself, in ledger.js)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from ledger.tables import services

THEIRS = ["Erik", "Fang", "Gita"]
MINE = ["Anna", "Bob", "Celine", "Dominic"]


def suggested(client) -> list[str]:
    page = client.get(reverse("session_new")).content.decode()
    datalist = re.search(r'<datalist id="known-players">(.*?)</datalist>', page, re.S)
    assert datalist, "the form has no list of names to suggest"
    return re.findall(r'<option value="([^"]*)"', datalist.group(1))


@pytest.fixture
def organiser(db) -> User:
    account = User.objects.create_user("org", password="a long password")
    services.session_create(game="ce-deng", options={}, seating=MINE, first="Anna", owner=account)
    other = User.objects.create_user("other", password="a long password")
    services.session_create(game="jie-long", options={}, seating=THEIRS, first="Erik", owner=other)
    services.session_create(game="jie-long", options={}, seating=["Hui", "Ivo"], first="Hui")
    return account


def test_a_phone_that_is_not_signed_in_is_suggested_no_names(client, organiser):
    page = client.get(reverse("session_new")).content.decode()
    # Random tokens (CSRF, the script's nonce) may hold "Bob" or "Ivo" by chance: not names.
    page = re.sub(r'"[\w-]{20,}"', '""', page)

    assert suggested(client) == []
    assert not any(name in page for name in [*MINE, *THEIRS, "Hui", "Ivo"])


def test_a_signed_in_organiser_is_suggested_the_names_at_their_own_tables_only(client, organiser):
    client.force_login(organiser)

    assert sorted(suggested(client)) == sorted(MINE)


def test_an_organiser_without_tables_is_suggested_no_names(client, organiser):
    client.force_login(User.objects.create_user("new", password="a long password"))

    assert suggested(client) == []
