from django.core.management.base import BaseCommand, CommandError

from tournaments.backups import BackupError, restore


class Command(BaseCommand):
    help = "Replace the database with a backup written by `manage.py backup`."

    def add_arguments(self, parser):
        parser.add_argument("file")

    def handle(self, file, **options):
        try:
            restore(file)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored {file}")
