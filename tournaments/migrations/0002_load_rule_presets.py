import json
from pathlib import Path

from django.db import migrations

PRESETS_FILE = Path(__file__).resolve().parents[2] / "fixtures" / "rule_presets.json"


def preset_rows() -> list[dict]:
    return json.loads(PRESETS_FILE.read_text())


def load_presets(apps, schema_editor):
    RulePreset = apps.get_model("tournaments", "RulePreset")
    for preset in preset_rows():
        key = preset.pop("key")
        RulePreset.objects.update_or_create(key=key, defaults=preset)


def remove_presets(apps, schema_editor):
    RulePreset = apps.get_model("tournaments", "RulePreset")
    keys = [p["key"] for p in preset_rows()]
    RulePreset.objects.filter(key__in=keys).delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial")]
    operations = [migrations.RunPython(load_presets, remove_presets)]
