"""A person in a circle, below the domains whose circles they are in: a lone table's
(ledger.tables), a tournament's (ledger.events) or a group's (ledger.groups). Those models
import this one and name each other only by string ("ledger.Group"), so no model imports
another domain's (the import-linter contracts in pyproject.toml). Also what their models share:
a new link's token and the field that holds a game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import models

from ledger.migrations._frozen.models_0001 import TOKEN_BYTES, new_token
from scoring import GAMES
from scoring.names import canonical

# ``new_token`` is a default that migrations name by its path, so it lives with their frozen
# code (ledger/migrations/_frozen/__init__.py); it is imported here for the models.
__all__ = ["NAME_LENGTH", "TOKEN_BYTES", "GameField", "Player", "game_titles", "new_token"]

NAME_LENGTH = 40


def game_titles() -> list[tuple[str, str]]:
    """The choices of a ``game`` field: the games registered when asked, so that a new game in
    ``scoring`` is offered at once."""
    return [(key, game.title) for key, game in GAMES.items()]


if TYPE_CHECKING:  # a CharField of str to django-stubs, whose fields are generic there only
    _CharField = models.CharField[str, str]
else:
    _CharField = models.CharField


class GameField(_CharField):
    """A game's key, offered as the games ``scoring`` registers (``game_titles``).

    Migrations record it as the plain ``CharField`` it is in the database: its choices touch
    no column, and a migration imports nothing of ``scoring`` (docs/development.md,
    "Migrations"), so a game registered later needs no migration and no migration names the
    registry.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 20)
        kwargs["choices"] = game_titles
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, _, args, kwargs = super().deconstruct()
        del kwargs["choices"]
        return name, "django.db.models.CharField", args, kwargs


class Player(models.Model):
    """A person, known by one name however it is typed, within one circle of people: a lone
    table's, a tournament's (its every round and table) or a group's (its every table). Two
    circles' Annas are two people; within one, "Anna", "anna" and "Ａｎｎａ" are one."""

    name = models.CharField(max_length=NAME_LENGTH, help_text="As first typed.")
    # scoring.names.canonical(name): "Anna", "anna" and "Ａｎｎａ" are one player. Kept by
    # save(); compared here, not by the database's own case folding, which differs between
    # SQLite and PostgreSQL and knows nothing of NFKC.
    key = models.CharField(max_length=255, editable=False)
    # The circle: exactly one of these.
    table = models.ForeignKey(
        "ledger.TableSession",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="players",
    )
    event = models.ForeignKey(
        "ledger.Event", null=True, blank=True, on_delete=models.CASCADE, related_name="players"
    )
    group = models.ForeignKey(
        "ledger.Group", null=True, blank=True, on_delete=models.CASCADE, related_name="players"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "key"],
                condition=models.Q(table__isnull=False),
                name="player_key_per_table",
            ),
            models.UniqueConstraint(
                fields=["event", "key"],
                condition=models.Q(event__isnull=False),
                name="player_key_per_event",
            ),
            models.UniqueConstraint(
                fields=["group", "key"],
                condition=models.Q(group__isnull=False),
                name="player_key_per_group",
            ),
            models.CheckConstraint(
                condition=models.Q(table__isnull=False, event__isnull=True, group__isnull=True)
                | models.Q(table__isnull=True, event__isnull=False, group__isnull=True)
                | models.Q(table__isnull=True, event__isnull=True, group__isnull=False),
                name="player_in_one_circle",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.key = canonical(self.name)
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "key"}
        super().save(*args, **kwargs)

    @classmethod
    def for_name(
        cls,
        name: str,
        *,
        table: models.Model | None = None,
        event: models.Model | None = None,
        group: models.Model | None = None,
    ) -> Player:
        """The player ``name`` names at a lone ``table``, in an ``event`` or in a ``group``,
        known there from now on if they were not."""
        player, _ = cls.objects.get_or_create(
            key=canonical(name), table=table, event=event, group=group, defaults={"name": name}
        )
        return player

    @classmethod
    def spellings(
        cls,
        names: list[str],
        *,
        event: models.Model | None = None,
        group: models.Model | None = None,
    ) -> dict[str, str]:
        """Each of ``names`` as the ``event`` or ``group`` knows it ("anna" -> "Anna"), or
        as given if new."""
        keys = {name: canonical(name) for name in names}
        known = cls.objects.filter(
            event=event, group=group, table=None, key__in=keys.values()
        ).values_list("key", "name")
        return {name: dict(known).get(key, name) for name, key in keys.items()}


class Claim(models.Model):
    """A phone said it is this player's ("I am Bob"): it names who saved, corrected or paid
    from it, and gives no right. A phone has one claim per circle (ledger.players.claims), kept
    in its Django session too; this row is how another phone choosing the same name is told
    that it is taken (two phones may be Bob's). ``phone`` is a random id the session holds, not
    the session's key, which a sign-in would change."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    phone = models.CharField(max_length=32)
    at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "phone"], name="claim_one_per_phone")
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.phone}"
