"""Every write to a group: typed, keyword-only, one transaction each.

A group's tables are ordinary tables (``ledger.tables.services``) that seat the group's players;
its payments move the players' balances and are never deleted, only voided.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext as _

import scoring
from ledger import changes
from ledger.amounts import readable_amount
from ledger.groups import selectors
from ledger.groups.models import Group, GroupChange, Payment, PaymentVoid
from ledger.players.models import Player
from ledger.tables import services as table_services
from ledger.tables.models import Hand, TableSession
from scoring import names
from scoring.options import AMOUNT

GROUP_NAME_LENGTH = 80


class Refused(ValueError):
    """What a group cannot take, said in the reader's language; ``field`` names what is wrong."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message, self.field = message, field


class AlreadyVoided(Refused):
    """The payment was voided before: a conflict with what is stored (409), as a hand's."""


class KeyReused(Exception):
    """The idempotency key was used for a different payment; ``payment`` is what it recorded."""

    def __init__(self, payment: Payment) -> None:
        super().__init__("this idempotency key was already used for a different payment")
        self.payment = payment


def group_create(*, name: str, game: str, options: dict[str, Any]) -> Group:
    """Start a group with a name, its usual game and options. Raises Refused for the name and
    ScoringError for a game or options the engine refuses."""
    name = names.tidy(name)
    if not name:
        raise Refused(_("The group needs a name."), "name")
    names.check(name, "name", GROUP_NAME_LENGTH)  # shown on its every page, as a player's name
    # The engine checks the game and options, on the smallest table the game allows.
    game_rules = scoring.get_game(game)
    seating = [f"P{i}" for i in range(game_rules.player_counts[0])]
    document = {"game": game, "options": options, "seating": seating, "first": seating[0]}
    scoring.score_session(scoring.parse_session(document))
    # Its stake or chip it plays for at every game; the rest are its usual game's rules.
    plays_for = {key: options[key] for key in selectors.PLAYS_FOR if key in options}
    rules = {key: value for key, value in options.items() if key not in selectors.PLAYS_FOR}
    group = Group.objects.create(name=name, game=game, options=rules, plays_for=plays_for)
    changes.stored_on_commit(Group)
    return group


class SettingsRefused(Exception):
    """What the engine refuses of a group's settings: ``field`` is the form's field that holds
    it (``stake``, ``chip``, a game's key for its own), ``error`` what the engine said."""

    def __init__(self, field: str, error: scoring.ScoringError) -> None:
        super().__init__(str(error))
        self.field, self.error = field, error


def settings_of(group: Group) -> dict[str, Any]:
    """What the group's settings page changes, as a change records it."""
    return {
        "name": group.name,
        "game": group.game,
        "options": group.options,
        "plays_for": group.plays_for,
    }


def check_settings(group: Group) -> None:
    """Every game's new table under ``group``'s settings (unsaved) as the engine reads it: the
    first refused raises SettingsRefused, naming the field that holds what was refused."""
    games = group.plays_for.get("games", {})
    for game in scoring.GAMES:
        options = selectors.table_options(group, game)
        key = "chip" if "chip" in options else "stake"
        seating = [f"P{i}" for i in range(scoring.GAMES[game].player_counts[0])]
        document = {"game": game, "options": options, "seating": seating, "first": seating[0]}
        try:
            scoring.parse_session(document)
        except scoring.ScoringError as error:
            raise SettingsRefused(game if key in games.get(game, {}) else key, error) from error


def group_settle(*, group: Group, settings: dict[str, Any], device: str = "") -> GroupChange | None:
    """The organiser changes the group's name, usual game and rules and what it plays for
    (``settings``, as ``settings_of`` gives them): recorded with what they were, who changed
    them and when, and told to the group's pages. None when nothing changed. Raises Refused
    for an empty name, ScoringError for one the engine's text rules refuse, SettingsRefused
    for what the engine refuses of the rest; nothing is stored then."""
    name = names.tidy(settings["name"])
    if not name:
        raise Refused(_("The group needs a name."), "name")
    names.check(name, "name", GROUP_NAME_LENGTH)
    after = {**settings, "name": name}
    check_settings(Group(**after))
    with transaction.atomic():
        changes.stored_on_commit(Group)
        current = Group.objects.select_for_update().get(pk=group.pk)
        before = settings_of(current)
        if before == after:
            return None
        Group.objects.filter(pk=group.pk).update(**after)
        change = GroupChange.objects.create(
            group=current, before=before, after=after, device=device
        )
        _changed(group.pk)
    return change


def table_start(
    *,
    group: Group,
    seating: list[str],
    first: str,
    game: str | None = None,
    options: dict[str, Any] | None = None,
    paid: str = "",
    owner: User | None = None,
    ends_at: datetime | None = None,
    time_zone: str = "",
    idempotency_key: str = "",
    sender: str = "",
    asked: object = None,
) -> TableSession:
    """Start a table of the group: its players (new names join the group), its usual game and
    rules unless others are given (another game than its usual is played by that game's usual
    rules), for what the group plays for at that game, or ``paid`` (selectors.table_options).
    The group's page and the API start its tables here; once per ``idempotency_key`` of its
    ``sender``, as ``session_create`` says (``asked``: what the send asked for)."""
    game = game or group.game
    return table_services.session_create(
        game=game,
        options=selectors.table_options(group, game, options, paid),
        seating=seating,
        first=first,
        group=group,
        owner=owner,
        ends_at=ends_at,
        time_zone=time_zone,
        idempotency_key=idempotency_key,
        sender=sender,
        asked=asked,
    )


def play_again(
    *, table: TableSession, draw: bool = False, idempotency_key: str = "", sender: str = ""
) -> TableSession:
    """A new table of the same group with the same players, game and options: in the seats
    they had, led by who led before; or, with ``draw``, seats and leader drawn anew. Once per
    ``idempotency_key`` of its ``sender``: the seats drawn or not, a send of theirs with it
    again gets the table the first started."""
    if table.group is None:
        raise Refused(_("Only a group's table can be played again from its group."))
    seating = table.seating
    first = table.first
    if draw:
        seating = secrets.SystemRandom().sample(seating, len(seating))
        first = secrets.choice(seating)
    return table_start(
        group=table.group,
        seating=seating,
        first=first,
        game=table.game,
        options=table.options,
        idempotency_key=idempotency_key,
        sender=sender,
        asked={"again": table.pk},
    )


def group_from_table(*, table: TableSession, name: str) -> Group:
    """A new group of the lone ``table``'s players, its game and options the table's, and the
    table its first table: the table's own players become the group's (the same rows, so its
    hands and result rows, which name them, count in the group's ledger once and unchanged).
    Raises NotLone for a tournament's, a group's or a locked table (a second send after the
    first attached it too), Refused for the name."""
    with transaction.atomic():
        changes.stored_on_commit(Group)
        table = TableSession.objects.select_for_update().get(pk=table.pk)
        table_services.check_lone(table)
        group = group_create(name=name, game=table.game, options=table.options)
        Player.objects.filter(table=table).update(table=None, group=group)
        TableSession.objects.filter(pk=table.pk).update(group=group)
    return group


class Recorded(NamedTuple):
    payment: Payment
    replayed: bool = False  # a retry: recorded by an earlier submission


def payment_record(
    *,
    group: Group,
    payer: str,
    payee: str,
    amount: Decimal | str | int,
    unit: str = Payment.Unit.MONEY,
    chip: Decimal | str | int | None = None,
    note: str = "",
    device: str = "",
    idempotency_key: str = "",
) -> Recorded:
    """Record that ``payer`` paid ``payee`` ``amount``, exactly once: a retry with the same
    ``idempotency_key`` returns the first record and records nothing; the same key with another
    payment raises KeyReused. A payment in chips is whole chips, each worth ``chip``, or where
    the payment leaves it out, the one value a chip has in the group (``_chip``). Raises Refused
    for anything that cannot be, and ScoringError for a note or device that a name could not be
    (invisible or control characters)."""
    kept_note, kept_device = _plain(note, "note", 80), _plain(device, "device", 40)
    found = _players(group, {"from": payer, "to": payee})
    value = _amount(amount)
    if unit not in Payment.Unit.values:
        raise Refused(_("A payment is in money or in chips."), "unit")
    given = None if chip is None or str(chip).strip() == "" else chip
    worth = _chip(group, unit, value, given)
    if found["from"] == found["to"]:
        raise Refused(_("A payment is between two players."), "to")
    request = [found["from"].pk, found["to"].pk, str(value), unit, note]
    if given is not None:  # a payment sent before chips had a value hashes as it did
        request.append(str(worth))
    request_hash = hashlib.sha256(json.dumps(request).encode()).hexdigest()
    try:
        with transaction.atomic():
            changes.stored_on_commit(Payment)
            if replay := _replay(group, idempotency_key, request_hash):
                return replay
            made = Payment.objects.create(
                group=group,
                payer=found["from"],
                payee=found["to"],
                amount=value,
                unit=unit,
                chip=worth,
                note=kept_note,
                device=kept_device,
                idempotency_key=idempotency_key,
                request_hash=request_hash if idempotency_key else "",
            )
            _changed(group.pk)
    except IntegrityError:  # another phone's retry of the same payment committed first
        if replay := _replay(group, idempotency_key, request_hash):
            return replay
        raise
    return Recorded(made)


def _plain(text: str, field: str, limit: int) -> str:
    """``text`` as a payment keeps it, shown to every player: tidied, and checked as a name is
    (``scoring.names.check``: no direction overrides or zero-width characters), unless empty."""
    text = names.tidy(text)[:limit]
    if text:
        names.check(text, field, limit)
    return text


def _replay(group: Group, key: str, request_hash: str) -> Recorded | None:
    if not key:
        return None
    earlier = group.payments.filter(idempotency_key=key).first()
    if earlier is None:
        return None
    if earlier.request_hash != request_hash:
        raise KeyReused(earlier)
    changes.stored_on_commit(Payment)  # what was asked is stored: a send again says so
    return Recorded(earlier, replayed=True)


def _players(group: Group, wanted: dict[str, str]) -> dict[str, Player]:
    keys = {field: names.canonical(names.tidy(name)) for field, name in wanted.items()}
    known = {p.key: p for p in Player.objects.filter(group=group, key__in=keys.values())}
    for field, key in keys.items():
        if key not in known:
            message = _("{name} does not play in this group.").format(name=wanted[field])
            raise Refused(message, field)
    return {field: known[key] for field, key in keys.items()}


def _amount(amount: Decimal | str | int) -> Decimal:
    try:
        value = Decimal(str(amount).strip())
    except InvalidOperation:
        value = Decimal("NaN")
    exponent = value.as_tuple().exponent if value.is_finite() else 0
    places = -exponent if isinstance(exponent, int) else 0
    if not value.is_finite() or not 0 < value <= AMOUNT.most or places > AMOUNT.places:
        raise Refused(
            _(
                "An amount is more than 0, at most {most}, with at most {places} decimal places."
            ).format(most=AMOUNT.most, places=AMOUNT.places),
            "amount",
        )
    return value


def _chip(
    group: Group, unit: str, amount: Decimal, given: Decimal | str | int | None
) -> Decimal | None:
    """What one chip of a payment is worth (None for money): as ``given``, or the one value a
    chip has at the group's chip tables and its usual game. A payment in chips is whole chips."""
    if unit != Payment.Unit.CHIPS:
        if given is not None:
            raise Refused(_("Only a payment in chips has a chip's value."), "chip")
        return None
    if amount != amount.to_integral_value():
        raise Refused(
            _("A payment in chips is a whole number of chips, not {amount}.").format(
                amount=amount.normalize()
            ),
            "amount",
        )
    if given is not None:
        try:
            return _amount(given)
        except Refused as refused:
            raise Refused(refused.message, "chip") from None
    values = selectors.chip_values(group)
    if len(values) == 1:
        return values[0]
    if not values:
        raise Refused(
            _("No table of this group pays chips: give what a chip is worth, or pay in money."),
            "chip",
        )
    raise Refused(
        _("A chip of this group is worth {values}: say which these chips are.").format(
            values=" / ".join(str(readable_amount(value)) for value in values)
        ),
        "chip",
    )


def payment_void(*, payment: Payment, device: str = "", reason: str = "") -> Payment:
    """Void a payment: it stays on record as it was, moves no balance from now on, and a row
    says who voided it (``device``), when and why (``reason``)."""
    device, reason = _plain(device, "device", 40), _plain(reason, "reason", 80)
    with transaction.atomic():
        changes.stored_on_commit(Payment)
        current = Payment.objects.select_for_update().get(pk=payment.pk)
        if PaymentVoid.objects.filter(payment=current).exists():
            raise AlreadyVoided(_("This payment was already voided."))
        PaymentVoid.objects.create(payment=current, device=device, reason=reason)
        _changed(current.group_id)
    return Payment.objects.select_related("void").get(pk=current.pk)


def _changed(group: int) -> None:
    """The group's page shows something new that no table's revision carries (a payment): its
    revision rises (the page's mark has it), and the pages holding its stream hear of it when
    the transaction commits."""
    Group.objects.filter(pk=group).update(revision=F("revision") + 1)
    changes.on_commit(changes.group_changed, Group, group=group)


def why_group_kept(group: Group) -> str | None:
    """Why the group cannot be deleted, if it cannot: it has payments (voided ones too) or a
    table with hands."""
    if group.payments.exists() or Hand.objects.filter(session__group=group).exists():
        message = _("{group} has payments or hands recorded: it is kept, with its ledger.")
        return message.format(group=group)
    return None


def evening_close(*, tables: list[TableSession]) -> list[TableSession]:
    """Close an evening: each of its ``tables`` still open is locked (no more hands, corrections
    or voids; its organiser can open it again). Returns those it locked."""
    locked = [table for table in tables if not table.locked]
    for table in locked:
        table_services.table_lock(session=table, locked=True)
    return locked


def group_delete(*, group: Group) -> None:
    """Delete a group with no payments and no hands at its tables (its players and empty
    tables go with it); any other raises ledger.tables.services.Kept."""
    with transaction.atomic():
        changes.stored_on_commit(Group)
        current = Group.objects.select_for_update().get(pk=group.pk)
        if refused := why_group_kept(current):
            raise table_services.Kept(refused)
        current.delete()
