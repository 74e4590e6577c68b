"""Amounts as whole ten-thousandths (ledger.amounts): a result row's net and a payment's amount
move to a bigint column, so their sums are exact on SQLite too (a decimal column there holds
floats).

Each moves by way of a new column: added, filled from the old one's Decimal (each row's value
read as Django reads it, SQLite's float rounded to the column's four places), the old dropped,
the new renamed. On the way back the same, the other way.

PostgreSQL's check that each hand's rows sum to zero (0031) is a trigger on the old column:
dropping the column would drop it too (Django drops columns with CASCADE), so it goes first
and comes back on the new ``net``, whose rows still sum to zero, in ten-thousandths. Nothing
here changes a row's ``net`` while the trigger stands, so it is never asked midway. The
payments' check that an amount is more than 0 is made again on the new column.
"""

from typing import Any

from django.db import migrations, models

from ledger.migrations._frozen import amounts_0032
from ledger.migrations._on_postgresql import OnPostgreSQL

TRIGGER = """
CREATE CONSTRAINT TRIGGER ledger_result_balanced
    AFTER INSERT OR DELETE OR UPDATE OF net, hand_id, unit ON ledger_result
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_result_balanced();
"""
NO_TRIGGER = "DROP TRIGGER ledger_result_balanced ON ledger_result;"

# 0031's function, saying the sum in money: ``net`` counts ten-thousandths now.
IN_TEN_THOUSANDTHS = """
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
# 0031's own, for the way back.
IN_DECIMALS = IN_TEN_THOUSANDTHS.replace("round(total / 10000, 4)", "total")


def copied(old: str, new: str) -> Any:
    """Copy each result row's and payment's amount from the field named ``old`` to ``new``."""

    def copy(apps: Any, schema_editor: Any) -> None:
        for model, field in (("Result", "net"), ("Payment", "amount")):
            Model = apps.get_model("ledger", model)
            source, target = field + old, field + new
            rows = [
                Model(pk=pk, **{target: value.quantize(amounts_0032.STEP)})
                for pk, value in Model.objects.order_by("pk").values_list("pk", source)
            ]
            Model.objects.bulk_update(rows, [target], batch_size=500)

    return copy


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0031_append_only_results"),
    ]

    operations = [
        OnPostgreSQL(NO_TRIGGER, TRIGGER),
        migrations.RemoveConstraint(model_name="payment", name="payment_positive"),
        # Both columns nullable while they are filled, so each way adds one to full tables.
        migrations.AddField(
            model_name="result", name="net_new", field=amounts_0032.AmountField(null=True)
        ),
        migrations.AddField(
            model_name="payment", name="amount_new", field=amounts_0032.AmountField(null=True)
        ),
        migrations.AlterField(
            model_name="result",
            name="net",
            field=models.DecimalField(decimal_places=4, max_digits=24, null=True),
        ),
        migrations.AlterField(
            model_name="payment",
            name="amount",
            field=models.DecimalField(decimal_places=4, max_digits=24, null=True),
        ),
        migrations.RunPython(copied("", "_new"), copied("_new", "")),
        migrations.RemoveField(model_name="result", name="net"),
        migrations.RemoveField(model_name="payment", name="amount"),
        migrations.RenameField(model_name="result", old_name="net_new", new_name="net"),
        migrations.RenameField(model_name="payment", old_name="amount_new", new_name="amount"),
        migrations.AlterField(model_name="result", name="net", field=amounts_0032.AmountField()),
        migrations.AlterField(
            model_name="payment", name="amount", field=amounts_0032.AmountField()
        ),
        migrations.AddConstraint(
            model_name="payment",
            constraint=models.CheckConstraint(
                condition=models.Q(("amount__gt", 0)), name="payment_positive"
            ),
        ),
        OnPostgreSQL(IN_TEN_THOUSANDTHS + TRIGGER, IN_DECIMALS + NO_TRIGGER),
    ]
