from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0006_imported_games'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='flagged',
            field=models.JSONField(blank=True, default=list, help_text='colours that ran out of time (3-4 players: also in forfeited, like a leaver)'),
        ),
        migrations.AddField(
            model_name='game',
            name='mailed_ply',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='time_control',
            field=models.CharField(choices=[('move', '60 seconds a move'), ('clock', 'Clock'), ('days', 'Correspondence')], default='move', max_length=5),
        ),
        migrations.AddField(
            model_name='game',
            name='time_increment',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='game',
            name='time_total',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='game',
            name='turn_started_at',
            field=models.DateTimeField(blank=True, help_text='when the player to move began', null=True),
        ),
        migrations.AddField(
            model_name='seat',
            name='lag',
            field=models.FloatField(default=0),
        ),
        migrations.AddField(
            model_name='seat',
            name='remaining',
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='game',
            name='ending',
            field=models.CharField(blank=True, choices=[('', 'Not over'), ('normal', 'Nobody could move'), ('forfeit', 'A player left'), ('abandoned', 'Abandoned for a new game'), ('time', 'Lost on time')], default='', max_length=10),
        ),
    ]
