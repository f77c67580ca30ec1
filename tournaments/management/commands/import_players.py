from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from core.spreadsheet_files import UnreadableFile, refuse_if_too_big
from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day
from tournaments.services.importing import ImportRefused, import_players


class Command(BaseCommand):
    help = (
        "Enter players from the club's spreadsheet (.xlsx or .csv; columns Name, Club, Keep apart, "
        "Table). If any row has a problem nothing is imported and every problem is listed."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("file", help="Path to the .xlsx or .csv file.")

    def handle(self, slug, file, **options):
        tournament, _ = find_day(slug, None)
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"There is no file at {file}.")
        # Same cap as an upload, checked before reading: the command reads the whole file into
        # memory too.
        try:
            refuse_if_too_big(path.stat().st_size, settings.UPLOAD_MAX_BYTES)
        except UnreadableFile as error:
            raise CommandError(str(error)) from error
        try:
            outcome = import_players(tournament, path.read_bytes(), path.name, user=COMMAND_LINE)
        except ImportRefused as error:
            lines = [str(error)] + [str(problem) for problem in error.problems]
            raise CommandError("\n".join(lines)) from error
        except ServiceError as error:
            raise CommandError(str(error)) from error
        count = len(outcome.entries)
        pairs = outcome.keep_apart_pairs
        self.stdout.write(
            f"Imported {count} player{'s' if count != 1 else ''} into {tournament.slug} "
            f"({outcome.from_directory} already in the club directory, "
            f"{pairs} keep-apart pair{'s' if pairs != 1 else ''})."
        )
        for entry in outcome.entries:
            pin = f"  pinned to table {entry.pinned_table}" if entry.pinned_table else ""
            self.stdout.write(f"#{entry.number} {entry.player.name}{pin}")
