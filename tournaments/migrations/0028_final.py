from django.db import migrations, models

from tournaments.presets import store_presets


def refresh_presets(apps, schema_editor):
    # The presets' final (none) and where each of its values comes from.
    store_presets(apps.get_model("tournaments", "RulePreset"))


def fields():
    """The final's rule fields (domain.finals), as both the rule set and the preset hold them."""
    return [
        (
            "final_qualify",
            models.CharField(
                choices=[
                    ("none", "No final"),
                    ("tables", "The lowest total at each table of a chosen session"),
                    ("overall", "The best players overall"),
                    ("flight", "The best players of each flight"),
                ],
                default="none",
                max_length=10,
                verbose_name="a final: who goes through",
            ),
        ),
        (
            "final_session",
            models.PositiveSmallIntegerField(
                default=0, help_text="The session whose tables each send their lowest total."
            ),
        ),
        (
            "final_qualifiers",
            models.PositiveSmallIntegerField(
                default=0, help_text="How many go through: overall, or from each flight."
            ),
        ),
        ("final_tables", models.PositiveSmallIntegerField(default=1)),
        (
            "final_counts",
            models.CharField(
                choices=[
                    ("own", "The final's own total"),
                    ("added", "Added to the qualifying total"),
                ],
                default="own",
                max_length=10,
                verbose_name="the final counts",
            ),
        ),
    ]


class Migration(migrations.Migration):
    """A final (championship round) as a rule of the event and of its presets."""

    dependencies = [
        ("tournaments", "0027_flights"),
    ]

    operations = [
        *(
            migrations.AddField(model_name=model, name=name, field=field)
            for model in ("rulepreset", "ruleset")
            for name, field in fields()
        ),
        migrations.RunPython(refresh_presets, migrations.RunPython.noop),
    ]
