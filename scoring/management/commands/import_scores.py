from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from scoring.workbook_import import WorkbookRefused, import_workbook
from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day


class Command(BaseCommand):
    help = (
        "Read a filled-in score workbook back. All or nothing: any bad row stops the "
        "import, and every bad row is listed with its row number."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("file")
        parser.add_argument(
            "--reason",
            default="",
            help="Needed when the file changes scores that are already confirmed.",
        )

    def handle(self, slug, file, reason, **options):
        tournament, _ = find_day(slug, None)
        path = Path(file)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Could not read {path}: {error.strerror}.") from error
        try:
            report = import_workbook(tournament, data, user=COMMAND_LINE, reason=reason)
        except WorkbookRefused as refused:
            raise CommandError("Nothing was imported:\n" + "\n".join(refused.lines)) from refused
        except ServiceError as error:
            raise CommandError(f"Nothing was imported: {error}") from error
        self.stdout.write(report.summary())
