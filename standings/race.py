"""The race chart's read: the points per game of the players drawn, in one query.

The players drawn are the top ten of the standings given and any the viewer picks by player
number. The games counted are exactly those the standings counted (confirmed, within the cut),
so each line ends at the player's total.
"""

from __future__ import annotations

from collections.abc import Iterable

from core.sql import table_names
from scoring.models import Game, GameSheet, Score, SheetState
from standings.race_chart import RaceLine, race_chart_svg
from standings.read import Standings, rank_label, sql_rows
from tournaments.models import Day

TOP = 10


def slots(result: Standings) -> list[tuple[int, int]]:
    """(day, game) of every game of the seated days in the view, in play order."""
    rules = result.tournament.rules
    last = result.cut.last_day(rules.days)
    made = []
    for day in result.day_numbers:
        if day in result.unseated_days:
            continue
        games = rules.games_per_day
        if day == last and result.cut.game is not None:
            games = min(games, result.cut.game)
        made += [(day, game) for game in range(1, games + 1)]
    return made


def top_rows(result: Standings, top: int = TOP) -> list:
    """The ``top`` best ranked rows and everyone tied with the last of them: a tie for 10th is
    drawn whole, never cut through."""
    ranked = [row for row in result.rows if row.rank is not None]
    if len(ranked) <= top:
        return ranked
    last = ranked[top - 1].rank
    return ranked[:top] + [row for row in ranked[top:] if row.rank == last]


def race_lines(result: Standings, picked: Iterable[int] = (), top: int = TOP) -> list[RaceLine]:
    """The top ``top`` ranked players (with any tied with the last), then the picked ones (by
    player number) not among them."""
    chosen = top_rows(result, top)
    shown = len(chosen)
    wanted = set(picked) - {row.record.player_number for row in chosen}
    chosen += [
        row for row in result.rows if row.record.player_number in wanted and row.rank is not None
    ]
    if not chosen:
        return []
    games = _points(result, [row.record.entry_id for row in chosen])
    # A late player's credited missed games are in their total, so their line holds them too.
    for row in chosen:
        for column, game, points in row.record.late_by_game:
            games.setdefault(row.record.entry_id, {})[(result.day_numbers[column], game)] = points
    return [
        RaceLine(
            row.record.player_number,
            row.record.name,
            rank_label(row),
            games.get(row.record.entry_id, {}),
            picked=index >= shown or row.record.player_number in wanted,
        )
        for index, row in enumerate(chosen)
    ]


def race_chart(result: Standings, picked: Iterable[int] = (), top: int = TOP) -> str:
    lines = race_lines(result, picked, top)
    if not lines:
        return ""
    return race_chart_svg(slots(result), lines, race_title(result, top))


def race_title(result: Standings, top: int = TOP) -> str:
    """The chart's title, on the page and in the PDF: the ties drawn with the top say so."""
    drawn = len(top_rows(result, top))
    title = f"The race: total after each game, top {min(top, drawn)}"
    if drawn > top:
        title += f" and {drawn - top} tied with them"
    return title


def _points(result: Standings, entry_ids: list[int]) -> dict[int, dict[tuple[int, int], int]]:
    """{entry: {(day, game): points}} over the confirmed games the standings counted."""
    rules = result.tournament.rules
    last = result.cut.last_day(rules.days)
    cut_sql, params = "AND d.number <= %s", [last]
    if result.cut.is_everything:
        cut_sql, params = "", []
    if result.cut.game is not None:
        cut_sql += " AND (d.number < %s OR gm.number <= %s)"
        params += [last, result.cut.game]
    score, sheet, game, day = table_names(Score, GameSheet, Game, Day)
    rows = sql_rows(
        f"""
        SELECT s.entry_id, d.number, gm.number, s.points
        FROM {score} s
        JOIN {sheet} g ON g.id = s.sheet_id
        JOIN {game} gm ON gm.id = g.game_id
        JOIN {day} d ON d.id = gm.day_id
        WHERE g.state = %s AND d.tournament_id = %s
          AND s.entry_id IN ({", ".join(["%s"] * len(entry_ids))}) {cut_sql}
        """,  # noqa: S608 (table names from the models, values as parameters)
        [SheetState.CONFIRMED, result.tournament.pk, *entry_ids, *params],
    )
    made: dict[int, dict[tuple[int, int], int]] = {}
    for entry, day, game, points in rows:
        made.setdefault(entry, {})[(day, game)] = points
    return made
