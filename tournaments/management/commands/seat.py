from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from tournaments.management.lookup import find_day
from tournaments.services.seating import clear_seating, seat_day


class Command(BaseCommand):
    help = (
        "Seat (or reseat, before play starts) one day of a tournament and print the tables and "
        "the repeat pairs against the proven lower bound."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("--day", type=int, required=True, help="Day number, from 1.")
        parser.add_argument("--seed", type=int, help="Seed for a reproducible seating.")
        parser.add_argument(
            "--clear",
            action="store_true",
            help="Take the day's tables away instead (before its first score).",
        )

    def handle(self, slug, day, seed=None, clear=False, **options):
        tournament, day_row = find_day(slug, day)
        if clear:
            try:
                clear_seating(day_row)
            except ServiceError as error:
                raise CommandError(str(error)) from error
            self.stdout.write(f"{tournament.name}, day {day}: seating cleared.")
            return
        if seed is not None and not 0 <= seed < 2**31:
            raise CommandError("The seed must be a whole number from 0 to 2147483647.")
        try:
            outcome = seat_day(day_row, seed=seed)
        except ServiceError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(f"{tournament.name}, day {day}: seed {outcome.seed}")
        if outcome.kept_tables:
            self.stdout.write("Reshuffling is off: the previous day's tables were kept.")
        for number, members in enumerate(outcome.tables, start=1):
            names = ", ".join(f"#{e.number} {e.player.name}" for e in members)
            self.stdout.write(f"Table {number} ({len(members)}): {names}")
        self.stdout.write(
            f"repeat pairs: {outcome.repeat_pairs} (lower bound: {outcome.lower_bound})"
        )
