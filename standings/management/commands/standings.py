"""python manage.py standings SLUG [--after-day N] [--after-game K] [--pdf FILE] [--xlsx FILE]"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.reports import PDF, XLSX
from standings.columns import Output, aligned_text, player_columns
from standings.read import CutError, marks_legend, parse_cut, standings
from standings.report import standings_report
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Print a tournament's standings; optionally write them as PDF and Excel."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--after-day", type=int, help="Count days 1 to N only.")
        parser.add_argument(
            "--after-game", type=int, help="Count games 1 to K of the last day counted only."
        )
        parser.add_argument(
            "--pdf", type=Path, metavar="FILE", help="Write the standings PDF here."
        )
        parser.add_argument(
            "--xlsx", type=Path, metavar="FILE", help="Write the Excel workbook here."
        )

    def handle(self, *args, slug, after_day, after_game, pdf, xlsx, **options):
        tournament = Tournament.objects.select_related("rules").filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f'There is no tournament with the slug "{slug}".')
        try:
            cut = parse_cut(tournament.rules, {"after_day": after_day, "after_game": after_game})
        except CutError as error:
            raise CommandError(str(error)) from None
        result = standings(tournament, cut)

        self.stdout.write(f"{tournament.name}: {result.title}")
        self.stdout.write(result.status_line)
        self.stdout.write(format_table(result))
        self.stdout.write(marks_legend(result))
        report = standings_report(result)
        try:
            for path in report.save({PDF: pdf, XLSX: xlsx}):
                self.stdout.write(f"Wrote {path}")
        except OSError as error:
            raise CommandError(f"Could not write {error.filename}: {error.strerror}.") from None


def format_table(result) -> str:
    """The players' table in columns of spaces: numbers right-aligned, names left."""
    columns = player_columns(result.day_numbers).for_output(Output.COMMAND)
    return aligned_text(columns, result.rows, Output.COMMAND)
