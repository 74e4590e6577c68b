"""Filters of the log's lines (settings.LOGGING): loaded before the apps, so nothing here
imports a model."""

from __future__ import annotations

import logging


class ClientMistake(logging.Filter):
    """Django logs a request it refuses as suspicious (django.security.<the exception>) as an
    ERROR, with a traceback: for a Host the site does not serve, or a body over the size
    limit, that is a client's mistake (or a scanner's), answered 400 or 413, not a bug of
    ours, and an ERROR says a bug. Logged as a WARNING, without the traceback, which says
    nothing of the server (settings.LOGGING)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return logging.getLogger(record.name).isEnabledFor(logging.WARNING)
