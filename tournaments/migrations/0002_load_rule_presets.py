from django.db import migrations

from tournaments.presets import preset_rows, store_presets


def load_presets(apps, schema_editor):
    store_presets(apps.get_model("tournaments", "RulePreset"))


def remove_presets(apps, schema_editor):
    RulePreset = apps.get_model("tournaments", "RulePreset")
    RulePreset.objects.filter(key__in=[p["key"] for p in preset_rows()]).delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(load_presets, remove_presets)]
