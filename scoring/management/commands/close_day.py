from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from scoring import services
from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day


class Command(BaseCommand):
    help = (
        "Close a day (its table links stop working), or reopen it with --reopen (every table "
        "gets a new link; the old ones stay dead)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--day", type=int, required=True)
        parser.add_argument("--reopen", action="store_true")

    def handle(self, slug, day, reopen, **options):
        _tournament, day = find_day(slug, day)
        try:
            if reopen:
                services.reopen_day(day, COMMAND_LINE)
                self.stdout.write(
                    f"Day {day.number} is open again; every table has a new link "
                    "(print them with table_links or print_sheets)."
                )
            else:
                services.close_day(day, COMMAND_LINE)
                self.stdout.write(f"Day {day.number} is closed: its table links no longer work.")
        except ServiceError as error:
            raise CommandError(str(error)) from error
