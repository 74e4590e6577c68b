"""What the ledger's migrations share: SQL run on one database only (Django's loader skips a
module whose name starts with _)."""

from typing import Any

from django.db import migrations


class OnPostgreSQL(migrations.RunSQL):
    """RunSQL on PostgreSQL only: SQLite has no constraint triggers."""

    def database_forwards(self, app_label: str, schema_editor: Any, *args: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, *args)

    def database_backwards(self, app_label: str, schema_editor: Any, *args: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, *args)


class OnSQLite(migrations.RunSQL):
    """RunSQL on SQLite only: PostgreSQL's guards are its own (OnPostgreSQL)."""

    def database_forwards(self, app_label: str, schema_editor: Any, *args: Any) -> None:
        if schema_editor.connection.vendor == "sqlite":
            super().database_forwards(app_label, schema_editor, *args)

    def database_backwards(self, app_label: str, schema_editor: Any, *args: Any) -> None:
        if schema_editor.connection.vendor == "sqlite":
            super().database_backwards(app_label, schema_editor, *args)
