"""The append-only ledger: the flags a change used to set on result rows and payments go (0030
wrote their reversals and voids as rows), and PostgreSQL's check of each hand's rows (0027)
sums them in each unit.

Each outcome the engine settles sums to zero, and so does its reversal: every hand's rows, in
each unit, sum to zero. A deferred constraint trigger (as django-hordak's for its legs) checks
it at commit, for every hand whose rows the transaction inserted, deleted or changed the money
of: a row written behind the services' back, or a bug in them, fails the commit (23514, an
IntegrityError). SQLite has no such trigger: the services check the same before they commit
(ledger.tables.results.refuse_unbalanced).
"""

from typing import Any

from django.db import migrations, models
from django.db.models import OuterRef, Subquery

from ledger.migrations._on_postgresql import OnPostgreSQL

BY_UNIT = """
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
                    checked, total, in_unit USING ERRCODE = 'check_violation';
            END IF;
        END LOOP;
    END LOOP;
    RETURN NULL;
END
$$;
DROP TRIGGER ledger_result_balanced ON ledger_result;
CREATE CONSTRAINT TRIGGER ledger_result_balanced
    AFTER INSERT OR DELETE OR UPDATE OF net, hand_id, unit ON ledger_result
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_result_balanced();
"""

IN_ALL = """
CREATE OR REPLACE FUNCTION ledger_result_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP TRIGGER ledger_result_balanced ON ledger_result;
CREATE CONSTRAINT TRIGGER ledger_result_balanced
    AFTER INSERT OR DELETE OR UPDATE OF net, hand_id ON ledger_result
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_result_balanced();
"""


def flags(apps: Any, schema_editor: Any) -> None:
    """On the way back: each row with a reversal is marked replaced when it was reversed, and
    each payment with a void voided when it was, as the schema before 0029 kept them (then the
    unique index of current rows can be made again)."""
    Result = apps.get_model("ledger", "Result")
    Payment = apps.get_model("ledger", "Payment")
    PaymentVoid = apps.get_model("ledger", "PaymentVoid")
    reversal = Result.objects.filter(reverses=OuterRef("pk"))
    Result.objects.exclude(reversal=None).update(
        current=False, replaced=Subquery(reversal.values("created"))
    )
    Result.objects.exclude(reverses=None).update(current=False)
    void = PaymentVoid.objects.filter(payment=OuterRef("pk"))
    Payment.objects.exclude(void=None).update(voided=Subquery(void.values("at")))


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0030_append_only_data"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="result", name="result_current_unique"),
        migrations.RemoveIndex(model_name="result", name="result_session_current"),
        migrations.RunPython(migrations.RunPython.noop, flags),
        migrations.RemoveField(model_name="result", name="current"),
        migrations.RemoveField(model_name="result", name="replaced"),
        migrations.RemoveField(model_name="payment", name="voided"),
        migrations.AddIndex(
            model_name="result",
            index=models.Index(fields=["session", "unit"], name="result_session_unit"),
        ),
        OnPostgreSQL(BY_UNIT, IN_ALL),
    ]
