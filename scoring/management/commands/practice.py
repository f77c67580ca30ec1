"""python manage.py practice SLUG: make the event's practice copy, or reset it (a practice event's
own slug resets it), and print its slug."""

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from scoring.practice import practice_event
from tournaments.access import COMMAND_LINE
from tournaments.management.lookup import find_day


class Command(BaseCommand):
    help = "Make a practice copy of an event for volunteers to try, or reset it; print its slug."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, slug, **options):
        tournament, _ = find_day(slug, None)
        try:
            copy, made = practice_event(tournament, by=COMMAND_LINE)
        except ServiceError as refusal:
            raise CommandError(str(refusal)) from None
        self.stderr.write(
            "Practice copy made." if made else "Practice event reset: scores cleared."
        )
        self.stdout.write(copy.slug)
