from django.core.management.base import BaseCommand

from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day
from tournaments.management.walk_ins import enter_walk_in
from tournaments.services.late import substitute_walk_in


class Command(BaseCommand):
    help = (
        "Enter a substitute and seat them in player PLAYER_ID's seat from game G on (where the "
        "event's rules allow substitutes); a player still playing is withdrawn after game G-1. "
        "Refused with the reason, and nothing changed, otherwise."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("--day", type=int, required=True, help="Day number, from 1.")
        parser.add_argument(
            "--for",
            dest="replaced",
            type=int,
            required=True,
            metavar="PLAYER_ID",
            help="The number of the player whose seat the substitute takes.",
        )
        parser.add_argument("name", help="The substitute's name.")
        parser.add_argument(
            "--from-game", type=int, required=True, help="The first game the substitute plays."
        )
        parser.add_argument("--club", default="", help="Their club.")

    def handle(self, slug, day, replaced, name, from_game, club="", **options):
        tournament, day_row = find_day(slug, day)
        enter_walk_in(
            self,
            tournament,
            lambda: substitute_walk_in(
                day_row,
                replaced_number=replaced,
                name=name,
                club=club,
                from_game=from_game,
                by=COMMAND_LINE,
            ),
        )
