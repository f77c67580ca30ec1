from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def club_as_it_was(apps, schema_editor):
    """Every entry so far played for the club the directory holds now: the only record kept."""
    Entry = apps.get_model("tournaments", "Entry")
    Player = apps.get_model("tournaments", "Player")
    Entry.objects.update(club=Subquery(Player.objects.filter(pk=OuterRef("player_id")).values("club")[:1]))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_prizes"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="club",
            field=models.CharField(blank=True, max_length=120, verbose_name="club or chapter"),
        ),
        migrations.RunPython(club_as_it_was, migrations.RunPython.noop),
    ]
