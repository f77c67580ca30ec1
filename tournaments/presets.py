"""The rule presets from the organisers' rule sheets, kept in fixtures/rule_presets.json.

The migration that installs them and the tests that put them back after a flush both store them
through here, given the model class (the migration's historical one, or the real one).
"""

import json
from pathlib import Path

PRESETS_FILE = Path(__file__).resolve().parents[1] / "fixtures" / "rule_presets.json"


def preset_rows() -> list[dict]:
    return json.loads(PRESETS_FILE.read_text(encoding="utf-8"))


def store_presets(preset_model) -> None:
    """Create or refresh every preset in the file, with the columns ``preset_model`` has (an
    early migration's model lacks the later ones)."""
    columns = {f.name for f in preset_model._meta.get_fields()}
    for row in preset_rows():
        key = row.pop("key")
        values = {name: value for name, value in row.items() if name in columns}
        preset_model.objects.update_or_create(key=key, defaults=values)
