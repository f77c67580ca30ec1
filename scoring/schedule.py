"""The day's schedule of games, derived from the tournament's rule set."""
from django.db import transaction

from tournaments.models import Day

from .models import Game


def ensure_schedule(day) -> list[Game]:
    """Create the day's games from the rules if they are missing; return them in order.

    Pages call this on every view, so the usual case (every game already there) is one plain
    read: on SQLite a transaction here would be IMMEDIATE and make every page queue for the
    write lock behind the score saves.
    """
    engines = day.tournament.rules.scheduled_engines()
    existing = {g.number: g for g in Game.objects.filter(day=day)}
    if all(number in existing for number in range(1, len(engines) + 1)):
        return [existing[n] for n in sorted(existing)]
    return _create_missing(day, engines)


def game_numbered(games: list[Game], number: int | None) -> Game | None:
    return next((g for g in games if g.number == number), None)


@transaction.atomic
def _create_missing(day, engines) -> list[Game]:
    # Two first looks at a day at once: the day row lock makes the second wait and then find
    # the games the first made (SQLite's IMMEDIATE transaction already serialises them).
    Day.objects.select_for_update().filter(pk=day.pk).exists()
    existing = {g.number: g for g in Game.objects.filter(day=day)}
    missing = [
        Game(day=day, number=number, scheduled_engine=engine)
        for number, engine in enumerate(engines, start=1)
        if number not in existing
    ]
    if missing:
        Game.objects.bulk_create(missing)
        existing.update({g.number: g for g in Game.objects.filter(day=day)})
    return [existing[n] for n in sorted(existing)]
