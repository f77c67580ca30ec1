from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day
from tournaments.presenters import late_plan_notes
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
        try:
            placed = late_join_walk_in(day_row, name=name, club=club, by=COMMAND_LINE)
        except ServiceError as error:
            raise CommandError(f"Nobody was entered or seated: {error}") from error
        entry = placed.seat.entry
        self.stdout.write(f"{entry.player.name} is entered as player #{entry.number}.")
        for note in late_plan_notes(placed.plan, tournament.rules, entry.player.name):
            self.stdout.write(note)
