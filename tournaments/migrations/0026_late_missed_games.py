from django.db import migrations, models

from tournaments.presets import store_presets


def refresh_presets(apps, schema_editor):
    # The presets' rule for a late player's missed games, and where each comes from.
    store_presets(apps.get_model("tournaments", "RulePreset"))


FIELD = models.CharField(
    choices=[
        ("nothing", "Nothing"),
        ("highest", "The highest score at their table in that game"),
        ("average", "Their table's average in that game, rounded"),
    ],
    default="nothing",
    help_text="For each game of that day a late player missed, once it is confirmed at their "
    "table.",
    max_length=10,
    verbose_name="a late player's missed games count",
)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_season_min_sessions"),
    ]

    operations = [
        migrations.AddField(model_name="rulepreset", name="late_missed_games", field=FIELD),
        migrations.AddField(model_name="ruleset", name="late_missed_games", field=FIELD),
        migrations.RunPython(refresh_presets, migrations.RunPython.noop),
    ]
