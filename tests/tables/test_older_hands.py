"""Hands stored before the engine checked a hand as a whole still score as they did: only the
hand being entered or corrected has its players' results checked together."""

from __future__ import annotations

from django.urls import reverse

from ledger.models import Hand, HandChange, TableSession
from ledger.tables import selectors, services
from tests.tables.conftest import SEATING, form_post, plain_hand

# Each score alone is possible; together they are not (86 + 86 + 86 + 76 > the deck's 227).
IMPOSSIBLE = plain_hand(Anna=76, Bob=86, Celine=86, Dominic=86)


def stored_before(table: TableSession) -> None:
    """The hand as an older version of the ledger stored it, with its record, and the table
    counted again."""
    hand = Hand.objects.create(session=table, number=1, data=table.by_id(IMPOSSIBLE))
    HandChange.objects.create(hand=hand, kind=HandChange.Kind.RECORD, after=hand.data)
    services.table_recount(session=table)


def test_a_hand_stored_under_older_rules_still_scores_and_shows(client, ce_deng):
    stored_before(ce_deng)

    assert selectors.score_sheet(ce_deng).result.totals.scores["Bob"] == 86
    assert client.get(reverse("table", args=[ce_deng.token])).status_code == 200
    assert client.get(reverse("summary", args=[ce_deng.token])).status_code == 200
    # The next hand is checked, and saved.
    saved = client.post(reverse("table", args=[ce_deng.token]), form_post(2, direction="cw"))
    assert saved.status_code == 302 and Hand.objects.count() == 2


def test_the_same_hand_entered_now_is_refused(client, ce_deng):
    refused = client.post(
        reverse("table", args=[ce_deng.token]),
        form_post(1, pips_0="76", pips_1="86", pips_2="86", pips_3="86"),
    )
    assert refused.status_code == 400
    assert "cannot all be true in one hand" in refused.content.decode()
    assert not Hand.objects.exists()


def test_correcting_a_stored_hand_checks_it_again(client, ce_deng):
    stored_before(ce_deng)
    url = reverse("hand_detail", args=[ce_deng.token, 1])

    kept = client.post(
        url, {**form_post(1, pips_0="76", pips_1="86", pips_2="86", pips_3="85"), "version": "1"}
    )
    assert kept.status_code == 400 and Hand.objects.get().version == 1
    fixed = client.post(url, {**form_post(1), "version": "1"})
    assert fixed.status_code == 302 and Hand.objects.get().version == 2
    assert set(SEATING) == set(selectors.score_sheet(ce_deng).result.totals.scores)
