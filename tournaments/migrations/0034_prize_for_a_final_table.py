from django.db import migrations, models


class Migration(migrations.Migration):
    """A prize may go to the lowest at a table of the final (its place is the table)."""

    dependencies = [
        ("tournaments", "0033_spread_clubs_every_day"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="prize", name="prize_kind_known"),
        migrations.AddConstraint(
            model_name="prize",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    kind__in=("place", "final_table", "lowest_game", "most_outs", "highest_total")
                ),
                name="prize_kind_known",
            ),
        ),
    ]
