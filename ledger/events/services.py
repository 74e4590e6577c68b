"""Every write to a tournament: create, register (one by one or a group's players), drop, seat,
swap and begin rounds, and undo.

Called by the htmx views and the API alike; each is one transaction. Seating a round, a swap
and a drop can be undone, latest first, until a round begins (``event_undo``): each pushes on
``Event.undo`` what undoing it needs, under the event's row lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from ledger import changes
from ledger.events import seating, selectors
from ledger.models import (
    NAME_LENGTH,
    Entry,
    Event,
    Group,
    Hand,
    Player,
    Round,
    Seat,
    TableSession,
    default_tie_breakers,
)
from ledger.tables import services as table_services
from scoring import names

MAX_ROUNDS = 50


EVENT_NAME_LENGTH = 80


class Refused(ValueError):
    """A tournament change that cannot be made; the message says why."""


class RoundStarted(Exception):
    """The round has begun: its seating can no longer change."""


def event_create(
    *,
    name: str,
    game: str,
    options: dict[str, Any],
    rounds: int,
    method: str = Event.Method.MIXING,
    hands_per_round: int | None = None,
    minutes_per_round: int | None = None,
    seed: str = "",
    tie_breakers: list[str] | None = None,
    owner: User | None = None,
) -> Event:
    """Set up a tournament. Raises ScoringError for a game or options the engine refuses and
    ValueError for the rest."""
    if not name.strip():
        raise Refused("the event needs a name")
    # Shown on every page of the event and the projector: held to the rule of players' names
    # (no control, invisible or direction-changing characters).
    names.check(name.strip(), "name", EVENT_NAME_LENGTH)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise Refused(f"rounds: 1 to {MAX_ROUNDS}")
    if method not in Event.Method.values:
        raise Refused(f"method: {' or '.join(Event.Method.values)}")
    if game not in scoring.GAMES:
        raise scoring.ScoringError("no such game: {game}", "game", game=repr(game))
    ties = default_tie_breakers() if tie_breakers is None else tie_breakers
    if not set(ties) <= set(default_tie_breakers()) or len(set(ties)) != len(ties):
        raise Refused(f"tie-breakers: each once, of {', '.join(default_tie_breakers())}")
    # The engine checks the options, on the smallest table the game allows.
    seating = [f"P{i}" for i in range(scoring.GAMES[game].player_counts[0])]
    scoring.parse_session({"game": game, "options": options, "seating": seating})
    event = Event.objects.create(
        name=name.strip(),
        game=game,
        options=options,
        rounds=rounds,
        method=method,
        hands_per_round=hands_per_round,
        minutes_per_round=minutes_per_round,
        owner=owner,
        tie_breakers=ties,
        **({"seed": seed} if seed else {}),
    )
    changes.stored_on_commit(Event)
    return event


def entry_add(*, event: Event, name: str, organiser: bool) -> Entry:
    """Register ``name`` (a late arrival too: seated from the next round). A player who had
    dropped out is back only when the ``organiser`` says so, not through the public
    registration link. Raises ScoringError for a name that cannot be a player's."""
    name = names.tidy(name)
    names.check(name, "name", NAME_LENGTH)
    with transaction.atomic():
        changes.stored_on_commit(Event)
        player = Player.for_name(name, event=event)
        entry, created = Entry.objects.get_or_create(event=event, player=player)
        if not created and entry.active:
            return entry  # registered already: nothing changes
        if not created:
            if not organiser:
                message = _("{name} has left this event: only its organiser can bring them back")
                raise Refused(message.format(name=entry.player.name))
            entry.active = True
            entry.save(update_fields=["active"])
        _changed(event)
    return entry


@dataclass(frozen=True)
class GroupRegistered:
    """What registering a group's players did: who was added, and who was already registered
    (a player who had dropped out among them), each as the event knows them."""

    added: tuple[str, ...]
    already: tuple[str, ...]


def group_register(*, event: Event, group: Group) -> GroupRegistered:
    """Register every player of ``group`` in ``event``, by name, in one step: the event gets its
    own players of the same names (its circle is its own, as a lone table's is). Names already
    registered are left as they are; a player who had dropped out stays out (the organiser
    brings them back by name, ``entry_add``). Like ``entry_add``, nothing is recorded for
    ``event_undo``: a registration is taken back by dropping the player.

    All or nothing: raises Refused for a group with no players and ScoringError for a name
    that cannot be a player's, and then registers nobody."""
    with transaction.atomic():
        changes.stored_on_commit(Event)
        event = _locked(event.pk)
        wanted = [names.tidy(name) for name in group.players.values_list("name", flat=True)]
        if not wanted:
            message = _("{group} has no players yet: there is nobody to register.")
            raise Refused(message.format(group=group.name))
        added: list[str] = []
        already: list[str] = []
        for name in wanted:
            names.check(name, "name", NAME_LENGTH)
            player = Player.for_name(name, event=event)
            created = Entry.objects.get_or_create(event=event, player=player)[1]
            (added if created else already).append(player.name)
        if added:
            _changed(event)
    return GroupRegistered(tuple(added), tuple(already))


def entry_drop(*, event: Event, name: str) -> None:
    """``name`` leaves the event: not seated in later rounds; their results stay. Dropping
    someone who is not playing in it changes nothing (and leaves nothing to undo)."""
    with transaction.atomic():
        changes.stored_on_commit(Event)
        event = _locked(event.pk)
        entry = (
            Entry.objects.select_for_update()
            .filter(event=event, player__key=names.canonical(name), active=True)
            .select_related("player")
            .first()
        )
        if entry is None:
            return
        entry.active = False
        entry.save(update_fields=["active"])
        _push(event, {"kind": "drop", "entry": entry.pk, "name": entry.player.name})
        _changed(event)


def seat_refusal(event: Event, rounds: list[Round]) -> Exception | None:
    """Why the next round cannot be seated after ``rounds`` (the event's, in order), or None."""
    if rounds and rounds[-1].started is None:
        return RoundStarted("the last round has not begun yet")
    if len(rounds) >= event.rounds:
        return Refused(f"the event has {event.rounds} rounds")
    return None


def round_seat(*, event: Event) -> Round:
    """Seat the next round: its tables (table sessions of the event's game) and its byes.

    The seating may still change (``round_swap``) until ``round_begin``.
    """
    with transaction.atomic():
        changes.stored_on_commit(Event)
        event = _locked(event.pk)
        previous = list(event.round_set.all())
        if refusal := seat_refusal(event, previous):
            raise refusal
        number = len(previous) + 1
        history = selectors.event_history(event)
        players = list(
            event.entries.filter(active=True).order_by("pk").values_list("player__name", flat=True)
        )
        method = seating.Method(event.method) if number > 1 else seating.Method.RANDOM
        ranked = selectors.standings(event).rows if method is seating.Method.STANDINGS else []
        plan = seating.seat_round(
            players,
            allowed=scoring.GAMES[event.game].player_counts,
            method=method,
            seed=event.seed,
            round_number=number,
            standings=[row.name for row in ranked],
            met=history.met,
            led=history.led,
            byes_had=history.byes,
        )
        this_round = Round.objects.create(
            event=event, number=number, method=method, byes=list(plan.byes)
        )
        for table_number, names in enumerate(plan.tables, start=1):
            table_services.session_create(
                game=event.game,
                options=event.options,
                seating=list(names),
                first=names[0],
                round=this_round,
                table_number=table_number,
            )
        _push(event, {"kind": "seat", "round": number})
        _changed(event)
    return this_round


def round_swap(*, round: Round, first: str, second: str) -> None:
    """Swap two players' places (a seat, or a bye) before the round begins.

    One of them may be a registered player who is not in the round (a substitute, or a late
    arrival): they take the other's place, and the other sits this round out.
    """
    with transaction.atomic():
        changes.stored_on_commit(Event)
        event = _locked(round.event_id)
        current = Round.objects.select_for_update().get(pk=round.pk)
        if current.started is not None:
            raise RoundStarted("the round has begun: its seating can no longer change")
        byes_before = list(current.byes)
        seats = {
            seat.player.key: seat
            for seat in Seat.objects.filter(session__round=current).select_related(
                "player", "session"
            )
        }
        players_before = {seat.pk: seat.player_id for seat in seats.values()}
        byes = {names.canonical(name): i for i, name in enumerate(current.byes)}
        keys = [names.canonical(name) for name in (first, second)]
        places = [seats.get(key, byes.get(key)) for key in keys]
        changed: list[Seat] = []  # seats that now hold someone else
        if places.count(None) == 1:
            outside = (first, second)[places.index(None)]
            player = Player.objects.filter(
                event_id=current.event_id,
                entries__event_id=current.event_id,
                entries__active=True,
                key=names.canonical(outside),
            ).first()
            if player is None:
                raise Refused(f"{outside} is not registered in this event")
            place = next(p for p in places if p is not None)
            if isinstance(place, Seat):
                place.player = player
                changed.append(place)
            else:
                current.byes[place] = player.name
                current.save(update_fields=["byes"])
            places = []
        elif None in places:
            raise Refused("at least one of the two must be seated or have a bye this round")
        a, b = places or (None, None)
        seat = next((place for place in (a, b) if isinstance(place, Seat)), None)
        index = next((place for place in (a, b) if isinstance(place, int)), None)
        if isinstance(a, Seat) and isinstance(b, Seat):
            if a.session_id != b.session_id:
                a.player, b.player = b.player, a.player
                changed += [a, b]
        elif seat is not None and index is not None:  # one seated, one with a bye
            name = current.byes[index]
            current.byes[index] = seat.player.name
            seat.player = Player.objects.get(event=event, key=names.canonical(name))
            changed.append(seat)
            current.save(update_fields=["byes"])
        if not changed and current.byes == byes_before:
            return  # two players at one table: their places are the table's order, kept
        _push(
            event,
            {
                "kind": "swap",
                "round": current.number,
                "names": list(Player.spellings([first, second], event=event).values()),
                "seats": [[seat.pk, players_before[seat.pk]] for seat in changed],
                "byes": byes_before,
            },
        )
        _reseat(changed, current)
        _changed(event)


def _reseat(changed: list[Seat], round: Round) -> None:
    """Save seats that now hold someone else, and what follows from that at their tables;
    refused at a table with hands recorded, which name the players who played them."""
    if Hand.objects.filter(session__in={seat.session_id for seat in changed}).exists():
        message = _("A table of round {n} has hands recorded: its seating stays.")
        raise Refused(message.format(n=round.number))
    for seat in changed:
        seat.save(update_fields=["player"])
        if seat.position == 0:  # seat 0 leads the first hand
            TableSession.objects.filter(pk=seat.session_id).update(leader=seat.player)
        table_services.table_changed(
            seat.session
        )  # its seating changed: what was scored of it is out of date


def round_begin(*, round: Round) -> Round:
    """The round's clock starts (with the event's time limit, if it has one). From now on
    nothing done before it can be undone."""
    with transaction.atomic():
        changes.stored_on_commit(Event)
        event = _locked(round.event_id)
        current = Round.objects.select_for_update().select_related("event").get(pk=round.pk)
        if current.started is None:
            current.started = timezone.now()
            minutes = current.event.minutes_per_round
            current.ends = current.started + timedelta(minutes=minutes) if minutes else None
            current.save(update_fields=["started", "ends"])
            # Each table's last hand is the one during which the round's time runs out.
            TableSession.objects.filter(round=current).update(ends_at=current.ends)
            event.undo = []
            event.save(update_fields=["undo"])
            _changed(event)
    return current


def event_undo(*, event: Event, steps: int | None = None) -> dict[str, Any]:
    """Undo the organiser's latest change that can still be undone, and return it (as
    ``Event.undo`` holds it): a round seated is unseated, a swap swapped back, a drop taken
    back. ``steps``, if given, is how many changes the organiser saw to undo: if another
    device has since undone or made one, nothing is done.

    Raises Refused when there is nothing to undo (a round has begun since), and RoundStarted
    for a round that has begun all the same.
    """
    with transaction.atomic():
        changes.stored_on_commit(Event)
        event = _locked(event.pk)
        if not event.undo:
            raise Refused(_("Nothing to undo: what was done before a round began stays."))
        if steps is not None and steps != len(event.undo):
            raise Refused(_("Another change was made or undone meanwhile: look again."))
        step = event.undo[-1]
        if step["kind"] == "drop":
            Entry.objects.filter(pk=step["entry"]).update(active=True)
        else:
            _undo_seating(event, step)
        event.undo = event.undo[:-1]
        event.save(update_fields=["undo"])
        _changed(event)
    return dict(step)


def _undo_seating(event: Event, step: dict[str, Any]) -> None:
    """Unseat a round, or put a swap's seats and byes back as they were (under the lock)."""
    current = Round.objects.select_for_update().get(event=event, number=step["round"])
    if current.started is not None:
        message = _("Round {n} has begun: its seating can no longer be undone.")
        raise RoundStarted(message.format(n=current.number))
    if step["kind"] == "seat":
        if Hand.objects.filter(session__round=current).exists():
            message = _("A table of round {n} has hands recorded: its seating stays.")
            raise Refused(message.format(n=current.number))
        current.delete()  # its tables, their seats
        return
    before = dict(step["seats"])
    seats = list(
        Seat.objects.filter(pk__in=before).select_related("session").order_by("session_id", "pk")
    )
    players = Player.objects.in_bulk(before.values())
    for seat in seats:
        seat.player = players[before[seat.pk]]
    current.byes = step["byes"]
    current.save(update_fields=["byes"])
    _reseat(seats, current)


def _changed(event: Event) -> None:
    """The organiser changed what the event's pages show: its revision rises (their mark has
    it), and the pages holding its stream hear of it when the transaction commits."""
    Event.objects.filter(pk=event.pk).update(revision=F("revision") + 1)
    changes.on_commit(changes.event_changed, Event, event=event.pk)


def _locked(pk: int) -> Event:
    """The event, its row locked until the transaction ends: its changes one at a time."""
    return Event.objects.select_for_update().get(pk=pk)


def _push(event: Event, step: dict[str, Any]) -> None:
    """Keep what undoing a change needs (``event`` is locked)."""
    event.undo = [*event.undo, step]
    event.save(update_fields=["undo"])


def why_event_kept(event: Event) -> str | None:
    """Why the tournament cannot be deleted, if it cannot: a table of its rounds has hands."""
    if Hand.objects.filter(session__round__event=event).exists():
        message = _("{event} has tables with hands recorded: it is kept, with its standings.")
        return message.format(event=event)
    return None


def event_delete(*, event: Event) -> None:
    """Delete a tournament none of whose tables has hands (its rounds, tables and players go
    with it); any other raises ledger.tables.services.Kept."""
    with transaction.atomic():
        changes.stored_on_commit(Event)
        current = _locked(event.pk)
        if refused := why_event_kept(current):
            raise table_services.Kept(refused)
        current.delete()
