"""The day's schedule of games, derived from the tournament's rule set."""
from django.db import transaction

from .models import Game


@transaction.atomic
def ensure_schedule(day) -> list[Game]:
    """Create the day's games from the rules if they are missing; return them in order."""
    rules = day.tournament.rules
    existing = {g.number: g for g in Game.objects.filter(day=day)}
    missing = [
        Game(day=day, number=number, scheduled_engine=engine)
        for number, engine in enumerate(rules.scheduled_engines(), start=1)
        if number not in existing
    ]
    if missing:
        Game.objects.bulk_create(missing)
        existing.update({g.number: g for g in Game.objects.filter(day=day)})
    return [existing[n] for n in sorted(existing)]
