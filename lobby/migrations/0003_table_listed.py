from django.db import migrations, models


class Migration(migrations.Migration):
    """A table's flag is "listed in the lobby" (a Game's is_public means "anyone with
    the link may review it"); the table's level was never read (the game's is)."""

    dependencies = [
        ("lobby", "0002_rematch"),
    ]

    operations = [
        migrations.RemoveField(model_name="table", name="level"),
        # Index by index: RenameField leaves an index's fields under the old name.
        migrations.RemoveIndex(model_name="table", name="lobby_table_is_publ_7fda43_idx"),
        migrations.RenameField(model_name="table", old_name="is_public", new_name="listed"),
        migrations.AddIndex(model_name="table",
                            index=models.Index(fields=["listed", "-created_at"], name="lobby_table_listed_c2bad4_idx")),
    ]
