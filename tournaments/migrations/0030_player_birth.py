from django.db import migrations, models


class Migration(migrations.Migration):
    """When a person was born, as far as the directory knows, for flights by age."""

    dependencies = [
        ("tournaments", "0029_seat_within_flights"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="birth_year",
            field=models.PositiveSmallIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="birth_date",
            field=models.DateField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(birth_date__isnull=True) | models.Q(birth_year__isnull=False),
                name="birth_date_has_its_year",
            ),
        ),
    ]
