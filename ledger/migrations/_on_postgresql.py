"""What the ledger's migrations share: SQL run on one database only (Django's loader skips a
module whose name starts with _)."""

from typing import Any

from django.db import migrations


class _OnOne(migrations.RunSQL):
    """RunSQL on the database ``vendor`` names only."""

    vendor: str

    def database_forwards(self, app_label: str, schema_editor: Any, *args: Any) -> None:
        if schema_editor.connection.vendor == self.vendor:
            super().database_forwards(app_label, schema_editor, *args)

    def database_backwards(self, app_label: str, schema_editor: Any, *args: Any) -> None:
        if schema_editor.connection.vendor == self.vendor:
            super().database_backwards(app_label, schema_editor, *args)


class OnPostgreSQL(_OnOne):
    """RunSQL on PostgreSQL only: SQLite has no constraint triggers."""

    vendor = "postgresql"


class OnSQLite(_OnOne):
    """RunSQL on SQLite only: PostgreSQL's guards are its own (OnPostgreSQL)."""

    vendor = "sqlite"
