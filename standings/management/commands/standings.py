"""python manage.py standings SLUG [--after-day N] [--after-game K | --every-game] [--public]
[--flight F] [--pdf FILE] [--xlsx FILE]

With no cut asked for it prints what the page opens on (``requested_standings``): mid-day, the
standings after the last game every table has finished.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.reports import PDF, XLSX
from standings.columns import Output, aligned_text, player_columns
from standings.read import (
    DEFAULT_VIEW_NOTE,
    CutError,
    marks_legend,
    requested_standings,
    staff_note,
)
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
            "--every-game",
            action="store_true",
            help="Count every confirmed game, not only those every table has finished.",
        )
        parser.add_argument(
            "--public",
            action="store_true",
            help="What public pages and the projector show: never past a hidden finish.",
        )
        parser.add_argument(
            "--flight",
            metavar="F",
            help="One flight's standings, ranked within it (any case; an unknown one exits 1 "
            "naming the event's flights).",
        )
        parser.add_argument(
            "--pdf", type=Path, metavar="FILE", help="Write the standings PDF here."
        )
        parser.add_argument(
            "--xlsx", type=Path, metavar="FILE", help="Write the Excel workbook here."
        )

    def handle(self, *args, slug, after_day, after_game, every_game, public, pdf, xlsx, **options):
        flight = options.get("flight")
        tournament = Tournament.objects.select_related("rules").filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f'There is no tournament with the slug "{slug}".')
        asked = {"after_day": after_day, "after_game": after_game}
        params: dict[str, object] = {k: v for k, v in asked.items() if v is not None}
        if every_game:
            params = {"after_day": "", "after_game": ""} | params
        if flight is not None:
            params["flight"] = flight
        try:
            result = requested_standings(tournament, params, public=public)
        except CutError as error:
            raise CommandError(str(error)) from None

        self.stdout.write(f"{tournament.name}: {result.title}")
        self.stdout.write(result.status_line)
        if result.hidden_note:
            self.stdout.write(result.hidden_note)
        elif tournament.hidden_finish and not public:
            self.stdout.write(f"{staff_note(tournament)} (--public)")
        if result.default_view:
            self.stdout.write(DEFAULT_VIEW_NOTE.format(cut=result.cut_label) + " (--every-game)")
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
    columns = player_columns(
        result.day_numbers, result.tournament.rules.sessions_per_day
    ).for_output(Output.COMMAND)
    return aligned_text(columns, result.rows, Output.COMMAND)
