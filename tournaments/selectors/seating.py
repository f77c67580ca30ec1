"""Reads of the seating: earlier sessions' tables, a day's tables with their notes, the day
list, and finding one's table."""

from dataclasses import dataclass, field

from django.db import connections
from django.db.models import Count, Exists, F, OuterRef, Prefetch

from core.search import matches, search_key, surname_key
from core.sql import table_names
from domain.seating.by_flight import flight_groups
from domain.seating.pairs import (
    club_groups,
    club_spread,
    keep_apart_set,
    meeting_pairs,
    table_conflicts,
)
from tournaments.models import (
    Day,
    Entry,
    KeepApart,
    PlannedDay,
    Season,
    SeasonEvent,
    Seat,
    Table,
    Tournament,
)


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


def _session_tables(tournament, before_day: int) -> list[list[list[int]]]:
    pk = tournament.pk
    with connections[Seat.objects.db].cursor() as cursor:
        cursor.execute(_session_tables_sql(), [pk, pk, before_day, pk, pk, True, pk])
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


def _session_tables_sql() -> str:
    """One query whatever the number of events: a seat of an earlier event is mapped to this
    event's entry of the same player by a join, so a player not entered here drops out in the
    database."""
    seat, day, table, entry, place, season = table_names(
        Seat, Day, Table, Entry, SeasonEvent, Season
    )
    # Only the models' table names are put into the text; every value is a parameter.
    return f"""
        SELECT d.id, t.number, here.id
        FROM {seat} s
        JOIN {day} d ON d.id = s.day_id
        JOIN {table} t ON t.id = s.table_id
        JOIN {entry} e ON e.id = s.entry_id
        JOIN {entry} here ON here.player_id = e.player_id AND here.tournament_id = %s
        LEFT JOIN {place} se ON se.tournament_id = d.tournament_id
        WHERE (d.tournament_id = %s AND d.number < %s)
           OR (d.tournament_id <> %s AND EXISTS (
                SELECT 1 FROM {place} mine
                JOIN {season} sn ON sn.id = mine.season_id
                WHERE mine.tournament_id = %s AND sn.avoid_earlier_pairings = %s
                  AND mine.season_id = se.season_id AND se.position < mine.position))
        ORDER BY CASE WHEN d.tournament_id = %s THEN 1 ELSE 0 END, se.position, d.number, t.number
        """  # noqa: S608


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
    flights: list[str] = field(default_factory=list)  # of its players, in the rules' order

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
    order = tournament.rules.flights
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
        views.append(
            TableView(table=table, seats=seat_views, flights=_flights_at(seat_views, order))
        )
    _mark_kept_apart(views, apart)
    moves = _movement_rows(day, views)
    return {
        "day": day,
        "tables": views,
        "moves": moves,
        "seated_count": sum(v.size for v in views),
        "scores_started": day.scores_started(),
        "history_days": len(history),
        "club_spread": _club_spread(views),
        "flight_notes": _flight_notes(tournament.rules, views),
    }


def _flights_at(seat_views: list[SeatView], order: list[str]) -> list[str]:
    held = {view.entry.flight for view in seat_views if view.entry.flight}
    return sorted(held, key=lambda f: order.index(f) if f in order else len(order))


def _flight_notes(rules, views) -> list[str]:
    """What the seating says of the flights when each sits at tables of its own: a flight too
    small for a table of its own, and whom it sits with."""
    if not rules.seat_within_flights or not rules.flights:
        return []
    flight_of = {v.entry.pk: v.entry.flight for t in views for v in t.seats}
    return flight_groups(list(flight_of), flight_of, rules.flights)[1]


def _movement_rows(day, views: list[TableView]) -> list[dict]:
    """Each seated player's move as the movement stored it (``Day.moves``), in table order.
    No query: the seats are already read."""
    words = {move["entry"]: move for move in day.moves or []}
    rows = []
    for table in views:
        for view in table.seats:
            move = words.get(view.entry.pk)
            if move is None:
                continue
            rows.append({"entry": view.entry, "table": table.table.number, **move})
    return rows


def _club_spread(views) -> tuple[int, int] | None:
    """(largest number of one club at one table, the best possible), None without clubs."""
    clubs = {v.entry.pk: v.entry.club for t in views for v in t.seats}
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
    entries = sorted(
        Entry.objects.filter(pk__in=found)
        .select_related("player")
        .prefetch_related(Prefetch("seats", queryset=seats))
        .order_by("number"),
        key=lambda e: surname_key(e.player.name),
    )[:limit]
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
    """(name, player number, table number) for everyone seated on ``day``, by surname. One
    query."""
    rows = list(
        Seat.objects.filter(day=day).values_list(
            "entry__player__name", "entry__number", "table__number"
        )
    )
    rows.sort(key=lambda r: (surname_key(r[0]), r[1]))
    return rows
