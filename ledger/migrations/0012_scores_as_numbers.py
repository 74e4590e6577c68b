"""Scores stored as the whole numbers the engine read them as.

A result's numbers were stored as sent: "١٢", "12 " and 12.0 were accepted as 12 (rightly) but
kept and echoed as typed. Every stored hand and every entry of its history is written again with
its numbers as whole numbers; what a hand scores is the same (the engine read them so), so no
total changes. A number the engine would not read is left as it is (none was ever accepted).
"""

from django.db import migrations

from ledger.migrations._frozen.scoring_rev5 import ScoringError, whole_number

NUMBERS = ("pips", "large_fish_pips", "small_fish_red")


def as_numbers(hand):
    if not isinstance(hand, dict) or not isinstance(hand.get("results"), dict):
        return hand
    results = {}
    for name, result in hand["results"].items():
        if isinstance(result, dict):
            result = dict(result)
            for key in NUMBERS:
                if key in result:
                    try:
                        result[key] = whole_number(result[key])
                    except ScoringError:
                        pass
        results[name] = result
    return {**hand, "results": results}


def rewrite(apps, schema_editor):
    Hand = apps.get_model("ledger", "Hand")
    for hand in Hand.objects.only("pk", "data").iterator():
        data = as_numbers(hand.data)
        if _types(data) != _types(hand.data):
            Hand.objects.filter(pk=hand.pk).update(data=data)
    HandChange = apps.get_model("ledger", "HandChange")
    for change in HandChange.objects.only("pk", "before", "after").iterator():
        before, after = as_numbers(change.before), as_numbers(change.after)
        if _types(before) != _types(change.before) or _types(after) != _types(change.after):
            HandChange.objects.filter(pk=change.pk).update(before=before, after=after)


def _types(hand):
    """The hand's numbers with their types: 12 and 12.0 are equal, but not stored alike."""
    if not isinstance(hand, dict) or not isinstance(hand.get("results"), dict):
        return None
    return [
        (name, key, type(result[key]).__name__, str(result[key]))
        for name, result in sorted(hand["results"].items())
        if isinstance(result, dict)
        for key in NUMBERS
        if key in result
    ]


class Migration(migrations.Migration):
    dependencies = [("ledger", "0011_cache_table")]

    # Backwards the numbers stay whole: they are what was meant.
    operations = [migrations.RunPython(rewrite, migrations.RunPython.noop)]
