from django.core.management.base import BaseCommand

from scoring.management.command_helpers import (
    add_base_url_argument,
    check_base_url,
    require_tables,
    write_output,
)
from scoring.score_sheets_pdf import score_sheets_pdf
from tournaments.management.lookup import find_day
from tournaments.services.seating import SHEETS, record_printed


class Command(BaseCommand):
    help = "Write a day's table score sheets as a PDF: one page per table, with its QR link."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file", help="Where to write the PDF.")
        parser.add_argument("--day", type=int, required=True)
        add_base_url_argument(parser)

    def handle(self, slug, file, day, base_url, **options):
        _tournament, day = find_day(slug, day)
        base_url = check_base_url(base_url)
        require_tables(day, " to print")
        path = write_output(file, score_sheets_pdf(day, base_url))
        record_printed(day, SHEETS)
        self.stdout.write(f"Wrote {path}")
