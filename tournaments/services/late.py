"""Seating someone after play has started, where the event's rules allow it: a late player at
the table with a free seat and fewest players for the games still to come, or a substitute in a
withdrawn player's seat from a given game on. Both are entered as their own players and
recorded on their seat.

Each action has a plan (what would happen, read without writing: the pages show it before the
desk confirms) and the write, which works the plan out again under the day's lock, so what is
stored is what was shown or the desk is told what changed."""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max

from core.errors import ServiceError
from core.formats import entered_so_far, when_left
from domain.finals import NO_FINAL
from tournaments.access import role_in
from tournaments.hooks import play_record
from tournaments.models import Day, Entry, Seat, StaffRole, Table, Tournament
from tournaments.services.registration import register_player, withdraw_entry

LATE_RULE = "\u201cLate players may join\u201d"
SUBSTITUTE_RULE = "\u201cSubstitutes allowed\u201d"


@dataclass(frozen=True)
class LatePlan:
    """Where someone seated after play started goes: the table, the first game they play, how
    many play at that table from then on (them included) and how many tiles each draws."""

    day_number: int
    table_number: int
    from_game: int
    games_per_day: int
    players: int
    hand_size: int | None
    replaces: str = ""  # a substitute's: the withdrawn player whose seat they take
    replaced_left_after: int | None = None


@dataclass
class LateSeat:
    seat: Seat
    table_number: int
    from_game: int
    plan: LatePlan | None = None


def late_join_refusal(rules) -> str:
    """Why the event's rules let no late player in, or ""."""
    if rules.late_joins:
        return ""
    return f"This event's rules let nobody join once play has started (Rules: {LATE_RULE} is off)."


def substitute_refusal(rules) -> str:
    """Why the event's rules allow no substitute, or ""."""
    if rules.substitutes:
        return ""
    return f"This event's rules allow no substitutes (Rules: {SUBSTITUTE_RULE} is off)."


def _day_with_rules(day, *, lock: bool) -> Day:
    rows = Day.objects.select_for_update() if lock else Day.objects
    day = rows.get(pk=day.pk)
    day.tournament = Tournament.objects.select_related("rules").get(pk=day.tournament_id)
    if day.is_closed:
        raise ServiceError(f"Day {day.number} is closed: nobody can be seated on it now.")
    rules = day.tournament.rules
    if rules.final_qualify != NO_FINAL and day.number == rules.days:
        raise ServiceError(
            f"Day {day.number} is the final: only those who qualified play it, so nobody "
            "joins it late or as a substitute."
        )
    return day


def _lock(day, entry, by) -> tuple[Day, Entry]:
    day = _day_with_rules(day, lock=True)
    if role_in(by, day.tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can seat a player after play has started.")
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


def _playing(seats, game: int) -> int:
    return sum(1 for seat in seats if seat.plays_game(game))


def _most_playing(seats, first_game: int, last_game: int) -> int:
    """The most players any game from ``first_game`` to ``last_game`` has at these seats."""
    return max(_playing(seats, game) for game in range(first_game, last_game + 1))


def _late_table(day: Day) -> tuple[LatePlan, Table]:
    """The table a late player goes to: one with a free seat for its next game (the first after
    every game it entered or marked not played), fewest players first, then lowest number."""
    rules = day.tournament.rules
    if not day.tables.exists():
        raise ServiceError(f"Day {day.number} is not seated yet: seat the day instead.")
    refusal = late_join_refusal(rules)
    if refusal:
        raise ServiceError(refusal, field="entry")
    options = []
    for table in Table.objects.filter(day=day).prefetch_related("seats").order_by("number"):
        next_game = max(play_record().finished_games(table), default=0) + 1
        if next_game > rules.games_per_day:
            continue
        seats = table.seats.all()
        playing = _playing(seats, next_game)
        # A late player plays every game from the next one on, and the next one can come before
        # a seat already taken from a later game (a game marked wrong is to enter again).
        if _most_playing(seats, next_game, rules.games_per_day) < rules.max_table_size:
            options.append((playing, table.number, next_game, table))
    if not options:
        raise ServiceError(
            f"No table on day {day.number} has a free seat (at most {rules.max_table_size} "
            "players) and a game still to come.",
            field="entry",
        )
    playing, number, next_game, table = min(options, key=lambda option: option[:2])
    plan = LatePlan(
        day_number=day.number,
        table_number=number,
        from_game=next_game,
        games_per_day=rules.games_per_day,
        players=playing + 1,
        hand_size=rules.hand_size(playing + 1),
    )
    return plan, table


def plan_late_join(day) -> LatePlan:
    """Where a late player would be seated on ``day`` now, without seating anyone."""
    return _late_table(_day_with_rules(day, lock=False))[0]


def _refuse_changed(plan: LatePlan, expected: tuple[int, int] | None) -> None:
    if expected is None or expected == (plan.table_number, plan.from_game):
        return
    table, game = expected
    raise ServiceError(
        f"Day {plan.day_number} changed since you looked: the late player would now join table "
        f"{plan.table_number} from game {plan.from_game}, not table {table} from game {game}. "
        "Check the new seat and confirm again.",
        field="entry",
    )


@transaction.atomic
def seat_late_player(day, entry, *, by, expected: tuple[int, int] | None = None) -> LateSeat:
    """Seat ``entry`` at the table :func:`plan_late_join` chooses, from its next game on.
    ``expected``: the (table, first game) the desk was shown; refused if it has changed."""
    day, entry = _lock(day, entry, by)
    plan, table = _late_table(day)
    _refuse_changed(plan, expected)
    seat = _add_seat(table, entry, plan.from_game)
    return LateSeat(seat, plan.table_number, plan.from_game, plan)


def _substitute_seat(day: Day, replaced, from_game: int) -> tuple[LatePlan, Seat]:
    """The withdrawn player's seat a substitute would take from ``from_game``, and the plan."""
    rules = day.tournament.rules
    refusal = substitute_refusal(rules)
    if refusal:
        raise ServiceError(refusal, field="substitute")
    seat = (
        Seat.objects.select_related("table", "entry__player")
        .filter(day=day, entry=replaced)
        .first()
    )
    if seat is None:
        raise ServiceError(
            f"That player has no seat on day {day.number}, so nobody can take it.",
            field="replaced",
        )
    if seat.left_after_game is None:
        raise ServiceError(
            "Only a player who has withdrawn during the day can be replaced: withdraw them first.",
            field="replaced",
        )
    name, number = seat.entry.player.name, seat.table.number
    entered = max(play_record().finished_games(seat.table), default=0)
    first_free = max(seat.left_after_game, entered) + 1
    if not first_free <= from_game <= rules.games_per_day:
        raise ServiceError(
            f"Day {day.number}, table {number} {entered_so_far(entered)} and {name} "
            f"left {when_left(seat.left_after_game)}: the substitute can start from game "
            f"{first_free} to {rules.games_per_day}.",
            field="from_game",
        )
    if Seat.objects.filter(table=seat.table, replaces=replaced).exists():
        raise ServiceError(
            f"{name} already has a substitute at day {day.number}, table {number}.",
            field="replaced",
        )
    seats = seat.table.seats.all()
    if _most_playing(seats, from_game, rules.games_per_day) >= rules.max_table_size:
        raise ServiceError(
            f"Day {day.number}, table {number} already has {rules.max_table_size} players in a "
            f"game from game {from_game} on (a late player took {name}'s place): there is no "
            "seat for a substitute.",
            field="replaced",
        )
    playing = _playing(seats, from_game) + 1
    plan = LatePlan(
        day_number=day.number,
        table_number=number,
        from_game=from_game,
        games_per_day=rules.games_per_day,
        players=playing,
        hand_size=rules.hand_size(playing),
        replaces=name,
        replaced_left_after=seat.left_after_game,
    )
    return plan, seat


def plan_substitute(day, replaced, *, from_game: int) -> LatePlan:
    """What seating a substitute for ``replaced`` from ``from_game`` would do, without doing it."""
    return _substitute_seat(_day_with_rules(day, lock=False), replaced, from_game)[0]


@transaction.atomic
def seat_substitute(day, replaced, substitute, *, from_game: int, by) -> LateSeat:
    """``substitute`` takes withdrawn ``replaced``'s seat on ``day`` from ``from_game`` on."""
    day, substitute = _lock(day, substitute, by)
    plan, seat = _substitute_seat(day, replaced, from_game)
    placed = _add_seat(seat.table, substitute, from_game, replaces=replaced)
    return LateSeat(placed, plan.table_number, from_game, plan)


@transaction.atomic
def late_join_walk_in(day, *, name: str, club: str = "", by) -> LateSeat:
    """Enter a new player called ``name`` and seat them late on ``day``, in one go: refused
    (nothing entered) when they cannot be seated."""
    day = _day_with_rules(day, lock=True)
    if role_in(by, day.tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can seat a player after play has started.")
    _late_table(day)  # refuse before anyone is entered
    entry = register_player(day.tournament, name=name, club=club, user=by)
    return seat_late_player(day, entry, by=by)


@transaction.atomic
def substitute_walk_in(
    day, *, replaced_number: int, name: str, club: str = "", from_game: int, by
) -> LateSeat:
    """Enter a new player called ``name`` in the seat of player #``replaced_number`` from
    ``from_game`` on. A replaced player still playing is withdrawn after the game before it;
    any refusal leaves everything as it was."""
    day = _day_with_rules(day, lock=True)
    if role_in(by, day.tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can seat a player after play has started.")
    rules = day.tournament.rules
    refusal = substitute_refusal(rules)
    if refusal:
        raise ServiceError(refusal, field="substitute")
    if not 1 <= from_game <= rules.games_per_day:
        raise ServiceError(
            f"Choose a game from 1 to {rules.games_per_day} for the substitute to start.",
            field="from_game",
        )
    replaced = (
        Entry.objects.select_related("player")
        .filter(tournament=day.tournament, number=replaced_number)
        .first()
    )
    if replaced is None:
        raise ServiceError(f"No player #{replaced_number} in {day.tournament.name}.")
    seat = Seat.objects.select_related("table").filter(day=day, entry=replaced).first()
    if seat is not None and seat.left_after_game is None:
        entered = max(play_record().finished_games(seat.table), default=0)
        if from_game <= entered:
            raise ServiceError(
                f"Day {day.number}, table {seat.table.number} has entered games up to "
                f"{entered}: the substitute can start from game {entered + 1} to "
                f"{rules.games_per_day}.",
                field="from_game",
            )
        withdraw_entry(replaced, after_game=from_game - 1, day_number=day.number)
    entry = register_player(day.tournament, name=name, club=club, user=by)
    return seat_substitute(day, replaced, entry, from_game=from_game, by=by)
