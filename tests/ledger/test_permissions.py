"""A phone of one table gets nothing from another table: every page, export and write is 404."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ledger import services
from ledger.middleware import GUESS_LIMIT
from ledger.models import Hand
from tests.ledger.conftest import form_post, plain_hand


@pytest.fixture
def other(db):
    table = services.session_create(game="ce-deng", options={}, seating=list("ABCD"), first="A")
    hand = {"first": "A", "direction": "ccw", "results": {n: {"pips": 12} for n in "ABCD"}}
    services.hand_record(session=table, number=1, data=hand)
    return table


def _mixed(mine, theirs):
    """A token of ours with one character of theirs: what a guesser would try."""
    return mine[:-1] + theirs[-1] if mine[-1] != theirs[-1] else mine[:-1] + "_"


GETS = ["table", "live", "qr", "history", "summary"]


@pytest.mark.parametrize("name", GETS)
def test_a_wrong_token_finds_nothing(client, ce_deng, other, name):
    wrong = _mixed(ce_deng.token, other.token)

    assert client.get(reverse(name, args=[wrong])).status_code == 404


@pytest.mark.parametrize("kind", ["hands", "payments", "settle-up"])
def test_exports_need_the_tables_own_token(client, ce_deng, other, kind):
    assert client.get(reverse("export", args=[ce_deng.token, kind])).status_code == 200
    assert (
        client.get(reverse("export", args=[_mixed(ce_deng.token, other.token), kind])).status_code
        == 404
    )
    assert client.get(reverse("shared_export", args=[ce_deng.token, kind])).status_code == 404


def test_the_read_only_token_opens_no_table_page(client, ce_deng):
    assert client.get(reverse("table", args=[ce_deng.read_token])).status_code == 404
    assert client.post(reverse("table", args=[ce_deng.read_token]), form_post(1)).status_code == 404


def test_one_tables_token_cannot_read_or_change_another_tables_hand(client, ce_deng, other):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    url = reverse("hand_detail", args=[_mixed(ce_deng.token, other.token), 1])

    assert client.get(url).status_code == 404
    assert client.post(url, {"action": "void", "version": "1"}).status_code == 404
    assert not Hand.objects.filter(voided=True).exists()


def test_guessing_links_is_rate_limited_per_address(client, ce_deng):
    for i in range(GUESS_LIMIT):
        assert client.get(reverse("table", args=[f"guess{i:017d}"])).status_code == 404

    blocked = client.get(reverse("table", args=[ce_deng.token]))
    elsewhere = client.get(reverse("table", args=[ce_deng.token]), REMOTE_ADDR="10.1.2.3")

    assert blocked.status_code == 429 and "Too many wrong table links" in blocked.content.decode()
    assert elsewhere.status_code == 200
