"""python manage.py final SLUG [--seat]

Without ``--seat`` it prints who would go through to the final now, and why; with it, it seats
the final (the event's last day) with them. Each refusal (no final in the rules, qualifying
not finished, the final already seated, more qualifiers than its tables seat) exits 1 with the
reason, and nothing changes.
"""

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from standings.finals import draw_final, seat_final
from tournaments.management.lookup import find_day


def _names(members) -> str:
    return ", ".join(f"#{e.number} {e.player.name}" for e in members)


class Command(BaseCommand):
    help = "Show who qualifies for the final and why; with --seat, seat the final."

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument(
            "--seat", action="store_true", help="Seat the final with the qualifiers."
        )

    def handle(self, slug, seat=False, **options):
        tournament, _ = find_day(slug, None)
        if not seat:
            draw = draw_final(tournament)
            self._qualifiers(tournament, draw)
            if draw.refusal:
                raise CommandError(draw.refusal)
            self.stdout.write("Seat it with: final SLUG --seat".replace("SLUG", slug))
            return
        try:
            draw, outcome = seat_final(tournament)
        except ServiceError as error:
            raise CommandError(str(error)) from error
        self._qualifiers(tournament, draw)
        self.stdout.write(f"The final (day {outcome.day.number}) is seated:")
        for number, members in enumerate(outcome.tables, start=1):
            self.stdout.write(f"Table {number} ({len(members)}): {_names(members)}")

    def _qualifiers(self, tournament, draw) -> None:
        if draw.qualifying is None:
            return
        self.stdout.write(
            f"{tournament.name}: {len(draw.qualifying.qualifiers)} qualified for the final"
        )
        for line in draw.lines:
            self.stdout.write(f"  {line}")
