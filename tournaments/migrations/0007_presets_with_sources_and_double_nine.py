from django.db import migrations

from tournaments.presets import store_presets


def load_presets(apps, schema_editor):
    # Refreshes the presets with where each value comes from, and adds puremco-d9.
    store_presets(apps.get_model("tournaments", "RulePreset"))


def remove_double_nine(apps, schema_editor):
    apps.get_model("tournaments", "RulePreset").objects.filter(key="puremco-d9").delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0006_rules_per_event_engine_order_and_sets")]
    operations = [migrations.RunPython(load_presets, remove_double_nine)]
