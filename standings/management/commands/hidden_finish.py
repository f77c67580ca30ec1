"""python manage.py hidden_finish SLUG --after-day N [--after-game K] | --reveal

Public pages and the projector stop showing the standings after game K of day N (no game: the
whole day) until the reveal. With neither, prints what is hidden now.
"""

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from standings.read import staff_note
from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day
from tournaments.services.events import set_hidden_finish


class Command(BaseCommand):
    help = "Hide the public standings after a game until the prizes are announced, or reveal them."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--after-day", type=int, help="Public standings stop after day N.")
        parser.add_argument(
            "--after-game", type=int, help="... and after game K of that day (default: all)."
        )
        parser.add_argument(
            "--reveal", action="store_true", help="Show the public every game again."
        )

    def handle(self, *args, slug, after_day, after_game, reveal, **options):
        tournament, _ = find_day(slug, None)
        if reveal and (after_day or after_game):
            raise CommandError("Give --reveal alone, or --after-day with --after-game.")
        if after_game is not None and after_day is None:
            raise CommandError("Give --after-day with --after-game.")
        if reveal or after_day is not None:
            try:
                changed = set_hidden_finish(tournament, after_day, after_game, by=COMMAND_LINE)
            except ServiceError as error:
                option = {"day": "--after-day", "game": "--after-game"}.get(error.field or "")
                raise CommandError(f"{option}: {error}" if option else str(error)) from None
            if not changed:
                self.stdout.write("Nothing changed.")
        self.stdout.write(
            staff_note(tournament) or "Nothing is hidden: public pages show every game."
        )
