"""The seating plan as the organiser sees it, measured against the event as it is now."""

from dataclasses import dataclass, field

from domain.seating.bounds import ScheduleBound, repeat_lower_bound, schedule_bound
from domain.seating.pairs import keep_apart_set, meeting_pairs, table_conflicts, table_sizes
from domain.seating.plan_following import PlanChanges, plan_changes, running_repeats, schedule_line
from tournaments.models import Day, Entry, SeatingPlan
from tournaments.selectors.players import to_seat_among
from tournaments.selectors.seating import keep_apart_ids, seating_history, seatings_by_day

PLANNED, SEATED, NEITHER = "planned", "seated", "neither"


@dataclass
class PlannedSeatView:
    entry_id: int
    entry: Entry | None  # None when the entry no longer exists
    playing: bool  # among the players a seating would seat now
    notes: list[str] = field(default_factory=list)  # problems: "met Bob Ray on an earlier day"
    marks: list[str] = field(default_factory=list)  # not problems: "pinned to table 3"


@dataclass
class PlannedTableView:
    number: int
    seats: list[PlannedSeatView]

    @property
    def size(self) -> int:
        return sum(1 for seat in self.seats if seat.playing)


@dataclass
class PlanDayView:
    day: Day
    state: str  # PLANNED, SEATED (seated since the plan was made) or NEITHER (cleared since)
    tables: list[PlannedTableView]  # the planned tables, for a day still planned
    repeats: int  # pairs meeting again, with the days before as they now stand
    planned_repeats: int | None  # as planned, for a day still planned
    lower_bound: int | None  # the fewest a day planned can have after the days before it now
    fits: bool = True  # its tables are as even as the rules now ask for the players planned

    @property
    def is_planned(self) -> bool:
        return self.state == PLANNED


@dataclass
class PlanView:
    plan: SeatingPlan
    days: list[PlanDayView]
    lower_bound: int  # the schedule's: as planned, or for today's players once they changed
    changes: PlanChanges  # players changed since the plan was made
    gone: list[str]  # their names (or "player #id" for an entry that no longer exists)
    new: list[str]
    reshuffle_off: bool  # switched off since: seating keeps the day before's tables instead
    # False when the planned days seat too many players to show their tables (see seating_plan)
    tables_shown: bool = True
    planned_seats: int = 0  # seats over the days still planned
    bound_reason: str = ""  # why no schedule of these days has fewer ("" when that is 0)
    at_most_twice: int = 0  # the fewest with no pair meeting three times, where that is more

    @property
    def total_repeats(self) -> int:
        return sum(day.repeats for day in self.days)

    @property
    def schedule_line(self) -> str:
        return schedule_line(
            self.total_repeats, self.lower_bound, self.bound_reason, self.at_most_twice
        )

    @property
    def best_possible(self) -> bool:
        return self.total_repeats <= self.lower_bound

    @property
    def planned_days(self) -> list[PlanDayView]:
        return [day for day in self.days if day.is_planned]

    @property
    def fits_the_rules(self) -> bool:
        """False once the table size changed since planning: seating redoes the tables."""
        return all(day.fits for day in self.planned_days)

    def day(self, number: int) -> PlanDayView | None:
        return next((d for d in self.days if d.day.number == number and d.is_planned), None)


def seating_plan(tournament, *, seats_shown: int | None = None) -> PlanView | None:
    """The event's seating plan as the organiser sees it, measured against the event as it is
    now: which planned days are still planned, their tables (players who left marked), each
    day's repeats with the days before as they now stand, and who changed since. Six queries.

    Past ``seats_shown`` seats over the days still planned, no tables (``tables_shown``)."""
    plan = SeatingPlan.objects.filter(tournament=tournament).first()
    if plan is None:
        return None
    days = list(
        Day.objects.filter(tournament=tournament, number__in=plan.day_numbers)
        .select_related("planned")
        .order_by("number")
    )
    for day in days:
        day.tournament = tournament  # with its rules, already read
    entries = {
        e.pk: e for e in Entry.objects.filter(tournament=tournament).select_related("player")
    }
    playing = {e.pk for e in to_seat_among(sorted(entries.values(), key=lambda e: e.number))}
    history = seating_history(tournament, min(plan.day_numbers, default=1))
    seated = seatings_by_day(tournament)
    apart = keep_apart_set(keep_apart_ids(tournament))
    playing_now = _PlayingNow(
        ids=sorted(playing),
        sizes=table_sizes(len(playing), tournament.rules.max_table_size),
        pins={p: e.pinned_table for p, e in entries.items() if e.pinned_table and p in playing},
    )
    planned_seats = _planned_seats(days)
    shown = seats_shown is None or planned_seats <= seats_shown
    views: list[PlanDayView] = []
    earlier = list(history)
    for day in days:
        view, tables = _plan_day_view(day, seated, entries, playing_now, earlier, apart, shown)
        views.append(view)
        if tables:
            earlier.append(tables)
    changes = plan_changes(plan.players, playing)

    def name(pk: int) -> str:
        return entries[pk].player.name if pk in entries else f"a player no longer entered (#{pk})"

    bound = plan_bound(playing_now, history, tournament.rules.max_table_size, len(views))
    return PlanView(
        plan=plan,
        days=views,
        lower_bound=bound.value,
        bound_reason=bound.reason,
        at_most_twice=bound.at_most_twice,
        changes=changes,
        gone=[name(pk) for pk in changes.gone],
        new=[name(pk) for pk in changes.new],
        reshuffle_off=not tournament.rules.reshuffle_each_day,
        tables_shown=shown,
        planned_seats=planned_seats,
    )


def plan_bound(now: "_PlayingNow", history, max_table_size: int, days: int) -> ScheduleBound:
    """The fewest repeats any schedule of the plan's days can have, and why, for the players
    and pins as they now stand (what the planner proved when nothing changed since)."""
    index = {p: i for i, p in enumerate(now.ids)}
    renumbered = [[[index[p] for p in t if p in index] for t in d] for d in history]
    pins = {index[p]: t for p, t in now.pins.items()}
    return schedule_bound(len(index), max_table_size, days, renumbered, pinned=pins)


def _planned_seats(days) -> int:
    """Seats over the days still planned (a planned day not seated since)."""
    return sum(
        len(day.planned.entry_ids)
        for day in days
        if day.seated_at is None and getattr(day, "planned", None) is not None
    )


@dataclass(frozen=True)
class _PlayingNow:
    ids: list[int]  # the players a seating would seat now
    sizes: list[int]  # their tables' sizes
    pins: dict[int, int]


def _plan_day_view(day, seated, entries, now: _PlayingNow, earlier, apart, shown=True):
    """One day of the plan, and its tables as they now stand (for the days after it); the
    view's tables only when ``shown``."""
    playing = set(now.ids)
    planned = getattr(day, "planned", None)
    if day.seated_at is not None:
        tables = seated.get(day.number, [])
        return PlanDayView(
            day, SEATED, [], running_repeats(earlier, [tables])[0], None, None
        ), tables
    if planned is None:
        return PlanDayView(day, NEITHER, [], 0, None, None), []
    tables = [[p for p in t if p in playing] for t in planned.tables]
    view = PlanDayView(
        day=day,
        state=PLANNED,
        tables=_planned_tables(planned, entries, playing, earlier, apart) if shown else [],
        repeats=running_repeats(earlier, [tables])[0],
        planned_repeats=planned.repeat_pairs,
        lower_bound=repeat_lower_bound(now.ids, now.sizes, earlier, now.pins) if now.ids else 0,
        fits=sorted(map(len, planned.tables), reverse=True)
        == table_sizes(len(planned.entry_ids), day.tournament.rules.max_table_size),
    )
    return view, tables


def _planned_tables(planned, entries, playing, earlier, apart) -> list[PlannedTableView]:
    """A planned day's tables with each player's notes: who they would meet again (after the
    days before as they now stand), keep-apart pairs and pins set since, and who left."""
    met = meeting_pairs(earlier)
    views = []
    for number, table in enumerate(planned.tables, start=1):
        seats = [PlannedSeatView(p, entries.get(p), p in playing) for p in table]
        here = {seat.entry_id: seat for seat in seats if seat.playing}
        for a, b, kind in table_conflicts(sorted(here), met, apart):
            for view, other in ((here[a], here[b]), (here[b], here[a])):
                other_name = other.entry.player.name if other.entry else ""
                if kind == "keep-apart":
                    view.notes.append(f"must sit apart from {other_name}")
                else:
                    view.notes.append(f"met {other_name} on an earlier day")
        for seat in seats:
            pin = seat.entry.pinned_table if seat.entry else None
            if not seat.playing:
                seat.notes.append("no longer playing")
            elif pin is not None and pin != number:
                seat.notes.append(f"pinned to table {pin}")
            elif pin is not None:
                seat.marks.append(f"pinned to table {pin}")
        seats.sort(key=lambda s: s.entry.number if s.entry else s.entry_id)
        views.append(PlannedTableView(number=number, seats=seats))
    return views
