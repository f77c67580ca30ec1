import datetime

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from tournaments.services.events import create_tournament


class Command(BaseCommand):
    help = "Create a tournament from a rule preset and print its slug."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument(
            "--rules", required=True, help="Preset key, e.g. tournament or good-sam."
        )
        parser.add_argument("--start-date", help="YYYY-MM-DD")

    def handle(self, slug, name, rules, start_date=None, **options):
        date = None
        if start_date:
            try:
                date = datetime.date.fromisoformat(start_date)
            except ValueError as error:
                raise CommandError(f'"{start_date}" is not a date like 2026-03-14.') from error
        try:
            tournament = create_tournament(slug=slug, name=name, preset_key=rules, start_date=date)
        except ServiceError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(tournament.slug)
