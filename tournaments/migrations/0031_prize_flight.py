from django.db import migrations, models
from django.db.models import Q


class Migration(migrations.Migration):
    """A prize may be a flight's: a place is then unique within its flight."""

    dependencies = [
        ("tournaments", "0030_player_birth"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="prize", name="one_prize_per_place"),
        migrations.AddField(
            model_name="prize",
            name="flight",
            field=models.CharField(blank=True, max_length=24),
        ),
        migrations.AddConstraint(
            model_name="prize",
            constraint=models.UniqueConstraint(
                condition=Q(kind="place"),
                fields=("tournament", "flight", "place"),
                name="one_prize_per_place",
            ),
        ),
    ]
