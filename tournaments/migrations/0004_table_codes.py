"""Every table gets a short code; existing tables are given one before the column turns unique."""

from django.db import migrations, models

import tournaments.models


def give_codes(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    used = set()
    for table in Table.objects.only("pk").iterator():
        code = tournaments.models.new_table_code()
        while code in used:
            code = tournaments.models.new_table_code()
        used.add(code)
        Table.objects.filter(pk=table.pk).update(code=code)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0003_entry_contact"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="code",
            field=models.CharField(max_length=6, null=True),
        ),
        migrations.RunPython(give_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="code",
            field=models.CharField(
                default=tournaments.models.new_table_code, max_length=6, unique=True
            ),
        ),
    ]
