"""Typed settings from the environment; nonsense raises ImproperlyConfigured at start-up."""

from __future__ import annotations

import ipaddress
import os
import secrets
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.lower() in _TRUE | _FALSE:
        return value.lower() in _TRUE
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def envint(name: str, default: int, least: int | None = None) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None
    if least is not None and number < least:
        raise ImproperlyConfigured(f"{name} must be at least {least}, not {value!r}")
    return number


def envchoice(name: str, default: str, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, default)
    if value.upper() not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value.upper()


def envzone(name: str, default: str) -> str:
    """A time zone's name (``Asia/Hong_Kong``), as the tz database knows it."""
    value = os.environ.get(name, default)
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise ImproperlyConfigured(
            f"{name} must name a time zone such as Asia/Hong_Kong, not {value!r}"
        ) from None
    return value


def envlist(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def envnetworks(name: str) -> list[str]:
    """Addresses or networks, comma-separated (``127.0.0.1``, ``10.0.0.0/24``, ``fd00::/8``)."""
    networks = envlist(name, [])
    for network in networks:
        try:
            ipaddress.ip_network(network)
        except ValueError as error:
            raise ImproperlyConfigured(f"{name} must list addresses or networks: {error}") from None
    return networks


def local_secret_key(data_dir: Path) -> str:
    """A random key kept in ``data_dir`` for the embedded single-machine setup.

    Never a built-in default: each installation makes its own on first start.
    """
    path = data_dir / "secret_key"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()
