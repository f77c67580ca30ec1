from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.entry_selectors import tournament_day
from scoring.score_sheets_pdf import DEFAULT_BASE_URL, score_sheets_pdf


class Command(BaseCommand):
    help = "Write a day's table score sheets as a PDF: one page per table, with its QR link."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file", help="Where to write the PDF.")
        parser.add_argument("--day", type=int, required=True)
        parser.add_argument("--base-url", default=DEFAULT_BASE_URL,
                            help=f"Address phones use to reach this laptop (default {DEFAULT_BASE_URL}).")

    def handle(self, slug, file, day, base_url, **options):
        try:
            tournament, day = tournament_day(slug, day)
        except LookupError as error:
            raise CommandError(str(error))
        if not base_url.startswith(("http://", "https://")):
            raise CommandError(f'The base URL must start with http:// or https:// (got "{base_url}").')
        if not day.tables.exists():
            raise CommandError(f"Day {day.number} is not seated yet: there are no tables to print.")
        path = Path(file)
        try:
            path.write_bytes(score_sheets_pdf(day, base_url))
        except OSError as error:
            raise CommandError(f"Could not write {path}: {error.strerror}.")
        self.stdout.write(f"Wrote {path}")
