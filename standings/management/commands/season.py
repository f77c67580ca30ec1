"""python manage.py season create|add|remove|standings ...

season create SLUG --name "Spring season" [--best-of N] [--min-sessions N]
              [--keep-earlier-pairings] [--public]
season add SLUG EVENT_SLUG [EVENT_SLUG ...] [--position P]
season remove SLUG EVENT_SLUG
season standings SLUG [--pdf FILE] [--xlsx FILE]
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from core.reports import PDF, XLSX
from standings.columns import Output, aligned_text
from standings.seasons.columns import season_columns
from standings.seasons.read import season_standings
from standings.seasons.report import season_report, session_key
from tournaments.services.seasons import add_events, create_season, remove_event, season_by_slug


class Command(BaseCommand):
    help = "Create a season, add or remove its events, print its standings (PDF and Excel too)."

    def add_arguments(self, parser):
        actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
        create = actions.add_parser("create", help="Create a season.")
        create.add_argument("slug")
        create.add_argument("--name", required=True)
        create.add_argument(
            "--best-of", type=int, help="Rank by each player's best N sessions (N of M)."
        )
        create.add_argument(
            "--min-sessions",
            type=int,
            default=1,
            help="Ranking by average per game, players with fewer sessions are listed after "
            "the ranked ones (default 1).",
        )
        create.add_argument(
            "--keep-earlier-pairings",
            action="store_true",
            help="Do not make the seating avoid pairs who met at the season's earlier events.",
        )
        create.add_argument("--public", action="store_true", help="Open the public season page.")
        add = actions.add_parser("add", help="Add events, in the order given.")
        add.add_argument("slug")
        add.add_argument("events", nargs="+", metavar="EVENT_SLUG")
        add.add_argument("--position", type=int, help="Insert from this place (1 is first).")
        remove = actions.add_parser("remove", help="Take an event out of the season.")
        remove.add_argument("slug")
        remove.add_argument("event", metavar="EVENT_SLUG")
        show = actions.add_parser("standings", help="Print the season standings.")
        show.add_argument("slug")
        show.add_argument("--pdf", type=Path, metavar="FILE")
        show.add_argument("--xlsx", type=Path, metavar="FILE")

    def handle(self, *args, action, **options):
        try:
            getattr(self, f"_{action}")(**options)
        except ServiceError as error:
            raise CommandError(str(error)) from None

    def _create(self, *, slug, name, best_of, min_sessions, keep_earlier_pairings, public, **_):
        season = create_season(
            slug=slug,
            name=name,
            best_of=best_of,
            min_sessions=min_sessions,
            avoid_earlier_pairings=not keep_earlier_pairings,
            public_pages=public,
        )
        self.stdout.write(f"Created the season {season.name} ({season.slug}).")

    def _add(self, *, slug, events, position, **_):
        season = season_by_slug(slug)
        places = add_events(season, events, position=position)
        for event, place in zip(events, places, strict=True):
            self.stdout.write(f"{event} is event {place} of {season.name}.")

    def _remove(self, *, slug, event, **_):
        season = season_by_slug(slug)
        remove_event(season, event)
        self.stdout.write(f"{event} is no longer in {season.name}.")

    def _standings(self, *, slug, pdf, xlsx, **_):
        result = season_standings(season_by_slug(slug))
        self.stdout.write(f"{result.season.name}: season standings")
        self.stdout.write(result.rule)
        self.stdout.write(result.status_line)
        self.stdout.write(format_season_table(result))
        self.stdout.write(result.legend)
        for line in session_key(result):
            self.stdout.write(line)
        report = season_report(result)
        try:
            for path in report.save({PDF: pdf, XLSX: xlsx}):
                self.stdout.write(f"Wrote {path}")
        except OSError as error:
            raise CommandError(f"Could not write {error.filename}: {error.strerror}.") from None


def format_season_table(result) -> str:
    columns = season_columns(result).for_output(Output.COMMAND)
    return aligned_text(columns, result.rows, Output.COMMAND)
