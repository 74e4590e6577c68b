"""What the limits count (ledger/web/limits.py): one row per client and limit."""

from __future__ import annotations

from django.db import models


class LimitCount(models.Model):
    """How many hits one client (an address, an account) made in one limit's ``scope``, in
    the window its first hit began, which lasts until ``ends``."""

    scope = models.CharField(max_length=20)
    client = models.CharField(max_length=255)
    hits = models.PositiveIntegerField()
    ends = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "client"], name="limit_count_one_per_client")
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.client}: {self.hits}"
