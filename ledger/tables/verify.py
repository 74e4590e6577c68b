"""Every table scored again from its hands by the engine, and compared with what is stored of
it: its result rows, hand by hand and player by player (score, net, won), and summed by the
database per player (as balances sum them); every hand's rows, reversals included, summing
to zero in each unit, each row in the unit its table pays in; each reversal exactly the row
it takes back negated (same hand, player and unit), no row taken back twice and no reversal
taken back; its kept tally, where it is current (ledger.tables.tally.current_tally); and its
history: each hand's changes, one per version, a record first, each starting from what the
one before left and the last leaving what the hand holds, and its changes of how it ends
chained the same way. What ``manage.py ledger_verify`` reports, in words an operator reads.

Tables are read in batches, each in a fixed number of queries however many hands they hold:
the tables with their seats, their hands, their rows, the rows summed, the hands' changes and
the table's.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, NamedTuple

from django.utils import timezone

from ledger.tables import money, results, stored, tally
from ledger.tables.models import Hand, HandChange, Result, TableChange, TableSession
from scoring import GAMES, SessionResult
from scoring.options import ENDS

BATCH = 200  # tables read at a time


class StoredHand(NamedTuple):
    pk: int
    number: int
    data: dict[str, Any]  # as stored: players by id
    voided: bool
    version: int


class Row(NamedTuple):
    """A stored result row."""

    hand: int
    player: int
    score: int | None
    net: Decimal
    won: bool
    unit: str
    pk: int
    reverses: int | None  # the row this one takes back
    won_from: dict[str, str]  # payer's id -> amount

    def flows(self, names: Mapping[int, str]) -> dict[str, Decimal]:
        """What the player won from each other player, by name."""
        return {names.get(int(pk), f"player #{pk}"): Decimal(v) for pk, v in self.won_from.items()}


class Change(NamedTuple):
    """A stored change of a hand."""

    hand: int
    kind: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None


class EndsChange(NamedTuple):
    """A stored change of how a table ends."""

    before: dict[str, Any]
    after: dict[str, Any]
    ends_before: datetime | None
    ends_after: datetime | None


@dataclass
class Checked:
    """One table as the engine scores it from its hands, and where what is stored differs."""

    table: TableSession
    hands: int  # hands recorded, voided ones included
    changes: int  # the hands' changes and the table's, as its history keeps them
    differences: list[str] = field(default_factory=list)
    # What its rows in money or chips (at the chip's value), reversals included, add up to for
    # each player (by id): what they add to their group's balances.
    rows_net: dict[int, Decimal] = field(default_factory=dict)
    # What the engine gives each player (by id) there, for their group's balances; None when
    # its hands do not score.
    net: dict[int, Decimal] | None = None
    scores: dict[int, int] | None = None


def label(table: TableSession) -> str:
    """The table as a difference names it: its link's token, its game and the day it began."""
    game = GAMES[table.game].title if table.game in GAMES else table.game
    return f"Table {table.token} ({game}, {timezone.localtime(table.created):%d/%m/%Y})"


def words(value: Decimal | int | bool | None) -> str:
    """A stored or computed value as the words show it: money to the cent (-12.00) or as
    precise as it is, a count as it is, yes or no."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    cents = value.quantize(Decimal("0.01"))
    return str(cents) if cents == value else f"{value.normalize():f}"


def tables(batch: int = BATCH) -> Iterator[Checked]:
    """Every table, oldest first, checked."""
    pks = list(TableSession.objects.order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(pks), batch):
        yield from _batch(pks[start : start + batch])


def _batch(pks: list[int]) -> Iterator[Checked]:
    hands: dict[int, list[StoredHand]] = defaultdict(list)
    found = Hand.objects.filter(session__in=pks).order_by("session", "number")
    for session, *hand in found.values_list("session", "pk", "number", "data", "voided", "version"):
        hands[session].append(StoredHand(*hand))
    rows: dict[int, list[Row]] = defaultdict(list)
    columns = (
        *("session", "hand", "player", "score", "net", "won"),
        *("unit", "pk", "reverses", "won_from"),
    )
    for session, *row in Result.objects.filter(session__in=pks).values_list(*columns):
        rows[session].append(Row(*row))
    sums: dict[int, dict[int, money.Sums]] = defaultdict(dict)
    for (session, player), summed in money.sums(pks).items():  # as pages sum them
        sums[session][player] = summed
    changes: dict[int, list[Change]] = defaultdict(list)
    of_hands = HandChange.objects.filter(hand__session__in=pks).order_by("pk")
    for session, hand_pk, kind, before, after in of_hands.values_list(
        "hand__session", "hand", "kind", "before", "after"
    ):
        changes[session].append(Change(hand_pk, kind, before, after))
    ends: dict[int, list[EndsChange]] = defaultdict(list)
    of_tables = TableChange.objects.filter(session__in=pks).order_by("pk")
    for session, *change in of_tables.values_list(
        "session", "before", "after", "ends_before", "ends_after"
    ):
        ends[session].append(EndsChange(*change))
    for table in TableSession.objects.filter(pk__in=pks).order_by("pk").with_seats():
        pk = table.pk
        yield check(table, hands[pk], rows[pk], sums[pk], changes[pk], ends[pk])


def check(
    table: TableSession,
    hands: list[StoredHand],
    rows: list[Row],
    sums: Mapping[int, money.Sums],
    changes: list[Change],
    ends: list[EndsChange],
) -> Checked:
    """``table`` scored from its ``hands`` (in order), compared with its result ``rows``, their
    ``sums`` by player id and its kept tally; its reversals, and its history: its hands'
    ``changes`` and its changes of how it ``ends``, each in the order written."""
    checked = Checked(table, len(hands), len(changes) + len(ends))
    names = table.seated
    at = label(table)
    for row in rows:
        if row.unit != Result.Unit.POINTS:
            checked.rows_net[row.player] = checked.rows_net.get(row.player, Decimal(0)) + row.net
    # Neither needs the engine: said however the hands score.
    unscored = _reversals(at, hands, rows, names) + _history(at, hands, changes)
    unscored += _ends(at, table, bool(hands), ends)
    try:
        named = [hand._replace(data=stored.by_name(hand.data, names)) for hand in hands]
        live = [hand for hand in named if not hand.voided]
        result = tally.score_table(table, [hand.data for hand in live])
    except (KeyError, TypeError, ValueError) as error:  # a ScoringError is a ValueError
        checked.differences += [f"{at}: its hands do not score: {error}", *unscored]
        return checked
    checked.differences += _rows(at, table, named, result, rows)
    checked.differences += _sums(at, table, result, sums)
    counted = tally.count(table, [(h.number, h.data, h.voided, h.version) for h in named], result)
    checked.differences += _tally(at, table, counted)
    checked.differences += unscored
    ids = {name: pk for pk, name in names.items()}
    checked.net = {ids[name]: value for name, value in result.totals.net.items()}
    checked.scores = {ids[name]: value for name, value in result.totals.scores.items()}
    return checked


def _differ(at: str, what: str, mine: Any, theirs: Any) -> list[str]:
    if mine == theirs:  # as numbers: a stored -12.0000 is the engine's -12
        return []
    return [f"{at}: stored {what} {words(mine)}, the hands give {words(theirs)}"]


def _rows(
    at: str, table: TableSession, hands: list[StoredHand], result: SessionResult, rows: list[Row]
) -> list[str]:
    """Where the standing rows differ, hand by hand and player by player, from the outcomes
    the engine gives; each hand whose rows, reversals included, do not sum to zero in a unit;
    each row in another unit than its table's."""
    names = table.seated
    unit, _ = results.pays_in(table.game, table.options)
    reversed_ = {row.reverses for row in rows if row.reverses is not None}
    number = {hand.pk: hand.number for hand in hands}
    voided = {hand.pk for hand in hands if hand.voided}
    live = [hand for hand in hands if not hand.voided]
    given = {
        hand.pk: results.outcomes(table.game, hand.data, played)
        for hand, played in zip(live, result.hands, strict=True)
    }
    have: dict[int, dict[str, Row]] = defaultdict(dict)
    total: dict[int, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    odd = []
    for row in rows:
        total[row.hand][row.unit] += row.net
        if row.unit != unit:
            odd.append(f"{at}: row {row.pk} is in {row.unit}, its table pays in {unit}")
        if row.reverses is None and row.pk not in reversed_:
            have[row.hand][names.get(row.player, f"player #{row.player}")] = row

    def which(pk: int) -> str:
        if pk not in number:
            return f"hand #{pk}, not this table's"
        return f"hand {number[pk]}" + (" (voided)" if pk in voided else "")

    said = []
    for pk in sorted(have.keys() | given.keys() | total.keys(), key=lambda pk: number.get(pk, 0)):
        mine, theirs = have.get(pk, {}), given.get(pk, {})
        for name in sorted(mine.keys() | theirs.keys()):
            kept, outcome = mine.get(name), theirs.get(name)
            if _agree(kept, outcome, names):
                continue
            player = f"{at}: {which(pk)}, {name}"
            if kept is None:
                said.append(
                    f"{player}: no row stored, the hands give net {words(theirs[name].net)}"
                )
            elif outcome is None:
                said.append(f"{player}: stored net {words(kept.net)}, the hands give no row")
            else:
                said += _differ(player, "score", kept.score, outcome.score)
                said += _differ(player, "net", kept.net, outcome.net)
                said += _differ(player, "won", kept.won, outcome.won)
                for payer in sorted(kept.flows(names).keys() | dict(outcome.won_from).keys()):
                    mine_, theirs_ = kept.flows(names).get(payer), dict(outcome.won_from).get(payer)
                    said += _differ(player, f"won from {payer}", mine_, theirs_)
        for in_unit, summed in sorted(total.get(pk, {}).items()):
            if summed:
                said.append(
                    f"{at}: {which(pk)}: its rows, reversals included, sum to "
                    f"{words(summed)} {in_unit}, not 0"
                )
    return said + odd


def _agree(kept: Row | None, outcome: results.Outcome | None, names: Mapping[int, str]) -> bool:
    if kept is None or outcome is None:
        return False
    mine = (kept.score, kept.net, kept.won, kept.flows(names))
    return mine == (outcome.score, outcome.net, outcome.won, dict(outcome.won_from))


def _sums(
    at: str, table: TableSession, result: SessionResult, sums: Mapping[int, money.Sums]
) -> list[str]:
    """Where each player's rows summed by the database differ from the engine's totals."""
    names = table.seated
    engine = result.totals
    said = []
    for pk in sorted(names.keys() | sums.keys()):
        name = names.get(pk, f"player #{pk}")
        mine = sums.get(pk, money.Sums(Decimal(0), 0, 0, 0))
        total = f"{at}: {name}'s total"
        said += _differ(total, "net", mine.net, engine.net.get(name, Decimal(0)))
        said += _differ(total, "score", mine.score, engine.scores.get(name, 0))
        said += _differ(total, "hands won", mine.won, engine.hands_won.get(name, 0))
    return said


def _tally(at: str, table: TableSession, counted: tally.Tally) -> list[str]:
    """Where the table's kept tally, if current, differs from the one its hands count."""
    try:
        kept = tally.current_tally(table)
    except (KeyError, TypeError, ValueError, ArithmeticError) as error:
        return [f"{at}: its kept tally cannot be read: {error!r}"]
    if kept is None:  # not counted for the table as it is now: never used, nothing to compare
        return []
    at = f"{at}: its kept tally"
    said = _differ(at, "hands recorded", kept.recorded, counted.recorded)
    said += _differ(at, "hands that count", kept.counted, counted.counted)
    said += _differ(at, "corrected", kept.corrected, counted.corrected)
    said += _differ(at, "time up", kept.time_up, counted.time_up)
    return said


def _hand_names(hands: list[StoredHand]) -> dict[int, str]:
    """Each hand (by id) as a difference names it: its number, and whether it is voided."""
    return {hand.pk: f"hand {hand.number}" + (" (voided)" if hand.voided else "") for hand in hands}


def _reversals(
    at: str, hands: list[StoredHand], rows: list[Row], names: Mapping[int, str]
) -> list[str]:
    """Each reversal that is not exactly the row it takes back negated (its hand, player and
    unit the same; its score, net and what it won from each player negated), or that takes
    back a row not of this table or a reversal; each row taken back more than once. (A voided
    hand's row that stands is what the engine gives no row for: ``_rows`` says so.)"""
    hand_names = _hand_names(hands)
    by_pk = {row.pk: row for row in rows}
    taken_by: dict[int, list[int]] = defaultdict(list)
    said = []
    for row in sorted(rows, key=lambda row: row.pk):
        if row.reverses is None:
            continue
        taken_by[row.reverses].append(row.pk)
        hand = hand_names.get(row.hand, f"hand #{row.hand}, not this table's")
        where = f"{at}: {hand}, {names.get(row.player, f'player #{row.player}')}: row {row.pk}"
        taken = by_pk.get(row.reverses)
        if taken is None:
            said.append(f"{where} takes back row {row.reverses}, not a row of this table")
            continue
        if taken.reverses is not None:
            said.append(f"{where} takes back row {taken.pk}, itself a reversal")
            continue
        unlike = [
            what
            for what, same in (
                ("hand", row.hand == taken.hand),
                ("player", row.player == taken.player),
                ("unit", row.unit == taken.unit),
                ("score", row.score == (None if taken.score is None else -taken.score)),
                ("net", row.net == -taken.net),
                ("won from", row.flows(names) == {k: -v for k, v in taken.flows(names).items()}),
            )
            if not same
        ]
        if unlike:
            what = " and ".join([", ".join(unlike[:-1]), unlike[-1]] if unlike[:-1] else unlike)
            differ = "differs" if len(unlike) == 1 else "differ"
            said.append(f"{where} does not take back row {taken.pk}: its {what} {differ}")
    for pk, reversals in sorted(taken_by.items()):
        if len(reversals) > 1 and pk in by_pk:
            row = by_pk[pk]
            hand = hand_names.get(row.hand, f"hand #{row.hand}, not this table's")
            player = names.get(row.player, f"player #{row.player}")
            by = ", ".join(str(reversal) for reversal in reversals)
            said.append(
                f"{at}: {hand}, {player}: row {pk} is taken back {len(reversals)} times ({by})"
            )
    return said


def _history(at: str, hands: list[StoredHand], changes: list[Change]) -> list[str]:
    """Where a hand's history does not account for what it holds: one change per version, a
    record first, then corrections, a void only last and only for a voided hand; each change
    starting from what the one before left, and the last leaving what the hand holds now (a
    void leaves the hand as it was)."""
    of: dict[int, list[Change]] = defaultdict(list)
    for change in changes:  # all of this table's hands' (read by their table)
        of[change.hand].append(change)
    hand_names = _hand_names(hands)
    said = []
    for hand in hands:
        where = f"{at}: {hand_names[hand.pk]}"
        kept = of[hand.pk]
        if len(kept) != hand.version:
            said.append(
                f"{where}: version {hand.version}, but its history holds {_count(len(kept))}"
            )
        if not kept:
            continue
        if kept[0].kind != HandChange.Kind.RECORD:
            said.append(f"{where}: its history begins with {_kind(kept[0])}, not a record")
        for number, (before, change) in enumerate(zip(kept, kept[1:], strict=False), start=2):
            if change.kind == HandChange.Kind.RECORD or before.kind == HandChange.Kind.VOID:
                said.append(
                    f"{where}: its change {number} is {_kind(change)} after {_kind(before)}"
                )
            elif change.before != before.after:
                said.append(
                    f"{where}: its change {number} ({_kind(change)}) does not start from what "
                    f"change {number - 1} left"
                )
        last = kept[-1]
        if hand.voided != (last.kind == HandChange.Kind.VOID):
            but = "it is voided" if hand.voided else "it is not voided"
            said.append(f"{where}: its history ends in {_kind(last)}, but {but}")
        left = last.before if last.kind == HandChange.Kind.VOID else last.after
        if left != hand.data:
            said.append(f"{where}: it holds what its last change did not leave")
    return said


def _count(changes: int) -> str:
    return f"{changes} change{'' if changes == 1 else 's'}"


def _kind(change: Change) -> str:
    """A change's kind as a noun: a record, a correction, a void."""
    nouns = {"record": "a record", "correct": "a correction", "void": "a void"}
    return nouns.get(change.kind, f"a change of kind {change.kind!r}")


def _ends(at: str, table: TableSession, played: bool, changes: list[EndsChange]) -> list[str]:
    """Where the changes of how a table with hands ends do not chain: each starting from the
    ends the one before left, the last leaving the ends the table has.

    Only the ends are compared (its target, its number of hands, its time), what such a
    change is about: a migration pins a changed default into a table's options without a
    change (0036 did). A table without hands is left out: until its first hand the admin may
    set its options, and it holds no money."""
    if not played or not changes:
        return []

    def ending(options: Mapping[str, Any], ends_at: datetime | None) -> tuple[Any, ...]:
        return (*(options.get(name) for name in ENDS), ends_at)

    said = []
    for number, (before, change) in enumerate(zip(changes, changes[1:], strict=False), start=2):
        if ending(change.before, change.ends_before) != ending(before.after, before.ends_after):
            said.append(
                f"{at}: its change {number} of how it ends does not start from what change "
                f"{number - 1} left"
            )
    last = changes[-1]
    if ending(last.after, last.ends_after) != ending(table.options, table.ends_at):
        said.append(f"{at}: it ends otherwise than its last change of how it ends left it")
    return said
