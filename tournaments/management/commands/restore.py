from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.template.defaultfilters import filesizeformat
from django.utils import timezone

from tournaments.backups import BackupError, BackupFile, backups_in, restore


class Command(BaseCommand):
    help = (
        "Replace the database with a backup (stop the server first). Without a file, list the "
        "backups newest first, numbered: restore N takes number N of that list."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", nargs="?", help="a backup file, or its number in the list")

    def handle(self, file=None, **options):
        found = self._backups()
        if file is None:
            self._list(found)
            return
        path = Path(file)
        if file.isdigit() and not path.exists():
            number = int(file)
            if not 1 <= number <= len(found):
                raise CommandError(
                    f"There is no backup number {number}: the list has {len(found)}. Run "
                    "restore without a file to see it."
                )
            path = found[number - 1].path
        try:
            restore(path)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"Restored {path}")

    def _backups(self) -> list[BackupFile]:
        folders = [Path(settings.BACKUP_DIR)]
        if settings.BACKUP_COPY_DIR:
            folders.append(Path(settings.BACKUP_COPY_DIR))
        found = [b for folder in folders for b in backups_in(folder)]
        # A backup also copied to the stick is listed once, from the laptop's folder.
        seen: set[str] = set()
        unique = []
        for b in found:
            if b.path.name not in seen:
                seen.add(b.path.name)
                unique.append(b)
        return sorted(unique, key=lambda b: b.taken_at, reverse=True)

    def _list(self, found: list[BackupFile]) -> None:
        if not found:
            self.stdout.write(f"No backups in {settings.BACKUP_DIR}.")
            return
        width = len(str(len(found)))
        for number, b in enumerate(found, start=1):
            when = timezone.localtime(b.taken_at).strftime("%a %d %b %H:%M:%S")
            size = filesizeformat(b.path.stat().st_size)
            self.stdout.write(f"{number:>{width}}. {when}  {b.why:<34} {size:>9}  {b.path}")
        self.stdout.write("Restore one with: python manage.py restore N (stop the server first).")
