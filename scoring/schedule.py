"""The day's schedule of games, derived from the tournament's rule set.

Games are written when a day is seated (the ``day_seated`` signal) and when the rules change;
pages, printouts and exports only read them.
"""

from django.db import transaction

from scoring import table_reads
from scoring.models import Game, GameSheet
from tournaments.models import Day


def day_games(day) -> list[Game]:
    """The day's games in order. One query; an unseated day has none."""
    return table_reads.day_games(day.pk)


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
    # A day seated again after a rule change (or after its seating was cleared) plays the
    # schedule the rules call for now.
    rebuild_schedule(day, day.tournament.rules.scheduled_engines())


def rebuild_schedule(day, engines: list[int]) -> None:
    """Make a day with no score sheets play ``engines``: games past the new count go, kept
    games take their new engine, missing ones are added. A day with sheets keeps its games
    (the rules page refuses changes once play has started)."""
    Day.objects.select_for_update().filter(pk=day.pk).exists()
    if GameSheet.objects.filter(game__day=day).exists():
        build_schedule(day)
        return
    Game.objects.filter(day=day, number__gt=len(engines)).delete()
    games = {g.number: g for g in Game.objects.filter(day=day)}
    for number, engine in enumerate(engines, start=1):
        game = games.get(number)
        if game is None:
            Game.objects.create(day=day, number=number, scheduled_engine=engine)
        elif game.scheduled_engine != engine:
            Game.objects.filter(pk=game.pk).update(scheduled_engine=engine)


def build_schedules_for_rules(sender, *, instance, **kwargs) -> None:
    """A rule set saved (the rules page, the command, the admin): every seated day without
    scores plays the schedule the rules now call for."""
    seated = Day.objects.filter(tournament_id=instance.tournament_id, tables__isnull=False)
    engines = instance.scheduled_engines()
    with transaction.atomic():
        for day in seated.distinct():
            rebuild_schedule(day, engines)
