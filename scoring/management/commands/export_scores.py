from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.entry_selectors import tournament_day
from scoring.workbook import export_day


class Command(BaseCommand):
    help = "Write a day's score entry workbook (.xlsx): one row per seated player per game."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file", help="Where to write the .xlsx file.")
        parser.add_argument("--day", type=int, required=True)

    def handle(self, slug, file, day, **options):
        try:
            tournament, day = tournament_day(slug, day)
        except LookupError as error:
            raise CommandError(str(error))
        if not day.tables.exists():
            raise CommandError(f"Day {day.number} is not seated yet: there are no tables.")
        path = Path(file)
        try:
            path.write_bytes(export_day(day))
        except OSError as error:
            raise CommandError(f"Could not write {path}: {error.strerror}.")
        self.stdout.write(f"Wrote {path}")
