"""A group's settings changes are recorded (issue 47): ``GroupChange``, insert-only as the other
history is (0040): an UPDATE is refused, and a DELETE but with a group that has no payments and
no hands (``groups.services.group_delete`` deletes an empty group whole), on both databases.
"""

from django.db import migrations, models
from django.utils import timezone

from ledger.migrations._on_postgresql import OnPostgreSQL, OnSQLite

KEPT = "the changes of a group are its history: insert-only once it has payments or hands"
# The group has money recorded: a payment, or a hand at one of its tables.
HAS_MONEY = """(EXISTS (SELECT 1 FROM ledger_payment WHERE group_id = OLD.group_id)
    OR EXISTS (SELECT 1 FROM ledger_hand h JOIN ledger_tablesession t ON t.id = h.session_id
               WHERE t.group_id = OLD.group_id))"""

PG_KEPT = f"""
CREATE FUNCTION ledger_groupchange_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' OR {HAS_MONEY} THEN
        RAISE EXCEPTION '% (% of id %)', TG_ARGV[0], TG_OP, OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END
$$;
CREATE TRIGGER ledger_groupchange_insert_only BEFORE UPDATE OR DELETE ON ledger_groupchange
    FOR EACH ROW EXECUTE FUNCTION ledger_groupchange_kept('{KEPT}');
"""
PG_NOT_KEPT = """
DROP TRIGGER ledger_groupchange_insert_only ON ledger_groupchange;
DROP FUNCTION ledger_groupchange_kept();
"""

GUARDED = "NOT EXISTS (SELECT 1 FROM ledger_guards_off)"  # 0040's door, for a flush
SQLITE_KEPT = [
    f"CREATE TRIGGER ledger_groupchange_no_update BEFORE UPDATE ON ledger_groupchange "
    f"WHEN {GUARDED} BEGIN SELECT RAISE(ABORT, '{KEPT} (UPDATE refused)'); END;",
    f"CREATE TRIGGER ledger_groupchange_no_delete BEFORE DELETE ON ledger_groupchange "
    f"WHEN {GUARDED} AND {HAS_MONEY} BEGIN SELECT RAISE(ABORT, '{KEPT} (DELETE refused)'); END;",
]
SQLITE_NOT_KEPT = [
    "DROP TRIGGER ledger_groupchange_no_update;",
    "DROP TRIGGER ledger_groupchange_no_delete;",
]


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0043_group_plays_for"),
    ]

    operations = [
        migrations.CreateModel(
            name="GroupChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("before", models.JSONField()),
                ("after", models.JSONField()),
                ("device", models.CharField(blank=True, help_text="Who changed them.", max_length=40)),
                ("at", models.DateTimeField(blank=True, default=timezone.now, editable=False)),
                (
                    "group",
                    models.ForeignKey(
                        on_delete=models.deletion.CASCADE,
                        related_name="changes",
                        to="ledger.group",
                    ),
                ),
            ],
            options={"ordering": ["at", "pk"]},
        ),
        OnPostgreSQL(PG_KEPT, PG_NOT_KEPT),
        OnSQLite(SQLITE_KEPT, SQLITE_NOT_KEPT),
    ]
