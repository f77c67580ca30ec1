"""A player's own page for the public: their table each day, every game, their rank as it went.

Reads in a fixed number of queries: the standings (three), the player's seats, the sheets of
their tables, and every confirmed score of the event (for the rank after each game, which
depends on everyone's totals). Ranks after each game use the same ranking and tie-breaks as the
standings, so the last one is the player's rank in the standings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.sql import table_names
from domain.ranking import PlayerRecord, RankedRow, rank_players
from domain.rules import LATE_WORDS
from scoring.models import Game, GameSheet, Score, SheetState
from standings.final_order import with_final
from standings.race import slots
from standings.race_chart import RaceLine, race_chart_svg
from standings.read import Standings, rank_label, sql_rows
from tournaments.models import Day, Seat


@dataclass
class GameLine:
    day: int
    game: int
    engine: int | None = None
    points: int | None = None  # None: not played (or not confirmed) yet
    late: str = ""  # a missed game the late rule credited: "late: highest at the table"
    went_out: str = ""  # who went out, "" for nobody yet, "blocked" when nobody did
    total: int | None = None  # the player's total after this game
    rank: str = ""  # rank after this game, as printed


@dataclass
class DayLine:
    day: int
    table: int | None
    games: list[GameLine] = field(default_factory=list)
    total: int | None = None


@dataclass
class PlayerStory:
    row: RankedRow
    days: list[DayLine]
    chart: str
    late_words: str = ""  # what the late mark on a credited game means; "" when none is


def player_story(result: Standings, number: int) -> PlayerStory | None:
    """The story of player ``number`` in ``result`` (the standings of the whole event)."""
    row = next((r for r in result.rows if r.record.player_number == number), None)
    if row is None:
        return None
    event_slots = slots(result)
    scores = _event_scores(result)
    ranks = _ranks_after_each_game(result, event_slots, scores, row.record.entry_id)
    tables = dict(
        Seat.objects.filter(entry_id=row.record.entry_id).values_list(
            "day__number", "table__number"
        )
    )
    sheets = _sheets(result, list(tables.values()), tables)
    own = {
        (day, game): points
        for entry, day, game, points, _ in scores
        if entry == row.record.entry_id
    }
    credited = _late_games(result, row)
    own.update(credited)
    late_words = LATE_WORDS.get(row.record.late_rule, "")
    days: dict[int, DayLine] = {}
    total = 0
    for day, game in event_slots:
        line = days.setdefault(day, DayLine(day, tables.get(day)))
        engine, went_out = sheets.get((day, game), (None, ""))
        game_line = GameLine(day, game, engine, went_out=went_out)
        if (day, game) in own:
            total += own[(day, game)]
            game_line.points, game_line.total = own[(day, game)], total
            game_line.rank = ranks.get((day, game), "")
            game_line.late = late_words if (day, game) in credited else ""
            line.total = (line.total or 0) + own[(day, game)]
        line.games.append(game_line)
    leader = result.rows[0]
    lines = [RaceLine(row.record.player_number, row.record.name, rank_label(row), own, picked=True)]
    if leader is not row and leader.rank is not None:
        leader_games = {(d, g): p for e, d, g, p, _ in scores if e == leader.record.entry_id}
        lines.insert(
            0, RaceLine(leader.record.player_number, leader.record.name, "1", leader_games)
        )
    chart = race_chart_svg(event_slots, lines, f"{row.record.name}: total after each game")
    return PlayerStory(row, list(days.values()), chart, late_words if credited else "")


def _late_games(result: Standings, row: RankedRow) -> dict[tuple[int, int], int]:
    """{(day, game): points} of the missed games the late rule credited to ``row``: in its
    total, so in its story too."""
    return {
        (result.day_numbers[column], game): points
        for column, game, points in row.record.late_by_game
    }


def _event_scores(result: Standings) -> list[tuple[int, int, int, int, bool]]:
    """(entry, day, game, points, went out) of every confirmed score of the event."""
    score, sheet, game, day = table_names(Score, GameSheet, Game, Day)
    rows = sql_rows(
        f"""
        SELECT s.entry_id, d.number, gm.number, s.points,
               CASE WHEN g.went_out_id = s.entry_id THEN 1 ELSE 0 END
        FROM {score} s
        JOIN {sheet} g ON g.id = s.sheet_id
        JOIN {game} gm ON gm.id = g.game_id
        JOIN {day} d ON d.id = gm.day_id
        WHERE g.state = %s AND d.tournament_id = %s
        """,  # noqa: S608 (table names from the models, values as parameters)
        [SheetState.CONFIRMED, result.tournament.pk],
    )
    return [
        (entry, day_number, number, points, bool(out))
        for entry, day_number, number, points, out in rows
    ]


def _ranks_after_each_game(result, event_slots, scores, entry_id) -> dict[tuple[int, int], str]:
    """The player's rank as printed after each game: everyone's totals up to that game, ranked
    as the standings rank them (same tie-breaks)."""
    by_slot: dict[tuple[int, int], list[tuple[int, int, bool | None]]] = {}
    for entry, day, game, points, out in scores:
        by_slot.setdefault((day, game), []).append((entry, points, out))
    # A late player's credited missed games count in their totals as the standings count them
    # (out None: not a game they played, so neither a game gone out nor their worst game).
    for r in result.rows:
        for slot, points in _late_games(result, r).items():
            by_slot.setdefault(slot, []).append((r.record.entry_id, points, None))
    records = {
        r.record.entry_id: PlayerRecord(
            r.record.entry_id,
            r.record.player_number,
            r.record.name,
            r.record.club,
            (None,) * len(result.day_numbers),
            0,
            0,
            None,
            r.record.withdrawn,
        )
        for r in result.rows
    }
    index = {day: i for i, day in enumerate(result.day_numbers)}
    tie_breaks = result.tournament.rules.tie_breaks or ()
    ranks = {}
    for day, game in event_slots:
        played = by_slot.get((day, game), [])
        for entry, points, out in played:
            record = records.get(entry)
            if record is None:
                continue
            totals = list(record.day_totals)
            totals[index[day]] = (totals[index[day]] or 0) + points
            record.day_totals = tuple(totals)
            if out is not None:
                record.games_played += 1
                record.games_out += out
                record.worst_game = max(record.worst_game or 0, points)
        if any(entry == entry_id for entry, _, _ in played):
            ranked = _ranked_at(result, list(records.values()), day, tie_breaks)
            mine = next(r for r in ranked if r.record.entry_id == entry_id)
            ranks[(day, game)] = rank_label(mine)
    return ranks


def _ranked_at(result, records: list[PlayerRecord], day: int, tie_breaks) -> list[RankedRow]:
    """Ranked as the standings rank them: once the final is under way, its players first
    (standings.final_order), and before it as usual."""
    rules = result.tournament.rules
    if result.finalists and day == rules.days:
        column = result.day_numbers.index(rules.days)
        return with_final(records, result.finalists, column, rules, {})
    return rank_players(records, tie_breaks)


def _sheets(result, table_numbers, tables) -> dict[tuple[int, int], tuple[int, str]]:
    """{(day, game): (engine used, who went out)} for the confirmed sheets of the player's
    tables."""
    if not tables:
        return {}
    rows = GameSheet.objects.filter(
        state=SheetState.CONFIRMED,
        table__day__tournament=result.tournament,
        table__day__number__in=list(tables),
        table__number__in=table_numbers,
    ).values_list(
        "table__day__number",
        "table__number",
        "game__number",
        "engine_used",
        "went_out__player__name",
        "blocked",
    )
    made = {}
    for day, table, game, engine, out, blocked in rows:
        if tables.get(day) == table:
            made[(day, game)] = (engine, out or ("blocked" if blocked else ""))
    return made
