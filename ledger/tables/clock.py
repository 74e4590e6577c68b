"""A table that ends by time (RULES.md, "Sessions"): the clock is the ledger's, not the engine's.

A table keeps when its time runs out (``TableSession.ends_at``); the first hand saved after
that is the hand during which it ran out, so the ledger marks it ``"last"`` and the engine
ends the session after it.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MOST_MINUTES = 24 * 60  # an evening, and then some


def zone(name: str) -> ZoneInfo:
    """The time zone ``name`` (as a phone's browser names it), or the server's."""
    return ZoneInfo(known_zone(name) or settings.TIME_ZONE)


def known_zone(name: str) -> str:
    """``name`` if it names a time zone, else ""."""
    try:
        return name if name and ZoneInfo(name) else ""
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return ""


def next_at(clock: time, where: ZoneInfo, now: datetime) -> datetime:
    """The next moment the clock in ``where`` shows ``clock``: today, or tomorrow if it has
    passed (23:30 typed at 23:45 is tomorrow; 01:00 typed at 22:00 is after midnight).

    >>> now = datetime(2026, 11, 25, 21, 0, tzinfo=ZoneInfo("Asia/Hong_Kong"))
    >>> next_at(time(23, 0), ZoneInfo("Asia/Hong_Kong"), now).isoformat()
    '2026-11-25T23:00:00+08:00'
    >>> next_at(time(1, 0), ZoneInfo("Asia/Hong_Kong"), now).isoformat()
    '2026-11-26T01:00:00+08:00'
    """
    local = now.astimezone(where)
    at = datetime.combine(local.date(), clock, tzinfo=where)
    return at if at > local else at + timedelta(days=1)


def time_up(ends_at: datetime | None, now: datetime | None = None) -> bool:
    """Whether a table's time has run out."""
    return ends_at is not None and (now or timezone.now()) >= ends_at


class TimeEnd(NamedTuple):
    """A table's time as its pages say it."""

    at: str  # the clock time it runs out, as the phone that set it shows it ("22:30")
    up: bool  # it has run out: the hand being played is the last


def time_end(ends_at: datetime | None, time_zone: str) -> TimeEnd | None:
    if ends_at is None:
        return None
    return TimeEnd(shown(ends_at, zone(time_zone)).strftime("%H:%M"), time_up(ends_at))


def marked_last(data: dict[str, Any], ends_at: datetime | None) -> dict[str, Any]:
    """A new hand as it is stored: marked the last if the table's time has run out while it
    was played. A redeal is not a hand played: the next dealt hand is the last."""
    if time_up(ends_at) and data.get("redeal") is None:
        return {**data, "last": True}
    return data


class TimeFields(forms.Form):
    """Where a table ends by time, as a form takes it: after ``minutes`` from now, or at the
    clock time ``until`` of the phone's ``time_zone`` (filled in by ledger.js)."""

    minutes = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=MOST_MINUTES,
        label=_("Minutes"),
        help_text=_("Over after the hand during which this many minutes pass; empty: no limit."),
    )
    until = forms.TimeField(
        required=False,
        label=_("Until"),
        help_text=_("Or over after the hand during which the clock reaches this time."),
    )
    time_zone = forms.CharField(required=False, max_length=64)

    def clean_time_zone(self) -> str:
        return known_zone(self.cleaned_data.get("time_zone") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("minutes") is not None and data.get("until") is not None:
            self.add_error(
                "until", _("Give the minutes or a clock time, not both: the game ends once.")
            )
        return data

    def ends_at(
        self, where: ZoneInfo | None = None, *, kept: datetime | None = None
    ) -> datetime | None:
        """When the time runs out, by the cleaned fields (``where``: the clock ``until`` is
        read on, by default the phone's); None for no time limit. ``kept``: the time already
        set, which stays as it is when the form sends back the clock time it showed."""
        data, now = self.cleaned_data, timezone.now()
        where = where or zone(data.get("time_zone", ""))
        if data.get("minutes") is not None:
            return now + timedelta(minutes=data["minutes"])
        if data.get("until") is None:
            return None
        if kept is not None and data["until"] == shown(kept, where):
            return kept
        return next_at(data["until"], where, now)


def shown(at: datetime, where: ZoneInfo) -> time:
    """The clock time a form shows for ``at`` (to the minute)."""
    return at.astimezone(where).time().replace(second=0, microsecond=0)
