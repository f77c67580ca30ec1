"""Reads that feed pages and exports, each a fixed number of queries."""

from dataclasses import dataclass, field

from django.db import connections
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q

from core.search import matches, search_key
from domain.seating.bounds import repeat_lower_bound, schedule_lower_bound
from domain.seating.pairs import (
    club_groups,
    club_spread,
    keep_apart_set,
    meeting_pairs,
    table_conflicts,
    table_sizes,
)
from domain.seating.plan_following import PlanChanges, plan_changes, running_repeats, schedule_line
from tournaments.hooks import entry_games, last_game_entered
from tournaments.models import (
    Day,
    Entry,
    KeepApart,
    PlannedDay,
    Player,
    Season,
    SeasonEvent,
    Seat,
    SeatingPlan,
    StaffRole,
    Table,
    Tournament,
)
from tournaments.player_import import name_key


def tournament_overview(tournament) -> dict:
    counts = Entry.objects.filter(tournament=tournament).aggregate(
        registered=Count("pk"),
        checked_in=Count("pk", filter=Q(status=Entry.CHECKED_IN)),
        withdrawn=Count("pk", filter=Q(status=Entry.WITHDRAWN)),
    )
    days = list(
        Day.objects.filter(tournament=tournament)
        .annotate(
            table_count=Count("tables", distinct=True),
            seat_count=Count("seats", distinct=True),
            planned_now=Exists(PlannedDay.objects.filter(day=OuterRef("pk"))),
        )
        .order_by("number")
    )
    place = SeasonEvent.objects.filter(tournament=tournament).select_related("season").first()
    return {"entry_counts": counts, "days": days, "season_place": place}


# ---------------------------------------------------------------------------
# Players and check-in
# ---------------------------------------------------------------------------


def first_started_day(tournament) -> int | None:
    """The number of the first day with a score, or None before play starts. One query."""
    return (
        Table.objects.with_scores()
        .filter(day__tournament=tournament)
        .order_by("day__number")
        .values_list("day__number", flat=True)
        .first()
    )


def play_started(tournament) -> bool:
    """Any score on any day: from then on nobody new joins the event (the two-day tournament
    rules). One query."""
    return first_started_day(tournament) is not None


def players_to_seat(tournament) -> list[Entry]:
    """Who a seating seats: checked-in players; when nobody has been checked in, every player
    still entered."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.WITHDRAWN)
        .select_related("player")
        .order_by("number")
    )
    return to_seat_among(entries)


def to_seat_among(entries: list[Entry]) -> list[Entry]:
    """The rule of :func:`players_to_seat`, applied to entries already read."""
    playing = [e for e in entries if e.status != Entry.WITHDRAWN]
    here = [e for e in playing if e.status == Entry.CHECKED_IN]
    return here or playing


@dataclass(frozen=True)
class EnteredName:
    pk: int
    number: int
    name: str
    withdrawn: bool


def entered_names(tournament, *, exclude_entry=None) -> dict[str, EnteredName]:
    """:func:`name_key` of every name entered in the event -> its entry. One query.

    Withdrawn entries count: a player who comes back is brought back with "Undo the withdrawal"
    (same number, same history), not entered a second time under the same name.
    """
    entries = Entry.objects.filter(tournament=tournament)
    if exclude_entry is not None:
        entries = entries.exclude(pk=exclude_entry.pk)
    rows = [
        EnteredName(pk, number, name, status == Entry.WITHDRAWN)
        for pk, number, name, status in entries.values_list(
            "pk", "number", "player__name", "status"
        )
    ]
    # Older data may hold a name twice (withdrawn names once did not count): the entry still
    # playing, then the lowest number, is the one a name refers to, so it goes in last.
    rows.sort(key=lambda e: (not e.withdrawn, -e.number))
    return {name_key(e.name): e for e in rows}


def keep_apart_partners(tournament) -> dict[int, list[Entry]]:
    """Entry id -> the entries it must sit apart from. One query."""
    partners: dict[int, list[Entry]] = {}
    pairs = KeepApart.objects.filter(tournament=tournament).select_related(
        "first__player", "second__player"
    )
    for pair in pairs:
        partners.setdefault(pair.first_id, []).append(pair.second)
        partners.setdefault(pair.second_id, []).append(pair.first)
    for entries in partners.values():
        entries.sort(key=lambda e: e.number)
    return partners


def entry_list(tournament, *, query: str = "") -> list[Entry]:
    """Every entry, by player number, each with ``keep_apart`` (a list of entries). Two queries."""
    entries = (
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("number")
    )
    listed = [entry for entry in entries if matches(query, entry.player.name)]
    partners = keep_apart_partners(tournament)
    for entry in listed:
        entry.keep_apart = partners.get(entry.pk, [])
    return listed


def entry_detail(tournament, number: int) -> Entry | None:
    entry = (
        Entry.objects.filter(tournament=tournament, number=number).select_related("player").first()
    )
    if entry is not None:
        entry.keep_apart = keep_apart_partners(tournament).get(entry.pk, [])
    return entry


def directory_for(user):
    """The players ``user`` may see in the directory and enter again: those entered in an event
    they organise (every player for a superuser or the command line). Another organiser's
    players, private events' among them, stay out of sight. A queryset, unevaluated."""
    if getattr(user, "is_superuser", False):
        return Player.objects.all()
    organised = StaffRole.objects.filter(user=user, role=StaffRole.ORGANISER).values(
        "tournament_id"
    )
    return Player.objects.filter(
        pk__in=Entry.objects.filter(tournament_id__in=organised).values("player_id")
    )


def directory_matches(tournament, query: str, user, limit: int = 20) -> list[Player]:
    """Players in ``user``'s directory (:func:`directory_for`) whose name contains ``query``,
    by the search rule (core.search), each with ``entry_number`` (their number in this event, or
    None). Two queries: the directory's names, then the players found."""
    query = " ".join(query.split())
    if len(search_key(query)) < 2:
        return []
    named = [
        pk for pk, name in directory_for(user).values_list("pk", "name") if matches(query, name)
    ]
    players = list(
        Player.objects.filter(pk__in=named)
        .prefetch_related(
            Prefetch(
                "entries",
                queryset=Entry.objects.filter(tournament=tournament),
                to_attr="entries_here",
            )
        )
        .order_by("name", "pk")[:limit]
    )
    found: list[Player] = []
    for player in players:
        player.entry_number = player.entries_here[0].number if player.entries_here else None
        found.append(player)
    return found


def check_in_list(tournament) -> dict:
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("player__name", "number")
    )
    counts = {status: 0 for status, _ in Entry.STATUSES}
    for entry in entries:
        counts[entry.status] += 1
    return {"entries": entries, "counts": counts, "play_started": play_started(tournament)}


# ---------------------------------------------------------------------------
# Seating
# ---------------------------------------------------------------------------


def _tables_by_day(seats) -> dict[int, list[list[int]]]:
    days: dict[int, dict[int, list[int]]] = {}
    rows = seats.order_by("day__number", "table__number", "position").values_list(
        "day__number", "table__number", "entry_id"
    )
    for day_number, table_number, entry_id in rows:
        days.setdefault(day_number, {}).setdefault(table_number, []).append(entry_id)
    return {n: [tables[t] for t in sorted(tables)] for n, tables in sorted(days.items())}


def seating_history(tournament, before_day: int) -> list[list[list[int]]]:
    """Tables of every earlier session as lists of entry ids, oldest first: the sessions of the
    season's earlier events (see :func:`season_seating_history`), then this event's days before
    ``before_day``. One query."""
    return _session_tables(tournament, before_day)


def season_seating_history(tournament) -> list[list[list[int]]]:
    """The tables of every session of the season's earlier events (by position), oldest first,
    as this event's entry ids: players not entered here are dropped, and so are tables left
    with fewer than two of them (no pair to avoid). Empty when the event is in no season or its
    season does not avoid earlier pairings. One query."""
    return _session_tables(tournament, 1)


# One query whatever the number of events: a seat of an earlier event is mapped to this event's
# entry of the same player by a join, so a player not entered here drops out in the database.
_SESSION_TABLES_SQL = """
SELECT d.id, t.number, here.id
FROM tournaments_seat s
JOIN tournaments_day d ON d.id = s.day_id
JOIN tournaments_table t ON t.id = s.table_id
JOIN tournaments_entry e ON e.id = s.entry_id
JOIN tournaments_entry here ON here.player_id = e.player_id AND here.tournament_id = %s
LEFT JOIN tournaments_seasonevent se ON se.tournament_id = d.tournament_id
WHERE (d.tournament_id = %s AND d.number < %s)
   OR (d.tournament_id <> %s AND EXISTS (
        SELECT 1 FROM tournaments_seasonevent mine
        JOIN tournaments_season sn ON sn.id = mine.season_id
        WHERE mine.tournament_id = %s AND sn.avoid_earlier_pairings = %s
          AND mine.season_id = se.season_id AND se.position < mine.position))
ORDER BY CASE WHEN d.tournament_id = %s THEN 1 ELSE 0 END, se.position, d.number, t.number
"""


def _session_tables(tournament, before_day: int) -> list[list[list[int]]]:
    pk = tournament.pk
    with connections[Seat.objects.db].cursor() as cursor:
        cursor.execute(_SESSION_TABLES_SQL, [pk, pk, before_day, pk, pk, True, pk])
        rows = cursor.fetchall()
    sessions: dict[int, dict[int, list[int]]] = {}
    for day_id, table_number, entry_id in rows:
        sessions.setdefault(day_id, {}).setdefault(table_number, []).append(entry_id)
    history = []
    for tables in sessions.values():  # in the order of the rows: oldest session first
        kept = [sorted(table) for table in tables.values() if len(table) >= 2]
        if kept:
            history.append(kept)
    return history


def later_season_events(tournament) -> list[Tournament]:
    """The events after this one in its season, in order, when the season avoids earlier
    pairings (their repeat figures count this event's seatings). One query."""
    return list(
        Tournament.objects.filter(
            season_event__season__season_events__tournament=tournament,
            season_event__season__avoid_earlier_pairings=True,
            season_event__position__gt=F("season_event__season__season_events__position"),
        ).order_by("season_event__position")
    )


def seatings_by_day(tournament) -> dict[int, list[list[int]]]:
    """Day number -> that day's tables as lists of entry ids, for every day with seats. One
    query."""
    return _tables_by_day(Seat.objects.filter(day__tournament=tournament))


def keep_apart_ids(tournament) -> list[tuple[int, int]]:
    return list(
        KeepApart.objects.filter(tournament=tournament).values_list("first_id", "second_id")
    )


@dataclass
class SeatView:
    seat: Seat
    entry: Entry
    # plain-words notes: "met Bob Ray on an earlier day", "must sit apart from Ann Lee"
    notes: list[str] = field(default_factory=list)
    # badges that are not problems: "pinned to table 3", "kept apart from Ann Lee"
    marks: list[str] = field(default_factory=list)


@dataclass
class TableView:
    table: Table
    seats: list[SeatView]

    @property
    def number(self) -> int:
        return self.table.number

    @property
    def size(self) -> int:
        return len(self.seats)


def day_tables(day) -> list[Table]:
    """The day's tables with seats, entries and players loaded. Two queries."""
    seats = Seat.objects.select_related("entry__player").order_by("position")
    return list(
        Table.objects.filter(day=day)
        .order_by("number")
        .prefetch_related(Prefetch("seats", queryset=seats))
    )


def day_seating(day) -> dict:
    """Everything the seating page shows for one day. Five queries."""
    tournament = day.tournament
    tables = day_tables(day)
    history = seating_history(tournament, day.number)
    met = meeting_pairs(history)
    apart = keep_apart_set(keep_apart_ids(tournament))
    views = []
    for table in tables:
        seat_views = [SeatView(seat=s, entry=s.entry) for s in table.seats.all()]
        by_id = {view.entry.pk: view for view in seat_views}
        for a, b, kind in table_conflicts(list(by_id), met, apart):
            for view, other in ((by_id[a], by_id[b]), (by_id[b], by_id[a])):
                name = other.entry.player.name
                if kind == "keep-apart":
                    view.notes.append(f"must sit apart from {name}")
                else:
                    view.notes.append(f"met {name} on an earlier day")
        for view in seat_views:
            pin = view.entry.pinned_table
            if pin is not None and pin != table.number:
                view.notes.append(f"pinned to table {pin}")
            elif pin is not None:
                view.marks.append(f"pinned to table {pin}")
        views.append(TableView(table=table, seats=seat_views))
    _mark_kept_apart(views, apart)
    return {
        "day": day,
        "tables": views,
        "seated_count": sum(v.size for v in views),
        "scores_started": day.scores_started(),
        "history_days": len(history),
        "club_spread": _club_spread(views),
    }


def _club_spread(views) -> tuple[int, int] | None:
    """(largest number of one club at one table, the best possible), None without clubs."""
    clubs = {v.entry.pk: v.entry.player.club for t in views for v in t.seats}
    if not club_groups(clubs, clubs):
        return None
    return club_spread([[v.entry.pk for v in t.seats] for t in views], clubs)


def _mark_kept_apart(views: list[TableView], apart: set[tuple[int, int]]) -> None:
    """Mark each seated player who has a keep-apart partner seated that day, wherever."""
    names = {v.entry.pk: v.entry.player.name for t in views for v in t.seats}
    for table in views:
        for view in table.seats:
            for pair in apart:
                if view.entry.pk in pair:
                    other = pair[1] if pair[0] == view.entry.pk else pair[0]
                    if other in names:
                        view.marks.append(f"kept apart from {names[other]}")


def seating_days(tournament) -> list[Day]:
    """The tournament's days with table and seat counts and ``playing`` (scores started: the
    same rule as :meth:`Day.scores_started`, asked for every day at once). One query."""
    return list(
        Day.objects.filter(tournament=tournament)
        .annotate(
            table_count=Count("tables", distinct=True),
            seat_count=Count("seats", distinct=True),
            playing=Exists(Table.objects.with_scores().filter(day=OuterRef("pk"))),
            planned_now=Exists(PlannedDay.objects.filter(day=OuterRef("pk"))),
        )
        .order_by("number")
    )


def find_your_table(tournament, query: str, limit: int = 30) -> dict:
    """Entries whose name contains ``query`` by the search rule (core.search), with their table
    on each day. Four queries."""
    query = " ".join(query.split())
    days = list(Day.objects.filter(tournament=tournament).order_by("number"))
    if len(search_key(query)) < 2:
        return {"days": days, "results": [], "query": query, "too_short": bool(query)}
    seats = Seat.objects.select_related("table", "day")
    found = [
        pk
        for pk, name in Entry.objects.filter(tournament=tournament).values_list(
            "pk", "player__name"
        )
        if matches(query, name)
    ]
    entries = list(
        Entry.objects.filter(pk__in=found)
        .select_related("player")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("player__name", "number")[:limit]
    )
    results = []
    for entry in entries:
        by_day = {s.day.number: s for s in entry.seats.all()}
        results.append(
            {
                "entry": entry,
                "days": [(day, by_day.get(day.number)) for day in days],
            }
        )
    return {"days": days, "results": results, "query": query, "too_short": False}


def find_table_rows(day) -> list[tuple[str, int, int]]:
    """(name, player number, table number) for everyone seated on ``day``, A to Z. One query."""
    rows = list(
        Seat.objects.filter(day=day).values_list(
            "entry__player__name", "entry__number", "table__number"
        )
    )
    rows.sort(key=lambda r: (r[0].casefold(), r[1]))
    return rows


def tournament_day(slug: str, day_number: int | None):
    """(tournament, day) for a command line; LookupError with a plain message when unknown."""
    tournament = Tournament.objects.select_related("rules").filter(slug=slug).first()
    if tournament is None:
        raise LookupError(f'There is no tournament with the slug "{slug}".')
    if day_number is None:
        return tournament, None
    day = (
        Day.objects.select_related("tournament__rules")
        .filter(tournament=tournament, number=day_number)
        .first()
    )
    if day is None:
        count = tournament.days.count()
        raise LookupError(
            f"{tournament.name} has no day {day_number}; it has {count} day"
            f"{'' if count == 1 else 's'}."
        )
    return tournament, day


def tournament_days(tournament) -> list[Day]:
    """The tournament's days, first day first (the day tabs and download links)."""
    return list(Day.objects.filter(tournament=tournament).order_by("number"))


def public_tournaments():
    """The tournaments whose public pages are on, for the public home page."""
    return Tournament.objects.filter(public_pages=True)


def leaving_mid_day(entry) -> list[dict]:
    """The days under way where ``entry`` has a seat: day, table, the last game the table has
    entered (the default "left after" game), the games of a day. Two queries and one per such
    day (usually one)."""
    seats = Seat.objects.filter(entry=entry, day__closed_at__isnull=True).select_related(
        "day__tournament__rules", "table"
    )
    started = set(
        Table.objects.with_scores()
        .filter(day__tournament=entry.tournament_id, day__closed_at__isnull=True)
        .values_list("day_id", flat=True)
    )
    rows = []
    for seat in seats:
        if seat.day_id not in started or seat.left_after_game is not None:
            continue
        rows.append(
            {
                "day": seat.day.number,
                "table": seat.table.number,
                "last_entered": last_game_entered(seat.table),
                "games": seat.day.tournament.rules.games_per_day,
            }
        )
    return rows


def entry_days(entry) -> list[dict]:
    """Each day the player was seated: table, when they left, their games (scores and whether
    the desk confirmed them) and the day's total. Two queries."""
    games = entry_games(entry)
    seats = Seat.objects.filter(entry=entry).select_related("day", "table").order_by("day__number")
    return [
        {
            "day": seat.day.number,
            "table": seat.table.number,
            "left_after_game": seat.left_after_game,
            "games": games.get(seat.day.number, []),
            "total": sum(g["points"] for g in games.get(seat.day.number, [])),
        }
        for seat in seats
    ]


def late_seating_choices(day) -> dict:
    """Who may still be seated on a started day (entered, not withdrawn, not at a table that
    day) and whose seat a substitute may take (withdrawn during the day): 2 queries."""
    seated = Seat.objects.filter(day=day)
    waiting = list(
        Entry.objects.filter(tournament_id=day.tournament_id)
        .exclude(status=Entry.WITHDRAWN)
        .exclude(pk__in=seated.values("entry_id"))
        .select_related("player")
        .order_by("player__name")
    )
    replaceable = list(
        seated.filter(left_after_game__isnull=False, entry__status=Entry.WITHDRAWN)
        .select_related("entry__player", "table")
        .order_by("table__number", "position")
    )
    return {"waiting": waiting, "replaceable": replaceable}


# ---------------------------------------------------------------------------
# Seasons
# ---------------------------------------------------------------------------


def events_free_for_a_season(user) -> list[Tournament]:
    """Events the user organises (a superuser: any) that are in no season yet, newest first.
    One query."""
    events = Tournament.objects.filter(season_event__isnull=True)
    if not user.is_superuser:
        events = events.filter(staff__user=user, staff__role=StaffRole.ORGANISER)
    return list(events.distinct())


def seasons_for(user) -> list[Season]:
    """The seasons whose staff pages ``user`` may open (see ``access.may_see_season``): every
    season for a superuser; else those with events, every one of which they staff. Two
    queries."""
    seasons = list(Season.objects.prefetch_related("season_events").order_by("name"))
    if getattr(user, "is_superuser", False):
        return seasons
    staffed = set(StaffRole.objects.filter(user=user).values_list("tournament_id", flat=True))
    return [
        season
        for season in seasons
        if (events := {place.tournament_id for place in season.season_events.all()})
        and events <= staffed
    ]


def public_seasons():
    """Seasons whose public page is on and whose every event is public. One query."""
    return (
        Season.objects.filter(public_pages=True, season_events__isnull=False)
        .exclude(season_events__tournament__public_pages=False)
        .distinct()
        .order_by("name")
    )


# ---------------------------------------------------------------------------
# Seating plans
# ---------------------------------------------------------------------------

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

    @property
    def total_repeats(self) -> int:
        return sum(day.repeats for day in self.days)

    @property
    def schedule_line(self) -> str:
        return schedule_line(self.total_repeats, self.lower_bound)

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


def seating_plan(tournament) -> PlanView | None:
    """The event's seating plan as the organiser sees it, measured against the event as it is
    now: which planned days are still planned, their tables (players who left marked), each
    day's repeats with the days before as they now stand, and who changed since. Six queries."""
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
    views: list[PlanDayView] = []
    earlier = list(history)
    for day in days:
        view, tables = _plan_day_view(day, seated, entries, playing_now, earlier, apart)
        views.append(view)
        if tables:
            earlier.append(tables)
    changes = plan_changes(plan.players, playing)

    def name(pk: int) -> str:
        return entries[pk].player.name if pk in entries else f"a player no longer entered (#{pk})"

    bound = plan.lower_bound
    if changes.count:  # the plan's bound was for its players; measure against today's
        index = {p: i for i, p in enumerate(playing_now.ids)}
        renumbered = [[[index[p] for p in t if p in index] for t in d] for d in history]
        bound = schedule_lower_bound(
            len(index), tournament.rules.max_table_size, len(plan.day_numbers), renumbered
        )
    return PlanView(
        plan=plan,
        days=views,
        lower_bound=bound,
        changes=changes,
        gone=[name(pk) for pk in changes.gone],
        new=[name(pk) for pk in changes.new],
        reshuffle_off=not tournament.rules.reshuffle_each_day,
    )


@dataclass(frozen=True)
class _PlayingNow:
    ids: list[int]  # the players a seating would seat now
    sizes: list[int]  # their tables' sizes
    pins: dict[int, int]


def _plan_day_view(day, seated, entries, now: _PlayingNow, earlier, apart):
    """One day of the plan, and its tables as they now stand (for the days after it)."""
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
        tables=_planned_tables(planned, entries, playing, earlier, apart),
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
