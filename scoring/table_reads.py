"""The reads of one table that every phone save and table page makes, in SQL written once.

A save's time went into Django building and compiling the same handful of queries on every
request, not into the database. These are those queries as text, table names from the models
(core.sql) and every value a parameter, read back into the instances the ORM would give
(core.sql.Columns), with the same related objects attached. scoring.selectors and
scoring.submit call them; what each returns is documented there. ruff's S608 (SQL built as a
string) is silenced on each: only table and column names from the models go in the text.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import cache

from django.db import connections

from core.sql import Columns, table_names
from scoring.models import Game, GameSheet, Score, UnplayedGame
from tournaments.models import Day, Entry, Player, RuleSet, Seat, Table, Tournament

_TABLE, _DAY, _TOURNAMENT, _RULES = (
    Columns(Table),
    Columns(Day),
    Columns(Tournament),
    Columns(RuleSet),
)
_SEAT, _ENTRY, _PLAYER = Columns(Seat), Columns(Entry), Columns(Player)
_GAME, _SHEET, _SCORE, _UNPLAYED = (
    Columns(Game),
    Columns(GameSheet),
    Columns(Score),
    Columns(UnplayedGame),
)


def _connection():
    return connections[Table._default_manager.db]


def _rows(sql: str, params: Collection[object]) -> list[tuple]:
    with _connection().cursor() as cursor:
        cursor.execute(sql, list(params))
        return cursor.fetchall()


def _placeholders(values: Collection[object]) -> str:
    return ", ".join(["%s"] * len(values))


# ---------------------------------------------------------------------------
# A table with its day, tournament and rules
# ---------------------------------------------------------------------------


# Which table: its link, its code, or its number on a day of a tournament (all unique).
_WHERE = {
    "link": "{table}.link_token = %s",
    "code": "{table}.code = %s",
    "number": "{day}.tournament_id = %s AND {day}.number = %s AND {table}.number = %s",
}


@cache
def _tables_sql(which: str) -> str:
    table, day, tournament, rules = table_names(Table, Day, Tournament, RuleSet)
    return (
        f"SELECT {_TABLE.select()}, {_DAY.select()}, {_TOURNAMENT.select()}, {_RULES.select()} "  # noqa: S608
        f"FROM {table} INNER JOIN {day} ON ({table}.day_id = {day}.id) "
        f"INNER JOIN {tournament} ON ({day}.tournament_id = {tournament}.id) "
        f"LEFT OUTER JOIN {rules} ON ({tournament}.id = {rules}.tournament_id) "
        f"WHERE {_WHERE[which].format(table=table, day=day)}"
    )


def table_with_rules(which: str, *values: object) -> Table | None:
    """The table found by ``which`` (a key of _WHERE) with ``values``, with its day,
    tournament and the tournament's rules loaded, or None."""
    connection = _connection()
    rows = _rows(_tables_sql(which), values)
    if not rows:
        return None
    row = rows[0]
    table = _TABLE.read(row, 0, connection)
    at = len(_TABLE)
    day = _DAY.read(row, at, connection)
    at += len(_DAY)
    tournament = _TOURNAMENT.read(row, at, connection)
    at += len(_TOURNAMENT)
    if row[at] is not None:  # every tournament has its rules; else they load (and fail) on use
        Tournament.rules.related.set_cached_value(tournament, _RULES.read(row, at, connection))
        RuleSet.tournament.field.set_cached_value(tournament.rules, tournament)
    Day.tournament.field.set_cached_value(day, tournament)
    Table.day.field.set_cached_value(table, day)
    return table


# ---------------------------------------------------------------------------
# The day's games, the table's seats, its sheets
# ---------------------------------------------------------------------------


@cache
def _games_sql() -> str:
    (game,) = table_names(Game)
    return f"SELECT {_GAME.select()} FROM {game} WHERE {game}.day_id = %s ORDER BY {game}.number"  # noqa: S608


def day_games(day_id: int) -> list[Game]:
    connection = _connection()
    return [_GAME.read(row, 0, connection) for row in _rows(_games_sql(), [day_id])]


@cache
def _seats_sql() -> str:
    seat, entry, player = table_names(Seat, Entry, Player)
    return (
        f"SELECT {_SEAT.select()}, {_ENTRY.select()}, {_PLAYER.select()} "  # noqa: S608
        f"FROM {seat} INNER JOIN {entry} ON ({seat}.entry_id = {entry}.id) "
        f"INNER JOIN {player} ON ({entry}.player_id = {player}.id) "
        f"WHERE {seat}.table_id = %s ORDER BY {seat}.position"
    )


def table_seats(table_id: int) -> list[Seat]:
    """The table's seats in seat order, each with its entry and the entry's player."""
    connection = _connection()
    seats = []
    for row in _rows(_seats_sql(), [table_id]):
        seat = _SEAT.read(row, 0, connection)
        entry = _ENTRY.read(row, len(_SEAT), connection)
        Entry.player.field.set_cached_value(
            entry, _PLAYER.read(row, len(_SEAT) + len(_ENTRY), connection)
        )
        Seat.entry.field.set_cached_value(seat, entry)
        seats.append(seat)
    return seats


def _of_table(model: type, columns: Columns) -> Callable[[], str]:
    @cache
    def sql() -> str:
        (name,) = table_names(model)
        return f"SELECT {columns.select()} FROM {name} WHERE {name}.table_id = %s"  # noqa: S608

    return sql


_sheets_sql = _of_table(GameSheet, _SHEET)
_unplayed_sql = _of_table(UnplayedGame, _UNPLAYED)


def table_sheets(table_id: int) -> list[GameSheet]:
    """Every version of every game's sheet at the table, in no order."""
    connection = _connection()
    return [_SHEET.read(row, 0, connection) for row in _rows(_sheets_sql(), [table_id])]


def unplayed_marks(table_id: int) -> list[UnplayedGame]:
    connection = _connection()
    return [_UNPLAYED.read(row, 0, connection) for row in _rows(_unplayed_sql(), [table_id])]


def sheet_scores(sheet_ids: Collection[int]) -> list[Score]:
    """The scores of the sheets, by sheet and then entry."""
    (score,) = table_names(Score)
    sql = (
        f"SELECT {_SCORE.select()} FROM {score} WHERE {score}.sheet_id IN "  # noqa: S608
        f"({_placeholders(sheet_ids)}) ORDER BY {score}.sheet_id, {score}.entry_id"
    )
    connection = _connection()
    return [_SCORE.read(row, 0, connection) for row in _rows(sql, list(sheet_ids))]


# ---------------------------------------------------------------------------
# The save's lock
# ---------------------------------------------------------------------------


def lock_tables(table_ids: Collection[int]) -> list[tuple[int, str, Day]]:
    """Lock the tables' rows in id order (two writers cannot deadlock) and read what a save may
    find changed: (id, link token, day). "OF" the table alone keeps PostgreSQL from locking
    the day row every other table of the day shares; SQLite has no row locks (its IMMEDIATE
    transaction serialises writers)."""
    connection = _connection()
    table, day = table_names(Table, Day)
    lock = ""
    if connection.features.has_select_for_update_of:
        lock = f" FOR UPDATE OF {table}"
    elif connection.features.has_select_for_update:
        lock = " FOR UPDATE"
    ids = sorted(table_ids)
    sql = (
        f"SELECT {table}.id, {table}.link_token, {_DAY.select()} FROM {table} "  # noqa: S608
        f"INNER JOIN {day} ON ({table}.day_id = {day}.id) "
        f"WHERE {table}.id IN ({_placeholders(ids)}) ORDER BY {table}.id{lock}"
    )
    return [(row[0], row[1], _DAY.read(row, 2, connection)) for row in _rows(sql, ids)]


# ---------------------------------------------------------------------------
# What a table's phone page polls for
# ---------------------------------------------------------------------------


@cache
def _sheet_states_sql() -> str:
    sheet, game, unplayed = table_names(GameSheet, Game, UnplayedGame)
    return (
        f"SELECT {game}.number, {sheet}.version, {sheet}.state FROM {sheet} "  # noqa: S608
        f"INNER JOIN {game} ON ({sheet}.game_id = {game}.id) "
        f"WHERE {sheet}.table_id = %s AND {sheet}.state <> %s "
        f"UNION ALL SELECT {game}.number, 0, %s FROM {unplayed} "
        f"INNER JOIN {game} ON ({unplayed}.game_id = {game}.id) WHERE {unplayed}.table_id = %s"
    )


# The state read back for a game marked "not played" (no sheet has it).
UNPLAYED = "unplayed"


def sheet_states(table_id: int) -> list[tuple[int, int, str]]:
    """(game number, version, state) of every sheet at the table that is not superseded, and
    (game number, 0, UNPLAYED) for each game marked not played: 1 query, however many games."""
    return [
        (int(number), int(version), str(state))
        for number, version, state in _rows(
            _sheet_states_sql(), [table_id, "superseded", UNPLAYED, table_id]
        )
    ]
