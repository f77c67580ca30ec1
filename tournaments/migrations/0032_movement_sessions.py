from django.db import migrations, models

from domain import rules as rule_checks
from tournaments.presets import store_presets


def refresh_presets(apps, schema_editor):
    # Every preset reshuffles, one session a date, and says where that comes from.
    store_presets(apps.get_model("tournaments", "RulePreset"))


def rule_fields() -> list[tuple[str, models.Field]]:
    """The session seating rules, as RuleFields declares them (a fresh field per model)."""
    return [
        (
            "session_seating",
            models.CharField(
                choices=list(rule_checks.SESSION_SEATING_CHOICES.items()),
                default="reshuffle",
                max_length=10,
                verbose_name="seat each session after the first by",
            ),
        ),
        (
            "move_up",
            models.PositiveSmallIntegerField(
                default=0,
                help_text="Under a movement: the players with the lowest totals at each table "
                "move up one table, toward table 1.",
                verbose_name="lowest at each table who move up a table",
            ),
        ),
        (
            "move_down",
            models.PositiveSmallIntegerField(
                default=0,
                help_text="Under a movement: the players with the highest totals at each table "
                "move down one table.",
                verbose_name="highest at each table who move down a table",
            ),
        ),
        (
            "end_tables",
            models.CharField(
                choices=list(rule_checks.END_TABLES_CHOICES.items()),
                default="stay",
                max_length=10,
                verbose_name="table 1 and the last table",
            ),
        ),
        (
            "sessions_per_day",
            models.PositiveSmallIntegerField(
                default=1,
                help_text='Sessions played on one date; each session is a "day" of the rules, '
                "with its own tables and its games.",
            ),
        ),
    ]


class Migration(migrations.Migration):
    """Progressive tables: how each session after the first is seated, the movement's numbers,
    sessions a date; each day's moves when a movement seated it."""

    dependencies = [
        ("tournaments", "0031_prize_flight"),
    ]

    operations = [
        migrations.AddField(
            model_name="day", name="moves", field=models.JSONField(blank=True, default=list)
        ),
        *[
            migrations.AddField(model_name=model, name=name, field=field)
            for model in ("rulepreset", "ruleset")
            for name, field in rule_fields()
        ],
        migrations.RunPython(refresh_presets, migrations.RunPython.noop),
    ]
