"""The database refuses any edit of money or history, on PostgreSQL and SQLite alike (issue 46).

- Result rows, payments, payment voids and hands' change records are insert-only: an UPDATE or
  a DELETE of one is refused by a BEFORE trigger, whoever sends it (the ORM, raw SQL, psql or
  the sqlite3 shell). A table's change records are too, but for the DELETE of a table with no
  hands (services.table_delete: one started by mistake goes whole, its changes of how it ends
  with it).
- A hand's scored fields (``SCORED``) change only with its history: an UPDATE of them must
  raise ``version`` by one, the hand's change records must number its new version (the record
  written first, in the same transaction), and the newest of them must say what the hand
  became: the new ``data`` for a correction, a void for a void. A voided hand changes no more,
  and no hand moves to another table or number (``PLACE``).
- At commit, every hand whose rows the transaction wrote sums to zero in each unit, and a hand
  voided has no rows standing (neither a reversal nor reversed). On PostgreSQL a deferred
  constraint trigger checks it (0027's, extended). SQLite checks deferred foreign keys at
  COMMIT (Django turns ``PRAGMA foreign_keys`` on): triggers keep a row in
  ``ledger_unsettled_hand`` for each hand that is not settled at that moment, pointing by such
  a key at ``ledger_settled_hand``, which never holds a row, so a COMMIT that leaves one fails
  with an IntegrityError ("FOREIGN KEY constraint failed"; ``PRAGMA foreign_key_check`` names
  the hand). The sqlite3 shell checks no foreign key unless told (``PRAGMA foreign_keys = ON``):
  that check is then skipped, the BEFORE triggers are not.

The doors: PostgreSQL's TRUNCATE fires no row trigger (a test's flush), and a superuser's
``SET session_replication_role = replica`` fires none at all (what a test that needs corrupt
data does, tests/tampering.py). SQLite's flush deletes row by row, so there every guard waits
while ``ledger_guards_off`` holds a row: ``manage.py flush`` (ledger/management/commands/
flush.py) and the tests' ``guards_off`` write one for their transaction and remove it before it
ends. Nothing a page, the API or a service does opens either.

The payments', voids' and change records' times become plain defaults (they were
``auto_now_add``, which ignores a time given): a backup restored keeps its times by inserting
them, where it used to insert and then update them.

SQLite drops a table's triggers with it when a migration rebuilds the table (Django's SQLite
schema editor does for most changes of a field): a later migration that alters one of these
tables there must make its guards again (tests/tables/test_guards.py lists them).
"""

from typing import Any

from django.db import migrations, models
from django.utils import timezone

from ledger.migrations._on_postgresql import OnPostgreSQL, OnSQLite

# What each table refuses to have updated or deleted, and why, as the refusal says it.
INSERT_ONLY = {
    "ledger_result": "result rows are insert-only: a change to a hand writes reversals and new rows",
    "ledger_payment": "payments are insert-only: a payment is voided by a payment void",
    "ledger_paymentvoid": "payment voids are insert-only: a payment is voided once, for good",
    "ledger_handchange": "a hand's change records are its history: insert-only",
}
# Insert-only too, but deleted with a table that has no hands.
TABLE_CHANGES = "a table's change records are its history: insert-only once it has hands"

# A hand's fields that change only together with its history (above). Extend here.
SCORED = ("data", "voided", "version")
# And those that never change: which table a hand is of, and where it stands in it.
PLACE = ("session_id", "number")
MOVED = "a hand keeps its table and its number"

# A hand is settled when its rows sum to zero in each unit and, voided, it has no row standing
# (neither a reversal nor reversed). The same SQL on both databases.
UNBALANCED = """EXISTS (
    SELECT 1 FROM ledger_result WHERE hand_id = {hand} GROUP BY unit HAVING sum(net) <> 0
)"""
STANDING_IN_VOID = """EXISTS (
    SELECT 1 FROM ledger_hand h JOIN ledger_result r ON r.hand_id = h.id
    WHERE h.id = {hand} AND h.voided AND r.reverses_id IS NULL
    AND NOT EXISTS (SELECT 1 FROM ledger_result x WHERE x.reverses_id = r.id)
)"""

changed = " OR ".join(f"OLD.{field} IS DISTINCT FROM NEW.{field}" for field in SCORED)
moved = " OR ".join(f"OLD.{field} IS DISTINCT FROM NEW.{field}" for field in PLACE)

# PostgreSQL ----------------------------------------------------------------------------------

PG_INSERT_ONLY = """
CREATE FUNCTION ledger_insert_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% (% of id %)', TG_ARGV[0], TG_OP, OLD.id
        USING ERRCODE = 'integrity_constraint_violation';
END
$$;
"""
PG_TABLE_CHANGES = """
CREATE FUNCTION ledger_tablechange_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' OR EXISTS (SELECT 1 FROM ledger_hand WHERE session_id = OLD.session_id)
    THEN
        RAISE EXCEPTION '% (% of id %)', TG_ARGV[0], TG_OP, OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
END
$$;
"""
PG_HAND = f"""
CREATE FUNCTION ledger_hand_with_history() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    recorded bigint;
    latest record;
BEGIN
    IF OLD.voided THEN
        RAISE EXCEPTION 'hand % is voided: it changes no more', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.version IS DISTINCT FROM OLD.version + 1 THEN
        RAISE EXCEPTION 'hand % changes only with its history: its version rises by one, from % to %, not to %',
            OLD.id, OLD.version, OLD.version + 1, NEW.version
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT count(*) INTO recorded FROM ledger_handchange WHERE hand_id = NEW.id;
    IF recorded <> NEW.version THEN
        RAISE EXCEPTION 'hand % changes only with its history: version % needs its change record written first (it has % records)',
            OLD.id, NEW.version, recorded
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT kind, after INTO latest FROM ledger_handchange WHERE hand_id = NEW.id
        ORDER BY id DESC LIMIT 1;
    IF NEW.voided AND (latest.kind IS DISTINCT FROM 'void' OR NEW.data IS DISTINCT FROM OLD.data) THEN
        RAISE EXCEPTION 'hand %: a void changes nothing else, and its change record is a void',
            OLD.id USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NOT NEW.voided AND (latest.kind IS DISTINCT FROM 'correct' OR latest.after IS DISTINCT FROM NEW.data)
    THEN
        RAISE EXCEPTION 'hand %: its change record of version % does not say what it became',
            OLD.id, NEW.version USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER ledger_hand_with_history
    BEFORE UPDATE OF {", ".join(SCORED)} ON ledger_hand
    FOR EACH ROW WHEN ({changed})
    EXECUTE FUNCTION ledger_hand_with_history();
"""
PG_SETTLED = f"""
CREATE FUNCTION ledger_hand_settled(checked bigint) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    in_unit text;
    total numeric;
BEGIN
    FOR in_unit, total IN
        SELECT unit, sum(net) FROM ledger_result WHERE hand_id = checked GROUP BY unit
    LOOP
        IF total <> 0 THEN
            RAISE EXCEPTION 'the result rows of hand % sum to % %, not 0',
                checked, round(total / 10000, 4), in_unit USING ERRCODE = 'check_violation';
        END IF;
    END LOOP;
    IF {STANDING_IN_VOID.format(hand="checked")} THEN
        RAISE EXCEPTION 'hand % is voided, yet rows of it stand: a void reverses them', checked
            USING ERRCODE = 'check_violation';
    END IF;
END
$$;
CREATE OR REPLACE FUNCTION ledger_result_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    checked bigint;
BEGIN
    FOR checked IN
        SELECT DISTINCT hand FROM unnest(ARRAY[OLD.hand_id, NEW.hand_id]) AS hand
        WHERE hand IS NOT NULL
    LOOP
        PERFORM ledger_hand_settled(checked);
    END LOOP;
    RETURN NULL;
END
$$;
CREATE FUNCTION ledger_hand_voided_settled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM ledger_hand_settled(NEW.id);
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER ledger_hand_voided_settled
    AFTER UPDATE OF voided ON ledger_hand
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.voided AND NOT OLD.voided)
    EXECUTE FUNCTION ledger_hand_voided_settled();
"""


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


PG_GUARDS = [
    PG_INSERT_ONLY,
    *(
        f"CREATE TRIGGER {table}_insert_only BEFORE UPDATE OR DELETE ON {table} "
        f"FOR EACH ROW EXECUTE FUNCTION ledger_insert_only({_quoted(why)});"
        for table, why in INSERT_ONLY.items()
    ),
    PG_TABLE_CHANGES,
    "CREATE TRIGGER ledger_tablechange_insert_only BEFORE UPDATE OR DELETE ON ledger_tablechange "
    f"FOR EACH ROW EXECUTE FUNCTION ledger_tablechange_kept({_quoted(TABLE_CHANGES)});",
    PG_HAND,
    f"CREATE TRIGGER ledger_hand_in_place BEFORE UPDATE OF {', '.join(PLACE)} ON ledger_hand "
    f"FOR EACH ROW WHEN ({moved}) EXECUTE FUNCTION ledger_insert_only({_quoted(MOVED)});",
    PG_SETTLED,
]

# 0032's check, for the way back: each hand's rows sum to zero in each unit, nothing more.
PG_BALANCED_0032 = """
CREATE OR REPLACE FUNCTION ledger_result_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    checked bigint;
    in_unit text;
    total numeric;
BEGIN
    FOR checked IN
        SELECT DISTINCT hand FROM unnest(ARRAY[OLD.hand_id, NEW.hand_id]) AS hand
        WHERE hand IS NOT NULL
    LOOP
        FOR in_unit, total IN
            SELECT unit, coalesce(sum(net), 0) FROM ledger_result
            WHERE hand_id = checked GROUP BY unit
        LOOP
            IF total <> 0 THEN
                RAISE EXCEPTION 'the result rows of hand % sum to % %, not 0',
                    checked, round(total / 10000, 4), in_unit USING ERRCODE = 'check_violation';
            END IF;
        END LOOP;
    END LOOP;
    RETURN NULL;
END
$$;
"""

PG_NO_GUARDS = [
    "DROP TRIGGER ledger_hand_voided_settled ON ledger_hand;",
    "DROP FUNCTION ledger_hand_voided_settled();",
    PG_BALANCED_0032,
    "DROP FUNCTION ledger_hand_settled(bigint);",
    "DROP TRIGGER ledger_hand_in_place ON ledger_hand;",
    "DROP TRIGGER ledger_hand_with_history ON ledger_hand;",
    "DROP FUNCTION ledger_hand_with_history();",
    "DROP TRIGGER ledger_tablechange_insert_only ON ledger_tablechange;",
    "DROP FUNCTION ledger_tablechange_kept();",
    *(f"DROP TRIGGER {table}_insert_only ON {table};" for table in INSERT_ONLY),
    "DROP FUNCTION ledger_insert_only();",
]

# SQLite --------------------------------------------------------------------------------------

GUARDED = "NOT EXISTS (SELECT 1 FROM ledger_guards_off)"
sqlite_changed = " OR ".join(f"OLD.{field} IS NOT NEW.{field}" for field in SCORED)
sqlite_moved = " OR ".join(f"OLD.{field} IS NOT NEW.{field}" for field in PLACE)
latest = "(SELECT {column} FROM ledger_handchange WHERE hand_id = NEW.id ORDER BY id DESC LIMIT 1)"


def _refusal(name: str, when: str, table: str, why: str) -> str:
    return (
        f"CREATE TRIGGER {name} BEFORE {when} ON {table} WHEN {GUARDED} "
        f"BEGIN SELECT RAISE(ABORT, {_quoted(why)}); END;"
    )


def _settles(name: str, event: str, hand: str, when: str = "") -> str:
    """A trigger that keeps ``hand``'s row in ledger_unsettled_hand while it is not settled."""
    return f"""
CREATE TRIGGER {name} AFTER {event} WHEN {GUARDED}{when}
BEGIN
    DELETE FROM ledger_unsettled_hand WHERE hand_id = {hand};
    INSERT INTO ledger_unsettled_hand (hand_id, settled)
        SELECT {hand}, {hand}
        WHERE {UNBALANCED.format(hand=hand)} OR {STANDING_IN_VOID.format(hand=hand)};
END;
"""


SQLITE_HAND = f"""
CREATE TRIGGER ledger_hand_with_history BEFORE UPDATE OF {", ".join(SCORED)} ON ledger_hand
WHEN {GUARDED} AND ({sqlite_changed})
BEGIN
    SELECT RAISE(ABORT, 'a voided hand changes no more') WHERE OLD.voided;
    SELECT RAISE(ABORT, 'a hand changes only with its history: its version rises by one')
        WHERE NEW.version IS NOT OLD.version + 1;
    SELECT RAISE(ABORT, 'a hand changes only with its history: its new version needs its change record written first')
        WHERE (SELECT count(*) FROM ledger_handchange WHERE hand_id = NEW.id) IS NOT NEW.version;
    SELECT RAISE(ABORT, 'a void changes nothing else of a hand, and its change record is a void')
        WHERE NEW.voided AND ({latest.format(column="kind")} IS NOT 'void'
                              OR NEW.data IS NOT OLD.data);
    SELECT RAISE(ABORT, 'a hand''s change record does not say what it became')
        WHERE NOT NEW.voided AND ({latest.format(column="kind")} IS NOT 'correct'
                                  OR {latest.format(column="after")} IS NOT NEW.data);
END;
"""

SQLITE_GUARDS = [
    "CREATE TABLE ledger_guards_off (why text NOT NULL);",
    "CREATE TABLE ledger_settled_hand (id integer NOT NULL PRIMARY KEY);",
    "CREATE TABLE ledger_unsettled_hand (hand_id integer NOT NULL PRIMARY KEY, "
    "settled integer NOT NULL REFERENCES ledger_settled_hand (id) DEFERRABLE INITIALLY DEFERRED);",
    *(
        _refusal(f"{table}_no_{event.lower()}", event, table, f"{why} ({event} refused)")
        for table, why in INSERT_ONLY.items()
        for event in ("UPDATE", "DELETE")
    ),
    _refusal(
        "ledger_tablechange_no_update", "UPDATE", "ledger_tablechange", TABLE_CHANGES
    ),
    _refusal(
        "ledger_tablechange_no_delete",
        "DELETE",
        "ledger_tablechange",
        TABLE_CHANGES,
    ).replace(
        f"WHEN {GUARDED}",
        f"WHEN {GUARDED} AND EXISTS (SELECT 1 FROM ledger_hand WHERE session_id = OLD.session_id)",
    ),
    SQLITE_HAND,
    _refusal("ledger_hand_in_place", f"UPDATE OF {', '.join(PLACE)}", "ledger_hand", MOVED).replace(
        f"WHEN {GUARDED}", f"WHEN {GUARDED} AND ({sqlite_moved})"
    ),
    _settles("ledger_result_settles", "INSERT ON ledger_result", "NEW.hand_id"),
    _settles(
        "ledger_hand_voided_settles",
        "UPDATE OF voided ON ledger_hand",
        "NEW.id",
        " AND NEW.voided AND NOT OLD.voided",
    ),
]

SQLITE_NO_GUARDS = [
    "DROP TRIGGER ledger_hand_voided_settles;",
    "DROP TRIGGER ledger_result_settles;",
    "DROP TRIGGER ledger_hand_in_place;",
    "DROP TRIGGER ledger_hand_with_history;",
    "DROP TRIGGER ledger_tablechange_no_delete;",
    "DROP TRIGGER ledger_tablechange_no_update;",
    *(
        f"DROP TRIGGER {table}_no_{event};"
        for table in INSERT_ONLY
        for event in ("update", "delete")
    ),
    "DROP TABLE ledger_unsettled_hand;",
    "DROP TABLE ledger_settled_hand;",
    "DROP TABLE ledger_guards_off;",
]


def _inserted_at(model: str, name: str) -> migrations.AlterField:
    """A time its row is inserted with: now, or the one given (a backup's)."""
    field = models.DateTimeField(default=timezone.now, editable=False, blank=True)
    return migrations.AlterField(model_name=model, name=name, field=field)


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0039_hands_keep_their_outcome"),
    ]

    operations = [
        _inserted_at("payment", "created"),
        _inserted_at("paymentvoid", "at"),
        _inserted_at("handchange", "at"),
        _inserted_at("tablechange", "at"),
        OnPostgreSQL(PG_GUARDS, PG_NO_GUARDS),
        OnSQLite(SQLITE_GUARDS, SQLITE_NO_GUARDS),
    ]
