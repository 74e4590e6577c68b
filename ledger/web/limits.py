"""Counts that limit what one client may do, in the database every worker and server shares.

A count belongs to a scope (``guesses``, ``logins``, an API throttle's) and a client: the
address the request really came from (``client_address``), or an account. Its window starts
with its first hit and lasts ``window`` seconds. docs/operations.md, "Limits".

Two workers that count the same client at once must both be counted (the limit allows
exactly its number: tests/faults/test_limits_across_workers.py), and a hit must not move the
window's end. Django's cache does neither: its ``incr`` is a ``get`` then a ``set``, so two
workers that read 4 both write 5, and the ``set`` restarts the expiry. So a count is a row
(``LimitCount``), and a hit adds to it in a transaction that holds the row's lock
(``select_for_update``; on SQLite the transaction's own write lock) until the count it
returns is read: each hit sees its own count, none lost, none seen twice.

Most hits only ask whether the client is still under its limit (``allow``): that is one
``UPDATE`` that adds the hit to a live count still short of the limit, each at its row's lock,
and the transaction above only when it finds none (a new window, or a spent one).
"""

from __future__ import annotations

import functools
import ipaddress
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest
from django.utils import timezone

from ledger.web.models import LimitCount

GUESSES = "guesses"  # links of any kind that match nothing (ledger/web/middleware.py)
LOGINS = "logins"  # sign-in attempts: the admin's and the API's auth/token/
LOGIN_WINDOW = 600  # seconds

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.lru_cache(maxsize=8)
def _networks(proxies: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(proxy) for proxy in proxies)


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return any(ip in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def client_address(request: HttpRequest) -> str:
    """The address the request came from, as far as anyone we trust can tell.

    ``REMOTE_ADDR``, unless that is one of ``settings.TRUSTED_PROXIES`` (nginx): then
    X-Forwarded-For, read from the right, past the trusted proxies, to the first address that
    is not one. Each proxy appends the address it was sent from, so that one is real; anything
    further left came from the client and proves nothing.
    """
    address = str(request.META.get("REMOTE_ADDR", ""))
    if not settings.TRUSTED_PROXIES or not _trusted(address):
        return address
    for hop in reversed(request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")):
        try:
            address = str(ipaddress.ip_address(hop.strip()))
        except ValueError:
            break  # no address, so no proxy of ours wrote it: count the one that sent it on
        if not _trusted(address):
            break
    return address


WRITES = "writes"  # the API's write throttle's scope, which the web forms count in too
_PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """A DRF rate ("120/min") as (requests, seconds).

    >>> parse_rate("120/min"), parse_rate("5/s")
    ((120, 60), (5, 1))
    """
    count, period = rate.split("/")
    return int(count), _PERIODS[period[0]]


def hit(scope: str, client: str, window: int, cost: int = 1) -> int:
    """Count one more hit (``cost``: as many as a request costs); return the count so far in
    the window, this one included."""
    now = timezone.now()
    with transaction.atomic():
        count, began = LimitCount.objects.select_for_update().get_or_create(
            scope=scope,
            client=client,
            defaults={"hits": cost, "ends": now + timedelta(seconds=window)},
        )
        if not began:
            if count.ends <= now:  # its window has passed: this hit begins the next
                count.hits, count.ends = cost, now + timedelta(seconds=window)
            else:
                count.hits += cost
            count.save(update_fields=["hits", "ends"])
    if began:
        # A client not counted before: the table keeps no count whose window has passed.
        LimitCount.objects.filter(ends__lte=now).delete()
    return count.hits


def allow(scope: str, client: str, window: int, most: int, cost: int = 1) -> bool:
    """Count one more hit (``cost``, as ``hit``) and say whether the count is still within
    ``most``. Under the limit, the hit is counted in one statement: the update takes the row's
    lock and checks the count again under it, so two workers cannot both take the last hit."""
    live = LimitCount.objects.filter(
        scope=scope, client=client, ends__gt=timezone.now(), hits__lte=most - cost
    )
    if live.update(hits=F("hits") + cost):
        return True
    return hit(scope, client, window, cost) <= most


def _live(scope: str, client: str) -> LimitCount | None:
    return LimitCount.objects.filter(scope=scope, client=client, ends__gt=timezone.now()).first()


def count(scope: str, client: str) -> int:
    """The count so far in the window (0 if none)."""
    live = _live(scope, client)
    return 0 if live is None else live.hits


def wait(scope: str, client: str, window: int) -> float:
    """Seconds until the count's window ends (the whole window if there is none)."""
    live = _live(scope, client)
    if live is None:
        return float(window)
    return max(0.0, (live.ends - timezone.now()).total_seconds())


# The mark is an attribute that HttpRequest does not declare, so it is set and read by name.
_WRONG_LINK = "wrong_link"


def mark_wrong_link(request: HttpRequest) -> None:
    """The request's link, or an organiser token it sent, matched nothing: the guess limit
    counts it."""
    setattr(request, _WRONG_LINK, True)


def is_wrong_link(request: HttpRequest) -> bool:
    return bool(getattr(request, _WRONG_LINK, False))
