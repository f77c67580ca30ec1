"""What the late_join and substitute commands print: one wording for a refusal and for the
player entered, whichever way they came in."""

from collections.abc import Callable

from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from tournaments.models import Tournament
from tournaments.presenters import late_plan_notes


def enter_walk_in(command: BaseCommand, tournament: Tournament, place: Callable) -> None:
    """Run ``place`` (a service that enters and seats someone) and print who was entered and
    where; a refusal becomes a CommandError, the service having changed nothing."""
    try:
        placed = place()
    except ServiceError as error:
        raise CommandError(f"Nobody was entered or seated: {error}") from error
    entry = placed.seat.entry
    command.stdout.write(f"{entry.player.name} is entered as player #{entry.number}.")
    for note in late_plan_notes(placed.plan, tournament.rules, entry.player.name):
        command.stdout.write(note)
