"""The late players' missed games, read for the standings under the event's ``late_missed_games``
rule: one query per standings read (none under "nothing"), whatever the number of players. What
each missed game counts is the rule's arithmetic, ``domain.late_arrival``. And how every output
marks a day that holds credited games: "81L", with the legend's "L: late: highest at the table".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.db import connections

from core.sql import table_names
from domain.late_arrival import LateCredit, LateSeat, late_credit
from domain.ranking import RankedRow
from domain.rules import LATE_CHOICES, LATE_WORDS
from scoring.models import Game, GameSheet, Score, SheetState
from tournaments.models import Seat

if TYPE_CHECKING:
    from standings.read import Standings

# A day whose points hold a late player's missed games, credited under the event's rule.
LATE_MARK = "L"


def late_seat_credit(
    day_columns: Mapping[int, int], rule: str, days: int, cut_game: tuple[int, int] | None
) -> dict[int, LateCredit]:
    """{entry id: credit} for the late players of the days in view (``day_columns``: day id ->
    column), from the confirmed scores of the others at their table in each game they missed;
    ``cut_game`` (day id, game): on that day, only games up to that one count."""
    if not day_columns:
        return {}
    game_cut, cut_params = "", []
    if cut_game is not None:
        game_cut, cut_params = "AND (st.day_id <> %s OR gm.number <= %s)", list(cut_game)
    seat, sheet, game, score = table_names(Seat, GameSheet, Game, Score)
    # A substitute's seat also records the game they joined at, but the games before it were
    # the replaced player's: only late joins (no one replaced) have missed games.
    sql = f"""
        SELECT st.entry_id, st.day_id, st.joined_at_game, gm.number, s.points
        FROM {seat} st
        JOIN {sheet} g ON g.table_id = st.table_id AND g.state = %s
        JOIN {game} gm ON gm.id = g.game_id AND gm.number < st.joined_at_game
        JOIN {score} s ON s.sheet_id = g.id AND s.entry_id <> st.entry_id
        WHERE st.day_id IN ({", ".join(["%s"] * len(day_columns))})
          AND st.joined_at_game > 1 AND st.replaces_id IS NULL {game_cut}
        """  # noqa: S608 (table names from the models, values as parameters)
    with connections[Score.objects.db].cursor() as cursor:
        cursor.execute(sql, [SheetState.CONFIRMED, *day_columns, *cut_params])
        rows = cursor.fetchall()
    seats: dict[tuple[int, int], LateSeat] = {}
    confirmed: dict[tuple[int, int], dict[int, list[int]]] = {}
    for entry_id, day_id, joined_at, game_number, points in rows:
        key = (entry_id, day_columns[day_id])
        seats.setdefault(key, LateSeat(entry_id, key[1], joined_at))
        confirmed.setdefault(key, {}).setdefault(game_number, []).append(points)
    return late_credit(seats.values(), confirmed, rule, days)


def late_legend(result: Standings, *, brief: bool = False) -> str:
    """What the late mark means, with a space before it, when a day carries it: the rule's
    words ("late: highest at the table") and, unless ``brief``, what each missed game counts."""
    rule = result.tournament.rules.late_missed_games
    if rule not in LATE_WORDS or not any(any(row.record.late) for row in result.rows):
        return ""
    legend = f" {LATE_MARK}: {LATE_WORDS[rule]}"
    if brief:
        return legend + "."
    counts = LATE_CHOICES[rule][0].lower() + LATE_CHOICES[rule][1:]
    return f"{legend}: each game of the day a late player missed counts {counts}."


def day_label(row: RankedRow, index: int) -> str:
    """A day's points as printed: "87L" when they hold a late player's credited missed games,
    "" for a day not played (each output prints its own dash)."""
    points = row.record.day_totals[index]
    if points is None:
        return ""
    late = row.record.late
    return f"{points}{LATE_MARK}" if late and late[index] else str(points)


def late_note(row: RankedRow) -> str:
    """ "late: highest at the table, 2 missed games" for a late player credited so, else ""."""
    games = sum(row.record.late)
    if not games:
        return ""
    missed = "1 missed game" if games == 1 else f"{games} missed games"
    return f"{LATE_WORDS[row.record.late_rule]}, {missed}"
