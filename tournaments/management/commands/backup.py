from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.backups import BackupError, backup


class Command(BaseCommand):
    help = "Write a consistent, timestamped copy of the database (safe while the server runs)."

    def add_arguments(self, parser):
        parser.add_argument("directory", nargs="?", help="default: DJANGO_BACKUP_DIR (backups/)")

    def handle(self, directory=None, **options):
        try:
            path = backup(directory or settings.BACKUP_DIR)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(str(path))
