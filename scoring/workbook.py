"""The day's score workbook: export one row per seated player per game, and read it back.

Columns: Day, Table, Game, Engine, Player ID, Player, Score, Out. Player ID is the player's
number in the tournament; Out is "yes" for the player who went out. A game whose scores are all
blank is not played yet and is skipped; a game with nobody out is a blocked game. The rules are
checked by scoring.validation through scoring.services, like every other way in.
"""
from __future__ import annotations

import io
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings

from tournaments.models import Day, Entry, Seat, Table
from core.errors import ServiceError
from core.spreadsheet_files import UnreadableFile, open_xlsx, refuse_if_too_big

from . import services
from .selectors import TABLE_WITH_RULES, day_workbook_rows
from .schedule import day_games
from .validation import TypedSheet, parse_whole_number

HEADER = ["Day", "Table", "Game", "Engine", "Player ID", "Player", "Score", "Out"]
NOT_A_WORKBOOK = (
    "This file is not an Excel workbook (.xlsx). Save it from your spreadsheet program as "
    "\"Excel Workbook (.xlsx)\" and try again."
)
MAX_ROWS = 20_000
OUT_YES = {"yes", "y", "x", "out", "true", "1"}
OUT_NO = {"", "no", "n", "false", "0"}
TEXT_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


class WorkbookRefused(ServiceError):
    """The file was not imported; ``lines`` are the problems, each with its row number."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        super().__init__("\n".join(lines))


def max_unpacked_bytes() -> int:
    return settings.UPLOAD_MAX_BYTES * 10


# ---------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------


def _safe(cell, value) -> None:
    """Text that a spreadsheet could read as a formula stays text (names are typed by people)."""
    cell.value = value
    if isinstance(value, str) and value.startswith(TEXT_TRIGGERS):
        cell.data_type = "s"
        cell.quotePrefix = True


def export_day(day: Day) -> bytes:
    """The day's entry sheet as .xlsx bytes, with every live score already filled in."""
    from openpyxl import Workbook
    from openpyxl.styles import Font

    wb = Workbook()
    ws = wb.active
    ws.title = f"Day {day.number} scores"
    ws.append(HEADER)
    for cell in ws[1]:
        cell.font = Font(bold=True)
    for index, row in enumerate(day_workbook_rows(day), start=2):
        values = [row["day"], row["table"], row["game"], row["engine"], row["player_id"],
                  row["player"], row["score"], "yes" if row["out"] else None]
        for column, value in enumerate(values, start=1):
            _safe(ws.cell(row=index, column=column), value)
    ws.freeze_panes = "A2"
    for letter, width in zip("ABCDEFGH", (6, 7, 7, 8, 10, 28, 8, 6)):
        ws.column_dimensions[letter].width = width
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


# ---------------------------------------------------------------------------
# Reading a file safely
# ---------------------------------------------------------------------------


def read_rows(data: bytes) -> list[tuple[int, tuple]]:
    """(row number as the spreadsheet shows it, values) for every non-empty row after the header."""
    try:
        refuse_if_too_big(len(data), settings.UPLOAD_MAX_BYTES)
        wb = open_xlsx(data, not_a_workbook=NOT_A_WORKBOOK, holds="a score workbook",
                       max_unpacked=max_unpacked_bytes())
    except UnreadableFile as refusal:
        raise WorkbookRefused([str(refusal)]) from None
    try:
        ws = wb.worksheets[0] if wb.worksheets else None
        if ws is None:
            raise WorkbookRefused(["The workbook has no sheets."])
        rows = []
        header = None
        for number, values in enumerate(ws.iter_rows(values_only=True, max_col=len(HEADER)), start=1):
            if number > MAX_ROWS + 1:
                raise WorkbookRefused([f"The sheet has more than {MAX_ROWS:,} rows: is it the right file?"])
            values = tuple(values[: len(HEADER)]) + (None,) * (len(HEADER) - len(values))
            if header is None:
                header = [str(v).strip() if v is not None else "" for v in values]
                if header != HEADER:
                    raise WorkbookRefused([
                        "Row 1: the columns must be " + ", ".join(HEADER) + " (found "
                        + ", ".join(h or "(blank)" for h in header) + ")."
                    ])
                continue
            if all(v is None or (isinstance(v, str) and not v.strip()) for v in values):
                continue
            rows.append((number, values))
        if header is None:
            raise WorkbookRefused(["The sheet is empty: row 1 must hold the column names."])
        return rows
    except WorkbookRefused:
        raise
    except Exception:
        # Read-only mode parses the sheet while iterating: a damaged sheet (cut-off XML, a
        # number cell holding text, a bad cell reference) fails here, not in load_workbook.
        raise WorkbookRefused([NOT_A_WORKBOOK]) from None
    finally:
        wb.close()


# ---------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------


@dataclass
class _Row:
    number: int
    entry: Entry
    score: object
    out: bool
    engine: object


@dataclass
class ImportReport:
    entered: int = 0
    confirmed: int = 0
    corrected: int = 0
    unchanged: int = 0
    not_played: int = 0

    def summary(self) -> str:
        return (f"{self.entered} games entered, {self.confirmed} confirmed, {self.corrected} "
                f"corrected, {self.unchanged} unchanged, {self.not_played} not played yet.")


def _whole(value, what: str, row: int, lines: list[str]) -> int | None:
    try:
        number = parse_whole_number(value.strip() if isinstance(value, str) else value)
    except ValueError:
        lines.append(f"Row {row}: {what} must be a whole number"
                     + (f' (it says "{value}").' if value not in (None, "") else ", but it is blank."))
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


def _is_blank(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def import_workbook(tournament, data: bytes, *, user=None, reason: str = "") -> ImportReport:
    """Read a filled-in workbook and save every played game through the scoring service.

    All or nothing: on any problem nothing is stored and WorkbookRefused lists every bad row.
    """
    rows = read_rows(data)
    lines: list[str] = []
    days = {d.number: d for d in Day.objects.filter(tournament=tournament)}
    for day in days.values():
        day.tournament = tournament  # its rules give each day's schedule
    entries = {e.number: e for e in Entry.objects.filter(tournament=tournament).select_related("player")}
    tables: dict[tuple[int, int], Table] = {
        (t.day.number, t.number): t
        for t in Table.objects.filter(day__tournament=tournament).select_related(*TABLE_WITH_RULES)
    }
    seat_of = {
        (s.table_id, s.entry_id): s for s in Seat.objects.filter(day__tournament=tournament)
    }
    games = {}
    for day in days.values():
        for game in day_games(day):
            games[(day.number, game.number)] = game

    # (day, table, game) -> {entry id: _Row}, in the file's order
    grouped: OrderedDict[tuple[int, int, int], dict[int, _Row]] = OrderedDict()
    for number, values in rows:
        day_no, table_no, game_no, engine, player_id, _name, score, out = values
        day_n = _whole(day_no, "Day", number, lines)
        table_n = _whole(table_no, "Table", number, lines)
        game_n = _whole(game_no, "Game", number, lines)
        player_n = _whole(player_id, "Player ID", number, lines)
        if None in (day_n, table_n, game_n, player_n):
            continue
        if day_n not in days:
            lines.append(f"Row {number}: there is no day {day_n} in this tournament.")
            continue
        table = tables.get((day_n, table_n))
        if table is None:
            lines.append(f"Row {number}: there is no table {table_n} on day {day_n}.")
            continue
        if (day_n, game_n) not in games:
            lines.append(f"Row {number}: there is no game {game_n} on day {day_n}.")
            continue
        entry = entries.get(player_n)
        if entry is None:
            lines.append(f"Row {number}: there is no player with Player ID {player_n}.")
            continue
        if (table.pk, entry.pk) not in seat_of:
            lines.append(f"Row {number}: {entry.player.name} (Player ID {player_n}) is not "
                         f"seated at table {table_n} on day {day_n}.")
            continue
        out_text = "" if out is None else str(out).strip().lower()
        if out_text not in OUT_YES | OUT_NO:
            lines.append(f'Row {number}: Out must be "yes" or left blank (it says "{out}").')
            continue
        key = (day_n, table_n, game_n)
        game_rows = grouped.setdefault(key, {})
        if entry.pk in game_rows:
            lines.append(f"Row {number}: {entry.player.name} is listed twice for table "
                         f"{table_n}, game {game_n} (also row {game_rows[entry.pk].number}).")
            continue
        game_rows[entry.pk] = _Row(number, entry, score, out_text in OUT_YES, engine)

    report = ImportReport()
    batches: OrderedDict[int, tuple[Table, list]] = OrderedDict()
    row_of: dict[tuple[int, int], dict] = {}  # (table number, game) -> lookups for messages
    for (day_n, table_n, game_n), game_rows in grouped.items():
        first = min(r.number for r in game_rows.values())
        if all(_is_blank(r.score) for r in game_rows.values()):
            report.not_played += 1
            continue
        engines = {}
        for r in game_rows.values():
            if not _is_blank(r.engine):
                engines.setdefault(_engine_key(r.engine), r.number)
        if len(engines) > 1:
            (a, row_a), (b, row_b) = sorted(engines.items(), key=lambda kv: kv[1])[:2]
            lines.append(f"Row {row_b}: the engine says {b}, but row {row_a} says {a} for the "
                         f"same game (table {table_n}, game {game_n}). A game has one engine.")
            continue
        table = tables[(day_n, table_n)]
        game = games[(day_n, game_n)]
        engine = next(iter(engines), None)
        typed = TypedSheet(
            game_number=game_n, engine=engine,
            scores={pk: r.score for pk, r in game_rows.items()},
            went_out=[pk for pk, r in game_rows.items() if r.out],
            blocked=not any(r.out for r in game_rows.values()),
        )
        batches.setdefault(table.pk, (table, []))[1].append(
            services.GameInput(game=game, typed=typed, base_version=None))
        outs = [r.number for r in game_rows.values() if r.out]
        row_of[(day_n, table_n, game_n)] = {
            "first": first, "outs": outs,
            "players": {pk: r.number for pk, r in game_rows.items()},
        }

    if lines:
        raise WorkbookRefused(_sorted_lines(lines))
    try:
        outcomes = services.import_games(list(batches.values()), user=user, reason=reason)
    except services.SheetRefused as refused:
        raise WorkbookRefused(_refusal_lines(refused.refusals, row_of)) from None
    except services.VersionConflict as conflict:
        raise WorkbookRefused([c.message for c in conflict.current]) from None
    for outcome in outcomes:
        setattr(report, outcome.action, getattr(report, outcome.action) + 1)
    played = sum(len(inputs) for _, inputs in batches.values())
    report.unchanged = played - len(outcomes)
    return report


def _row_for(refusal, lookup: dict) -> int:
    field = refusal.field
    if field.startswith(("score-", "tiles-")):
        try:
            return lookup["players"][int(field.split("-", 1)[1])]
        except (KeyError, ValueError):
            return lookup["first"]
    if field == "outcome" and lookup["outs"]:
        return lookup["outs"][-1]
    return lookup["first"]


def _refusal_lines(refusals, row_of) -> list[str]:
    lines = []
    for refusal in refusals:
        lookup = row_of[(refusal.day, refusal.table, refusal.game)]
        row = _row_for(refusal, lookup)
        lines.append(f"Row {row} (table {refusal.table}, game {refusal.game}): {refusal.message}")
    return _sorted_lines(lines)


def _sorted_lines(lines: list[str]) -> list[str]:
    def key(line: str):
        head = line.split(":", 1)[0].split()
        return int(head[1]) if len(head) > 1 and head[1].isdigit() else 0

    return sorted(dict.fromkeys(lines), key=key)
