from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from scoring.workbook_import import ALL_CHECKED, WorkbookRefused, WorkbookToCheck, import_workbook
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
        parser.add_argument(
            "--scores-checked",
            action="store_true",
            help="The scores an earlier run asked you to check are right: import them.",
        )

    def handle(self, slug, file, reason, scores_checked=False, **options):
        tournament, _ = find_day(slug, None)
        path = Path(file)
        try:
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Could not read {path}: {error.strerror}.") from error
        try:
            report = import_workbook(
                tournament,
                data,
                user=COMMAND_LINE,
                reason=reason,
                checked=ALL_CHECKED if scores_checked else "",
            )
        except WorkbookToCheck as to_check:
            raise CommandError(
                "Nothing was imported yet: please check these scores against the cards.\n"
                + "\n".join(to_check.lines)
                + "\nIf they are right, run the import again with --scores-checked."
            ) from None
        except WorkbookRefused as refused:
            raise CommandError("Nothing was imported:\n" + "\n".join(refused.lines)) from refused
        except ServiceError as error:
            raise CommandError(f"Nothing was imported: {error}") from error
        self.stdout.write(report.summary())
