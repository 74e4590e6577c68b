"""Fill an empty database with a demo: a table of every game, a tournament mid-round, and a
group of regulars after three evenings.

    .venv/bin/python manage.py demo        (make demo)

Every hand goes through the services a phone's save goes through (ledger.tables.services,
ledger.events.services), so the engine checks each one as it checks a real table's. Hands are
dealt from the game's own deck with a fixed seed, and each score is made of tiles that player
was dealt: every hand is one a table could have played, and every run makes the same demo
(only the links, which are random, differ). A database that already has tables or events is
left alone: the demo never mixes with real play.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.urls import reverse

import scoring
from ledger.events import services as event_services
from ledger.groups import selectors as group_selectors
from ledger.groups import services as group_services
from ledger.models import Event, Group, TableSession
from ledger.tables import selectors, services
from scoring import SPECIAL_RULES, Entry, HandEvent, Seat, Special, Tile
from scoring.games import DEFAULT_EVENT_GAME, DEFAULT_TABLE_GAME

SEED = 20240808

# Who sits at each table, counter-clockwise: the n-th table takes the n-th set of names (a table
# of more than four takes the next sets' names too).
SEATINGS = (
    ("Anna", "Bob", "Celine", "Dominic"),
    ("Mei", "Jun", "Lan", "Hao"),
    ("Wei", "Ling", "Feng", "Xiu"),
    ("Minji", "Seojun", "Jiwoo", "Hayun"),
    ("Adam", "Boris", "Celine", "Dominik"),
    ("Grandma Li", "Hui", "Pat", "Rosa"),
    ("Nadia", "Omar", "Priya", "Quentin"),
)
SEATS = 4  # the usual table; a game that cannot seat four seats as many as it can
# Where a game takes one of these options, the demo sets it other than the default, to show it.
# Money per point where a game pays differences, else a chip; every other option as usual.
OPTIONS = {"stake": "0.50", "chip": "2"}

# What happens at a table, hand by hand: plain hands around one hand of each kind the game knows.
#   plain     everyone discards a few of the tiles they were dealt (a fishing game: each player
#             enters the numbers of their catch)
#   tiles     the same, two players tapping their tiles instead (a fishing game: everyone)
#   a special or a hand event of the game, by its value: a player passes or holds a head or a
#             tail; the hand is redealt, or not played for declared doubles, or blocked (scores
#             include the tiles left in hand)
#   suanzhang_wins, suanzhang_loses   the SuanZhang creator goes out first, or another does
# and a phone's two mistakes, once each in the demo:
#   again     the last hand saved a second time, then voided (at the first table)
#   typo      two scores typed into each other's fields, then corrected (at the table of the game
#             a new table preselects, the likeliest to be opened)
PLAIN, TILES, AGAIN, TYPO = "plain", "tiles", "again", "typo"
SUANZHANG_WINS, SUANZHANG_LOSES = "suanzhang_wins", "suanzhang_loses"
MIN_HANDS = 6

GROUP = "Friday teahouse"
GROUP_PLAYERS = ("Mei", "Jun", "Hana", "Wei", "Tomas")
EVENT = "Thursday club night"
EVENT_GAME = DEFAULT_EVENT_GAME
EVENT_PLAYERS = (
    "Ahmed", "Beatriz", "Chen Yu", "Dara", "Elif", "Farid",
    "Gao Min", "Hana", "Ivan", "Jasmine", "Kofi", "Lucía",
)  # fmt: skip
ROUND_TWO_SO_FAR = (4, 2, 1)  # hands each table of round 2 has played: 12 players, 3 tables


def script(game: scoring.Game, players: int, options: scoring.Options) -> tuple[str, ...]:
    """The hands of a table of ``game``: a plain hand, one hand of each kind the game knows
    (its specials, its hand events, tiles tapped), a plain hand; more plain hands first where
    that makes fewer than MIN_HANDS."""
    kinds: list[str] = []
    specials = {
        *game.seat_specials(players, leads=True, options=options),
        *game.seat_specials(players, leads=False, options=options),
    }
    for special in Special:
        if special not in specials:
            continue
        if special is Special.SUANZHANG:
            kinds += [SUANZHANG_WINS, SUANZHANG_LOSES]
        else:
            kinds.append(special.value)
    kinds += [event.value for event in HandEvent if event in game.events]
    kinds.append(TILES)
    plains = max(2, MIN_HANDS - len(kinds))
    return (PLAIN,) * (plains - 1) + tuple(kinds) + (PLAIN,)


def seating(index: int, game: scoring.Game) -> tuple[str, ...]:
    """Who sits at the ``index``-th table, of as many players as ``game`` seats in the demo."""
    count = SEATS if SEATS in game.player_counts else max(game.player_counts)
    rotated = SEATINGS[index % len(SEATINGS) :] + SEATINGS[: index % len(SEATINGS)]
    return tuple(dict.fromkeys(name for names in rotated for name in names))[:count]


class Command(BaseCommand):
    help = (
        "Fill an empty database with a demo: a table of every game and a tournament in its "
        "second round. Refuses a database that has tables or events already."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            tables, events = TableSession.objects.count(), Event.objects.count()
            if tables or events:
                raise CommandError(
                    f"this database is not empty ({_count(tables, 'table')}, "
                    f"{_count(events, 'event')}): the demo fills only an empty one, and stored "
                    "nothing. There is no --force: a demo never mixes with real play. Give it a "
                    "database of its own, e.g. DATA_DIR=/tmp/ledger-demo make demo run"
                )
            dealer = Dealer(random.Random(SEED))
            made = [dealer.table(index, game) for index, game in enumerate(scoring.GAMES.values())]
            event = dealer.event()
            group = dealer.group()
        self._links(made, event, group)

    def _links(self, tables: list[TableSession], event: Event, group: Group) -> None:
        write = self.stdout.write
        write(
            f"The demo is stored: a table of each of the {len(tables)} games, and a tournament "
            "in its second round.\nOpen these at the ledger's address (make run prints it, "
            "such as http://127.0.0.1:8000):\n"
        )
        for table in tables:
            game = scoring.GAMES[table.game]
            hands = table.hands.count()
            write(
                f"  {game.title} ({', '.join(table.seating)}; {hands} hands): "
                f"{reverse('table', args=[table.token])}"
            )
        players = event.entries.count()
        write(f"\n  {event.name}, {players} players, round 2 of {event.rounds} under way:")
        write(f"    organiser's page: {reverse('event_organise', args=[event.token])}")
        write(f"    results:          {reverse('event_results', args=[event.read_token])}")
        write(f"\n  {group.name}, {group.tables.count()} evenings and a payment:")
        write(f"    group's page:     {reverse('group', args=[group.token])}")
        organiser = reverse("group_organise", args=[group.token, group.organiser_token])
        write(f"    organiser's link: {organiser}")


@dataclass
class Dealer:
    """Deals hands from the game's deck and records them through the services."""

    rng: random.Random

    def table(self, index: int, game: scoring.Game) -> TableSession:
        seats = seating(index, game)
        unit = "stake" if "stake" in game.option_names else "chip"
        options = {unit: OPTIONS[unit]}
        parsed = scoring.parse_session(
            {"game": game.key, "seating": list(seats), "options": options}
        )
        hands = script(game, len(seats), parsed.options)
        if index == 0:
            hands = (*hands[:2], AGAIN, *hands[2:])
        if game.key == DEFAULT_TABLE_GAME:
            hands = (*hands[:-1], TYPO)
        session = services.session_create(
            game=game.key, options=options, seating=list(seats), first=seats[0]
        )
        self.play(session, hands)
        return session

    def event(self) -> Event:
        game = scoring.GAMES[EVENT_GAME]
        hands = script(game, SEATS, scoring.Options())
        event = event_services.event_create(
            name=EVENT,
            game=EVENT_GAME,
            options={},
            rounds=3,
            hands_per_round=len(hands),
            minutes_per_round=45,
            seed="demo",
        )
        for name in EVENT_PLAYERS:
            event_services.entry_add(event=event, name=name, organiser=True)
        for so_far in ((len(hands),) * len(ROUND_TWO_SO_FAR), ROUND_TWO_SO_FAR):
            played = event_services.round_begin(round=event_services.round_seat(event=event))
            seated = TableSession.objects.filter(round=played).order_by("table_number")
            for table, played_hands in zip(seated, so_far, strict=True):
                self.play(table, hands[:played_hands])
        return event

    def group(self) -> Group:
        """Three evenings of the usual table game: two of the same players (played again in
        one tap), one with a fifth regular; then the biggest debt paid in cash."""
        game = scoring.GAMES[DEFAULT_TABLE_GAME]
        group = group_services.group_create(
            name=GROUP, game=game.key, options={"stake": OPTIONS["stake"]}
        )
        plain = [PLAIN] * 6
        first = group_services.table_start(
            group=group, seating=list(GROUP_PLAYERS[:4]), first=GROUP_PLAYERS[0]
        )
        self.play(first, plain[:5])
        self.play(group_services.play_again(table=first), plain[:4])
        third = group_services.table_start(
            group=group, seating=list(GROUP_PLAYERS[1:]), first=GROUP_PLAYERS[1]
        )
        self.play(third, plain[:6])
        paid = group_selectors.ledger(group).settle_up()[0]
        group_services.payment_record(
            group=group, payer=paid.payer, payee=paid.payee, amount=paid.amount, note="cash"
        )
        return group

    def play(self, session: TableSession, kinds: Sequence[str]) -> None:
        device = f"{session.seating[0]}'s phone"
        last: dict[str, Any] = {}
        for kind in kinds:
            sheet = selectors.score_sheet(session, latest=True)
            number = sheet.next_number
            if kind == AGAIN:  # the last hand sent twice: the organiser voids the copy
                copy = services.hand_record(
                    session=session, number=number, data=last, device=device
                ).hand
                services.hand_void(
                    session=session, number=number, version=copy.version, device=device
                )
                continue
            deal = Deal(self.rng, session, sheet.next_first)
            data = deal.hand(kind)
            if kind == TYPO:
                typed = deal.swapped(data)
                saved = services.hand_record(
                    session=session, number=number, data=typed, device=device
                ).hand
                services.hand_correct(
                    session=session,
                    number=number,
                    data={**session.named(saved.data), "results": data["results"]},
                    version=saved.version,
                    device=device,
                )
                continue
            saved = services.hand_record(
                session=session, number=number, data=data, device=device
            ).hand
            last = session.named(saved.data)


class Deal:
    """One hand of ``session`` led by ``first``: the tiles dealt, and what a phone enters."""

    def __init__(self, rng: random.Random, session: TableSession, first: str) -> None:
        self.rng = rng
        self.game = scoring.GAMES[session.game]
        self.seating = session.seating
        self.first = first
        self.others = [name for name in self.seating if name != first]
        self.dealt = self.game.tiles_each(len(self.seating))
        deck = list(self.game.deck(len(self.seating)).all_tiles())
        self.rng.shuffle(deck)
        self.held = {
            name: deck[i * self.dealt : (i + 1) * self.dealt] for i, name in enumerate(self.seating)
        }

    def hand(self, kind: str) -> dict[str, Any]:
        if kind == HandEvent.REDEAL:
            return {HandEvent.REDEAL.value: self.rng.choice(self.seating)}
        if kind == HandEvent.DECLARED_DOUBLES:
            return self._declared_doubles(self.rng.choice(self.seating))
        if self.game.entry is Entry.FISH:
            return {"results": self._catches(tiles=kind == TILES)}
        blocked = kind == HandEvent.BLOCKED
        results: dict[str, dict[str, Any]] = {
            name: {"pips": _pips(self._discard(name, blocked))} for name in self.seating
        }
        if kind == TILES:
            for name in self.rng.sample(self.others, min(2, len(self.others))):
                results[name] = {"tiles": [str(tile) for tile in self._discard(name, fewest=1)]}
        elif kind == Special.PASS:  # played every tile, discarded none
            results[self.rng.choice(self.others)] = {"pips": 0, "specials": [kind]}
        elif kind in SPECIAL_RULES and (rule := SPECIAL_RULES[Special(kind)]).keeps is not None:
            # A head or a tail: never played again after the lead, or never at all.
            name = self.first if rule.seat is Seat.HEAD else self.rng.choice(self.others)
            results[name] = {"pips": _pips(self.held[name][rule.keeps :]), "specials": [kind]}
        elif kind == SUANZHANG_WINS:  # the creator went out first; everyone else discarded
            for name in self.seating:
                results[name] = {"pips": _pips(self._discard(name, fewest=1))}
            results[self.rng.choice(self.seating)] = {
                "pips": 0,
                "specials": [Special.SUANZHANG.value],
            }
        elif kind == SUANZHANG_LOSES:  # another player went out; the creator pays for all
            winner, creator = self.rng.sample(self.seating, 2)
            results[winner] = {"pips": 0}
            tiles = self._discard(creator, fewest=1)
            results[creator] = {"pips": _pips(tiles), "specials": [Special.SUANZHANG.value]}
        return {"results": results, **({HandEvent.BLOCKED.value: True} if blocked else {})}

    def swapped(self, data: dict[str, Any]) -> dict[str, Any]:
        """The hand with two scores typed into each other's fields (not the leader's: a
        score made of all the tiles dealt cannot be theirs)."""
        results = data["results"]
        fields = [field.key for field in self.game.entry.fields]
        one, other = sorted(
            self.others, key=lambda name: [results[name].get(key, 0) for key in fields]
        )[-2:]
        return {**data, "results": {**results, one: results[other], other: results[one]}}

    def _discard(self, name: str, blocked: bool = False, fewest: int = 0) -> list[Tile]:
        """Some of the tiles ``name`` was dealt: those discarded (blocked: those still held
        too). None at times, where only a pass scores 0; at most all but the one led."""
        if Special.PASS in self.game.specials:
            fewest = max(fewest, 1)
        most = self.dealt - 1 if name == self.first else self.dealt
        count = self.rng.randint(3, 5) if blocked else self.rng.choice((0, 1, 1, 2, 2, 3))
        return self.rng.sample(self.held[name], min(max(count, fewest), most))

    def _declared_doubles(self, holder: str) -> dict[str, Any]:
        """The holder was dealt 8 doubles; everyone else enters the pips of their 8 tiles."""
        deck = list(self.game.deck(len(self.seating)).all_tiles())
        doubles = [tile for tile in deck if tile.low == tile.high]
        for tile in self.rng.sample(doubles, self.dealt):
            deck.remove(tile)
        self.rng.shuffle(deck)
        others = [name for name in self.seating if name != holder]
        return {
            HandEvent.DECLARED_DOUBLES.value: holder,
            "results": {
                name: {"pips": _pips(deck[i * self.dealt : (i + 1) * self.dealt])}
                for i, name in enumerate(others)
            },
        }

    def _catches(self, *, tiles: bool) -> dict[str, Any]:
        """Fishing: each player catches pairs of tiles of equal pips from the game's deck, and
        enters them as tiles or as the numbers the game asks for."""
        pool: dict[int, list[Tile]] = defaultdict(list)
        for tile in self.game.deck(len(self.seating)).all_tiles():
            pool[tile.pips].append(tile)
        results: dict[str, dict[str, Any]] = {}
        for name in self.seating:
            caught: list[Tile] = []
            for _ in range(self.rng.randint(2, 4)):
                pips = self.rng.choice(sorted(p for p, tiles in pool.items() if len(tiles) >= 2))
                self.rng.shuffle(pool[pips])
                caught += [pool[pips].pop(), pool[pips].pop()]
            if tiles:
                results[name] = {"tiles": [str(tile) for tile in caught]}
            else:
                result = self.game.result_from_tiles(tuple(caught), frozenset())
                results[name] = {
                    field.key: getattr(result, field.key) for field in self.game.entry.fields
                }
        return results


def _pips(tiles: Sequence[Tile]) -> int:
    return sum(tile.pips for tile in tiles)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"
