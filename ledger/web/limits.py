"""Counts that limit what one client may do, in a store every worker and server shares.

A count belongs to a scope (``guesses``, ``logins``, an API throttle's) and a client: the
address the request really came from (``client_address``), or an account. Its window starts
with its first hit and lasts ``window`` seconds. Counts live in Django's default cache, which
settings.py makes a shared one (the database, or Redis with ``CACHE_URL``), so the hits that
two workers, or two servers, serve add up to one count. docs/operations.md, "Limits".
"""

from __future__ import annotations

import functools
import ipaddress
import time

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

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


def _key(scope: str, client: str) -> str:
    return f"{scope}:{client}"


def hit(scope: str, client: str, window: int, cost: int = 1) -> int:
    """Count one more hit (``cost``: as many as a request costs); return the count so far in
    the window, this one included."""
    key = _key(scope, client)
    try:
        count = int(cache.incr(key, cost))
    except ValueError:  # no count yet, or its window has passed
        if cache.add(key, 0, window):  # else another worker began the window first
            cache.set(f"{key}:since", time.time(), window)
        count = int(cache.incr(key, cost))
    if count == cost:
        # This hit began the window: make sure the window ends. Redis's INCR on a key that
        # expired just after Django checked it exists makes a new one that never expires.
        cache.touch(key, window)
    return count


def count(scope: str, client: str) -> int:
    """The count so far in the window (0 if none)."""
    return int(cache.get(_key(scope, client), 0))


def wait(scope: str, client: str, window: int) -> float:
    """Seconds until the count's window ends (the whole window if that is not known)."""
    since = cache.get(f"{_key(scope, client)}:since")
    return float(window) if since is None else max(0.0, since + window - time.time())


# The mark is an attribute that HttpRequest does not declare, so it is set and read by name.
_WRONG_LINK = "wrong_link"


def mark_wrong_link(request: HttpRequest) -> None:
    """The request's link, or an organiser token it sent, matched nothing: the guess limit
    counts it."""
    setattr(request, _WRONG_LINK, True)


def is_wrong_link(request: HttpRequest) -> bool:
    return bool(getattr(request, _WRONG_LINK, False))
