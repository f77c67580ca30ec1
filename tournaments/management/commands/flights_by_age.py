import datetime

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from core.errors import ServiceError
from domain.flights import ages_reached_on
from tournaments.management.lookup import find_day
from tournaments.services.flight_ages import set_flights_by_age


class Command(BaseCommand):
    help = (
        "Set every player's flight from the year or date they were born: the flight of their "
        "age on a date (31 December of the event's year unless --on gives another). Players "
        "who cannot be placed keep their flight and are listed with the reason."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("--on", help="The date to count ages on, YYYY-MM-DD.")

    def handle(self, slug, on=None, **options):
        tournament, _ = find_day(slug, None)
        if on is None:
            day = ages_reached_on(tournament.start_date, timezone.localdate())
        else:
            try:
                day = datetime.date.fromisoformat(on)
            except ValueError as error:
                raise CommandError(f'--on "{on}" is not a date written YYYY-MM-DD.') from error
        try:
            outcome = set_flights_by_age(tournament, on=day)
        except ServiceError as error:
            raise CommandError(str(error)) from error
        for line in outcome.lines():
            self.stdout.write(line)
