"""Contact details move from the directory's Player to each Entry: what a player gave one event's
organisers is not shown to another event's. Every entry gets its player's contact, so nothing is
lost; going back puts an entry's contact on its player again."""

from django.db import migrations, models


def contact_to_entries(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    Player = apps.get_model("tournaments", "Player")
    for player in Player.objects.exclude(contact="").iterator():
        Entry.objects.filter(player=player).update(contact=player.contact)


def contact_to_players(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    Player = apps.get_model("tournaments", "Player")
    for entry in Entry.objects.exclude(contact="").order_by("-registered_at").iterator():
        Player.objects.filter(pk=entry.player_id).update(contact=entry.contact)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_load_rule_presets")]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="contact",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.RunPython(contact_to_entries, contact_to_players),
        migrations.RemoveField(model_name="player", name="contact"),
    ]
