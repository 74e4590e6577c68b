# A frozen copy of scoring/settlement.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Money: pairwise payments, netting, and the fewest transfers that settle a session."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from decimal import Decimal

from .model import Payment, Transfer

ZERO = Decimal(0)


def pairwise(
    scores: Mapping[str, int],
    order: Sequence[str],
    stake: Decimal,
    multiplier: Callable[[str, str], tuple[int, str]] | None = None,
) -> tuple[Payment, ...]:
    """For every pair, the higher score pays the lower ``stake x multiplier x difference``.

    ``multiplier(a, b)`` gives the pair's multiplier and the reason for it; without it every
    pair pays the plain difference. Equal scores pay nothing.

    >>> order = ["Anna", "Bob", "Celine", "Dominic"]
    >>> scores = dict(zip(order, [2, 12, 34, 18]))
    >>> balance = net(pairwise(scores, order, Decimal(1)), order)
    >>> [int(balance[name]) for name in order]
    [58, 18, -70, -6]
    """
    payments = []
    for i, a in enumerate(order):
        score_a = scores[a]
        for b in order[i + 1 :]:
            difference = score_a - scores[b]
            if difference:
                times, reason = multiplier(a, b) if multiplier else (1, "difference")
                if difference > 0:
                    payments.append(Payment(a, b, stake * (times * difference), times, reason))
                else:
                    payments.append(Payment(b, a, stake * (times * -difference), times, reason))
    return tuple(payments)


def net(payments: Iterable[Payment], players: Iterable[str]) -> dict[str, Decimal]:
    """What each player wins (+) or pays (-) through ``payments``; always sums to zero."""
    balance = dict.fromkeys(players, ZERO)
    for payment in payments:
        balance[payment.payer] -= payment.amount
        balance[payment.payee] += payment.amount
    return balance


EXACT_UP_TO = 16


def settle_up(balances: Mapping[str, Decimal]) -> tuple[Transfer, ...]:
    """The fewest transfers that settle ``balances`` (which must sum to zero).

    A set of players whose balances sum to zero can settle among themselves with one transfer
    fewer than its size, so the fewest transfers is the number of players owed or owing minus
    the largest number of disjoint zero-sum groups they split into. That split is found exactly
    by dynamic programming over subsets: O(2^n x n) time and O(2^n) memory for n players with a
    non-zero balance, instant for a table and about a second at 16. Above ``EXACT_UP_TO``
    players (tournament-wide settle-ups) it falls back to pairing the largest debtor with the
    largest creditor, which needs at most n - 1 transfers but may miss the minimum.

    Players are taken in the order of ``balances``, so equal inputs give equal transfers.

    >>> for t in settle_up({"A": Decimal(5), "B": Decimal(-5), "C": Decimal(3), "D": Decimal(-3)}):
    ...     print(t.payer, "pays", t.payee, t.amount)
    B pays A 5
    D pays C 3
    """
    if sum(balances.values(), ZERO) != 0:
        raise ValueError("balances must sum to zero")
    open_ = [(name, amount) for name, amount in balances.items() if amount]
    if len(open_) > EXACT_UP_TO:
        return _greedy(open_)
    transfers: list[Transfer] = []
    for group in _zero_sum_groups(open_):
        transfers.extend(_greedy(group))
    return tuple(transfers)


def _zero_sum_groups(open_: list[tuple[str, Decimal]]) -> list[list[tuple[str, Decimal]]]:
    n = len(open_)
    full = (1 << n) - 1
    total = [ZERO] * (full + 1)
    groups = [0] * (full + 1)  # most zero-sum groups the players in ``mask`` split into
    for mask in range(1, full + 1):
        low = mask & -mask
        total[mask] = total[mask ^ low] + open_[low.bit_length() - 1][1]
        best = max(groups[mask ^ (1 << i)] for i in range(n) if mask >> i & 1)
        groups[mask] = best + (total[mask] == 0)
    # Walk back: peel off one player at a time, keeping the count of groups; a prefix of the
    # peeled order that sums to zero closes a group.
    peeled = []
    mask = full
    while mask:
        i = next(
            i
            for i in reversed(range(n))
            if mask >> i & 1 and groups[mask ^ (1 << i)] + (total[mask] == 0) == groups[mask]
        )
        peeled.append(open_[i])
        mask ^= 1 << i
    result: list[list[tuple[str, Decimal]]] = [[]]
    running = ZERO
    for player in reversed(peeled):
        result[-1].append(player)
        running += player[1]
        if running == 0:
            result.append([])
    return [group for group in result if group]


def _greedy(group: list[tuple[str, Decimal]]) -> tuple[Transfer, ...]:
    """Settle a zero-sum group: the largest debtor pays the largest creditor, repeatedly."""
    rank = {name: i for i, (name, _) in enumerate(group)}
    owed = {name: amount for name, amount in group if amount > 0}
    owing = {name: -amount for name, amount in group if amount < 0}
    transfers = []
    while owed and owing:
        payee = max(owed, key=lambda name: (owed[name], -rank[name]))
        payer = max(owing, key=lambda name: (owing[name], -rank[name]))
        amount = min(owed[payee], owing[payer])
        transfers.append(Transfer(payer, payee, amount))
        for side, name in ((owed, payee), (owing, payer)):
            side[name] -= amount
            if not side[name]:
                del side[name]
    return tuple(transfers)
