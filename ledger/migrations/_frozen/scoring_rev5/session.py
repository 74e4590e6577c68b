# A frozen copy of scoring/session.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""A session: hands in sequence, who leads each and which way, totals and the settle-up."""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from decimal import Decimal
from functools import lru_cache

from . import names
from .errors import ScoringError
from .games import Game, get_game
from .games.base import Outcome, Table
from .model import (
    Direction,
    End,
    EndReason,
    Hand,
    HandEvent,
    HandResult,
    NextFirst,
    Options,
    Payment,
    Proof,
    Session,
    SessionResult,
    Totals,
)
from .settlement import ZERO, net, settle_up
from .text import N_, Phrase


@lru_cache(maxsize=256)
def turn_order(seating: tuple[str, ...], first: str, direction: Direction) -> tuple[str, ...]:
    """The turn order of a hand: ``first``, then round the table ``direction``.

    >>> turn_order(("Anna", "Bob", "Celine", "Dominic"), "Bob", Direction.CW)
    ('Bob', 'Anna', 'Dominic', 'Celine')
    """
    start, n = seating.index(first), len(seating)
    step = 1 if direction is Direction.CCW else -1
    return tuple(seating[(start + step * k) % n] for k in range(n))


def score_session(session: Session, *, new: Container[int] | None = None) -> SessionResult:
    """Score every hand of ``session`` in order, then total and settle it.

    Raises ScoringError (with the path of the bad field) on anything RULES.md rejects. With
    ``new``, only the hands at those indexes are new: the others were checked before (a
    ledger's stored hands), so their players' results are not checked together again
    (``Table.trusted``).
    """
    game = check_session(session)
    first, direction = session.first, Direction.CCW
    results = []
    ends = session.options.ends or any(hand.last for hand in session.hands)
    counts_on = session.options.counts_on or ends
    # Kept up hand by hand only where a hand depends on the totals before it.
    counted = totals(session.seating, [])
    time_up = False
    for index, hand in enumerate(session.hands):
        if ends:
            so_far_end = session_end(
                game, session.seating, session.options, counted, time_up=time_up
            )
            check_open(so_far_end, session.options, index)
        trusted = new is not None and index not in new
        so_far = counted.scores if counts_on else None
        result = score_hand(game, session, hand, index, first, direction, trusted, so_far)
        results.append(result)
        if counts_on:
            counted = totals((), [result], counted)
        first, direction = result.next_first, result.next_direction
        time_up = time_up or hand.last
    if not counts_on:
        counted = totals(session.seating, results)
    end = (
        session_end(game, session.seating, session.options, counted, time_up=time_up)
        if ends
        else None
    )
    return SessionResult(tuple(results), counted, settle_up(counted.net), end)


def session_end(
    game: Game, seating: Sequence[str], options: Options, counted: Totals, *, time_up: bool = False
) -> End:
    """Where a session with a target stands after hands that add up to ``counted``
    (RULES.md, "Sessions"): over once a total reaches ``play_to`` or ``hands`` hands were
    dealt (a redeal is not dealt: every dealt hand has a winner), or after the hand marked as
    the one during which its time ran out (``time_up``: that hand is among them).

    The winner, or while it goes on the leader: the best total score; a tie goes to more
    hands won, then to the earlier seat.

    >>> from scoring import get_game
    >>> counted = Totals({}, {"A": 30, "B": 37, "C": 63}, {"A": 1, "B": 1, "C": 0})
    >>> session_end(get_game("jie-long"), "ABC", Options(play_to=60), counted)
    End(over=True, reason=<EndReason.PLAY_TO: 'play_to'>, winner='A', points_to_go=0, \
hands_to_go=None)
    """
    leader = standing(game, seating, counted)[0]
    top = max(counted.scores.values(), default=0)
    dealt = sum(counted.hands_won.values())
    reason = None
    if options.play_to is not None and top >= options.play_to:
        reason = EndReason.PLAY_TO
    elif options.hands is not None and dealt >= options.hands:
        reason = EndReason.HANDS
    elif time_up:
        reason = EndReason.TIME
    return End(
        over=reason is not None,
        reason=reason,
        winner=leader,
        points_to_go=None if options.play_to is None else max(options.play_to - top, 0),
        hands_to_go=None if options.hands is None else max(options.hands - dealt, 0),
    )


def standing(game: Game, seating: Sequence[str], counted: Totals) -> list[str]:
    """The players best first by their totals ``counted``, as ``session_end`` picks its winner:
    the best total score (the lowest, or in a game where the higher wins the highest), then
    more hands won, then the earlier seat.

    >>> from scoring import get_game
    >>> counted = Totals({}, {"A": 30, "B": 30, "C": 12}, {"A": 0, "B": 1, "C": 2})
    >>> standing(get_game("jie-long"), "ABC", counted), standing(get_game("tiu-yu"), "ABC", counted)
    (['C', 'B', 'A'], ['B', 'A', 'C'])
    """
    best = -1 if game.higher_wins else 1
    # sorted() keeps seating order among players level on both.
    return sorted(seating, key=lambda name: (best * counted.scores[name], -counted.hands_won[name]))


def check_open(end: End, options: Options, index: int) -> None:
    """Refuse hand ``index`` (0 for the first) of a session that is already over."""
    path = f"hands[{index}]"
    if end.reason is EndReason.PLAY_TO:
        raise ScoringError(
            "the game is over: a total reached {target}, and {winner} won. "
            "Raise the target to play on",
            path,
            target=options.play_to,
            winner=end.winner,
        )
    if end.reason is EndReason.HANDS:
        raise ScoringError(
            "the game is over: all {hands} hands were played, and {winner} won. "
            "Raise the number of hands to play on",
            path,
            hands=options.hands,
            winner=end.winner,
        )
    if end.reason is EndReason.TIME:
        raise ScoringError(
            "the game is over: its time ran out, and {winner} won. Extend the time to play on",
            path,
            winner=end.winner,
        )


def explain(session: Session, hand: Hand, played: HandResult) -> tuple[Proof, ...]:
    """Why each head or tail special of ``hand`` (of ``session``, scored as ``played``) stands
    where the entry alone proves it, marked or not (``Game.explain``): what a saved hand says.

    >>> from scoring.model import Result
    >>> session = Session("ce-deng", ("A", "B", "C", "D"), "A", ())
    >>> hand = Hand({"A": Result(20), "B": Result(80), "C": Result(30), "D": Result(10)})
    >>> played = score_session(Session("ce-deng", ("A", "B", "C", "D"), "A", (hand,))).hands[0]
    >>> [str(proof.why) for proof in explain(session, hand, played)]
    ["B's 80 pips need 8 tiles, so B has tail-eight 尾八"]
    """
    table = Table(played.order, session.options, "hands")
    return get_game(session.game).explain(hand, table)


def score_hand(
    game: Game,
    session: Session,
    hand: Hand,
    index: int,
    first: str,
    direction: Direction,
    trusted: bool = False,
    so_far: Mapping[str, int] | None = None,
) -> HandResult:
    """Score hand ``index``; ``first`` and ``direction`` are what the rules expect for it;
    ``so_far``: the total scores before it, where the options need them."""
    first = hand.first or first
    direction = hand.direction or direction
    order = turn_order(session.seating, first, direction)
    table = Table(order, session.options, f"hands[{index}]", trusted, so_far)
    if hand.redeal is not None:
        if hand.results:
            raise ScoringError(
                "{name} asked for a redeal, so the hand has no results",
                f"{table.path}.results",
                name=hand.redeal,
            )
        if hand.last:
            raise ScoringError(
                "a redeal is not a hand played, so the time cannot run out on it",
                f"{table.path}.last",
            )
        outcome = Outcome({}, (), ())
    else:
        outcome = game.play(hand, table)
    if hand.redeal is not None:
        next_first, next_direction = first, direction
    else:
        if session.options.next_first is NextFirst.ROTATE:
            next_first = turn_order(session.seating, first, Direction.CCW)[1]
        else:
            next_first = outcome.ranking[0]
        # Only Ce Deng alternates; elsewhere play is counter-clockwise unless a hand records
        # otherwise.
        next_direction = direction.reverse() if game.alternates else Direction.CCW
    # Points only (a stake or chip of 0): nothing changes hands, so no payment is listed.
    payments = tuple(payment for payment in outcome.payments if payment.amount)
    return HandResult(
        first=first,
        direction=direction,
        order=order,
        scores=outcome.scores,
        ranking=outcome.ranking,
        payments=payments,
        net=net(payments, session.seating),
        next_first=next_first,
        next_direction=next_direction,
        proven=outcome.proven,
    )


def totals(
    seating: Sequence[str], hands: Sequence[HandResult], start: Totals | None = None
) -> Totals:
    """What ``hands`` add up to, counted on from ``start`` when given (a kept tally).

    >>> hand = _example_hand()
    >>> twice = totals(("A", "B"), [hand], totals(("A", "B"), [hand]))
    >>> twice.net["A"], twice.scores["B"], twice.hands_won["A"]
    (Decimal('14'), 18, 2)
    """
    balance = dict(start.net) if start else dict.fromkeys(seating, ZERO)
    scores = dict(start.scores) if start else dict.fromkeys(seating, 0)
    won = dict(start.hands_won) if start else dict.fromkeys(seating, 0)
    for hand in hands:
        for name, amount in hand.net.items():
            balance[name] += amount
        for name, score in hand.scores.items():
            scores[name] += score
        if hand.winner is not None:
            won[hand.winner] += 1
    return Totals(balance, scores, won)


def won_from(
    hands: Sequence[HandResult], start: Mapping[tuple[str, str], Decimal] | None = None
) -> dict[tuple[str, str], Decimal]:
    """Who won what from whom over ``hands`` (``[(payee, payer)]``, before netting: the pairs a
    head-to-head or a pairwise summary needs), counted on from ``start`` when given. Apart
    from ``totals``, which a page needs on every read and this would slow by half.

    >>> won_from([_example_hand()] * 2)
    {('A', 'B'): Decimal('14')}
    """
    won = dict(start) if start else {}
    for hand in hands:
        for payer, payee, amount, _, _ in hand.payments:
            won[payee, payer] = won.get((payee, payer), ZERO) + amount
    return won


def _example_hand() -> HandResult:
    """A hand of two players for the examples above: B pays A 7."""
    payment = Payment("B", "A", Decimal(7), 1, "difference")
    net = {"A": Decimal(7), "B": Decimal(-7)}
    return HandResult("A", Direction.CCW, ("A", "B"), {"A": 2, "B": 9}, ("A", "B"), (payment,),
                      net, "A", Direction.CCW)  # fmt: skip


# The fields of a hand that name a player: who led, and who called its event.
_NAMED_FIELDS = ("first", *(event.value for event in HandEvent if event.has_caller))


def check_session(session: Session) -> Game:
    """Check what a session says about its table and its hands' events; return its game."""
    game = get_game(session.game)
    counts = game.player_counts
    if len(session.seating) not in counts:
        raise ScoringError(
            N_("{game} is for {least} to {most} players, not {count}")
            if len(counts) > 1
            else N_("{game} is for exactly {least} players, not {count}"),
            "seating",
            game=Phrase(game.label),
            least=counts[0],
            most=counts[-1],
            count=len(session.seating),
        )
    seen: dict[str, str] = {}
    for i, name in enumerate(session.seating):
        names.check(names.tidy(name), f"seating[{i}]")
        key = names.canonical(name)
        if key in seen:
            raise ScoringError(
                '"{name}" is seated twice (as "{other}" too): give every player a different name',
                f"seating[{i}]",
                name=name,
                other=seen[key],
            )
        seen[key] = name
    _check_seated(session, session.first, "first")
    for index, hand in enumerate(session.hands):
        path = f"hands[{index}]"
        for field in _NAMED_FIELDS:
            name = getattr(hand, field)
            if name is not None:
                _check_seated(session, name, f"{path}.{field}")
        for name in hand.results:
            _check_seated(session, name, f"{path}.results.{name}")
        events = hand.events
        for event in events:
            if event not in game.events:
                raise ScoringError(
                    "{game} has no {event} hands",
                    f"{path}.{event.value}",
                    game=Phrase(game.label),
                    event=event.label,
                )
        if len(events) > 1:
            raise ScoringError(
                "a hand cannot be both {one} and {other}",
                f"{path}.{events[1].value}",
                one=events[0].label,
                other=events[1].label,
            )
    return game


def _check_seated(session: Session, name: str, path: str) -> None:
    if name not in session.seating:
        raise ScoringError('"{name}" is not seated at this table', path, name=name)
