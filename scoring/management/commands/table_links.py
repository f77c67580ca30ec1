from django.core.management.base import BaseCommand

from scoring.management.command_helpers import (
    add_base_url_argument,
    check_base_url,
    require_tables,
)
from scoring.score_sheets_pdf import table_link
from scoring.selectors import day_tables_with_seats
from tournaments.management.lookup import find_day


class Command(BaseCommand):
    help = "Print each table's private scorekeeper link for a day."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--day", type=int, required=True)
        add_base_url_argument(parser)

    def handle(self, slug, day, base_url, **options):
        _tournament, day = find_day(slug, day)
        base_url = check_base_url(base_url)
        require_tables(day)
        items = day_tables_with_seats(day)
        if day.closed_at is not None:
            self.stderr.write(
                f"Day {day.number} is closed: these links will not work until it is reopened."
            )
        for item in items:
            table = item["table"]
            self.stdout.write(
                f"Table {table.number}: {table_link(base_url, table)} (code {table.code})"
            )
