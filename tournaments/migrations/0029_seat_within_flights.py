from django.db import migrations, models

FIELD = models.BooleanField(
    "seat each flight at tables of its own",
    default=False,
    help_text="Tables seat players of one flight; off, the tables mix the flights.",
)


class Migration(migrations.Migration):
    """Seating within flights: a rule, on the rule set and its presets (off: tables mix)."""

    dependencies = [
        ("tournaments", "0028_final"),
    ]

    operations = [
        migrations.AddField(model_name="rulepreset", name="seat_within_flights", field=FIELD),
        migrations.AddField(model_name="ruleset", name="seat_within_flights", field=FIELD),
    ]
