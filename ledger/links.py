"""A link that matches nothing, as the domains' reads say it and the web's limits count it."""

from django.http import Http404


class NoSuchLink(Http404):
    """A token that matches nothing (a table, event or group): the guess limit counts these,
    and no other 404 (a missing hand under a real table is a mistake, not a guess:
    ledger.web.middleware)."""
