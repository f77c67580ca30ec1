"""Reading a filled-in score workbook back: an adapter over submit.import_games.

The file has the columns scoring.workbook_export writes (HEADER). A game whose scores are all
blank is not played yet and is skipped. A played game states its outcome in the Out column:
"yes" for the player who went out, or "blocked" on one of its rows; one with neither is refused
with its rows named (a blank Out once stored a blocked game, and so miscounted the outs).

This module only turns rows into typed games and says which row each problem is on: the rules
are checked by domain.sheet_checks through scoring.submit, like every other way in.

The steps, in order: read_rows (the file, safely), _load_event (what the rows may name),
_group_rows (one row checked at a time, gathered by game), _plan_games (one typed game per
table and game), then the service saves all of it or nothing.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, field

from django.conf import settings

from core.cells import is_blank
from core.errors import ServiceError
from core.spreadsheet_files import (
    MAX_SHEET_ROWS,
    UnreadableFile,
    open_xlsx,
    refuse_if_too_big,
    within_time,
)
from domain.sheet_checks import TypedSheet, parse_whole_number
from scoring import submit
from scoring.presenters import current_sheet_of
from scoring.selectors import WorkbookEvent, workbook_event
from scoring.workbook_export import HEADER, OUT_BLOCKED, OUT_NOT_PLAYED, OUT_WENT
from tournaments.models import Entry, Table

NOT_A_WORKBOOK = (
    "This file is not an Excel workbook (.xlsx). Save it from your spreadsheet program as "
    '"Excel Workbook (.xlsx)" and try again.'
)
# What the Out column may say, as the outcome it states. A game marked not played says so on
# its rows, its scores blank, so it is skipped like any game not entered.
WENT_OUT = "went out"
BLOCKED = "blocked"
NOT_PLAYED = "not played"
NOTHING = ""
OUT_WORDS = {
    **dict.fromkeys((OUT_WENT, "y", "x", "out", "went out", "true", "1"), WENT_OUT),
    **dict.fromkeys((OUT_BLOCKED, "block"), BLOCKED),
    **dict.fromkeys((OUT_NOT_PLAYED,), NOT_PLAYED),
    **dict.fromkeys(("", "no", "n", "false", "0"), NOTHING),
}

GameKey = tuple[int, int, int]  # (day number, table number, game number)


class WorkbookRefused(ServiceError):
    """The file was not imported; ``lines`` are the problems, each with its row number."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        super().__init__("\n".join(lines))


class WorkbookToCheck(WorkbookRefused):
    """The file was not imported yet: every score is possible, but ``lines`` (one per row) look
    like typos. Uploading the same file again with ``checked`` set to ``code`` imports it; the
    code stands for these very notes, so a file changed in between is asked about again."""

    def __init__(self, lines: list[str]):
        super().__init__(lines)
        self.code = checked_code(lines)


def checked_code(lines: list[str]) -> str:
    """A short fingerprint of the "please check" notes a person confirmed."""
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


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
    except UnreadableFile as refusal:
        raise WorkbookRefused([str(refusal)]) from None
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
    rows_read = within_time(ws.iter_rows(values_only=True, max_col=width))
    for number, values in enumerate(rows_read, start=1):
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
    # State is written for the desk to read; a file saved before it existed has no State column.
    if header != HEADER and header != [*HEADER[:-1], ""]:
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
        # In the grid's words: every game saved from a workbook ends up confirmed.
        return (
            f"{self.entered} games keyed in and confirmed (the table had not entered them), "
            f"{self.confirmed} confirmed: the card keyed matched what the table entered, "
            f"{self.corrected} confirmed games corrected, {self.unchanged} unchanged, "
            f"{self.not_played} left blank (not entered)."
        )


@dataclass
class _Row:
    number: int
    entry: Entry
    score: object
    out: str  # WENT_OUT, BLOCKED or NOTHING
    engine: object


@dataclass
class _Plan:
    """The played games to save, by table, and where each game's rows are for messages."""

    batches: OrderedDict[int, tuple[Table, list]] = field(default_factory=OrderedDict)
    rows_of: dict[GameKey, dict] = field(default_factory=dict)


def import_workbook(
    tournament, data: bytes, *, user=None, reason: str = "", checked: str = ""
) -> ImportReport:
    """Read a filled-in workbook and save every played game through the scoring service.

    All or nothing: on any problem nothing is stored and WorkbookRefused lists every bad row.
    Likely typos are asked about, by row, with WorkbookToCheck; ``checked`` is the code of the
    notes the person confirmed (WorkbookToCheck.code), or ALL_CHECKED from the command line.
    """
    rows = read_rows(data)
    event = workbook_event(tournament)
    lines: list[str] = []
    report = ImportReport()
    plan = _plan_games(_group_rows(rows, event, lines), event, report, lines)
    if lines:
        raise WorkbookRefused(_sorted_lines(lines))
    _save(plan, report, user=user, reason=reason, checked=checked)
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
    day_no, table_no, game_no, engine, player_id, _name, score, out, _state = values
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
    out_text = "" if out is None else " ".join(str(out).lower().split())
    if out_text not in OUT_WORDS:
        lines.append(
            f'Row {number}: Out must be "{OUT_WENT}" for the player who went out, '
            f'"{OUT_BLOCKED}" for a game nobody went out of, "{OUT_NOT_PLAYED}" for a game the '
            f'table did not play, or left blank (it says "{out}").'
        )
        return None
    entry = event.entries[player_n]
    return (day_n, table_n, game_n), _Row(number, entry, score, OUT_WORDS[out_text], engine)


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
        problem = (
            problem
            or _scores_in_unplayed(game_rows, table_n, game_n)
            or _no_outcome(game_rows, table_n, game_n)
        )
        if problem:
            lines.append(problem)
            continue
        table = event.tables[(day_n, table_n)]
        typed = TypedSheet(
            game_number=game_n,
            engine=engine,
            scores={pk: r.score for pk, r in game_rows.items()},
            went_out=[pk for pk, r in game_rows.items() if r.out == WENT_OUT],
            blocked=any(r.out == BLOCKED for r in game_rows.values()),
        )
        plan.batches.setdefault(table.pk, (table, []))[1].append(
            submit.GameInput(game=event.games[(day_n, game_n)], typed=typed, base_version=None)
        )
        plan.rows_of[key] = {
            "first": min(r.number for r in game_rows.values()),
            "outs": [r.number for r in game_rows.values() if r.out != NOTHING],
            "players": {pk: r.number for pk, r in game_rows.items()},
        }
    return plan


def _rows_named(game_rows: dict[int, _Row]) -> str:
    numbers = sorted(r.number for r in game_rows.values())
    if len(numbers) == 1:
        return f"Row {numbers[0]}"
    if numbers[-1] - numbers[0] + 1 != len(numbers):
        return "Rows " + ", ".join(str(n) for n in numbers)
    return f"Rows {numbers[0]} to {numbers[-1]}"


def _scores_in_unplayed(game_rows: dict[int, _Row], table_n: int, game_n: int) -> str:
    """A game whose rows say it was not played cannot also have scores."""
    if not any(r.out == NOT_PLAYED for r in game_rows.values()):
        return ""
    return (
        f"{_rows_named(game_rows)} (table {table_n}, game {game_n}): Out says "
        f'"{OUT_NOT_PLAYED}" but the game has scores. Clear the scores, or say how it ended.'
    )


def _no_outcome(game_rows: dict[int, _Row], table_n: int, game_n: int) -> str:
    """A played game that does not say how it ended, with its rows named; "" when it does."""
    if any(r.out != NOTHING for r in game_rows.values()):
        return ""
    return (
        f"{_rows_named(game_rows)} (table {table_n}, game {game_n}): the game has scores but "
        "Out does not say "
        f'how it ended. Write "{OUT_WENT}" in Out for the player who went out, or '
        f'"{OUT_BLOCKED}" on one of its rows if nobody went out.'
    )


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


# The command line's --scores-checked: the person running it vouches for every score.
ALL_CHECKED = "all"


def _save(plan: _Plan, report: ImportReport, *, user, reason: str, checked: str) -> None:
    batches = list(plan.batches.values())
    saved = submit.import_games(batches, user=user, reason=reason, rechecked=checked == ALL_CHECKED)
    if saved.to_check:
        lines = _refusal_lines(saved.warnings, plan.rows_of)
        if not checked or checked != checked_code(lines):
            raise WorkbookToCheck(lines)
        # These very notes were confirmed: save the same games again, now rechecked.
        saved = submit.import_games(batches, user=user, reason=reason, rechecked=True)
    if saved.denied:
        raise ServiceError(saved.denied)
    if saved.conflicts:
        raise WorkbookRefused([current_sheet_of(now).message for now in saved.conflicts])
    if saved.refused:
        raise WorkbookRefused(_refusal_lines(saved.refusals, plan.rows_of))
    for outcome in saved.outcomes:
        setattr(report, outcome.action, getattr(report, outcome.action) + 1)
    played = sum(len(inputs) for _, inputs in plan.batches.values())
    report.unchanged = played - len(saved.outcomes)


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
        head = line.split(":", 1)[0].replace(",", " ").split()
        return int(head[1]) if len(head) > 1 and head[1].isdigit() else 0

    return sorted(dict.fromkeys(lines), key=key)
