"""Finding the tournament and day a command names; every refusal is a CommandError, so the
command prints it and exits 1."""

from django.core.management.base import CommandError

from tournaments.selectors import tournament_day


def find_day(slug: str, day_number: int | None):
    """(tournament, day); day is None when no number is given."""
    try:
        return tournament_day(slug, day_number)
    except LookupError as error:
        raise CommandError(str(error)) from error
