"""PostgreSQL refuses a transaction that leaves a hand's result rows not summing to zero.

Each outcome the engine settles sums to zero, and a change never edits a row (it marks it
replaced and writes new ones), so every row of a hand, current and replaced, sums to zero too.
A deferred constraint trigger (as django-hordak's for its legs) checks it at commit, for
every hand whose rows the transaction inserted, deleted or changed the money of: a row written
behind the services' back, or a bug in them, fails the commit (23514, an IntegrityError).
SQLite has no such trigger: the services check the same before they commit
(ledger.tables.results.refuse_unbalanced).
"""

from django.db import migrations

from ledger.migrations._on_postgresql import OnPostgreSQL

CREATE = """
CREATE FUNCTION ledger_result_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    checked bigint;
    total numeric;
BEGIN
    FOR checked IN
        SELECT DISTINCT hand FROM unnest(ARRAY[OLD.hand_id, NEW.hand_id]) AS hand
        WHERE hand IS NOT NULL
    LOOP
        SELECT coalesce(sum(net), 0) INTO total FROM ledger_result WHERE hand_id = checked;
        IF total <> 0 THEN
            RAISE EXCEPTION 'the result rows of hand % sum to %, not 0', checked, total
                USING ERRCODE = 'check_violation';
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;
CREATE CONSTRAINT TRIGGER ledger_result_balanced
    AFTER INSERT OR DELETE OR UPDATE OF net, hand_id ON ledger_result
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_result_balanced();
"""

DROP = """
DROP TRIGGER ledger_result_balanced ON ledger_result;
DROP FUNCTION ledger_result_balanced();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0026_keep_money"),
    ]

    operations = [OnPostgreSQL(CREATE, DROP)]
