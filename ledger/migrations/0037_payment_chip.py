"""A payment in chips says what one of its chips is worth (``Payment.chip``): a group's balance
is one amount of money (rules rev 5), its chip tables each counted at their own chip's value,
so a payment in chips is counted at its own.

Each payment in chips stored before gets the value of a chip in its group: the one value the
group's chip tables (and its usual game, if that pays chips) have, as nearly every group has;
where they have several, that of the latest chip table started before the payment (the
earliest after it if none was), the table it most likely settled; where no table pays chips,
the group's usual chip, or 1. Its amount is left as it was: nothing is edited but the value
added. A group whose chips had one value keeps every balance to the cent (its chips counted at
that value); one whose chips had several values had balances that added chips of different
worth, and now adds money.
"""

from decimal import Decimal

from django.db import migrations

from ledger.migrations._frozen import amounts_0032
from ledger.migrations._frozen import scoring_rev5 as scoring
from ledger.migrations._frozen.scoring_rev5 import GAMES


def _chip(game, options):
    """The value of a chip at a table of ``game`` with ``options``, or None where it pays
    money or points only."""
    rules = GAMES.get(game)
    if rules is None:
        return None
    document = {"game": game, "options": options, "seating": []}
    try:
        parsed = scoring.parse_session(document).options
    except scoring.ScoringError:
        return None
    if not rules.pays_chips(parsed) or not parsed.chip:
        return None
    return parsed.chip


def value(apps, schema_editor):
    Payment = apps.get_model("ledger", "Payment")
    TableSession = apps.get_model("ledger", "TableSession")
    groups = Payment.objects.filter(unit="chips").values_list("group", flat=True).distinct()
    for group in apps.get_model("ledger", "Group").objects.filter(pk__in=list(groups)):
        tables = [
            (created, chip)
            for created, game, options in TableSession.objects.filter(group=group)
            .order_by("created", "pk")
            .values_list("created", "game", "options")
            if (chip := _chip(game, options)) is not None
        ]
        usual = _chip(group.game, group.options)
        values = {chip for _, chip in tables} | ({usual} if usual is not None else set())
        for payment in Payment.objects.filter(group=group, unit="chips").order_by("pk"):
            if len(values) == 1:
                chip = next(iter(values))
            elif tables:
                before = [chip for created, chip in tables if created <= payment.created]
                chip = before[-1] if before else tables[0][1]
            else:
                chip = usual if usual is not None else Decimal(1)
            Payment.objects.filter(pk=payment.pk).update(chip=chip)


class Migration(migrations.Migration):
    dependencies = [("ledger", "0036_pin_chip_doubles")]

    operations = [
        migrations.AddField(
            model_name="payment",
            name="chip",
            field=amounts_0032.AmountField(blank=True, null=True),
        ),
        # Backwards the column goes, and with it the values: the code before had none.
        migrations.RunPython(value, migrations.RunPython.noop),
    ]
