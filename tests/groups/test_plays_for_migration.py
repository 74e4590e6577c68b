"""Migrations 0043 (what a group plays for is the group's, at every game) and 0044 (its
settings' changes) on rows of the schema before them: each group's stake or chip leaves its
usual game's options for ``plays_for``; every table keeps its options, rows and every export,
a tournament its standings, and every balance is what it was, to the cent; a new table of the
usual game plays as it did, and one of another game now plays for the group's stake where it
played at 1."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.events import services as event_services
from ledger.groups import selectors, services
from ledger.models import Group, TableSession
from ledger.tables import services as table_services
from tests.groups.test_pages import THREE, hand
from tests.migrating import every_figure, migrate, models_at

BEFORE = ("ledger", "0042_tables_announce_their_revisions")


def _kept() -> dict[str, object]:
    """Every table's options, and every figure (balances, standings, exports)."""
    options = list(TableSession.objects.order_by("pk").values_list("pk", "options"))
    return {"options": options, **every_figure()}


@pytest.mark.django_db(transaction=True)
def test_each_groups_stake_becomes_what_it_plays_for_and_no_amount_moves():
    teahouse = services.group_create(
        name="Teahouse", game="jie-long", options={"stake": "0.50", "next_first": "rotate"}
    )
    usual = services.table_start(group=teahouse, seating=THREE, first="Anna")
    table_services.hand_record(session=usual, number=1, data=hand(2, 12, 20))
    four = [*THREE, "Dan"]  # another game, as it was started before: at the usual 1
    other = services.table_start(
        group=teahouse, seating=four, first="Anna", game="ce-deng", options={"stake": "1"}
    )
    pips = {n: {"pips": p} for n, p in zip(four, [2, 12, 34, 18], strict=True)}
    table_services.hand_record(session=other, number=1, data={"results": pips})
    services.payment_record(group=teahouse, payer="Celine", payee="Anna", amount="5.25")
    chips = services.group_create(name="Chip club", game="kkoribuchigi", options={"chip": "2"})
    event = event_services.event_create(name="Club", game="ce-deng", options={}, rounds=1)
    for name in four:
        event_services.entry_add(event=event, name=name, organiser=True)
    seated = TableSession.objects.get(round=event_services.round_seat(event=event))
    event_services.round_begin(round=seated.round)
    table_services.hand_record(session=seated, number=1, data={"results": pips})
    balances = {group.pk: selectors.ledger(group).money for group in Group.objects.all()}
    kept = _kept()
    migrate([BEFORE])
    try:
        old = models_at(BEFORE).get_model("ledger", "Group")
        assert old.objects.get(pk=teahouse.pk).options == {"stake": "0.50", "next_first": "rotate"}
        assert old.objects.get(pk=chips.pk).options == {"chip": "2"}
        plain = old.objects.create(name="Plain", game="jie-long", options={"stake": "0.25"})

        migrate()

        found = {group.pk: group for group in Group.objects.all()}
        assert (found[teahouse.pk].options, found[teahouse.pk].plays_for) == (
            {"next_first": "rotate"},
            {"stake": "0.50"},
        )
        assert (found[chips.pk].options, found[chips.pk].plays_for) == ({}, {"chip": "2"})
        assert (found[plain.pk].options, found[plain.pk].plays_for) == ({}, {"stake": "0.25"})
        after = _kept()
        assert after.pop("balances") == {**kept["balances"], plain.pk: {}}  # nobody played there
        assert after == {key: value for key, value in kept.items() if key != "balances"}
        for pk, money in balances.items():
            assert selectors.ledger(found[pk]).money == money
        # Celine: -13 at 0.50 a point, -70 at Ce Deng's 1, and 5.25 paid
        assert balances[teahouse.pk]["Celine"] == Decimal("-77.75")
        again = services.table_start(group=found[teahouse.pk], seating=THREE, first="Anna")
        assert again.options == usual.options == {"stake": "0.50", "next_first": "rotate"}
        ce_deng = services.table_start(
            group=found[teahouse.pk], seating=four, first="Anna", game="ce-deng"
        )
        assert ce_deng.options == {"stake": "0.50"}
    finally:
        migrate()
