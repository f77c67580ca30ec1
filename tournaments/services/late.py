"""Seating someone after play has started, where the event's rules allow it: a late player at
the smallest table for the games still to come, or a substitute in a withdrawn player's seat
from a given game on. Both are entered as their own players and recorded on their seat."""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from core.errors import ServiceError
from tournaments.access import role_in
from tournaments.hooks import play_record
from tournaments.models import Day, Entry, Seat, StaffRole, Table, Tournament


@dataclass
class LateSeat:
    seat: Seat
    table_number: int
    from_game: int


def _lock(day, entry, by) -> tuple[Day, Entry]:
    day = Day.objects.select_for_update().get(pk=day.pk)
    day.tournament = Tournament.objects.select_related("rules").get(pk=day.tournament_id)
    if role_in(by, day.tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can seat a player after play has started.")
    if day.is_closed:
        raise ServiceError(f"Day {day.number} is closed.")
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    if entry.tournament_id != day.tournament_id:
        raise ServiceError("That player is not entered in this event.", field="entry")
    if entry.status == Entry.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has withdrawn.", field="entry")
    if Seat.objects.filter(day=day, entry=entry).exists():
        raise ServiceError(
            f"{entry.player.name} is already seated on day {day.number}.", field="entry"
        )
    return day, entry


def _add_seat(table: Table, entry: Entry, from_game: int, replaces=None) -> Seat:
    last = Seat.objects.filter(table=table).aggregate(n=Max("position"))["n"] or 0
    return Seat.objects.create(
        day_id=table.day_id,
        table=table,
        entry=entry,
        position=last + 1,
        joined_at_game=from_game,
        replaces=replaces,
    )


@transaction.atomic
def seat_late_player(day, entry, *, by) -> LateSeat:
    """Seat ``entry`` at the table with fewest players for its next game, from that game on."""
    day, entry = _lock(day, entry, by)
    rules = day.tournament.rules
    if not rules.late_joins:
        raise ServiceError(
            "This event's rules let nobody join once play has started (Rules: \u201cLate "
            "players may join\u201d).",
            field="entry",
        )
    options = []
    for table in Table.objects.filter(day=day).prefetch_related("seats").order_by("number"):
        next_game = play_record().last_game_entered(table) + 1
        if next_game > rules.games_per_day:
            continue
        playing = sum(1 for seat in table.seats.all() if seat.plays_game(next_game))
        if playing < rules.max_table_size:
            options.append((playing, table.number, table, next_game))
    if not options:
        raise ServiceError(
            f"No table on day {day.number} has a seat and a game still to come.", field="entry"
        )
    _, number, table, next_game = min(options, key=lambda option: option[:2])
    return LateSeat(_add_seat(table, entry, next_game), number, next_game)


@transaction.atomic
def seat_substitute(day, replaced, substitute, *, from_game: int, by) -> LateSeat:
    """``substitute`` takes withdrawn ``replaced``'s seat on ``day`` from ``from_game`` on."""
    day, substitute = _lock(day, substitute, by)
    if not day.tournament.rules.substitutes:
        raise ServiceError(
            "This event's rules allow no substitutes (Rules: \u201cSubstitutes allowed\u201d).",
            field="substitute",
        )
    seat = (
        Seat.objects.select_related("table", "entry__player")
        .filter(day=day, entry=replaced)
        .first()
    )
    if seat is None or seat.left_after_game is None:
        raise ServiceError(
            "Only a player who has withdrawn during the day can be replaced: withdraw them first.",
            field="replaced",
        )
    name = seat.entry.player.name
    entered = play_record().last_game_entered(seat.table)
    first_free = max(seat.left_after_game, entered) + 1
    if not first_free <= from_game <= day.tournament.rules.games_per_day:
        raise ServiceError(
            f"{name}'s table has entered games up to {entered} and {name} left after game "
            f"{seat.left_after_game}: the substitute can start from game {first_free} to "
            f"{day.tournament.rules.games_per_day}.",
            field="from_game",
        )
    if Seat.objects.filter(table=seat.table, replaces=replaced).exists():
        raise ServiceError(f"{name} already has a substitute.", field="replaced")
    return LateSeat(
        _add_seat(seat.table, substitute, from_game, replaces=replaced),
        seat.table.number,
        from_game,
    )
