from __future__ import annotations

import pytest
from django.db.models import F

from ledger.models import Hand, HandChange, Player, Seat, TableSession
from ledger.tables import selectors, services
from scoring import ScoringError
from tests.tables.conftest import SEATING, plain_hand

# both_databases on the tests where the unique constraints or the hand's version decide what is
# stored (a second save, a retry by its key, a stale correction), on the totals the result rows
# sum after a correction or a void, and on a query count. The engine's refusals and what a hand
# stores run once.


def test_session_create_seats_players_in_order(ce_deng):
    assert ce_deng.seating == SEATING
    assert len(ce_deng.token) >= 22 and ce_deng.token != ce_deng.read_token


@pytest.mark.both_databases
def test_a_table_is_read_with_its_seats_in_two_queries(ce_deng, django_assert_num_queries):
    # Seats stored in another order than they were made in, and a name beyond ASCII.
    Seat.objects.filter(session=ce_deng).update(position=F("position") + 10)
    for seat, position in zip(ce_deng.seats.order_by("pk"), [2, 0, 3, 1], strict=True):
        Seat.objects.filter(pk=seat.pk).update(position=position)
    Player.objects.filter(name="Bob").update(name="BOB 鲍勃")

    with django_assert_num_queries(2):  # the table, then its seats with their names
        table = selectors.session_by_token(ce_deng.token)
        seated = table.seated

    assert seated == dict(ce_deng.seats.values_list("player_id", "player__name"))
    assert table.seating == ["BOB 鲍勃", "Dominic", "Anna", "Celine"]
    assert selectors.session_by_read_token(ce_deng.read_token).seating == table.seating
    Seat.objects.filter(session=ce_deng).delete()
    assert selectors.session_by_token(ce_deng.token).seated == {}


@pytest.mark.parametrize(
    ("game", "seating", "path"),
    [
        ("ding-niu", ["A", "B", "C"], "seating"),
        ("ce-deng", ["A", "a", "B", "C"], "seating[1]"),
        ("no-such-game", ["A", "B"], "game"),
    ],
)
def test_session_create_refuses_what_scoring_refuses_and_stores_nothing(db, game, seating, path):
    with pytest.raises(ScoringError) as refused:
        services.session_create(game=game, options={}, seating=seating, first=seating[0])

    assert refused.value.path == path
    assert TableSession.objects.count() == 0


def test_hand_record_stores_the_hand_and_its_history(ce_deng):
    hand = services.hand_record(session=ce_deng, number=1, data=plain_hand(), device="phone A").hand

    assert hand.number == 1
    [change] = selectors.changes(ce_deng)  # the stored change, its players by name
    assert (change.kind, change.before, change.after, change.device) == (
        "record",
        None,
        plain_hand(),
        "phone A",
    )
    ce_deng.refresh_from_db()
    assert ce_deng.revision == 1


def test_invalid_hand_is_refused_with_the_engines_path_and_nothing_is_stored(ce_deng):
    with pytest.raises(ScoringError) as refused:
        services.hand_record(session=ce_deng, number=1, data=plain_hand(Bob=1))

    assert refused.value.path == "hands[0].results.Bob.pips"
    assert not Hand.objects.exists() and not HandChange.objects.exists()


@pytest.mark.both_databases
def test_second_save_of_the_same_hand_is_told_and_shown_the_first(ce_deng):
    first = services.hand_record(session=ce_deng, number=1, data=plain_hand(), device="A").hand

    with pytest.raises(services.HandAlreadyRecorded) as taken:
        services.hand_record(session=ce_deng, number=1, data=plain_hand(Anna=4), device="B")

    assert taken.value.hand == first
    assert Hand.objects.get().named == plain_hand()


@pytest.mark.both_databases
def test_correcting_a_hand_recomputes_everything_after_it(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_record(session=ce_deng, number=2, data=plain_hand(direction="cw", Anna=4))

    services.hand_correct(
        session=ce_deng, number=1, data=plain_hand(Anna=20), version=1, device="C"
    )

    view = selectors.score_sheet(ce_deng)
    # Hand 1 is now 20/12/34/18: sum 84, Anna 84-4x20=+4; hand 2: sum 68, Anna 68-4x4=+52.
    assert view.result.totals.net["Anna"] == 4 + 52
    [change] = [change for change in selectors.changes(ce_deng) if change.kind == "correct"]
    assert change.before == plain_hand() and change.after == plain_hand(Anna=20)


@pytest.mark.both_databases
def test_correction_against_a_stale_version_is_refused_with_the_current_state(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    services.hand_correct(session=ce_deng, number=1, data=plain_hand(Anna=4), version=1)

    with pytest.raises(services.StaleVersion) as stale:
        services.hand_correct(session=ce_deng, number=1, data=plain_hand(Anna=6), version=1)

    assert stale.value.hand.named == plain_hand(Anna=4)
    assert Hand.objects.get().named == plain_hand(Anna=4)


@pytest.mark.both_databases
def test_void_keeps_the_hand_but_it_counts_for_nothing(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())

    services.hand_void(session=ce_deng, number=1, version=1, device="D")

    view = selectors.score_sheet(ce_deng)
    assert Hand.objects.get().voided
    assert all(amount == 0 for amount in view.result.totals.net.values())
    assert [row.result for row in view.rows] == [None]
    assert list(HandChange.objects.values_list("kind", flat=True)) == ["record", "void"]


def test_invalid_correction_is_refused_and_the_hand_is_unchanged(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    bad = plain_hand()
    bad["results"]["Anna"] = {"pips": 5, "specials": ["pass"]}

    with pytest.raises(ScoringError) as refused:
        services.hand_correct(session=ce_deng, number=1, data=bad, version=1)

    assert refused.value.path == "hands[0].results.Anna.pips"
    assert Hand.objects.get().named == plain_hand()
    assert Hand.objects.get().version == 1


def test_a_hand_without_lead_or_direction_is_stored_with_what_the_rules_decided(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())
    data = plain_hand()
    del data["first"], data["direction"]

    recorded = services.hand_record(session=ce_deng, number=2, data=data)

    # Anna won hand 1 (2 points), so she leads; Ce Deng's second hand goes clockwise.
    assert recorded.hand.named["first"] == "Anna"
    assert recorded.hand.named["direction"] == "cw"
    assert recorded.played.order == ("Anna", "Dominic", "Celine", "Bob")


def test_an_invalid_later_hand_is_reported_at_its_place_in_the_session(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand())

    with pytest.raises(ScoringError) as refused:
        services.hand_record(session=ce_deng, number=2, data=plain_hand(Bob=1))

    assert refused.value.path == "hands[1].results.Bob.pips"


@pytest.mark.both_databases
def test_a_retry_with_the_same_key_returns_the_original_and_stores_nothing(ce_deng):
    first = services.hand_record(session=ce_deng, number=1, data=plain_hand(), idempotency_key="k1")

    again = services.hand_record(session=ce_deng, number=1, data=plain_hand(), idempotency_key="k1")

    assert again.replayed and again.hand.pk == first.hand.pk
    assert again.played.net == first.played.net
    assert Hand.objects.count() == 1 and HandChange.objects.count() == 1


@pytest.mark.both_databases
def test_the_same_key_with_a_different_hand_is_refused(ce_deng):
    services.hand_record(session=ce_deng, number=1, data=plain_hand(), idempotency_key="k1")

    with pytest.raises(services.KeyReused):
        services.hand_record(
            session=ce_deng, number=1, data=plain_hand(Anna=4), idempotency_key="k1"
        )
    with pytest.raises(services.KeyReused):
        services.hand_record(session=ce_deng, number=2, data=plain_hand(), idempotency_key="k1")
    assert Hand.objects.get().named == plain_hand()

    # Sent again two hands on, the key's hand is neither that number nor the one before it:
    # the hands' unique key tells on insert.
    services.hand_record(session=ce_deng, number=2, data=plain_hand(), idempotency_key="k2")
    services.hand_record(session=ce_deng, number=3, data=plain_hand(), idempotency_key="k3")
    with pytest.raises(services.KeyReused):
        services.hand_record(session=ce_deng, number=4, data=plain_hand(), idempotency_key="k1")
    assert list(Hand.objects.values_list("number", flat=True)) == [1, 2, 3]
    assert HandChange.objects.count() == 3
