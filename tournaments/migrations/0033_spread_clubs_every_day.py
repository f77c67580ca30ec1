from django.db import migrations, models


class Migration(migrations.Migration):
    """Spreading the clubs on every day, not only day 1: a rule, on the rule set and presets."""

    dependencies = [
        ("tournaments", "0032_movement_sessions"),
    ]

    operations = [
        migrations.AddField(
            model_name="rulepreset",
            name="spread_clubs_every_day",
            field=models.BooleanField(
                default=False,
                help_text="Later days spread each club too, after keeping apart pairs who sat "
                "together before.",
                verbose_name="spread the clubs on later days too",
            ),
        ),
        migrations.AddField(
            model_name="ruleset",
            name="spread_clubs_every_day",
            field=models.BooleanField(
                default=False,
                help_text="Later days spread each club too, after keeping apart pairs who sat "
                "together before.",
                verbose_name="spread the clubs on later days too",
            ),
        ),
    ]
