"""Writes for seating: seat or reseat a day, move and swap players, keep the repeat counts."""

import logging
import secrets
from dataclasses import dataclass, field

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from core.errors import ServiceError
from domain.finals import NO_FINAL
from domain.seating.bounds import repeat_lower_bound
from domain.seating.by_flight import seat_groups
from domain.seating.day import seat
from domain.seating.feasibility import namer
from domain.seating.pairs import (
    SeatingError,
    broken_keep_aparts,
    count_repeat_pairs,
    keep_apart_set,
    meeting_pairs,
    table_conflicts,
    table_sizes,
)
from domain.seating.plan_following import (
    PlanChanges,
    align_to_plan,
    breaks_rules,
    moved_from_plan,
    plan_changes,
)
from domain.seating.sessions import replan_session
from tournaments.hooks import day_seated
from tournaments.models import (
    Day,
    Entry,
    PlannedDay,
    Seat,
    SeatingPlan,
    Table,
    Tournament,
    new_table_code,
    new_table_token,
)
from tournaments.selectors import (
    keep_apart_ids,
    later_season_events,
    players_to_seat,
    season_seating_history,
    seating_history,
    seatings_by_day,
)
from tournaments.services.flight_tables import (
    fits_the_flights,
    flights_mixed,
    flights_sizes,
    groups_to_seat,
    seats_by_the_rules,
)
from tournaments.services.movement import movement_tables, note_hand_changes, seats_by_movement

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlanFollowed:
    """How a planned day's seating compares with its plan."""

    changes: PlanChanges  # players the plan seats who left, players it does not know
    moved: int  # players in both whose table is not the planned one
    replanned: bool  # the plan broke a pin or keep-apart pair set since: seated afresh

    @property
    def as_planned(self) -> bool:
        return not self.moved and not self.changes.count and not self.replanned


@dataclass
class SeatingOutcome:
    day: Day
    tables: list[list[Entry]]
    repeat_pairs: int
    lower_bound: int
    seed: int | None
    kept_tables: bool = False  # reshuffle is off and yesterday's tables were kept
    plan: PlanFollowed | None = None  # the day was planned: how far the plan was kept
    moves: list = field(default_factory=list)  # seated by a movement: each player's move
    cut_short: bool = False  # the time limit, not the work budget, ended the search


def _lock_day(day) -> Day:
    # Lock the day row alone: PostgreSQL refuses FOR UPDATE across the outer join to the rules.
    day = Day.objects.select_for_update().get(pk=day.pk)
    day.tournament = Tournament.objects.select_related("rules").get(pk=day.tournament_id)
    _refuse_if_fixed(day)
    return day


def is_fixed(day) -> bool:
    """Closed, or scores entered: the day's tables are what was played and never change."""
    return day.is_closed or day.scores_started()


def _refuse_if_fixed(day) -> None:
    if day.is_closed:
        raise ServiceError(f"Day {day.number} is closed; its seating can no longer change.")
    if day.scores_started():
        raise ServiceError(
            f"Day {day.number} already has scores, so its tables are fixed: nobody joins, moves "
            "or is substituted once play has started."
        )


def _seating_limits() -> dict:
    return {
        "time_limit": getattr(settings, "SEATING_TIME_LIMIT", 5.0),
        "max_evals": getattr(settings, "SEATING_MAX_EVALS", None),
    }


def _kept_tables(previous, players, sizes, pins, apart) -> list[list[int]] | None:
    """Yesterday's tables for today's players, if they still make a legal seating."""
    ids = {e.pk for e in players}
    tables = [[p for p in table if p in ids] for table in previous]
    tables = [t for t in tables if t]
    if sum(len(t) for t in tables) != len(ids):
        return None  # someone new: the tables cannot simply be kept
    if sorted((len(t) for t in tables), reverse=True) != sizes:
        return None
    tables.sort(key=len, reverse=True)  # table_sizes order: larger tables first
    where = {p: i + 1 for i, t in enumerate(tables) for p in t}
    if any(where[p] != t for p, t in pins.items()):
        return None
    apart_set = keep_apart_set(apart)
    if any(broken_keep_aparts(t, apart_set) for t in tables):
        return None
    return [sorted(t) for t in tables]


@transaction.atomic
def seat_day(day, *, seed: int | None = None, organiser=None) -> SeatingOutcome:
    """Seat (or reseat) one day and store the tables, the seed and the repeat count.

    From day 2 on, with reshuffle on, the seating avoids pairs who already shared a table on any
    earlier day and stops at the proven lower bound when it reaches it. With reshuffle off the
    previous day's tables are kept when they still fit today's players; otherwise (a withdrawal
    unbalanced them) a fresh random seating is drawn. A planned day (reshuffle on) follows its
    plan: see :func:`_seat_from_plan`.
    """
    day = _lock_day(day)
    _refuse_if_final(day)
    players = players_or_refuse(day.tournament)
    if seats_by_movement(day):
        tables, moves = movement_tables(day, players)
        return _commit_seating(day, players, tables, None, organiser, kept=False, moves=moves)
    planned = _plan_to_follow(day)
    if planned is not None:
        return _seat_from_plan(day, players, planned, seed, organiser)
    if seed is None:
        seed = secrets.randbits(31)
    tables, kept, cut_short = _choose_tables(day, players, seed)
    outcome = _commit_seating(day, players, tables, seed, organiser, kept=kept)
    outcome.cut_short = cut_short
    return outcome


def _plan_to_follow(day) -> PlannedDay | None:
    """The day's plan, while reshuffling is on (with it off every day keeps the day before's
    tables, and a plan made earlier no longer applies)."""
    if not day.tournament.rules.reshuffle_each_day or seats_by_movement(day):
        return None
    return PlannedDay.objects.select_related("plan").filter(day=day).first()


def _seat_from_plan(day, players, planned: PlannedDay, seed, organiser) -> SeatingOutcome:
    """Seat a planned day through the planner, which keeps the planned tables when the players
    are the ones planned and as much of them as it can after a change; the plan is then used
    up (a day is seated or planned, never both)."""
    seed = planned.plan.seed if seed is None else seed
    inputs = _SeatingInputs.of(day, players)
    max_size = day.tournament.rules.max_table_size
    groups = groups_to_seat(day.tournament.rules, players)
    time_limit = _seating_limits()["time_limit"] / (len(groups) if groups else 1)
    cut_short = False

    def replan(ids: list[int], pinned: dict[int, int], tables) -> list[list[int]]:
        nonlocal cut_short
        result = replan_session(
            tables,
            ids,
            max_size,
            seed=seed,
            history=inputs.history,
            keep_apart=inputs.apart,
            pinned=pinned,
            names=inputs.names,
            time_limit=time_limit,
        )
        cut_short = cut_short or result.cut_short
        return result.tables

    def replan_group(group, pinned: dict[int, int]) -> list[list[int]]:
        # A plan made within flights has tables of one group each.
        mine = set(group.ids)
        return replan(list(group.ids), pinned, [t for t in planned.tables if mine & set(t)])

    try:
        if groups is None:
            tables = replan(inputs.ids, inputs.pins, planned.tables)
        else:
            tables = seat_groups(groups, inputs.pins, max_size, namer(inputs.names), replan_group)
    except SeatingError as error:
        raise ServiceError(str(error)) from error
    tables = align_to_plan(tables, planned.tables, inputs.pins)
    replanned = breaks_rules(tables, inputs.pins, inputs.apart) or not seats_by_the_rules(
        tables, inputs.ids, groups, max_size
    )
    if replanned:  # a pin or keep-apart pair set since the plan (or a table size): seat afresh
        fresh, _, cut_short = _choose_tables(day, players, seed)
        tables = align_to_plan(fresh, planned.tables, inputs.pins)
    followed = PlanFollowed(
        changes=plan_changes(planned.entry_ids, inputs.ids),
        moved=moved_from_plan(tables, planned.tables),
        replanned=replanned,
    )
    outcome = _commit_seating(day, players, tables, seed, organiser, kept=False)
    outcome.plan, outcome.cut_short = followed, cut_short
    return outcome


@transaction.atomic
def seat_day_with_tables(
    day,
    tables: list[list[Entry]],
    *,
    seed: int | None = None,
    organiser=None,
) -> SeatingOutcome:
    """Seat a day at tables decided elsewhere (the demo's recorded event, say): the same checks
    and records as :func:`seat_day`, with the tables given instead of drawn."""
    day = _lock_day(day)
    players = players_or_refuse(day.tournament)
    given = [[entry.pk for entry in table] for table in tables]
    seated = sorted(p for table in given for p in table)
    if seated != sorted(e.pk for e in players):
        raise ServiceError("Those tables do not seat every player to seat exactly once.")
    sizes = sorted((len(t) for t in given), reverse=True)
    rules = day.tournament.rules
    groups = groups_to_seat(rules, players)
    if groups is not None and not fits_the_flights(given, groups, rules.max_table_size):
        raise ServiceError(
            "Those tables do not seat each flight at tables of its own, as evenly as the rules "
            "allow."
        )
    if groups is None and sizes != table_sizes(len(seated), rules.max_table_size):
        raise ServiceError("Those tables are not as even as the rules allow.")
    return _commit_seating(day, players, given, seed, organiser, kept=False)


def _refuse_if_final(day) -> None:
    rules = day.tournament.rules
    if rules.final_qualify != NO_FINAL and day.number == rules.days:
        raise ServiceError(
            f"Day {day.number} is the final: only those who qualify play it. Seat it with "
            '"Seat the final" (Standings, Final) or the command final SLUG --seat, once '
            "qualifying is over."
        )


@transaction.atomic
def seat_final_day(day, tables: list[list[Entry]], *, organiser=None) -> SeatingOutcome:
    """Seat the final (the event's last day) at the qualifiers' tables, which the final's
    rule chose (standings.finals): only they play it. Refused once the day has tables, is
    closed or has scores; the repeat counts are kept as for any day."""
    day = _lock_day(day)
    if Table.objects.filter(day=day).exists():
        raise ServiceError(
            f"The final (day {day.number}) is already seated. To seat it again, clear it "
            f'first (Seating, day {day.number}, "Clear").'
        )
    players = [entry for table in tables for entry in table]
    seated = [[entry.pk for entry in table] for table in tables]
    return _commit_seating(day, players, seated, None, organiser, kept=False)


def players_or_refuse(tournament) -> list[Entry]:
    players = players_to_seat(tournament)
    if not players:
        raise ServiceError("There is nobody to seat: enter players first.")
    return players


def clubs_to_spread(rules, history, players: list[Entry]) -> dict[int, str] | None:
    """Each player's club, for a first seating (no earlier day) when the rules spread clubs,
    or for any seating when they spread them every day too."""
    if not rules.spread_clubs or (history and not rules.spread_clubs_every_day):
        return None
    return {e.pk: e.club for e in players}


@dataclass(frozen=True)
class _SeatingInputs:
    """What every seating of a day reads: the players' ids, the earlier days, the pairs kept
    apart, the pins, and names for refusals."""

    ids: list[int]
    history: list[list[list[int]]]
    apart: list[tuple[int, int]]
    pins: dict[int, int]
    names: dict[int, str]

    @classmethod
    def of(cls, day, players: list[Entry]) -> "_SeatingInputs":
        return cls(
            ids=[e.pk for e in players],
            history=seating_history(day.tournament, day.number),
            apart=keep_apart_ids(day.tournament),
            pins={e.pk: e.pinned_table for e in players if e.pinned_table is not None},
            names={e.pk: f"{e.player.name} (#{e.number})" for e in players},
        )


def _choose_tables(day, players: list[Entry], seed: int) -> tuple[list[list[int]], bool, bool]:
    """The day's tables as entry ids, whether they are yesterday's kept as they were, and
    whether the time limit cut the search short."""
    rules = day.tournament.rules
    inputs = _SeatingInputs.of(day, players)
    history, apart, pins = inputs.history, inputs.apart, inputs.pins
    groups = groups_to_seat(rules, players)
    # Reshuffle is a rule between an event's days: day 1 of an event in a season always avoids
    # the season's earlier pairings (the history then holds only those).
    keep_tables = not rules.reshuffle_each_day and day.number > 1
    if history and keep_tables:
        sizes = table_sizes(len(inputs.ids), rules.max_table_size)
        if groups is not None:
            sizes = flights_sizes(groups, rules.max_table_size)
        kept = _kept_tables(history[-1], players, sizes, pins, apart)
        if kept is not None and fits_the_flights(kept, groups, rules.max_table_size):
            return kept, True, False
    limits = _seating_limits()
    if groups is not None:  # the safety net bounds the day, not each flight
        limits["time_limit"] /= len(groups)
    cut_short = False

    def seat_some(ids: list[int], pinned: dict[int, int]) -> list[list[int]]:
        nonlocal cut_short
        result = seat(
            ids,
            rules.max_table_size,
            seed=seed,
            history=() if keep_tables else history,
            keep_apart=apart,
            pinned=pinned,
            names=inputs.names,
            clubs=clubs_to_spread(rules, history, players),
            clubs_every_day=rules.spread_clubs and rules.spread_clubs_every_day,
            **limits,
        )
        cut_short = cut_short or result.cut_short
        return result.tables

    def seat_group(group, pinned: dict[int, int]) -> list[list[int]]:
        return seat_some(list(group.ids), pinned)

    try:
        if groups is None:
            tables = seat_some(inputs.ids, pins)
        else:
            tables = seat_groups(
                groups, pins, rules.max_table_size, namer(inputs.names), seat_group
            )
    except SeatingError as error:
        raise ServiceError(str(error)) from error
    return tables, False, cut_short


def _commit_seating(
    day, players, tables, seed, organiser, *, kept: bool, moves: list | None = None
) -> SeatingOutcome:
    by_id = {e.pk: e for e in players}
    seated = [[by_id[p] for p in table] for table in tables]
    _store_tables(day, seated)
    PlannedDay.objects.filter(day=day).delete()  # a day is seated or planned, never both
    day.seed = seed
    day.seated_at = timezone.now()
    day.moves = moves or []
    # Nothing of the new seating is printed yet; a reseat's warning said what paper it spoilt.
    day.charts_printed_at = day.sheets_printed_at = None
    day.save(update_fields=["seed", "seated_at", "moves", "charts_printed_at", "sheets_printed_at"])
    # Later days already seated are measured against this one, so their counts change too.
    repeats, bound = refresh_repeat_counts(day.tournament, day.number)[day.number]
    day.repeat_pairs, day.repeat_lower_bound = repeats, bound
    day_seated.send(sender=Day, day=day)
    logger.info(
        "Day %s of %s seated by %s with seed %s",
        day.number,
        day.tournament.slug,
        organiser or "a command",
        seed,
    )
    return SeatingOutcome(
        day=day,
        tables=seated,
        repeat_pairs=repeats,
        lower_bound=bound,
        seed=seed,
        kept_tables=kept,
        moves=day.moves,
    )


def _store_tables(day, tables: list[list[Entry]]) -> None:
    """Replace the day's seats. Table rows 1..k are kept, each with a new link and code: a
    printed sheet or QR code of the old seating would otherwise open a table that now seats
    other people, and its scores would be saved against them."""
    Seat.objects.filter(day=day).delete()
    Table.objects.filter(day=day, number__gt=len(tables)).delete()
    existing = {t.number: t for t in Table.objects.filter(day=day)}
    for table in existing.values():
        table.link_token, table.code = new_table_token(), new_table_code()
    Table.objects.bulk_update(existing.values(), ["link_token", "code"])
    for number in range(1, len(tables) + 1):
        if number not in existing:
            existing[number] = Table.objects.create(day=day, number=number)
    Seat.objects.bulk_create(
        Seat(day=day, table=existing[number], entry=entry, position=position)
        for number, members in enumerate(tables, start=1)
        for position, entry in enumerate(sorted(members, key=lambda e: e.number), start=1)
    )


def _current_tables(day) -> dict[int, list[int]]:
    tables: dict[int, list[int]] = {t.number: [] for t in Table.objects.filter(day=day)}
    for number, entry_id in Seat.objects.filter(day=day).values_list("table__number", "entry_id"):
        tables[number].append(entry_id)
    return tables


@transaction.atomic
def refresh_repeat_counts(tournament, from_day_number: int) -> dict[int, tuple[int, int]]:
    """Recompute the stored repeat pairs and lower bound of day ``from_day_number`` and of every
    later seated day, from the seats as stored; returns day number -> (pairs, bound).

    A day's repeats are counted against every earlier day, so changing one day's tables changes
    the figures of the days after it; the bound also respects pins. Every change to seats or pins
    goes through here so no stored figure is left measured against tables that no longer exist.
    In a season that avoids earlier pairings, the season's earlier events count as earlier days,
    and the later events' figures are refreshed too.
    """
    figures = _refresh_days(tournament, from_day_number)
    for later in later_season_events(tournament):
        _refresh_days(later, 1)
    return figures


def _refresh_days(tournament, from_day_number: int) -> dict[int, tuple[int, int]]:
    # Lock the days before reading their seats, so a reseat of a later day running at the same
    # time cannot slip in between the read and the write; always in day order, so no deadlock.
    days = list(
        Day.objects.select_for_update()
        .filter(tournament=tournament, number__gte=from_day_number, seated_at__isnull=False)
        .order_by("number")
    )
    if not days:
        return {}
    seatings = seatings_by_day(tournament)
    season = season_seating_history(tournament)
    pins = {
        pk: table
        for pk, table in Entry.objects.filter(
            tournament=tournament, pinned_table__isnull=False
        ).values_list("pk", "pinned_table")
        if table is not None  # always, after the filter: this tells the type checker so
    }
    figures = {}
    for day in days:
        tables = seatings.get(day.number, [])
        history = season + [earlier for number, earlier in seatings.items() if number < day.number]
        ids = [p for table in tables for p in table]
        sizes = sorted((len(t) for t in tables), reverse=True)
        day.repeat_pairs = count_repeat_pairs(tables, history)
        # Everyone may have withdrawn from a day; with nobody seated there is nothing to bound.
        day.repeat_lower_bound = (
            repeat_lower_bound(ids, sizes, history, {p: pins[p] for p in ids if p in pins})
            if ids
            else 0
        )
        day.save(update_fields=["repeat_pairs", "repeat_lower_bound"])
        figures[day.number] = (day.repeat_pairs, day.repeat_lower_bound)
    return figures


def _seat_of(day, entry) -> Seat:
    seat = (
        Seat.objects.filter(day=day, entry=entry).select_related("table", "entry__player").first()
    )
    if seat is None:
        raise ServiceError(f"{entry.player.name} has no seat on day {day.number}.")
    return seat


def _plan_move(day, entry, table_number: int) -> tuple[dict[int, list[int]], Seat]:
    tables = _current_tables(day)
    seat = _seat_of(day, entry)
    name = entry.player.name
    if table_number not in tables:
        raise ServiceError(f"Day {day.number} has no table {table_number}.")
    if seat.table.number == table_number:
        raise ServiceError(f"{name} is already at table {table_number}.")
    limit = day.tournament.rules.max_table_size
    if len(tables[table_number]) >= limit:
        raise ServiceError(
            f"Table {table_number} already has {len(tables[table_number])} players, the most a "
            f"table may seat. Swap {name} with one of them instead."
        )
    if len(tables[seat.table.number]) <= 2:
        raise ServiceError(f"Moving {name} would leave table {seat.table.number} with one player.")
    tables[seat.table.number].remove(entry.pk)
    tables[table_number].append(entry.pk)
    return tables, seat


def _plan_swap(day, first, second) -> tuple[dict[int, list[int]], Seat, Seat]:
    if first.pk == second.pk:
        raise ServiceError("Choose two different players to swap.")
    tables = _current_tables(day)
    seat_a, seat_b = _seat_of(day, first), _seat_of(day, second)
    if seat_a.table_id == seat_b.table_id:
        raise ServiceError(
            f"{first.player.name} and {second.player.name} are both at table "
            f"{seat_a.table.number}; swapping them changes nothing."
        )
    tables[seat_a.table.number].remove(first.pk)
    tables[seat_b.table.number].remove(second.pk)
    tables[seat_a.table.number].append(second.pk)
    tables[seat_b.table.number].append(first.pk)
    return tables, seat_a, seat_b


def _new_problems(day, before: dict, after: dict, moved: list[Entry]) -> list[str]:
    """Plain-words warnings for repeat meetings, keep-apart pairs and pins the change creates."""
    met = meeting_pairs(seating_history(day.tournament, day.number))
    apart = keep_apart_set(keep_apart_ids(day.tournament))

    def conflicts(tables: dict[int, list[int]]) -> list[tuple[int, int, str]]:
        # As meeting_conflicts orders them: by table, each table's players by id.
        return [c for t in tables.values() for c in table_conflicts(sorted(set(t)), met, apart)]

    old = set(conflicts(before))
    new = [c for c in conflicts(after) if c not in old]
    moved_ids = {e.pk for e in moved}
    ids = {p for c in new for p in c[:2]}
    names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))
    warnings = []
    for a, b, kind in new:
        if a not in moved_ids and b not in moved_ids:
            continue
        if kind == "keep-apart":
            warnings.append(f"{names[a]} and {names[b]} must sit apart, but would share a table.")
        else:
            warnings.append(f"{names[a]} and {names[b]} already met on an earlier day.")
    warnings += flights_mixed(day, before, after)
    table_of = {p: number for number, members in after.items() for p in members}
    for entry in moved:
        pin = entry.pinned_table
        if pin is not None and table_of[entry.pk] != pin:
            warnings.append(f"{entry.player.name} is pinned to table {pin}.")
    return warnings


def check_move(day, entry, table_number: int) -> list[str]:
    """Refuse an impossible move (ServiceError); otherwise list what the organiser should know."""
    _refuse_if_fixed(day)
    before = _current_tables(day)
    after, _ = _plan_move(day, entry, table_number)
    return _new_problems(day, before, after, [entry])


def check_swap(day, first, second) -> list[str]:
    _refuse_if_fixed(day)
    before = _current_tables(day)
    after, _, _ = _plan_swap(day, first, second)
    return _new_problems(day, before, after, [first, second])


@transaction.atomic
def move_player(day, entry, table_number: int) -> Seat:
    day = _lock_day(day)
    _, seat = _plan_move(day, entry, table_number)
    target = Table.objects.get(day=day, number=table_number)
    last = Seat.objects.filter(table=target).aggregate(n=Max("position"))["n"] or 0
    seat.table = target
    seat.position = last + 1
    seat.save(update_fields=["table", "position"])
    note_hand_changes(day, {entry.pk: table_number})
    refresh_repeat_counts(day.tournament, day.number)
    return seat


@transaction.atomic
def swap_players(day, first, second) -> None:
    day = _lock_day(day)
    _, seat_a, seat_b = _plan_swap(day, first, second)
    table_a, position_a = seat_a.table, seat_a.position
    table_b, position_b = seat_b.table, seat_b.position
    # Park one seat outside both tables so the one-player-per-seat rule holds at every step.
    seat_a.position = 0
    seat_a.table = table_b
    seat_a.save(update_fields=["table", "position"])
    seat_b.table, seat_b.position = table_a, position_a
    seat_b.save(update_fields=["table", "position"])
    seat_a.position = position_b
    seat_a.save(update_fields=["position"])
    note_hand_changes(day, {first.pk: table_b.number, second.pk: table_a.number})
    refresh_repeat_counts(day.tournament, day.number)


@transaction.atomic
def clear_seating(day, *, organiser=None) -> int:
    """Take a day's seats away (before its first score), so the day can be removed or seated
    again. Its table links stop working. A day of the event's seating plan keeps its planned
    tables: it goes back to planned, with the tables it had, so the organiser's plan is not lost
    with the seats. Returns how many planned tables it kept (0 for a day not in the plan)."""
    day = _lock_day(day)
    kept = _plan_again(day)
    Table.objects.filter(day=day).delete()  # with their seats
    day.seed = day.seated_at = day.repeat_pairs = day.repeat_lower_bound = None
    day.charts_printed_at = day.sheets_printed_at = None
    day.moves = []
    day.save(
        update_fields=[
            "moves",
            "seed",
            "seated_at",
            "repeat_pairs",
            "repeat_lower_bound",
            "charts_printed_at",
            "sheets_printed_at",
        ]
    )
    # Later seated days were measured against this one.
    refresh_repeat_counts(day.tournament, day.number)
    logger.info(
        "Day %s of %s unseated by %s", day.number, day.tournament.slug, organiser or "a command"
    )
    return kept


def _plan_again(day) -> int:
    """The day's seated tables stored as its planned day again, when the event's plan covers it
    (seating a planned day used its planned day up). Returns the number of tables kept."""
    plan = SeatingPlan.objects.filter(tournament_id=day.tournament_id).first()
    if plan is None or day.number not in plan.day_numbers or day.seated_at is None:
        return 0
    by_table: dict[int, list[int]] = {}
    seats = Seat.objects.filter(day=day).order_by("table__number", "position")
    for number, entry_id in seats.values_list("table__number", "entry_id"):
        by_table.setdefault(number, []).append(entry_id)
    tables = list(by_table.values())
    PlannedDay.objects.update_or_create(
        day=day,
        defaults={
            "plan": plan,
            "tables": tables,
            "repeat_pairs": day.repeat_pairs or 0,
            "lower_bound": day.repeat_lower_bound or 0,
        },
    )
    return len(tables)


CHARTS, SHEETS = "charts", "sheets"


def record_printed(day, what: str) -> None:
    """Note that the day's seating charts (or find-your-table lists), ``CHARTS``, or its score
    sheets, ``SHEETS``, were printed now: a later reseat or clear names the time."""
    field = {CHARTS: "charts_printed_at", SHEETS: "sheets_printed_at"}[what]
    moment = timezone.now()
    Day.objects.filter(pk=day.pk).update(**{field: moment})
    setattr(day, field, moment)
