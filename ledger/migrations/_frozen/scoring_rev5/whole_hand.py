# A frozen copy of scoring/whole_hand.py at commit 4f8c0c1 (rules revision 5), for the migrations:
# never edit it (ledger/migrations/_frozen/scoring_rev5/__init__.py says why).
"""Every hand checked as a whole: its scores must come from disjoint tiles of one deck at once.

Each player's score is first checked on its own (``scoring.games.base.check_player``); this
module checks the players of one hand together (docs/rules.md, "The hand as
a whole"). The check is exact: it refuses a hand only when no deal of the deck gives every player
their score at the same time, and it accepts a hand only when one does.

What a connecting game's hand needs (Jie Long, Ce Deng, Tsair Deng, Kko-li-but-i-gi, Ding Niu):

- Disjoint sets of tiles of the game's deck, one per player, each adding up to that player's
  score (the pips entered; Tsair Deng's before doubling), each of as many tiles as the seat
  allows: the player who led, 0 up to one fewer than dealt (the lead tile went to the layout);
  any other player, 0 up to all dealt; a pass, none; a head or tail, exactly the dealt tiles
  less those its special says were played (``SPECIAL_RULES[...].keeps`` counted back).
- A player who entered tiles uses exactly those tiles; the others' sets come from the rest.
- Nothing else. The tiles nobody scored went to the layout, or were never dealt (three players
  of Jie Long or Tsair Deng leave 2 tiles out, two or three of Ce Deng 16 or 8), and that asks
  nothing more of the scores: the sets take at most ``players x dealt - 1`` tiles, so every
  player's hand can be filled up to the tiles dealt from the rest of the deck, the leader's
  with the tile led, and play can have gone so: a player may discard at any turn and tiles
  leave every hand one a turn, so a hand can end with any such split between layout and
  discards. A blocked hand counts the tiles still held in the scores, within the same limits,
  so it is checked as a played one (the block may come at the last turn). A SuanZhang creator
  is checked like any other player. Two players of Jie Long (16 tiles each), four of any
  chinese-32 game, Kko-li-but-i-gi and Ding Niu deal the whole deck: then the sets and the
  layout split the deck between them, which the same limits already say.
- Declared doubles (Ce Deng): the holder was dealt 8 of the deck's 12 doubles and the hand was
  not played; every other player's 8 tiles come from the rest, so they hold 4 doubles at most
  between them (and then the holder's 8 are among the doubles they leave). With four players
  they hold all the rest: their pips add up to the deck's 227 less the holder's doubles (an odd
  number from 155 to 187).
- A redeal has no results, so nothing to check.

Not checked (RULES.md is silent; the weakest condition never refuses a hand that can happen):
whether the layout's tiles could lie as one line of matching ends, and who could have played
when (Ce Deng's "discard only when you cannot play"): the ledger does not see the play.

How. Only pips matter to a player who entered pips, so the deck (less the tiles entered) is
taken as groups of tiles of equal pips: at most 11 groups of at most 5 tiles (Tiu Yu's large
fish: 5 groups of pairs). A depth-first search hands each group's tiles out to the players, and
prunes every branch in which one player, or any two or more together, can no longer reach their
pips with the numbers of tiles left to them (bitsets of the sums that k tiles of the groups left
make, as ``tiles.subset_totals`` counts them, built once per deck), or in which more players are
short of an odd number of pips than odd tiles are left. It remembers what every branch led to.
Two orders of the groups suit different hands, lowest pips first and highest first (tight low
scores are settled at once in the one, tight high scores in the other), so the search runs in
both by turns, with twice the steps each round, and the first to finish answers: never much
slower than the better of the two. Tiu Yu's catches are checked in ``scoring.catches``, with
this search for the large fish.

A quick accept on totals alone would not be exact: two players of 3 pips add up to 6, far
below the deck's 227, yet the deck has a single 1:2 and no other way to make 3.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple, TypeVar

from .errors import ScoringError
from .tiles import Deck, Tile, subset_totals

# Tiles of equal pips: (pips, copies, capped). The tiles of capped groups count against a cap
# shared by all players (under declared doubles: the doubles the holder did not get).
Group = tuple[int, int, bool]
Groups = tuple[Group, ...]
Need = tuple[int, int, int]  # (fewest tiles, most tiles, pips) still to find for one player
T = TypeVar("T")


class Claim(NamedTuple):
    """What one player's result says about the tiles behind it in a connecting game."""

    name: str
    pips: int
    fewest: int  # tiles the score is made of, at least
    most: int  # and at most
    tiles: tuple[Tile, ...] | None = None  # the very tiles, when they were entered

    @property
    def label(self) -> str:
        return f"{self.name} {self.pips}"


def check_scores(deck: Deck, claims: Sequence[Claim], path: str) -> None:
    """Refuse (ScoringError at ``path``, the hand) the scores of a played hand that no deal of
    ``deck`` gives all at once. Each claim has passed its own checks.

    >>> claims = [Claim("Anna", 3, 0, 7), Claim("Bob", 12, 0, 8), Claim("Celine", 3, 0, 8)]
    >>> check_scores(Deck.CHINESE_32, claims, "hands[0]")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: these scores cannot all be true in one hand: no deal of the \
deck gives Anna 3, Celine 3 at the same time
    >>> check_scores(Deck.CHINESE_32, [Claim("Anna", 50, 0, 7), Claim("Bob", 86, 0, 8)], "")
    """
    if not _possible(deck, claims):
        raise _refusal(deck, claims, path)


def check_declared_doubles(deck: Deck, holder: str, claims: Sequence[Claim], path: str) -> None:
    """Refuse the pips the other players enter under declared doubles when no deal gives
    ``holder`` 8 doubles and each of them their 8 tiles at once (``claims``: 8 to 8 tiles).

    >>> others = [Claim(name, 58, 8, 8) for name in ("Bob", "Celine", "Dominic")]
    >>> check_declared_doubles(Deck.CHINESE_32, "Anna", others, "hands[0]")
    Traceback (most recent call last):
    ...
    scoring.errors.ScoringError: these scores cannot all be true in one hand: with Anna's 8 \
doubles out, Bob 58, Celine 58, Dominic 58 hold the rest of the deck, which adds up to an \
odd number from 155 to 187, not 174
    """
    if not _possible(deck, claims, holder=True):
        raise _refusal(deck, claims, path, holder=holder)


HOLDS = 8  # doubles in a declared hand


def clear_caches() -> None:
    """Forget every answer remembered (for a benchmark of hands never seen); the tables of
    sums built for a deck, or for what tiles entered leave of it, are kept."""
    feasible.cache_clear()
    _search.cache_clear()


# -- the search -------------------------------------------------------------------------------


def _possible(deck: Deck, claims: Sequence[Claim], *, holder: bool = False) -> bool:
    """Whether one deal gives every claim at once; with a ``holder`` of declared doubles,
    who was dealt 8 doubles besides: then the others take at most the doubles beyond 8, and
    the holder's are among those they leave (with four players, the only tiles they leave)."""
    entered: Counter[Tile] = Counter()
    for claim in claims:
        if claim.tiles is not None:
            entered.update(claim.tiles)
    needs = tuple(
        sorted((claim.fewest, claim.most, claim.pips) for claim in claims if claim.tiles is None)
    )
    if not holder:
        return feasible(_groups(deck, _key(entered)), needs)
    spare = _doubles(deck) - HOLDS - sum(n for tile, n in entered.items() if _is_double(tile))
    return spare >= 0 and feasible(_groups(deck, _key(entered), capped=True), needs, spare)


def _key(tiles: Counter[Tile]) -> tuple[tuple[Tile, int], ...]:
    return tuple(sorted(tiles.items()))


def _is_double(tile: Tile) -> bool:
    return tile.low == tile.high


def _doubles(deck: Deck) -> int:
    return sum(n for tile, n in deck.counts.items() if _is_double(tile))


@lru_cache(maxsize=256)
def _groups(deck: Deck, entered: tuple[tuple[Tile, int], ...], *, capped: bool = False) -> Groups:
    """What the tiles ``entered`` leave of ``deck``, by pips, highest first; ``capped``:
    doubles apart.

    >>> _groups(Deck.KKORI_24, ())[:3]
    ((11, 2, False), (10, 2, False), (9, 2, False))
    """
    left = Counter(deck.counts) - Counter(dict(entered))
    by_pips: Counter[tuple[int, bool]] = Counter()
    for tile, copies in left.items():
        by_pips[tile.pips, capped and _is_double(tile)] += copies
    return tuple(
        sorted(((pips, n, apart) for (pips, apart), n in by_pips.items() if n), reverse=True)
    )


# A need (fewest, most, pips) is packed into one int, fewest << _LOW | most << _HIGH | pips,
# so that the needs of several players add up in one addition.
_HIGH, _LOW = 20, 40
_FIELD = (1 << _HIGH) - 1


@lru_cache(maxsize=4096)
def feasible(groups: Groups, needs: tuple[Need, ...], cap: int = 0) -> bool:
    """Whether disjoint tiles of ``groups`` give every need (fewest tiles, most tiles, pips)
    at once, taking at most ``cap`` tiles of the capped groups in all. ``needs`` is sorted
    (the answer does not depend on their order).

    >>> chinese = _groups(Deck.CHINESE_32, ())
    >>> feasible(chinese, ((0, 8, 3), (0, 8, 3))), feasible(chinese, ((0, 8, 3), (0, 8, 5)))
    (False, True)
    """
    packed = tuple(sorted(f << _LOW | m << _HIGH | p for f, m, p in needs if f or p))
    cap = min(cap, sum(copies for _, copies, capped in groups if capped))
    searches = [_search(tuple(sorted(groups, key=order)), cap) for order in ORDERS]
    # Every player, and any two or more together, within reach of the whole deck: most
    # impossible hands end here.
    spans = searches[0].spans(0, cap)
    for size in range(1, len(packed) + 1):
        if not all(_fits(spans, sum(subset)) for subset in combinations(packed, size)):
            return False
    if len(packed) < 2:
        return True  # one player's reach is exact
    steps = 20  # two ways down the groups, about (chosen by benchmark)
    while True:
        for search in searches:
            try:
                return search.run(packed, steps)
            except _Spent:
                pass
        steps *= 2


def _lowest_first(group: Group) -> tuple[bool, int]:
    """2, 3, 4, ..., 12: the players whose scores need the low tiles are settled first."""
    return not group[2], group[0]


def _highest_first(group: Group) -> tuple[bool, int]:
    """12, 11, 10, ..., 2: the players whose scores need the high tiles are settled first."""
    return not group[2], -group[0]


# Both orders hand out the capped groups first: once they are out, the cap binds no more.
ORDERS: tuple[Callable[[Group], tuple[int, ...]], ...] = (_lowest_first, _highest_first)


class _Spans(dict[int, int]):
    """``spans[fewest << _HIGH | most]``: bit ``s`` set when ``fewest`` to ``most`` tiles of
    the groups read add up to ``s``; ``rows[k]``: the sums of exactly k tiles."""

    def __init__(self, rows: list[int]) -> None:
        super().__init__()
        self.rows = rows

    def __missing__(self, key: int) -> int:
        self[key] = bits = _join(self.rows[key >> _HIGH : (key & _FIELD) + 1])
        return bits


def _fits(spans: _Spans, need: int) -> bool:
    """A need (packed; or the needs of several players added up) can be met."""
    return bool(spans[need >> _HIGH] >> (need & _FIELD) & 1)


@lru_cache(maxsize=256)  # a table is some kilobytes
def _table(groups: Groups, top: int) -> _Table:
    return _Table(groups, top)


class _Table:
    """What ``groups[g:]`` make, for every g, ``top`` tiles of the capped groups at most; and
    their highest and lowest pips, their odd tiles, whether any capped group is among them."""

    def __init__(self, groups: Groups, top: int) -> None:
        after = range(len(groups) + 1)
        values = [pips for pips, _, _ in groups]
        self.highest = [max(values[g:], default=1) for g in after]
        self.lowest = [min(values[g:], default=1) for g in after]
        self.odd = [sum(n for pips, n, _ in groups[g:] if pips % 2) for g in after]
        self.capped_after = [any(capped for _, _, capped in groups[g:]) for g in after]
        self.sizes = [sum(n for _, n, _ in groups[g:]) for g in after]
        # sums[g]: bit j * stride + k * width + s is set when k tiles of groups[g:], j of
        # them from capped groups, add up to s (bitsets, as tiles.subset_totals counts them).
        self.top, self.width = top, sum(pips * n for pips, n, _ in groups) + 1
        self.stride = (self.sizes[0] + 1) * self.width
        self.sums = [1]
        for pips, copies, capped in reversed(groups):
            step = self.width + pips + (self.stride if capped else 0)
            sums = _join(self.sums[0] << x * step for x in range(copies + 1))
            if capped:  # top capped tiles at most
                sums &= (1 << (top + 1) * self.stride) - 1
            self.sums.insert(0, sums)
        self.read: dict[tuple[int, int], _Spans] = {}

    def spans(self, g: int, cap: int) -> _Spans:
        """What ``groups[g:]`` make, ``cap`` tiles of the capped groups at most."""
        found = self.read.get((g, cap))
        if found is None:
            width, stride, caps = self.width, self.stride, min(cap, self.top)
            rows = [
                _join(self.sums[g] >> j * stride + k * width for j in range(caps + 1))
                & (1 << width) - 1
                for k in range(self.sizes[g] + 1)
            ]
            found = self.read[g, cap] = _Spans(rows)
        return found


def _join(bits: Iterable[int]) -> int:
    joined = 0
    for b in bits:
        joined |= b
    return joined


class _Spent(Exception):
    """A search ran out of steps."""


@lru_cache(maxsize=64)
def _search(groups: Groups, top: int) -> _Search:
    return _Search(groups, top)


class _Search:
    """Hand out the groups in order, ``top`` tiles of the capped ones at most. ``known``
    remembers what (group, cap left, needs) led to, for every hand on these groups (a search
    in a later round, or a later hand, asks again); ``options``, what one player may take of
    a group."""

    LIMIT = 20_000  # answers kept, at most (a few megabytes)

    def __init__(self, groups: Groups, top: int) -> None:
        self.groups, self.top, self.table = groups, top, _table(groups, top)
        self.spans = self.table.spans
        self.known: dict[tuple[int, int, tuple[int, ...]], bool] = {}
        self.options: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
        self.steps = 0

    def run(self, needs: tuple[int, ...], steps: int) -> bool:
        """Whether disjoint tiles of the groups meet every need (packed, sorted, none done);
        ``_Spent`` when ``steps`` new branches do not settle it."""
        if len(self.known) >= self.LIMIT:
            self.known.clear()
            self.options.clear()
        self.steps = steps
        return self._run(0, needs, self.top)

    def _run(self, g: int, needs: tuple[int, ...], cap: int) -> bool:
        if len(needs) < 2:  # one player's reach is exact
            return not needs or _fits(self.spans(g, cap), needs[0])
        # Each player short of an odd number of pips needs an odd tile of their own.
        if sum(need & 1 for need in needs) > self.table.odd[g] or g == len(self.groups):
            return False
        if not self.table.capped_after[g]:
            cap = 0
        key = (g, cap, needs)
        answer = self.known.get(key)
        if answer is None:
            self.steps -= 1
            if self.steps < 0:
                raise _Spent
            answer = self.known[key] = self._hand_out(g, needs, cap)
        return answer

    def _options(self, g: int, need: int, cap: int) -> list[tuple[int, int]]:
        """How many of group ``g`` one player may take, and what they then need: only what
        leaves their pips reachable (on their own, with ``cap`` capped tiles), those that
        leave them nearest the middle of what they can still make first."""
        found = self.options.get((g, cap, need))
        if found is None:
            value, copies, capped = self.groups[g]
            if capped:
                copies = min(copies, cap)
            fewest, most, pips = need >> _LOW, need >> _HIGH & _FIELD, need & _FIELD
            # What is left is said one way only: no fewer tiles than the highest pips left
            # need, no more than the lowest allow (more answers remembered are found again).
            high, low = self.table.highest[g + 1], self.table.lowest[g + 1]
            spans, scored = self.spans(g + 1, cap), []
            for x in range(min(copies, most, pips // value), -1, -1):
                left = pips - x * value
                fewer, more = -(-left // high), left // low
                if fewer < fewest - x:
                    fewer = fewest - x
                if more > most - x:
                    more = most - x
                if capped:
                    spans = self.spans(g + 1, cap - x)
                bits = spans[fewer << _HIGH | more]
                if bits >> left & 1:
                    low_sum, high_sum = (bits & -bits).bit_length() - 1, bits.bit_length() - 1
                    off = abs(2 * left - low_sum - high_sum) / (high_sum - low_sum + 1)
                    scored.append((off, x, fewer << _LOW | more << _HIGH | left))  # 0: done
            scored.sort()
            found = self.options[(g, cap, need)] = [(x, after) for _, x, after in scored]
        return found

    def _hand_out(self, g: int, needs: tuple[int, ...], cap: int) -> bool:
        """Whether some way to hand out group ``g`` leads on to a deal."""
        value, copies, capped = self.groups[g]
        if capped:
            copies = min(copies, cap)
        options = [self._options(g, need, cap) for need in needs]
        chosen = [0] * len(options)
        spans = self.spans(g + 1, cap)

        def pick(i: int, left: int, sums: list[int]) -> bool:
            """Choose for player ``i`` on, ``left`` tiles of the group still unclaimed;
            ``sums``: the needs after of every set of the players before (0 for none), all
            of which can still be met together."""
            if i == len(options):
                rest = cap - (copies - left) if capped else cap
                return self._run(g + 1, tuple(sorted(filter(None, chosen))), rest)
            for x, after in options[i]:
                if x > left:
                    continue
                chosen[i] = after
                if not after:
                    if pick(i + 1, left - x, sums):
                        return True
                    continue
                added = [total + after for total in sums[1:]]
                here = self.spans(g + 1, cap - (copies - left + x)) if capped else spans
                if all(here[t >> _HIGH] >> (t & _FIELD) & 1 for t in added) and pick(
                    i + 1, left - x, [*sums, after, *added]
                ):
                    return True
            return False

        return pick(0, copies, [0])


# -- saying why -------------------------------------------------------------------------------


def names(labels: Sequence[str]) -> str:
    """``Anna 86, Bob 86, Celine 2``: joined without a word of English, so that a message
    translated into another language reads whole."""
    return ", ".join(labels)


def most_pips(deck: Deck, tiles: int) -> int:
    """The most pips ``tiles`` tiles of ``deck`` add up to.

    >>> most_pips(Deck.CHINESE_32, 8), most_pips(Deck.CHINESE_32, 40)
    (86, 227)
    """
    return sum(sorted((tile.pips for tile in deck.all_tiles()), reverse=True)[:tiles])


def least_pips(deck: Deck, tiles: int) -> int:
    """The fewest pips ``tiles`` tiles of ``deck`` add up to.

    >>> least_pips(Deck.CHINESE_32, 7)
    23
    """
    return sum(sorted(tile.pips for tile in deck.all_tiles())[:tiles])


def first_refused(
    named: Sequence[T], smallest: int, possible: Callable[[Sequence[T]], bool]
) -> Sequence[T]:
    """The first of the smallest sets of the ``named`` (``smallest`` or more of them, fewer than
    all) that ``possible`` refuses; all of them when there is none. The sets of all but one
    are asked first: any set within one found possible is possible, and needs no search."""
    n = len(named)
    held = [
        set(subset)
        for subset in combinations(range(n), n - 1)
        if n - 1 >= smallest and possible([named[i] for i in subset])
    ]
    for size in range(smallest, n):
        for subset in combinations(range(n), size):
            if not any(whole.issuperset(subset) for whole in held):
                chosen = [named[i] for i in subset]
                if size == n - 1 or not possible(chosen):
                    return chosen
    return named


def _refusal(
    deck: Deck, claims: Sequence[Claim], path: str, *, holder: str | None = None
) -> ScoringError:
    """The plainest true reason: a total beyond the deck, else the fewest players whose scores
    already cannot all be true (all of them at worst)."""
    named = [claim for claim in claims if claim.pips or claim.tiles]
    if holder is not None:
        return _doubles_refusal(deck, holder, named, claims, path)
    reason = _too_many(deck, named, path)
    if reason is not None:
        return reason
    fewest = first_refused(named, 2, lambda subset: _possible(deck, subset))
    return _too_many(deck, fewest, path) or _no_deal(fewest, path)


def _too_many(deck: Deck, claims: Sequence[Claim], path: str) -> ScoringError | None:
    total = sum(claim.pips for claim in claims)
    scores = names([claim.label for claim in claims])
    if total > deck.pips:
        return ScoringError(
            "these scores cannot all be true in one hand: {scores} add up to {total}, "
            "more than the {pips} pips in the deck",
            path,
            scores=scores,
            total=total,
            pips=deck.pips,
        )
    tiles = sum(len(claim.tiles) if claim.tiles is not None else claim.most for claim in claims)
    most = most_pips(deck, tiles)
    if total > most:
        return ScoringError(
            "these scores cannot all be true in one hand: {scores} add up to {total}, but the "
            "{tiles} tiles they can have between them add up to {most} at most",
            path,
            scores=scores,
            total=total,
            tiles=tiles,
            most=most,
        )
    least = least_pips(deck, sum(claim.fewest for claim in claims))
    if total < least:
        return ScoringError(
            "these scores cannot all be true in one hand: {scores} add up to {total}, but the "
            "{tiles} tiles they hold between them add up to {least} at least",
            path,
            scores=scores,
            total=total,
            tiles=sum(claim.fewest for claim in claims),
            least=least,
        )
    return None


def _no_deal(claims: Sequence[Claim], path: str) -> ScoringError:
    return ScoringError(
        "these scores cannot all be true in one hand: no deal of the deck gives {scores} "
        "at the same time",
        path,
        scores=names([claim.label for claim in claims]),
    )


def _doubles_refusal(
    deck: Deck, holder: str, named: Sequence[Claim], claims: Sequence[Claim], path: str
) -> ScoringError:
    entered: Counter[Tile] = Counter()
    for claim in claims:
        if claim.tiles is not None:
            entered.update(claim.tiles)
    left = Counter(deck.counts) - entered
    doubles = tuple(tile.pips for tile in sorted(left.elements()) if _is_double(tile))
    scores = names([claim.label for claim in named])
    if len(doubles) < HOLDS:
        return ScoringError(
            "these scores cannot all be true in one hand: {holder} declared 8 doubles, "
            "but the tiles entered leave fewer than 8 of the deck's doubles",
            path,
            holder=holder,
        )
    held = sum(claim.most for claim in claims if claim.tiles is None)
    if held + HOLDS == left.total():  # the others hold all the rest of the deck
        total = sum(claim.pips for claim in claims)
        totals = sorted(deck.pips - pips for pips in subset_totals(doubles, HOLDS, HOLDS))
        if total not in totals:
            return ScoringError(
                "these scores cannot all be true in one hand: with {holder}'s 8 doubles out, "
                "{scores} hold the rest of the deck, which adds up to an odd number from "
                "{low} to {high}, not {total}",
                path,
                holder=holder,
                scores=scores,
                low=totals[0],
                high=totals[-1],
                total=total,
            )
    fewest = first_refused(named, 1, lambda subset: _possible(deck, subset, holder=True))
    return _no_doubles_deal(holder, fewest, path)


def _no_doubles_deal(holder: str, claims: Sequence[Claim], path: str) -> ScoringError:
    return ScoringError(
        "these scores cannot all be true in one hand: no deal of the deck gives {holder} "
        "8 doubles and {scores} at the same time",
        path,
        holder=holder,
        scores=names([claim.label for claim in claims]),
    )
