"""The day's schedule of games, derived from the tournament's rule set.

Games are written when a day is seated (the ``day_seated`` signal) and when the rules change;
pages, printouts and exports only read them.
"""

from django.db import transaction

from tournaments.models import Day

from .models import Game


def day_games(day) -> list[Game]:
    """The day's games in order. One query; an unseated day has none."""
    return list(Game.objects.filter(day=day).order_by("number"))


def game_numbered(games: list[Game], number: int | None) -> Game | None:
    return next((g for g in games if g.number == number), None)


@transaction.atomic
def build_schedule(day) -> list[Game]:
    """Create the games the rules call for that the day does not have yet; return them all."""
    # Two builds of one day at once: the day row lock makes the second wait and then find the
    # games the first made.
    Day.objects.select_for_update().filter(pk=day.pk).exists()
    engines = day.tournament.rules.scheduled_engines()
    existing = {g.number for g in Game.objects.filter(day=day)}
    Game.objects.bulk_create(
        Game(day=day, number=number, scheduled_engine=engine)
        for number, engine in enumerate(engines, start=1)
        if number not in existing
    )
    return day_games(day)


def build_schedule_for_seated_day(sender, *, day, **kwargs) -> None:
    build_schedule(day)


def build_schedules_for_rules(sender, *, instance, **kwargs) -> None:
    """A rule set saved (the admin, say): every seated day gets the games its rules now call for."""
    seated = Day.objects.filter(tournament_id=instance.tournament_id, tables__isnull=False)
    for day in seated.distinct():
        build_schedule(day)
