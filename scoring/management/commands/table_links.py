from django.core.management.base import BaseCommand, CommandError

from scoring.entry_selectors import day_tables_with_seats, tournament_day
from scoring.score_sheets_pdf import DEFAULT_BASE_URL, table_link


class Command(BaseCommand):
    help = "Print each table's private scorekeeper link for a day."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--day", type=int, required=True)
        parser.add_argument("--base-url", default=DEFAULT_BASE_URL,
                            help=f"Address phones use to reach this laptop (default {DEFAULT_BASE_URL}).")

    def handle(self, slug, day, base_url, **options):
        try:
            tournament, day = tournament_day(slug, day)
        except LookupError as error:
            raise CommandError(str(error))
        if not base_url.startswith(("http://", "https://")):
            raise CommandError(f'The base URL must start with http:// or https:// (got "{base_url}").')
        items = day_tables_with_seats(day)
        if not items:
            raise CommandError(f"Day {day.number} is not seated yet: there are no tables.")
        if day.closed_at is not None:
            self.stderr.write(f"Day {day.number} is closed: these links will not work until it is reopened.")
        for item in items:
            self.stdout.write(f"Table {item['table'].number}: {table_link(base_url, item['table'])}")
