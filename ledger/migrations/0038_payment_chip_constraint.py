"""Once every payment in chips has its chip's value (0037), the database holds it: a payment in
chips has a chip worth more than 0, one in money has none. Apart from 0037, so that on
PostgreSQL the rows it wrote are committed before the table is altered."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("ledger", "0037_payment_chip")]

    operations = [
        migrations.AddConstraint(
            model_name="payment",
            constraint=models.CheckConstraint(
                condition=models.Q(unit="money", chip=None) | models.Q(unit="chips", chip__isnull=False, chip__gt=0),
                name="payment_chip_with_chips",
            ),
        ),
    ]
