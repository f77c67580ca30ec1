from django.core.management.base import BaseCommand

from scoring.management.command_helpers import require_tables, write_output
from scoring.workbook_export import export_day
from tournaments.management.lookup import find_day


class Command(BaseCommand):
    help = "Write a day's score entry workbook (.xlsx): one row per seated player per game."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file", help="Where to write the .xlsx file.")
        parser.add_argument("--day", type=int, required=True)

    def handle(self, slug, file, day, **options):
        _tournament, day = find_day(slug, day)
        require_tables(day)
        path = write_output(file, export_day(day))
        self.stdout.write(f"Wrote {path}")
