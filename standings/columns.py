"""The standings columns, defined once: every output takes its headings and cells from here.

A column says its key, its heading, how to get its value from a row, how to print that value,
and which outputs show it. The workbook stores the value itself (numbers stay numbers, a
withdrawn player's rank is an empty cell); the page, the projector board, the PDF and the
command line print it as text. Outputs differ only where a column says so: a heading of their
own, what a blank cell reads, an extra HTML class, bold in print.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from core.formats import AVERAGE_CELL_FORMAT, average_text, rounded_average
from domain.ranking import ClubRow, RankedRow
from domain.session_days import session_label
from standings.late import day_label, late_note
from standings.read import (
    TIE_MARK,
    WITHDRAWN_MARK,
    Standings,
    rank_label,
    short_note,
    total_label,
)


class Output(StrEnum):
    PAGE = "page"  # the standings web page (django-tables2)
    PROJECTOR = "projector"  # the wall board
    PDF = "pdf"
    WORKBOOK = "workbook"  # the Excel download
    COMMAND = "command"  # ``manage.py standings``


EVERY_OUTPUT = frozenset(Output)


def _as_text(value: object) -> str:
    return "" if value is None else str(value)


@dataclass(frozen=True)
class Column:
    key: str
    heading: str
    value: Callable[[Any], Any]  # the row's typed value: what the workbook stores
    text: Callable[[Any], str] | None = None  # how it prints; by default the value as text
    outputs: frozenset[Output] = EVERY_OUTPUT
    headings: Mapping[Output, str] = field(default_factory=dict)  # an output's own heading
    blank: Mapping[Output, str] = field(default_factory=dict)  # what an empty cell reads
    numeric: bool = True  # right-aligned; text columns are left-aligned and may wrap
    css: Mapping[Output, str] = field(default_factory=dict)  # extra class of its HTML cells
    bold: bool = False  # bold in print
    # Print may break the heading over two lines when names need the room: a short number
    # under a two-word heading ("Player / ID").
    heading_wraps: bool = False
    cell_format: str | None = None  # the workbook's number format, when not the default

    def heading_in(self, output: Output) -> str:
        return self.headings.get(output, self.heading)

    def printed(self, row: Any, output: Output) -> str:
        text = self.text(row) if self.text is not None else _as_text(self.value(row))
        return text or self.blank.get(output, "")

    def cell_class(self, output: Output) -> str:
        return " ".join(
            name for name in ("num" if self.numeric else "", self.css.get(output, "")) if name
        )

    def sort_key(self, row: Any) -> Any:
        """Numbers by value, text by its case-folded form (a missing club sorts as "")."""
        value = self.value(row)
        return value if self.numeric else (value or "").casefold()


@dataclass(frozen=True)
class ColumnSet:
    """The columns of one table, in order; an output may list them in an order of its own."""

    columns: tuple[Column, ...]
    orders: Mapping[Output, tuple[str, ...]] = field(default_factory=dict)

    def for_output(self, output: Output) -> list[Column]:
        shown = [column for column in self.columns if output in column.outputs]
        order = self.orders.get(output)
        if order is None:
            return shown
        by_key = {column.key: column for column in shown}
        return [by_key[key] for key in order]


# --- The players' table ----------------------------------------------------------------------


def row_note(row: RankedRow) -> str:
    """The workbook's note: its totals and days are numbers, so their marks are words here."""
    return "; ".join(note for note in (short_note(row), late_note(row)) if note)


def _status(row: RankedRow) -> str:
    if row.record.substitute:
        return "substitute"
    if row.record.withdrawn:
        return "withdrawn"
    return "tied" if row.tied else ""


# A withdrawn player has no rank: the page spells it out, the narrower outputs print the mark
# their legend explains.
_NO_RANK = {
    Output.PAGE: "withdrawn",
    Output.PROJECTOR: WITHDRAWN_MARK,
    Output.PDF: WITHDRAWN_MARK,
    Output.COMMAND: WITHDRAWN_MARK,
}
_NOT_ON_THE_BOARD = EVERY_OUTPUT - {Output.PROJECTOR}

PLAYERS_BEFORE_DAYS = (
    Column(
        "rank",
        "Rank",
        lambda row: row.rank,
        text=rank_label,
        blank=_NO_RANK,
        css={Output.PAGE: "rank"},
    ),
    Column(
        "number",
        "Player ID",
        lambda row: row.record.player_number,
        heading_wraps=True,
    ),
    Column("name", "Player", lambda row: row.record.name, numeric=False),
    Column("club", "Club", lambda row: row.record.club, numeric=False),
)
PLAYERS_AFTER_DAYS = (
    Column(
        "total",
        "Total",
        lambda row: row.total,
        text=total_label,
        bold=True,
        css={Output.PAGE: "total", Output.PROJECTOR: "total"},
    ),
    Column("outs", "Outs", lambda row: row.record.games_out, outputs=_NOT_ON_THE_BOARD),
    # Games counted per player, on every output: mid-day, tables differ in games played.
    Column("games", "Games", lambda row: row.record.games_played),
    Column("status", "Status", _status, numeric=False, outputs=frozenset({Output.WORKBOOK})),
    # The workbook keeps totals and days as numbers, so a short total's mark and a late
    # player's are a note beside them.
    Column("note", "Note", row_note, numeric=False, outputs=frozenset({Output.WORKBOOK})),
)


# A day the player has not played yet is a dash, never 0: where the lowest score wins, 0 reads as
# a perfect day. The workbook leaves the cell empty (its value is None).
NOT_PLAYED = "\u2013"
_NOT_PLAYED = {
    Output.PAGE: NOT_PLAYED,
    Output.PROJECTOR: NOT_PLAYED,
    Output.PDF: NOT_PLAYED,
    Output.COMMAND: "-",
}


def day_column(index: int, day: int, per_day: int = 1) -> Column:
    return Column(
        f"day_{day}",
        session_label(day, per_day),
        lambda row: row.record.day_totals[index],
        text=lambda row: day_label(row, index),
        blank=_NOT_PLAYED,
    )


def player_columns(day_numbers: Sequence[int], per_day: int = 1) -> ColumnSet:
    """The players' table: one column per day, between the club and the total, as on paper;
    each headed by its session's label ("Day 2", or "Day 1, session 2" when dates hold more
    than one)."""
    days = tuple(day_column(index, day, per_day) for index, day in enumerate(day_numbers))
    return ColumnSet((*PLAYERS_BEFORE_DAYS, *days, *PLAYERS_AFTER_DAYS))


# --- The clubs' table ------------------------------------------------------------------------


class ClubLine(NamedTuple):
    """A ranked club with its rank as printed, which depends on the other clubs' ranks."""

    rank_label: str
    club: ClubRow


def club_lines(result: Standings) -> list[ClubLine]:
    """Club ranks as printed, "=2" where clubs share a rank (same averages)."""
    shared = Counter(club.rank for club in result.clubs)
    return [
        ClubLine(f"{TIE_MARK}{club.rank}" if shared[club.rank] > 1 else str(club.rank), club)
        for club in result.clubs
    ]


_CLUB_OUTPUTS = EVERY_OUTPUT - {Output.COMMAND}

CLUB_COLUMNS = ColumnSet(
    (
        Column(
            "rank",
            "Rank",
            lambda line: line.club.rank,
            text=lambda line: line.rank_label,
            outputs=_CLUB_OUTPUTS,
        ),
        Column("club", "Club", lambda line: line.club.club, numeric=False, outputs=_CLUB_OUTPUTS),
        Column("players", "Players", lambda line: line.club.players, outputs=_CLUB_OUTPUTS),
        Column(
            "total",
            "Total",
            lambda line: line.club.total,
            outputs=_CLUB_OUTPUTS,
            css={Output.PROJECTOR: "total"},
        ),
        Column(
            "average",
            "Average",
            lambda line: rounded_average(line.club.average),
            text=lambda line: average_text(line.club.average),
            outputs=_CLUB_OUTPUTS,
            cell_format=AVERAGE_CELL_FORMAT,
        ),
    ),
    # The board shows what clubs are ranked by, the average, before their total.
    orders={Output.PROJECTOR: ("rank", "club", "players", "average", "total")},
)


# --- Tables as each output needs them --------------------------------------------------------


def text_table(
    columns: Sequence[Column], rows: Iterable[Any], output: Output
) -> tuple[list[str], list[list[str]]]:
    """Header and rows as printed text: the PDF, the command line."""
    header = [column.heading_in(output) for column in columns]
    return header, [[column.printed(row, output) for column in columns] for row in rows]


def aligned_text(columns: Sequence[Column], rows: Iterable[Any], output: Output) -> str:
    """The table in columns of spaces, numbers right-aligned and text left: the command line."""
    header, body = text_table(columns, rows, output)
    lines = [header, *body]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text_columns = {i for i, column in enumerate(columns) if not column.numeric}
    return "\n".join(
        "  ".join(
            cell.ljust(width) if i in text_columns else cell.rjust(width)
            for i, (cell, width) in enumerate(zip(line, widths, strict=True))
        ).rstrip()
        for line in lines
    )


def value_table(
    columns: Sequence[Column], rows: Iterable[Any], output: Output
) -> tuple[list[str], list[list[Any]]]:
    """Header and rows of typed values: the workbook."""
    header = [column.heading_in(output) for column in columns]
    return header, [[column.value(row) for column in columns] for row in rows]


class HtmlCell(NamedTuple):
    css: str  # the class attribute, "" for none
    text: str
    numeric: bool


def html_header(columns: Sequence[Column], output: Output) -> list[HtmlCell]:
    return [
        HtmlCell("num" if column.numeric else "", column.heading_in(output), column.numeric)
        for column in columns
    ]


def html_cells(columns: Sequence[Column], row: Any, output: Output) -> list[HtmlCell]:
    return [
        HtmlCell(column.cell_class(output), column.printed(row, output), column.numeric)
        for column in columns
    ]
