"""Each hand's outcome per player as rows (``Result``), written in the hand's transaction and
kept equal to what the engine computes from the hands. Rows are only ever added.

A new hand adds its rows. A correction or a void can change more than its own hand (with ties
to the lower total, a later tie may now go the other way), so the table's rows are brought up
to date from a scoring of the whole table: each hand whose outcome changed gets a reversal of
each of its standing rows and the rows of its new outcome; the rest are left as they are.

The rows of a hand, in each unit, sum to zero (each outcome the engine settles does, and so
does its reversal), and the rows of a voided hand are all taken back: the database refuses a
commit that breaks either, however the rows were written, and any edit or deletion of a row
(migration 0040_insert_only_history, on PostgreSQL and SQLite).

The rows and the hand keep all that a hand's display needs (who paid whom, by how much, with
which multiplier and why; each player's place in turn and in the ranking; the proofs of its
specials; who led it and who leads next, and which way), so pages, the API and the exports
read them and never the engine (ledger.tables.selectors.score_sheet). What a hand keeps as a
whole (``Lead``) changes with its rows: an outcome whose lead changed gets new rows too.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any, NamedTuple

from django.db import IntegrityError

import scoring
from ledger.amounts import MOST
from ledger.tables.models import Hand, Result, TableSession
from ledger.tables.stored import specials_of
from scoring import GAMES


class Paid(NamedTuple):
    """One payment a player made in a hand, as a row keeps it: its place among the hand's
    payments (``at``) and the engine's payment, players by name."""

    at: int
    payment: scoring.Payment


class Outcome(NamedTuple):
    """What a row says of one player in one hand."""

    score: int | None
    net: Decimal
    won: bool
    specials: tuple[str, ...]
    # What they won from each other player before netting, (payer, amount) by name: what a
    # pairwise summary and a head-to-head add up (scoring.won_from).
    won_from: tuple[tuple[str, Decimal], ...] = ()
    turn: int | None = None  # their place in the hand's turn order, 1 for who led
    rank: int | None = None  # their place in the hand, 1 for the winner
    paid: tuple[Paid, ...] = ()  # the payments they made, in the hand's order
    proof: scoring.Proof | None = None  # why a special of theirs stands, where it is proven


class Lead(NamedTuple):
    """What a hand keeps of its outcome as a whole (``Hand.first`` and the rest), players by
    name: who led it and which way, and who leads the next hand and which way."""

    first: str
    direction: str
    next_first: str
    next_direction: str

    @classmethod
    def of(cls, played: scoring.HandResult) -> Lead:
        return cls(
            played.first,
            played.direction.value,
            played.next_first,
            played.next_direction.value,
        )

    @classmethod
    def kept(cls, hand: Hand | tuple[Any, ...], names: Mapping[int, str]) -> Lead | None:
        """What ``hand`` keeps (a Hand, or its ``LEAD_FIELDS`` read as values), by name; None
        where it keeps nothing (a hand voided before hands kept it)."""
        if isinstance(hand, Hand):
            hand = (hand.first_id, hand.direction, hand.next_first_id, hand.next_direction)
        first, direction, next_first, next_direction = hand
        if first is None or next_first is None:
            return None
        return cls(name_of(names, first), direction, name_of(names, next_first), next_direction)

    def fields(self, players: Mapping[str, int]) -> dict[str, Any]:
        """As a Hand's fields, ``players`` giving each name's id."""
        return {
            "first_id": players[self.first],
            "direction": self.direction,
            "next_first_id": players[self.next_first],
            "next_direction": self.next_direction,
        }


def name_of(names: Mapping[int, str], pk: int) -> str:
    """A player by name, as a table seats them (one no longer seated, by id)."""
    return names.get(pk, f"player #{pk}")


# A hand's fields that keep its ``Lead``, in its order.
LEAD_FIELDS = ("first", "direction", "next_first", "next_direction")


def proofs(
    session: scoring.Session, index: int, played: scoring.HandResult
) -> tuple[scoring.Proof, ...]:
    """Why each head or tail special of hand ``index`` of the parsed ``session`` (scored as
    ``played``) stands, where its entry proves it: what a saved hand says (scoring.explain)."""
    return scoring.explain(session, session.hands[index], played)


def pays_in(game: str, options: Mapping[str, Any]) -> tuple[Result.Unit, Decimal]:
    """How a table of ``game`` with ``options`` pays: in money (and its stake), in chips (and
    the chip's value), or in points only (and 0)."""
    return _pays_in(game, json.dumps(options, sort_keys=True))


@lru_cache(maxsize=1024)
def _pays_in(game: str, options: str) -> tuple[Result.Unit, Decimal]:
    rules = GAMES[game]
    seating = [f"P{i}" for i in range(rules.player_counts[0])]
    document = {"game": game, "options": json.loads(options), "seating": seating}
    parsed = scoring.parse_session(document).options
    value = rules.unit(parsed)
    if value == 0:
        return Result.Unit.POINTS, Decimal(0)
    return (Result.Unit.CHIPS if rules.pays_chips(parsed) else Result.Unit.MONEY), value


def places(game: str, options: Mapping[str, Any]) -> Decimal:
    """The places a table of ``game`` with ``options`` writes its amounts with: those its stake
    or chip is written with (0.01 at a stake of 0.50), whole amounts at least, as every amount
    it settles is a multiple of one of them."""
    return _places(game, json.dumps(options, sort_keys=True))


def written(value: Decimal, places: Decimal) -> Decimal:
    """An amount read from a row (four places: "12.5000") as the engine writes it at a table
    that writes amounts with ``places`` ("12.50"); one those places do not hold (a row written
    behind the ledger's back) is left as it is."""
    shown = value.quantize(places)
    return shown if shown == value else value


@lru_cache(maxsize=1024)
def _places(game: str, options: str) -> Decimal:
    rules = GAMES[game]
    seating = [f"P{i}" for i in range(rules.player_counts[0])]
    document = {"game": game, "options": json.loads(options), "seating": seating}
    parsed = scoring.parse_session(document).options
    exponents = [value.as_tuple().exponent for value in (parsed.stake, parsed.chip)]
    return Decimal(1).scaleb(min(0, *(e for e in exponents if isinstance(e, int))))


# The trigger that refuses, on SQLite, a row past what it can add up (migration 0041).
PAST_64_BITS = "ledger_result_within_64_bits"


def add(new: list[Result]) -> None:
    """Store ``new`` rows of one table, unless SQLite could no longer add up a player's rows
    there: it sums 64-bit integers and raises past them, where PostgreSQL sums as numeric. Each
    player's rows at a table, taken without their signs, stay within ``amounts.MOST`` (a
    trigger refuses a row past it: migration 0041); a change that would pass it is refused
    (ScoringError: a 400, or the form's message; the transaction stores nothing). Only stakes
    near the largest (10^9) come near it, after about a thousand of the costliest hands."""
    try:
        Result.objects.bulk_create(new)
    except IntegrityError as error:
        if PAST_64_BITS not in str(error):
            raise
        raise scoring.ScoringError(
            "this table's amounts would pass {most}, the most the database adds up for "
            "one player at one table: start a new table to play on",
            "hand",
            most=MOST,
        ) from None


def outcomes(
    game: str,
    data: Mapping[str, Any],
    played: scoring.HandResult,
    proven: Iterable[scoring.Proof] = (),
) -> dict[str, Outcome]:
    """Each player's outcome of a hand as stored (``data``), settled (``played``) and explained
    (``proven``: ``proofs``); none for a redeal. Specials are those marked or proven (stored
    with the hand), a 0's pass, and declared doubles for their holder."""
    if data.get("redeal") is not None:
        return {}
    entered = data.get("results", {})
    holder = data.get("declared_doubles")
    won_from: dict[str, list[tuple[str, Decimal]]] = defaultdict(list)
    for (payee, payer), value in sorted(scoring.won_from([played]).items()):
        won_from[payee].append((payer, value))
    paid: dict[str, list[Paid]] = defaultdict(list)
    for at, payment in enumerate(played.payments):
        paid[payment.payer].append(Paid(at, payment))
    proof = {found.player: found for found in proven}
    return {
        name: Outcome(
            played.scores.get(name),
            net,
            played.winner == name,
            tuple(
                sorted(
                    specials_of(game, entered.get(name, {}))
                    + (["declared_doubles"] if name == holder else [])
                )
            ),
            tuple(won_from[name]),
            played.order.index(name) + 1,
            played.ranking.index(name) + 1 if name in played.ranking else None,
            tuple(paid[name]),
            proof.get(name),
        )
        for name, net in played.net.items()
    }


def paid_of(kept: Iterable[Mapping[str, Any]], payer: str, names: Mapping[int, str]) -> list[Paid]:
    """A row's ``paid`` (``payer``'s), players by name (``names``: the table's ``seated``)."""
    return [
        Paid(
            item["at"],
            scoring.Payment(
                payer,
                name_of(names, int(item["to"])),
                Decimal(item["amount"]),
                item["multiplier"],
                item["reason"],
            ),
        )
        for item in kept
    ]


def proof_of(kept: Mapping[str, Any] | None, player: str) -> scoring.Proof | None:
    """A row's ``proof`` (``player``'s), as the engine gave it."""
    if kept is None:
        return None
    return scoring.Proof(
        player,
        scoring.Special(kept["special"]),
        kept["tiles"],
        kept["pips"],
        kept["by_tiles"],
        kept["at_least"],
    )


def outcome(row: Result, names: Mapping[int, str]) -> Outcome:
    """What ``row`` says, its players by name (``names``: the table's ``seated``)."""
    won_from = tuple(sorted((names[int(pk)], Decimal(value)) for pk, value in row.won_from.items()))
    name = names.get(row.player_id, "")
    return Outcome(
        row.score,
        row.net,
        row.won,
        tuple(row.specials),
        won_from,
        row.turn,
        row.rank,
        tuple(paid_of(row.paid, name, names)),
        proof_of(row.proof, name),
    )


def _players(session: TableSession) -> dict[str, int]:
    return {name: pk for pk, name in session.seated.items()}


def _rows(
    session: TableSession,
    hand_pk: int,
    players: Mapping[str, int],
    found: Mapping[str, Outcome],
) -> list[Result]:
    unit, _ = pays_in(session.game, session.options)
    return [
        Result(
            session=session,
            hand_id=hand_pk,
            player_id=players[name],
            score=outcome.score,
            net=outcome.net,
            unit=unit,
            won=outcome.won,
            specials=list(outcome.specials),
            won_from={str(players[payer]): str(value) for payer, value in outcome.won_from},
            turn=outcome.turn,
            rank=outcome.rank,
            paid=[_paid(at, payment, players) for at, payment in outcome.paid],
            proof=None if outcome.proof is None else _proof(outcome.proof),
        )
        for name, outcome in found.items()
    ]


def _paid(at: int, payment: scoring.Payment, players: Mapping[str, int]) -> dict[str, Any]:
    return {
        "at": at,
        "to": players[payment.payee],
        "amount": str(payment.amount),
        "multiplier": payment.multiplier,
        "reason": payment.reason,
    }


def _proof(proof: scoring.Proof) -> dict[str, Any]:
    return {
        "special": proof.special.value,
        "tiles": proof.tiles,
        "pips": proof.pips,
        "by_tiles": proof.by_tiles,
        "at_least": proof.at_least,
    }


def reversal(row: Result) -> Result:
    """The row that takes ``row`` back: the same outcome, its score, net and amounts (what it
    won from each player, each payment it made) negated; its places, specials and proof as
    they were."""
    return Result(
        session_id=row.session_id,
        hand_id=row.hand_id,
        player_id=row.player_id,
        score=None if row.score is None else -row.score,
        net=-row.net,
        unit=row.unit,
        won=row.won,
        specials=row.specials,
        won_from={payer: str(-Decimal(value)) for payer, value in row.won_from.items()},
        turn=row.turn,
        rank=row.rank,
        paid=[{**item, "amount": str(-Decimal(item["amount"]))} for item in row.paid],
        proof=row.proof,
        reverses=row,
    )


def rows(
    session: TableSession,
    hand: int,
    data: Mapping[str, Any],
    played: scoring.HandResult,
    proven: Iterable[scoring.Proof] = (),
) -> list[Result]:
    """The rows of a newly recorded hand (``data``: as the engine read it; ``proven``: its
    ``proofs``); ``hand``: its id."""
    return _rows(session, hand, _players(session), outcomes(session.game, data, played, proven))


def lead_fields(session: TableSession, played: scoring.HandResult) -> dict[str, Any]:
    """What a newly recorded hand, settled as ``played``, keeps as a whole: its Hand's fields."""
    return Lead.of(played).fields(_players(session))


def resync(
    session: TableSession,
    live: Iterable[tuple[int, dict[str, Any]]],
    scored: tuple[scoring.Session, scoring.SessionResult] | None = None,
    kept: Mapping[int, Lead | None] | None = None,
) -> None:
    """Bring the table's rows, and what its hands keep as a whole, up to date with the engine:
    ``live`` is (pk, data by name) of every hand that counts, in order (``scored``: those
    hands parsed and scored already, if they were; ``kept``: each one's ``Lead`` as its hand
    keeps it, if read already). Rows of a voided hand, or of an outcome that changed (its
    lead included), are reversed; changed and missing outcomes get new rows, and their hands
    their new lead."""
    live = list(live)
    if scored is None:
        parsed = scoring.parse_session(session.document([data for _, data in live]))
        scored = parsed, scoring.score_session(parsed, new=())
    parsed, result = scored
    players = _players(session)
    names = {player: name for name, player in players.items()}
    if kept is None:
        found = Hand.objects.filter(pk__in=[pk for pk, _ in live]).values_list("pk", *LEAD_FIELDS)
        kept = {pk: Lead.kept(lead, names) for pk, *lead in found}
    wanted, leads = {}, {}
    for index, ((pk, data), played) in enumerate(zip(live, result.hands, strict=True)):
        wanted[pk] = outcomes(session.game, data, played, proofs(parsed, index, played))
        leads[pk] = Lead.of(played)
    have: dict[int, dict[str, tuple[Result, Outcome]]] = {}
    for row in Result.objects.filter(session=session).standing():
        have.setdefault(row.hand_id, {})[names.get(row.player_id, "")] = (row, outcome(row, names))
    new: list[Result] = []
    for pk in have.keys() | wanted.keys():
        standing = {name: outcome for name, (_, outcome) in have.get(pk, {}).items()}
        if standing != wanted.get(pk, {}) or (pk in leads and kept.get(pk) != leads[pk]):
            new += [reversal(row) for row, _ in have.get(pk, {}).values()]
            new += _rows(session, pk, players, wanted.get(pk, {}))
    moved = [
        Hand(pk=pk, **lead.fields(players)) for pk, lead in leads.items() if kept.get(pk) != lead
    ]
    Hand.objects.bulk_update(moved, ["first", "direction", "next_first", "next_direction"])
    add(new)
