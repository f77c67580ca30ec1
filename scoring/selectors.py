"""Reads for score entry: the scorekeeper's page, the desk card, the day grid, a table's history.

Each function runs a fixed number of queries whatever the size of the event.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field, fields
from typing import Any

from django.db.models import Count, Max, Q
from django.utils import timezone

from core.formats import time_of_day, when_left
from domain.sheet_checks import SheetRules, engine_choices, planned_engines
from scoring import table_reads
from scoring.desk_calls import calls_by_table, open_calls
from scoring.models import (
    LIVE_STATES,
    AuditEvent,
    Game,
    GameSheet,
    Score,
    SheetState,
    UnplayedChange,
    UnplayedGame,
)
from scoring.progress import FINISHED, NOT_PLAYED
from scoring.schedule import game_numbered
from scoring.table_pace import quiet_tables
from tournaments.models import Day, Entry, Seat, Table


def sheet_rules(rules) -> SheetRules:
    """The parts of a tournament's RuleSet that the score-sheet checks need."""
    engines = rules.scheduled_engines()
    return SheetRules(
        top_double=rules.top_double,
        double_blank_value=rules.double_blank_value,
        highest_engine=max(engines),
        lowest_engine=min(engines),
        engines=tuple(engines),
        hand_sizes=rules.hand_sizes,
        engine_set_aside=rules.engine_set_aside,
    )


def confirmed_engines(live: dict[int, GameSheet]) -> dict[int, int]:
    """Game number -> engine of the games the desk has confirmed: what the blind card and the
    workbook plan from, so a table's unconfirmed entry never shows to the person checking it."""
    return {
        n: sheet.engine_used for n, sheet in live.items() if sheet.state == SheetState.CONFIRMED
    }


def local_time(moment, zone=None) -> str:
    """ "14:05" in the event's time zone; a caller writing many passes ``zone`` (looked up once)."""
    if not moment:
        return ""
    return time_of_day(moment, zone)


# ---------------------------------------------------------------------------
# One table: who sits there, the games, the live sheets
# ---------------------------------------------------------------------------


@dataclass(kw_only=True)
class TableSeats:
    """Who sits at one table and the day's games: what a typed sheet is read against. No sheet
    is read for it, so a posted form can be parsed before the save takes the table's lock."""

    table: Table
    seats: list[Seat]
    games: list[Game]
    rules: Any = None
    names: dict[int, str] = field(default_factory=dict)  # entry id -> player name, seat order
    _sheet_rules: SheetRules | None = field(default=None, repr=False)

    @property
    def day(self) -> Day:
        return self.table.day

    def game(self, number: int | None) -> Game | None:
        return game_numbered(self.games, number)

    def playing(self, game_number: int) -> list[Seat]:
        return [s for s in self.seats if s.plays_game(game_number)]

    def withdrawn(self, game_number: int) -> list[int]:
        return [s.entry_id for s in self.seats if not s.plays_game(game_number)]

    @property
    def sheet_rules(self) -> SheetRules:
        if self._sheet_rules is None:
            self._sheet_rules = sheet_rules(self.rules)
        return self._sheet_rules


@dataclass(kw_only=True)
class TableSheets(TableSeats):
    """One table's seats, games and sheets, read together."""

    # By game number: the live sheet, the newest version in any state, the "not played" mark.
    live: dict[int, GameSheet] = field(default_factory=dict)
    latest: dict[int, GameSheet] = field(default_factory=dict)
    unplayed: dict[int, UnplayedGame] = field(default_factory=dict)
    scored: set[int] = field(default_factory=set)  # games whose live sheet has its scores read

    def next_version(self, game_number: int) -> int:
        last = self.latest.get(game_number)
        return last.version + 1 if last is not None else 1

    def used_engines(self, except_game: int | None = None) -> list[int]:
        return [s.engine_used for n, s in self.live.items() if n != except_game]

    def engine_options(self, game_number: int) -> list[int]:
        """The doubles game ``game_number`` may start on: those the other games left unused."""
        return engine_choices(self.sheet_rules, self.used_engines(except_game=game_number))

    def planned_engines(self, *, blind: bool = False) -> dict[int, int]:
        """Each game's engine (planned_engines); ``blind`` plans from the confirmed games
        alone, for the desk keying a card without seeing what the table entered."""
        if blind:
            return planned_engines(self.sheet_rules, self.games, confirmed_engines(self.live))
        live = {n: sheet.engine_used for n, sheet in self.live.items()}
        return planned_engines(self.sheet_rules, self.games, live)

    def expected_engine(self, game: Game) -> int | None:
        """The engine the heading names and the menu preselects (its own once entered)."""
        return self.planned_engines().get(game.number)

    def next_game(self) -> Game | None:
        """The first game of the day with no live sheet at this table and not marked not
        played."""
        return next(
            (g for g in self.games if g.number not in self.live and g.number not in self.unplayed),
            None,
        )

    def totals(self) -> dict[int, int]:
        sums = dict.fromkeys(self.names, 0)
        for sheet in self.live.values():
            for score in sheet.score_rows():
                sums[score.entry_id] = sums.get(score.entry_id, 0) + score.points
        return sums

    def seat_totals(self) -> list[int]:
        """Each seated player's total over the live games, in seat order."""
        totals = self.totals()
        return [totals.get(seat.entry_id, 0) for seat in self.seats]

    def has_provisional(self) -> bool:
        return any(s.state == SheetState.ENTERED for s in self.live.values())

    def rows(self) -> list[dict]:
        """One row per game, laid out like the card: scores in seat order, and the engine it
        started on (or is expected to start on)."""
        rows = []
        engines = self.planned_engines()
        for game in self.games:
            sheet = self.live.get(game.number)
            points = {}
            if sheet is not None:
                points = {s.entry_id: s.points for s in sheet.score_rows()}
            rows.append(
                {
                    "game": game,
                    "sheet": sheet,
                    "engine": engines.get(game.number),
                    "unplayed": self.unplayed.get(game.number),
                    "cells": [
                        {
                            "seat": seat,
                            "points": points.get(seat.entry_id),
                            "plays": seat.plays_game(game.number),
                            "absent": seat.absent_word(game.number),
                            "out": sheet is not None and sheet.went_out_id == seat.entry_id,
                        }
                        for seat in self.seats
                    ],
                    "out_name": self.names.get(sheet.went_out_id)
                    if sheet and sheet.went_out_id
                    else "",
                }
            )
        return rows


# The ways to a table (its link, its code, the desk's URL, the workbook) load these with it;
# the services' lock reads the day afresh and keeps the rest. The tournament's own rules are
# its RuleSet: nothing a table's pages or saves show reads the preset it started from.
TABLE_WITH_RULES = ("day__tournament__rules",)


def _tables_with_rules():
    return Table.objects.select_related(*TABLE_WITH_RULES)


def table_seats(table: Table, games: list[Game] | None = None) -> TableSeats:
    """Who sits at the table, and the day's games: 1 query, and one for the games when they are
    not given. ``table`` comes with its day, tournament and rules loaded (TABLE_WITH_RULES)."""
    seats = table_reads.table_seats(table.pk)
    if games is None:
        games = table_reads.day_games(table.day_id)
    return TableSeats(
        table=table,
        seats=seats,
        games=games,
        rules=table.day.tournament.rules,
        names={s.entry_id: s.entry.player.name for s in seats},
    )


def table_sheets(
    table: Table,
    games: list[Game] | None = None,
    *,
    seated: TableSeats | None = None,
    scores_for: Collection[int] | None = None,
) -> TableSheets:
    """Everything a page about one table needs: at most 5 queries (seats, games, sheets, the
    games marked not played, the live sheets' scores); none for the games when they are
    given, none for scores before any sheet.

    ``seated``: its seats and games when the caller has read them (table_seats). ``scores_for``
    names the games whose scores to read (every live one when None): a save needs those of the
    games it writes, not the whole card's. ``table`` comes with its day, tournament and rules
    loaded (TABLE_WITH_RULES), as every caller has just read it.
    """
    if seated is None:
        seated = table_seats(table, games)
    by_game = {g.pk: g for g in seated.games}
    # Every version, not only the live ones: a save numbers its version from the last one, and
    # a refused save says what became of the game (marked wrong, say).
    live: dict[int, GameSheet] = {}
    latest: dict[int, GameSheet] = {}
    for sheet in table_reads.table_sheets(table.pk):
        sheet.game = by_game[sheet.game_id]
        number = sheet.game.number
        if number not in latest or sheet.version > latest[number].version:
            latest[number] = sheet
        if sheet.state in LIVE_STATES:
            live[number] = sheet
    unplayed = {by_game[mark.game_id].number: mark for mark in table_reads.unplayed_marks(table.pk)}
    seats = {f.name: getattr(seated, f.name) for f in fields(TableSeats)} | {"table": table}
    sheets = TableSheets(**seats, live=live, latest=latest, unplayed=unplayed)
    read_scores(sheets, scores_for)
    return sheets


def read_scores(sheets: TableSheets, games: Collection[int] | None = None) -> None:
    """Attach the scores of the live sheets of ``games`` (every game when None) that have none
    yet: 1 query, none when there are none to read."""
    wanted = {
        n: sheet
        for n, sheet in sheets.live.items()
        if n not in sheets.scored and (games is None or n in games)
    }
    if not wanted:
        return
    scores: dict[int, list[Score]] = {sheet.pk: [] for sheet in wanted.values()}
    for score in table_reads.sheet_scores(list(scores)):
        scores[score.sheet_id].append(score)
    for sheet in wanted.values():
        sheet.attach_scores(scores[sheet.pk])
    sheets.scored.update(wanted)


def wrong_notes(sheets: TableSheets) -> dict[int, dict]:
    """For each game the desk marked wrong and the table has not entered again: when, the
    desk's reason and what the table had entered, each number marked when the desk disputes it.
    1 query, none when no game is waiting to be entered again."""
    rejected = {
        sheet.pk: n
        for n, sheet in sheets.latest.items()
        if n not in sheets.live and sheet.state == SheetState.REJECTED
    }
    if not rejected:
        return {}
    notes = {}
    for event in AuditEvent.objects.filter(sheet__in=list(rejected), action=AuditEvent.REJECTED):
        rows = event.changes
        notes[rejected[event.sheet_id]] = {
            "at": local_time(event.at),
            "reason": event.reason,
            "entered": rows,
            "disputed": {
                str(row.get("entry") or row.get("field")) for row in rows if row.get("disputed")
            },
            "scores": {row["entry"]: row["from"] for row in rows if "entry" in row},
            "engine": next((r["from"] for r in rows if r.get("field") == "engine"), None),
            "went_out": sheets.latest[rejected[event.sheet_id]].went_out_id,
            "blocked": sheets.latest[rejected[event.sheet_id]].blocked,
        }
    return notes


def table_by_link(token: str) -> Table | None:
    """The table a scorekeeper's link opens, or None when the link is unknown or its day closed."""
    if not token or len(token) > 64:
        return None
    # The rules come along: every table page reads them (schedule, engines, hand size).
    table = table_reads.table_with_rules("link", token)
    if table is None or table.day.closed_at is not None:
        return None
    return table


def day_for(tournament, number: int) -> Day | None:
    day = Day.objects.filter(tournament=tournament, number=number).first()
    if day is not None:
        day.tournament = tournament  # already loaded with its rules by the caller
    return day


def table_for(tournament, day_number: int, table_number: int) -> Table | None:
    return table_reads.table_with_rules("number", tournament.pk, day_number, table_number)


def current_day(tournament) -> Day | None:
    """The day the desk most likely wants: the first seated day still open, else the last day."""
    days = list(
        Day.objects.filter(tournament=tournament).annotate(n=Count("tables")).order_by("number")
    )
    for day in days:
        if day.n and day.closed_at is None:
            return day
    seated = [d for d in days if d.n]
    if seated:
        return seated[-1]
    return days[-1] if days else None


# ---------------------------------------------------------------------------
# The organiser's grid: tables by games
# ---------------------------------------------------------------------------


def day_grid(day: Day, games: list[Game] | None = None) -> dict:
    """Tables down, games across: empty, entered, confirmed or not played, with times, and the
    tables gone quiet (scoring.table_pace) or calling the desk (scoring.desk_calls). 5 queries,
    and one more for the games when they are not given."""
    if games is None:
        games = list(Game.objects.filter(day=day).order_by("number"))
    tables = list(
        Table.objects.filter(day=day)
        .annotate(
            seated=Count("seats", distinct=True),
            # Players now: a player who withdrew mid-day no longer plays at the table.
            players=Count("seats", filter=Q(seats__left_after_game__isnull=True), distinct=True),
            last_entry=Max("sheets__entered_at"),
        )
        .order_by("number")
    )
    live = {
        (row["table_id"], row["game_id"]): row
        for row in GameSheet.objects.filter(table__day=day, state__in=LIVE_STATES).values(
            "table_id", "game_id", "state", "entered_at", "confirmed_at", "source"
        )
    }
    unplayed = set(UnplayedGame.objects.filter(table__day=day).values_list("table_id", "game_id"))
    rows = []
    counts = {"empty": 0, SheetState.ENTERED: 0, SheetState.CONFIRMED: 0, NOT_PLAYED: 0}
    zone = timezone.get_current_timezone()
    for table in tables:
        cells = []
        for game in games:
            sheet = live.get((table.pk, game.pk))
            state = sheet["state"] if sheet else "empty"
            if sheet is None and (table.pk, game.pk) in unplayed:
                state = NOT_PLAYED
            counts[state] += 1
            moment = None
            if sheet:
                moment = sheet["confirmed_at"] or sheet["entered_at"]
            cells.append({"game": game, "state": state, "time": local_time(moment, zone)})
        done = all(c["state"] in FINISHED for c in cells)
        rows.append(
            {
                "table": table,
                "cells": cells,
                "last_entry": local_time(table.last_entry, zone),
                "done": done,
                "waiting": sum(c["state"] == SheetState.ENTERED for c in cells),
            }
        )
    quiet, calls = _tables_to_walk_to(day, rows)
    # What to do next comes first: the tables with games waiting for the desk, in table order.
    rows.sort(key=lambda row: (row["waiting"] == 0, row["table"].number))
    grid = {"day": day, "games": games, "rows": rows, "counts": counts, "quiet": quiet}
    return grid | {"calls": calls}


def _tables_to_walk_to(day: Day, rows: list[dict]) -> tuple[dict, list]:
    """Mark each row with the table's quietness and its calls to the desk; both, for the day."""
    left = {row["table"].pk: sum(c["state"] == "empty" for c in row["cells"]) for row in rows}
    quiet, calls = quiet_tables(day, left), open_calls(day)
    calling = calls_by_table(calls)
    for row in rows:
        row["quiet"] = quiet.get(row["table"].pk)
        row["calls"] = calling.get(row["table"].pk, [])
    return quiet, calls


def next_table_waiting(day: Day, after: int) -> int | None:
    """The number of the next table of the day, after table ``after`` and round again, with
    games waiting for the desk; None when there is none: 1 query."""
    waiting = sorted(
        set(
            GameSheet.objects.filter(table__day=day, state=SheetState.ENTERED).values_list(
                "table__number", flat=True
            )
        )
        - {after}
    )
    return next((n for n in waiting if n > after), waiting[0] if waiting else None)


def next_table_to_key(day: Day, after: int, games: Collection[Game]) -> int | None:
    """The number of the next table of the day, after table ``after`` and round again, not
    finished yet: some game of ``games`` neither confirmed nor marked not played. None when
    every other table is finished: 3 queries."""
    numbers = list(Table.objects.filter(day=day).values_list("number", flat=True))
    done: dict[int, set[int]] = {}
    confirmed = GameSheet.objects.filter(table__day=day, state=SheetState.CONFIRMED).values_list(
        "table__number", "game_id"
    )
    unplayed = UnplayedGame.objects.filter(table__day=day).values_list("table__number", "game_id")
    for number, game_id in [*confirmed, *unplayed]:
        done.setdefault(number, set()).add(game_id)
    wanted = {game.pk for game in games}
    open_tables = sorted(n for n in numbers if n != after and not wanted <= done.get(n, set()))
    return next((n for n in open_tables if n > after), open_tables[0] if open_tables else None)


def not_seated(day: Day, doing: str = "") -> str | None:
    """Why a day has nothing to print or export yet, or None once it is seated: 1 query."""
    if day.tables.exists():
        return None
    return f"Day {day.number} is not seated yet: there are no tables{doing}."


def games_waiting(day: Day) -> int:
    """Games entered from a table link that the desk has not confirmed yet: 1 query."""
    return GameSheet.objects.filter(table__day=day, state=SheetState.ENTERED).count()


# ---------------------------------------------------------------------------
# History
# ---------------------------------------------------------------------------


def table_history(table: Table) -> list[AuditEvent]:
    """Every audit event for one table, oldest first: 1 query."""
    return list(
        AuditEvent.objects.filter(table=table)
        .select_related("game", "sheet", "actor")
        .order_by("at", "pk")
    )


def table_roster_changes(table: Table) -> list[str]:
    """Who joined the table after play started (late, or as a substitute) and who left, in
    plain words for its history page; the games marked not played too. 2 queries."""
    notes = []
    for seat in (
        Seat.objects.filter(table=table)
        .filter(Q(joined_at_game__isnull=False) | Q(left_after_game__isnull=False))
        .select_related("entry__player", "replaces__player")
        .order_by("position")
    ):
        name = seat.entry.player.name
        if seat.replaces is not None:
            notes.append(
                f"{name} substitutes for {seat.replaces.player.name} from game "
                f"{seat.joined_at_game}."
            )
        elif seat.joined_at_game is not None:
            notes.append(f"{name} joined late, from game {seat.joined_at_game}.")
        if seat.left_after_game is not None:
            when = when_left(seat.left_after_game)
            notes.append(f"{name} left {when}.")
    for change in UnplayedChange.objects.filter(table=table).select_related("game"):
        what = "marked not played" if change.action == change.MARKED else "mark taken back"
        notes.append(
            f"Game {change.game.number} {what}: {change.reason} (by {change.actor_label} at "
            f"{local_time(change.at)})."
        )
    return notes


def day_workbook_rows(day: Day) -> list[dict]:
    """One row per seated player per game, in table, game, seat order: 5 queries, and one for
    the tournament's preset when it is not loaded.

    A played game says its outcome: ``out`` on the row of the player who went out, ``blocked``
    on the first row of a game nobody went out of, ``not_played`` on every row of a game the
    table did not play. A game not played yet names the engine it is expected to start on
    (planned_engines), so the file read back unchanged is accepted.
    """
    games = list(Game.objects.filter(day=day).order_by("number"))
    seats = list(
        Seat.objects.filter(day=day)
        .select_related("entry__player", "table")
        .order_by("table__number", "position")
    )
    sheets = {}
    for sheet in GameSheet.objects.filter(table__day=day, state__in=LIVE_STATES).prefetch_related(
        "scores"
    ):
        sheets[(sheet.table_id, sheet.game_id)] = sheet
    unplayed = set(UnplayedGame.objects.filter(table__day=day).values_list("table_id", "game_id"))
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table.number, []).append(seat)
    rules = sheet_rules(day.tournament.rules)
    rows = []
    for table_number in sorted(by_table):
        table_seats = by_table[table_number]
        table = table_seats[0].table
        live = {g.number: sheets[(table.pk, g.pk)] for g in games if (table.pk, g.pk) in sheets}
        engines = planned_engines(rules, games, confirmed_engines(live))
        for game in games:
            engine = engines.get(game.number)
            game_rows = _workbook_game_rows(day, table_number, game, engine, table_seats, live)
            for row in game_rows:
                row["not_played"] = (table.pk, game.pk) in unplayed
            rows += game_rows
    return rows


def _workbook_game_rows(day: Day, table_number: int, game: Game, engine, seats, live) -> list[dict]:
    """One game's rows at one table: the players still playing it, with the sheet's scores.

    Only confirmed numbers go out: a table's unconfirmed entry is left blank for the desk to key
    from the card, so sending the file back untouched confirms nothing nobody compared.
    """
    live_sheet = live.get(game.number)
    sheet = live_sheet if live_sheet and live_sheet.state == SheetState.CONFIRMED else None
    points = {s.entry_id: s.points for s in sheet.score_rows()} if sheet else {}
    rows = [
        {
            "day": day.number,
            "table": table_number,
            "game": game.number,
            "engine": engine,
            "player_id": seat.entry.number,
            "player": seat.entry.player.name,
            "score": points.get(seat.entry_id),
            "out": bool(sheet and sheet.went_out_id == seat.entry_id),
            "blocked": False,
            "state": live_sheet.state if live_sheet is not None else "empty",
        }
        for seat in seats
        if seat.plays_game(game.number)
    ]
    if rows and sheet is not None and sheet.blocked:
        rows[0]["blocked"] = True  # one row says it for the whole game
    return rows


def day_engines(day: Day, games: list[Game], tables) -> dict[int, dict[int, int]]:
    """Table id -> game number -> the engine each game of ``tables`` starts on
    (planned_engines), for the printed sheets: 1 query, and one for the tournament's preset
    when it is not loaded."""
    rules = sheet_rules(day.tournament.rules)
    by_table: dict[int, dict[int, int]] = {}
    for table_id, number, engine in GameSheet.objects.filter(
        table__day=day, state__in=LIVE_STATES
    ).values_list("table_id", "game__number", "engine_used"):
        by_table.setdefault(table_id, {})[number] = engine
    return {t.pk: planned_engines(rules, games, by_table.get(t.pk, {})) for t in tables}


def day_tables_with_seats(day: Day) -> list[dict]:
    """Each table of a day with its players in seat order (for printouts and link lists): 2
    queries."""
    tables = list(Table.objects.filter(day=day).order_by("number"))
    seats = Seat.objects.filter(day=day).select_related("entry__player").order_by("position")
    by_table: dict[int, list[Seat]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat)
    return [{"table": t, "seats": by_table.get(t.pk, [])} for t in tables]


def last_game_entered(table: Table) -> int:
    """The highest game number the table has a live sheet for (entered or confirmed); 0 if none."""
    return (
        (
            GameSheet.objects.filter(table=table, state__in=LIVE_STATES).aggregate(
                n=Max("game__number")
            )["n"]
        )
        or 0
    )


def finished_games(table: Table) -> set[int]:
    """The game numbers the table has a live sheet for or marked not played: 2 queries."""
    live = GameSheet.objects.filter(table=table, state__in=LIVE_STATES)
    marked = UnplayedGame.objects.filter(table=table)
    return {
        *live.values_list("game__number", flat=True),
        *marked.values_list("game__number", flat=True),
    }


def entry_games(entry: Entry) -> dict[int, list[dict]]:
    """A player's live scores, day number -> games in order, each with its state: 1 query."""
    days: dict[int, list[dict]] = {}
    rows = (
        Score.objects.filter(entry=entry, sheet__state__in=LIVE_STATES)
        .order_by("sheet__game__day__number", "sheet__game__number")
        .values_list(
            "sheet__game__day__number",
            "sheet__game__number",
            "points",
            "sheet__state",
            "sheet__went_out_id",
        )
    )
    for day, game, points, state, out in rows:
        days.setdefault(day, []).append(
            {
                "game": game,
                "points": points,
                "confirmed": state == SheetState.CONFIRMED,
                "out": out == entry.pk,
            }
        )
    return days


def scores_by_game(table: Table) -> dict[int, set[int]]:
    """Each game the table has a live sheet for, with the entries it holds a score for: 1 query."""
    games: dict[int, set[int]] = {}
    rows = GameSheet.objects.filter(table=table, state__in=LIVE_STATES).values_list(
        "game__number", "scores__entry_id"
    )
    for number, entry_id in rows:
        scored = games.setdefault(number, set())
        if entry_id is not None:
            scored.add(entry_id)
    return games


@dataclass
class WorkbookEvent:
    """Everything in the tournament a workbook row may name, each looked up by its numbers."""

    days: dict[int, Day]
    entries: dict[int, Entry]  # by Player ID
    tables: dict[tuple[int, int], Table]  # by (day, table)
    seats: set[tuple[int, int]]  # (table id, entry id)
    games: dict[tuple[int, int], Game]  # by (day, game)


def workbook_event(tournament) -> WorkbookEvent:
    """What a workbook import looks rows up in. Five queries, however many days and rows."""
    days = {d.number: d for d in Day.objects.filter(tournament=tournament)}
    for day in days.values():
        day.tournament = tournament
    games = {
        (g.day.number, g.number): g
        for g in Game.objects.filter(day__tournament=tournament).select_related("day")
    }
    return WorkbookEvent(
        days=days,
        entries={
            e.number: e
            for e in Entry.objects.filter(tournament=tournament).select_related("player")
        },
        tables={
            (t.day.number, t.number): t
            for t in _tables_with_rules().filter(day__tournament=tournament)
        },
        seats={(s.table_id, s.entry_id) for s in Seat.objects.filter(day__tournament=tournament)},
        games=games,
    )


def table_by_code(code: str) -> Table | None:
    """The table a typed code opens, or None when no table has it or its day is closed."""
    table = table_reads.table_with_rules("code", code)
    if table is None or table.day.closed_at is not None:
        return None
    return table
