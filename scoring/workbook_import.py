"""Reading a filled-in score workbook back: an adapter over services.import_games.

The file has the columns scoring.workbook_export writes (HEADER). A game whose scores are all
blank is not played yet and is skipped; a game with nobody out is a blocked game. This module
only turns rows into typed games and says which row each problem is on: the rules are checked
by scoring.validation through scoring.services, like every other way in.

The steps, in order: read_rows (the file, safely), _load_event (what the rows may name),
_group_rows (one row checked at a time, gathered by game), _plan_games (one typed game per
table and game), then the service saves all of it or nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from django.conf import settings

from core.cells import is_blank
from core.errors import ServiceError
from core.spreadsheet_files import MAX_SHEET_ROWS, UnreadableFile, open_xlsx, refuse_if_too_big
from tournaments.models import Entry, Table

from . import services
from .selectors import WorkbookEvent, workbook_event
from .validation import TypedSheet, parse_whole_number
from .workbook_export import HEADER

NOT_A_WORKBOOK = (
    "This file is not an Excel workbook (.xlsx). Save it from your spreadsheet program as "
    '"Excel Workbook (.xlsx)" and try again.'
)
OUT_YES = {"yes", "y", "x", "out", "true", "1"}
OUT_NO = {"", "no", "n", "false", "0"}
# The export writes this on the rows of a game marked not played; its scores are blank, so the
# game is skipped like any game not entered.
OUT_NOT_PLAYED = {"not played"}

GameKey = tuple[int, int, int]  # (day number, table number, game number)


class WorkbookRefused(ServiceError):
    """The file was not imported; ``lines`` are the problems, each with its row number."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        super().__init__("\n".join(lines))


def max_unpacked_bytes() -> int:
    return settings.UPLOAD_MAX_BYTES * 10


# ---------------------------------------------------------------------------
# Reading a file safely
# ---------------------------------------------------------------------------


def read_rows(data: bytes) -> list[tuple[int, tuple]]:
    """(row number as the spreadsheet shows it, values) for every non-empty row after the header."""
    try:
        refuse_if_too_big(len(data), settings.UPLOAD_MAX_BYTES)
        wb = open_xlsx(
            data,
            not_a_workbook=NOT_A_WORKBOOK,
            holds="a score workbook",
            max_unpacked=max_unpacked_bytes(),
        )
    except UnreadableFile as refusal:
        raise WorkbookRefused([str(refusal)]) from None
    try:
        if not wb.worksheets:
            raise WorkbookRefused(["The workbook has no sheets."])
        return _sheet_rows(wb.worksheets[0])
    except WorkbookRefused:
        raise
    except Exception:
        # Read-only mode parses the sheet while iterating: a damaged sheet (cut-off XML, a
        # number cell holding text, a bad cell reference) fails here, not in load_workbook.
        raise WorkbookRefused([NOT_A_WORKBOOK]) from None
    finally:
        wb.close()


def _sheet_rows(ws) -> list[tuple[int, tuple]]:
    rows = []
    header = None
    width = len(HEADER)
    for number, values in enumerate(ws.iter_rows(values_only=True, max_col=width), start=1):
        if number > MAX_SHEET_ROWS + 1:
            raise WorkbookRefused(
                [f"The sheet has more than {MAX_SHEET_ROWS:,} rows: is it the right file?"]
            )
        values = tuple(values[:width]) + (None,) * (width - len(values))
        if header is None:
            header = [str(v).strip() if v is not None else "" for v in values]
            _check_header(header)
            continue
        if all(is_blank(v) for v in values):
            continue
        rows.append((number, values))
    if header is None:
        raise WorkbookRefused(["The sheet is empty: row 1 must hold the column names."])
    return rows


def _check_header(header: list[str]) -> None:
    if header != HEADER:
        raise WorkbookRefused(
            [
                "Row 1: the columns must be "
                + ", ".join(HEADER)
                + " (found "
                + ", ".join(h or "(blank)" for h in header)
                + ")."
            ]
        )


# ---------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------


@dataclass
class ImportReport:
    entered: int = 0
    confirmed: int = 0
    corrected: int = 0
    unchanged: int = 0
    not_played: int = 0

    def summary(self) -> str:
        return (
            f"{self.entered} games entered, {self.confirmed} confirmed, {self.corrected} "
            f"corrected, {self.unchanged} unchanged, {self.not_played} not played yet."
        )


@dataclass
class _Row:
    number: int
    entry: Entry
    score: object
    out: bool
    engine: object


@dataclass
class _Plan:
    """The played games to save, by table, and where each game's rows are for messages."""

    batches: OrderedDict[int, tuple[Table, list]] = field(default_factory=OrderedDict)
    rows_of: dict[GameKey, dict] = field(default_factory=dict)


def import_workbook(tournament, data: bytes, *, user=None, reason: str = "") -> ImportReport:
    """Read a filled-in workbook and save every played game through the scoring service.

    All or nothing: on any problem nothing is stored and WorkbookRefused lists every bad row.
    """
    rows = read_rows(data)
    event = workbook_event(tournament)
    lines: list[str] = []
    report = ImportReport()
    plan = _plan_games(_group_rows(rows, event, lines), event, report, lines)
    if lines:
        raise WorkbookRefused(_sorted_lines(lines))
    _save(plan, report, user=user, reason=reason)
    return report


def _group_rows(
    rows, event: WorkbookEvent, lines: list[str]
) -> OrderedDict[GameKey, dict[int, _Row]]:
    """Each game's rows, by entry id, in the file's order; a bad row adds a line and is left out."""
    grouped: OrderedDict[GameKey, dict[int, _Row]] = OrderedDict()
    for number, values in rows:
        checked = _check_row(number, values, event, lines)
        if checked is None:
            continue
        key, row = checked
        game_rows = grouped.setdefault(key, {})
        if row.entry.pk in game_rows:
            lines.append(
                f"Row {number}: {row.entry.player.name} is listed twice for table "
                f"{key[1]}, game {key[2]} (also row {game_rows[row.entry.pk].number})."
            )
            continue
        game_rows[row.entry.pk] = row
    return grouped


def _check_row(
    number: int, values: tuple, event: WorkbookEvent, lines: list[str]
) -> tuple[GameKey, _Row] | None:
    """The row's game and what it says, or None with the problem added to ``lines``."""
    day_no, table_no, game_no, engine, player_id, _name, score, out = values
    day_n = _whole(day_no, "Day", number, lines)
    table_n = _whole(table_no, "Table", number, lines)
    game_n = _whole(game_no, "Game", number, lines)
    player_n = _whole(player_id, "Player ID", number, lines)
    if day_n is None or table_n is None or game_n is None or player_n is None:
        return None
    problem = _unknown_place(event, day_n, table_n, game_n, player_n)
    if problem:
        lines.append(f"Row {number}: {problem}")
        return None
    out_text = "" if out is None else str(out).strip().lower()
    if out_text not in OUT_YES | OUT_NO | OUT_NOT_PLAYED:
        lines.append(f'Row {number}: Out must be "yes" or left blank (it says "{out}").')
        return None
    entry = event.entries[player_n]
    return (day_n, table_n, game_n), _Row(number, entry, score, out_text in OUT_YES, engine)


def _unknown_place(
    event: WorkbookEvent, day_n: int, table_n: int, game_n: int, player_n: int
) -> str:
    """What the row names that the tournament does not have, checked in order; "" if nothing."""
    if day_n not in event.days:
        return f"there is no day {day_n} in this tournament."
    table = event.tables.get((day_n, table_n))
    if table is None:
        return f"there is no table {table_n} on day {day_n}."
    if (day_n, game_n) not in event.games:
        return f"there is no game {game_n} on day {day_n}."
    entry = event.entries.get(player_n)
    if entry is None:
        return f"there is no player with Player ID {player_n}."
    if (table.pk, entry.pk) not in event.seats:
        return (
            f"{entry.player.name} (Player ID {player_n}) is not seated at table {table_n} "
            f"on day {day_n}."
        )
    return ""


def _plan_games(grouped, event: WorkbookEvent, report: ImportReport, lines: list[str]) -> _Plan:
    """One typed game per played (table, game); games with no scores count as not played."""
    plan = _Plan()
    for key, game_rows in grouped.items():
        day_n, table_n, game_n = key
        if all(is_blank(r.score) for r in game_rows.values()):
            report.not_played += 1
            continue
        engine, problem = _one_engine(game_rows, table_n, game_n)
        if problem:
            lines.append(problem)
            continue
        table = event.tables[(day_n, table_n)]
        typed = TypedSheet(
            game_number=game_n,
            engine=engine,
            scores={pk: r.score for pk, r in game_rows.items()},
            went_out=[pk for pk, r in game_rows.items() if r.out],
            blocked=not any(r.out for r in game_rows.values()),
        )
        plan.batches.setdefault(table.pk, (table, []))[1].append(
            services.GameInput(game=event.games[(day_n, game_n)], typed=typed, base_version=None)
        )
        plan.rows_of[key] = {
            "first": min(r.number for r in game_rows.values()),
            "outs": [r.number for r in game_rows.values() if r.out],
            "players": {pk: r.number for pk, r in game_rows.items()},
        }
    return plan


def _one_engine(game_rows: dict[int, _Row], table_n: int, game_n: int) -> tuple[str | None, str]:
    """The engine the game's rows give (None when none does), or a problem when they differ."""
    engines: dict[str, int] = {}
    for r in game_rows.values():
        if not is_blank(r.engine):
            engines.setdefault(_engine_key(r.engine), r.number)
    if len(engines) > 1:
        (a, row_a), (b, row_b) = sorted(engines.items(), key=lambda kv: kv[1])[:2]
        return None, (
            f"Row {row_b}: the engine says {b}, but row {row_a} says {a} for the "
            f"same game (table {table_n}, game {game_n}). A game has one engine."
        )
    return next(iter(engines), None), ""


def _save(plan: _Plan, report: ImportReport, *, user, reason: str) -> None:
    try:
        outcomes = services.import_games(list(plan.batches.values()), user=user, reason=reason)
    except services.SheetRefused as refused:
        raise WorkbookRefused(_refusal_lines(refused.refusals, plan.rows_of)) from None
    except services.VersionConflict as conflict:
        raise WorkbookRefused([c.message for c in conflict.current]) from None
    for outcome in outcomes:
        setattr(report, outcome.action, getattr(report, outcome.action) + 1)
    played = sum(len(inputs) for _, inputs in plan.batches.values())
    report.unchanged = played - len(outcomes)


def _whole(value, what: str, row: int, lines: list[str]) -> int | None:
    try:
        number = parse_whole_number(value.strip() if isinstance(value, str) else value)
    except ValueError:
        said = f' (it says "{value}").' if value not in (None, "") else ", but it is blank."
        lines.append(f"Row {row}: {what} must be a whole number{said}")
        return None
    if number < 1:
        lines.append(f"Row {row}: {what} must be 1 or more.")
        return None
    return number


def _engine_key(value) -> str:
    """12, 12.0 and " 12 " are the same engine; anything else is kept as typed for the checks."""
    try:
        return str(parse_whole_number(value.strip() if isinstance(value, str) else value))
    except ValueError:
        return str(value).strip()


def _row_for(refusal, lookup: dict) -> int:
    field_name = refusal.field
    if field_name.startswith(("score-", "tiles-")):
        try:
            return lookup["players"][int(field_name.split("-", 1)[1])]
        except (KeyError, ValueError):
            return lookup["first"]
    if field_name == "outcome" and lookup["outs"]:
        return lookup["outs"][-1]
    return lookup["first"]


def _refusal_lines(refusals, rows_of) -> list[str]:
    lines = []
    for refusal in refusals:
        lookup = rows_of[(refusal.day, refusal.table, refusal.game)]
        row = _row_for(refusal, lookup)
        lines.append(f"Row {row} (table {refusal.table}, game {refusal.game}): {refusal.message}")
    return _sorted_lines(lines)


def _sorted_lines(lines: list[str]) -> list[str]:
    def key(line: str):
        head = line.split(":", 1)[0].split()
        return int(head[1]) if len(head) > 1 and head[1].isdigit() else 0

    return sorted(dict.fromkeys(lines), key=key)
