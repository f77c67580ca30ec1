"""python manage.py standings SLUG [--after-day N] [--after-game K] [--pdf FILE] [--xlsx FILE]"""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.standings import TIE_LEGEND, WITHDRAWN_LEGEND, CutError, parse_cut, standings, table_rows
from scoring.standings_pdf import render_standings_pdf
from scoring.standings_xlsx import standings_workbook
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Print a tournament's standings; optionally write them as PDF and Excel."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--after-day", type=int, help="Count days 1 to N only.")
        parser.add_argument("--after-game", type=int,
                            help="Count games 1 to K of the last day counted only.")
        parser.add_argument("--pdf", type=Path, metavar="FILE",
                            help="Write the standings PDF here.")
        parser.add_argument("--xlsx", type=Path, metavar="FILE",
                            help="Write the Excel workbook here.")

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
        self.stdout.write(f"{TIE_LEGEND} {WITHDRAWN_LEGEND}")
        for path, write in ((pdf, render_standings_pdf), (xlsx, standings_workbook)):
            if path is None:
                continue
            try:
                path.write_bytes(write(result))
            except OSError as error:
                raise CommandError(f"Could not write {path}: {error.strerror}.") from None
            self.stdout.write(f"Wrote {path}")


def format_table(result) -> str:
    header, body = table_rows(result)
    lines = [header, *body]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text_columns = {2, 3}
    return "\n".join(
        "  ".join(
            cell.ljust(width) if i in text_columns else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths))
        ).rstrip()
        for line in lines
    )
