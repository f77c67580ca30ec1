from django.core.management.base import BaseCommand

from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day
from tournaments.management.walk_ins import enter_walk_in
from tournaments.services.late import late_join_walk_in


class Command(BaseCommand):
    help = (
        "Enter a player who arrives after play has started and seat them at the table with a "
        "free seat and fewest players, from its next game (where the event's rules let late "
        "players join). Refused with the reason, and nothing changed, otherwise."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("--day", type=int, required=True, help="Day number, from 1.")
        parser.add_argument("name", help="The new player's name.")
        parser.add_argument("--club", default="", help="Their club.")

    def handle(self, slug, day, name, club="", **options):
        tournament, day_row = find_day(slug, day)
        enter_walk_in(
            self,
            tournament,
            lambda: late_join_walk_in(day_row, name=name, club=club, by=COMMAND_LINE),
        )
