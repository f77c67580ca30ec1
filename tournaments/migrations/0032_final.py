from django.db import migrations, models


class Migration(migrations.Migration):
    """A final (championship round) as a rule of the event and of its presets."""


    dependencies = [
        ('tournaments', '0027_flights'),
    ]

    operations = [
        migrations.AddField(
            model_name='rulepreset',
            name='final_counts',
            field=models.CharField(choices=[('own', "The final's own total"), ('added', 'Added to the qualifying total')], default='own', max_length=10, verbose_name='the final counts'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='final_qualifiers',
            field=models.PositiveSmallIntegerField(default=0, help_text='How many go through: overall, or from each flight.'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='final_qualify',
            field=models.CharField(choices=[('none', 'No final'), ('tables', 'The lowest total at each table of a chosen session'), ('overall', 'The best players overall'), ('flight', 'The best players of each flight')], default='none', max_length=10, verbose_name='a final: who goes through'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='final_session',
            field=models.PositiveSmallIntegerField(default=0, help_text='The session whose tables each send their lowest total.'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='final_tables',
            field=models.PositiveSmallIntegerField(default=1),
        ),
        migrations.AddField(
            model_name='ruleset',
            name='final_counts',
            field=models.CharField(choices=[('own', "The final's own total"), ('added', 'Added to the qualifying total')], default='own', max_length=10, verbose_name='the final counts'),
        ),
        migrations.AddField(
            model_name='ruleset',
            name='final_qualifiers',
            field=models.PositiveSmallIntegerField(default=0, help_text='How many go through: overall, or from each flight.'),
        ),
        migrations.AddField(
            model_name='ruleset',
            name='final_qualify',
            field=models.CharField(choices=[('none', 'No final'), ('tables', 'The lowest total at each table of a chosen session'), ('overall', 'The best players overall'), ('flight', 'The best players of each flight')], default='none', max_length=10, verbose_name='a final: who goes through'),
        ),
        migrations.AddField(
            model_name='ruleset',
            name='final_session',
            field=models.PositiveSmallIntegerField(default=0, help_text='The session whose tables each send their lowest total.'),
        ),
        migrations.AddField(
            model_name='ruleset',
            name='final_tables',
            field=models.PositiveSmallIntegerField(default=1),
        ),
    ]
