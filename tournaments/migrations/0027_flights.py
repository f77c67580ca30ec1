from django.db import migrations, models


class Migration(migrations.Migration):
    """Flights: the event's list (a rule, on the rule set and its presets) and each entry's."""

    dependencies = [
        ("tournaments", "0026_late_missed_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="rulepreset",
            name="flights",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="ruleset",
            name="flights",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name="entry",
            name="flight",
            field=models.CharField(blank=True, max_length=24),
        ),
    ]
