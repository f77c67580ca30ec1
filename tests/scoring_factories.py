"""Build a seated day for score-entry tests without the seating pages."""
from __future__ import annotations

from types import SimpleNamespace

from django.contrib.auth import get_user_model

from scoring.models import AuditEvent, GameSheet, Score
from scoring.schedule import build_schedule
from scoring.validation import TypedSheet
from tournaments.models import Entry, Player, Seat, StaffRole, Table, Tournament
from tournaments.services.events import create_tournament

DEFAULT_TABLES = (("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox"), ("Ed Poe", "Flo Ng", "Gus Ray"))


def seated_day(*, slug="cup", preset="tournament", tables=DEFAULT_TABLES, day_number=1,
               organiser=None):
    """A tournament with one day seated: players numbered 1.. in table order, games scheduled.

    The rule presets it needs are in place for every database test: conftest's autouse
    ``rule_presets`` fixture loads them again after a transactional test's flush."""
    tournament = create_tournament(slug=slug, name=slug.title(), preset_key=preset,
                                   organiser=organiser)
    day = tournament.days.get(number=day_number)
    entries = {}
    table_rows = []
    number = 0
    for table_number, names in enumerate(tables, start=1):
        table = Table.objects.create(day=day, number=table_number)
        table_rows.append(table)
        for position, name in enumerate(names, start=1):
            number += 1
            player = Player.objects.create(name=name)
            entry = Entry.objects.create(tournament=tournament, player=player, number=number,
                                         status=Entry.CHECKED_IN)
            entries[name] = entry
            Seat.objects.create(day=day, table=table, entry=entry, position=position)
    games = {g.number: g for g in build_schedule(day)}
    return SimpleNamespace(tournament=tournament, day=day, tables=table_rows, entries=entries,
                           games=games, rules=tournament.rules)


def staff(tournament, username, role=StaffRole.DESK):
    """A staff user (no password: tests log in with force_login, and hashing is slow)."""
    user = get_user_model().objects.create(username=username)
    StaffRole.objects.create(tournament=tournament, user=user, role=role)
    return user


def typed(world, game_number, scores, *, out=None, blocked=False, engine=None, tiles=None):
    """A typed sheet from player names: scores {"Ann Lee": 0, ...}, out "Ann Lee" or a list."""
    ids = {name: world.entries[name].pk for name in world.entries}
    if isinstance(out, (list, tuple)):
        went_out = [ids[name] for name in out]
    else:
        went_out = ids[out] if out else None
    return TypedSheet(
        game_number=game_number,
        engine=world.games[game_number].scheduled_engine if engine is None else engine,
        scores={ids[name]: value for name, value in scores.items()},
        tiles={ids[name]: value for name, value in (tiles or {}).items()},
        went_out=went_out,
        blocked=blocked,
    )


def snapshot():
    """Every game sheet, score and audit event, field by field: a refusal leaves them equal."""
    return (list(GameSheet.objects.order_by("pk").values()),
            list(Score.objects.order_by("pk").values()),
            list(AuditEvent.objects.order_by("pk").values()))


def fresh(tournament):
    """The tournament read again from the database, with its rules."""
    return Tournament.objects.select_related("rules").get(pk=tournament.pk)


# Good scores for table 1 (four players), double blank worth 50: Ann went out.
T1 = {"Ann Lee": 0, "Bob Roe": 12, "Cy Doe": 40, "Di Fox": 7}
T2 = {"Ed Poe": 5, "Flo Ng": 0, "Gus Ray": 33}
