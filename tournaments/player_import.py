"""Read the club's player spreadsheet (.xlsx or .csv) and check every row before anything is saved.

No database access: :func:`parse_player_file` turns the uploaded bytes into rows and a list of
problems, each with the spreadsheet row number (the header is row 1, the first player row 2).
The service that writes to the database imports nothing unless the list of problems is empty.

Columns, matched by header whatever the case: ``Name`` (or ``First name`` and ``Last name``,
joined), ``Club``, ``Member number``, ``Phone`` and ``Email`` (together the entry's contact),
``Keep apart`` (the name of another player in the same event who must never share the table),
``Table`` (a pinned table number for a player who cannot move), ``Flight`` (one of the event's
flights, in any case) and ``Age`` (a whole number: the flight whose age range holds it, see
``domain.flights``; read only when the event has flights, so a list that keeps ages for its own
reasons still imports into an event without). Other columns are ignored.

A name that is already entered in the event is a problem, not a silent skip, so importing the
same file twice is refused with a clear message instead of doubling the field.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.db.models import CharField

from core.search import search_key
from core.spreadsheet_files import (
    MAX_SHEET_ROWS,
    UnreadableFile,
    open_xlsx,
    refuse_if_too_big,
    within_time,
)
from domain.flights import (
    Birth,
    age_problem,
    age_range,
    flight_by_birth,
    flight_named,
    not_a_flight,
    read_birth,
)
from domain.people import member_key
from domain.seating.pairs import table_sizes
from tournaments.models import Entry, Player

NOT_A_SPREADSHEET = "This file is not a spreadsheet (.xlsx or .csv)."
TOO_MANY_ROWS = f"The sheet has more than {MAX_SHEET_ROWS:,} rows: is it the player list?"

# A real player list unpacks to well under a megabyte; these limits only stop crafted files.
MAX_UNPACKED_BYTES = 50 * 1024 * 1024
# A sheet can claim 16,384 columns in a few kilobytes; only this many are read.
MAX_COLUMNS = 50


def player_text_limit(field_name: str, model=Player) -> int:
    """The most letters a player's text field holds (on the Player, or on its Entry for the
    contact): the model's length, the one place it is set."""
    model_field = model._meta.get_field(field_name)
    if not isinstance(model_field, CharField) or model_field.max_length is None:
        raise TypeError(f"{model.__name__}.{field_name} is not a text field with a length.")
    return model_field.max_length


# The longest name and club the database holds: every form and check reads them from here.
NAME_MAX = player_text_limit("name")
CLUB_MAX = player_text_limit("club")
CONTACT_MAX = player_text_limit("contact", Entry)
MEMBER_NUMBER_MAX = player_text_limit("member_number")

# Header (as _header_key reads it) -> the column it is. Clubs' lists name them many ways.
COLUMNS = {
    "name": "name",
    "full name": "name",
    "first name": "first_name",
    "first": "first_name",
    "given name": "first_name",
    "forename": "first_name",
    "last name": "last_name",
    "last": "last_name",
    "surname": "last_name",
    "family name": "last_name",
    "club": "club",
    "chapter": "club",
    "club or chapter": "club",
    "member number": "member_number",
    "member no": "member_number",
    "member #": "member_number",
    "member id": "member_number",
    "membership number": "member_number",
    "membership no": "member_number",
    "membership #": "member_number",
    "phone": "phone",
    "phone number": "phone",
    "telephone": "phone",
    "mobile": "phone",
    "cell": "phone",
    "email": "email",
    "e mail": "email",
    "email address": "email",
    "e mail address": "email",
    "keep apart": "keep_apart",
    "table": "table",
    "flight": "flight",
    "age group": "flight",
    "age flight": "flight",
    "age": "age",
    "born": "born",
    "birth year": "born",
    "year of birth": "born",
    "yob": "born",
    "birth date": "born",
    "date of birth": "born",
    "dob": "born",
    "birthday": "born",
}
KNOWN_COLUMNS = (
    "Name (or First name and Last name), Club, Member number, Phone, Email, Keep apart, Table, Born"
)


class ImportFileError(ValueError):
    """The file as a whole cannot be read; nothing in it is looked at row by row."""


@dataclass(frozen=True)
class ImportRow:
    row: int
    name: str
    club: str = ""
    keep_apart: str = ""
    table: int | None = None
    member_number: str = ""
    contact: str = ""
    flight: str = ""  # the event's spelling of it
    birth: Birth = field(default_factory=Birth)


@dataclass(frozen=True)
class ImportProblem:
    row: int
    message: str

    def __str__(self):
        return f"Row {self.row}: {self.message}"


@dataclass
class ParsedImport:
    rows: list[ImportRow] = field(default_factory=list)
    problems: list[ImportProblem] = field(default_factory=list)
    # (row number, name, keep-apart name) for every keep-apart that names someone
    keep_apart: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def name_key(name: str) -> str:
    """Names compare by the search rule (core.search): "ann  LEE" is "Ann Lee", and "Jose
    O’Neil" is "José O'Neil", so the same person typed two ways is caught as a duplicate."""
    return search_key(name)


def _header_key(cell: str) -> str:
    return " ".join(re.sub(r"[-_.:]", " ", cell).split()).casefold()


# ---------------------------------------------------------------------------
# Reading the file
# ---------------------------------------------------------------------------


def read_cells(data: bytes, filename: str = "", *, max_bytes: int | None = None) -> list[list[str]]:
    """The file's rows as lists of trimmed strings (row 1 first). Raises ImportFileError."""
    if max_bytes is not None:
        try:
            refuse_if_too_big(len(data), max_bytes)
        except UnreadableFile as refusal:
            raise ImportFileError(str(refusal)) from refusal
    if not data:
        raise ImportFileError("The file is empty.")
    if data.startswith(b"PK"):
        return _read_xlsx(data)
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        if filename.lower().endswith(".xls"):
            raise ImportFileError(
                "This is an old Excel file (.xls). Save it as .xlsx or .csv and try again."
            )
        # Excel wraps a password-protected .xlsx the same way as an old .xls.
        raise ImportFileError(
            "This file is protected by a password, or is an old Excel file (.xls). Remove the "
            "password, save it as .xlsx or .csv and try again."
        )
    if filename.lower().endswith((".xlsx", ".xlsm")):
        raise ImportFileError(NOT_A_SPREADSHEET)
    return _read_csv(data)


def _read_xlsx(data: bytes) -> list[list[str]]:
    try:
        workbook = open_xlsx(
            data,
            not_a_workbook=NOT_A_SPREADSHEET,
            holds="a player list",
            max_unpacked=MAX_UNPACKED_BYTES,
        )
    except UnreadableFile as refusal:
        raise ImportFileError(str(refusal)) from refusal
    try:
        sheet = workbook.worksheets[0] if workbook.worksheets else None
        if sheet is None:
            raise ImportFileError(NOT_A_SPREADSHEET)
        rows: list[list[str]] = []
        for row in within_time(sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)):
            if len(rows) > MAX_SHEET_ROWS:
                raise ImportFileError(TOO_MANY_ROWS)
            rows.append([_cell_text(value) for value in row])
    except ImportFileError:
        raise
    except UnreadableFile as refusal:
        raise ImportFileError(str(refusal)) from refusal
    except Exception as error:
        raise ImportFileError(NOT_A_SPREADSHEET) from error
    finally:
        workbook.close()
    return rows


def _cell_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return " ".join(str(value).split())


def _read_csv(data: bytes) -> list[list[str]]:
    if b"\x00" in data:
        raise ImportFileError(NOT_A_SPREADSHEET)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Excel on Windows saves CSV in the ANSI code page unless told otherwise.
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError as error:
            raise ImportFileError(NOT_A_SPREADSHEET) from error
    rows: list[list[str]] = []
    try:
        # The same caps as a workbook: reading stops at the first row over the limit, so a file
        # of a million rows costs no more than one of twenty thousand.
        for row in csv.reader(io.StringIO(text)):
            if len(rows) > MAX_SHEET_ROWS:
                raise ImportFileError(TOO_MANY_ROWS)
            rows.append([" ".join(cell.split()) for cell in row[:MAX_COLUMNS]])
    except csv.Error as error:
        raise ImportFileError(NOT_A_SPREADSHEET) from error
    return rows


# ---------------------------------------------------------------------------
# Checking the rows
# ---------------------------------------------------------------------------


def parse_player_file(
    data: bytes,
    filename: str = "",
    *,
    max_table_size: int,
    existing_names: dict[str, int] | None = None,
    existing_players: int = 0,
    max_bytes: int | None = None,
    flights: Sequence[str] = (),
) -> ParsedImport:
    """Read and check a player file.

    ``existing_names`` maps :func:`name_key` of every name already entered in the event to its
    player number; ``existing_players`` is how many of those will be seated (not withdrawn).
    File-level failures come back as a single problem on row 1.
    """
    try:
        cells = read_cells(data, filename, max_bytes=max_bytes)
    except ImportFileError as error:
        return ParsedImport(problems=[ImportProblem(1, str(error))])
    return check_rows(
        cells,
        max_table_size=max_table_size,
        existing_names=existing_names or {},
        existing_players=existing_players,
        flights=flights,
    )


@dataclass(frozen=True)
class _RawRow:
    number: int
    name: str
    club: str
    keep_apart: str
    table_text: str
    member_number: str = ""
    contact: str = ""
    flight_text: str = ""
    age_text: str = ""
    born_text: str = ""


@dataclass(frozen=True)
class _FileContext:
    """What every row is checked against: the file's other rows and the event."""

    first_row_of: dict[str, int]  # name_key -> first row holding that name
    first_row_of_member: dict[str, int]  # member_key -> first row holding that member number
    existing_names: dict[str, int]
    player_count: int
    table_count: int
    max_table_size: int
    flights: tuple[str, ...] = ()
    ages_on: datetime.date | None = None  # the date a birth places a player by age
    today: datetime.date = datetime.date.max


def check_rows(
    cells: list[list[str]],
    *,
    max_table_size: int,
    existing_names: dict[str, int],
    existing_players: int,
    flights: Sequence[str] = (),
    ages_on: datetime.date | None = None,
    today: datetime.date | None = None,
) -> ParsedImport:
    """The rows of ``cells`` checked against the event. A Born cell (a year or a date) places a
    row with no Flight or Age in the flight of its age on ``ages_on``, when the event has
    flights by age."""
    result = ParsedImport()
    problems = result.problems
    if not any(any(c for c in row) for row in cells):
        problems.append(ImportProblem(1, "The file is empty."))
        return result
    columns = _columns(cells[0], problems, bool(flights))
    if columns is None:
        return result
    raw = _raw_rows(cells, columns)
    if not raw:
        problems.append(ImportProblem(1, "The file has no players below the header row."))
        return result
    context = _context(raw, existing_names, existing_players, max_table_size, tuple(flights))
    context = replace(context, ages_on=ages_on, today=today or datetime.date.max)
    for row in raw:
        row_problems = _row_problems(row, context)
        problems.extend(ImportProblem(row.number, message) for message in row_problems)
        if not row_problems:
            table = _table_number(row.table_text) if row.table_text else None
            result.rows.append(
                ImportRow(
                    row.number,
                    row.name,
                    row.club,
                    row.keep_apart,
                    table,
                    row.member_number,
                    row.contact,
                    _row_flight(row, context)[0],
                    _row_birth(row, context)[0],
                )
            )
            if row.keep_apart:
                result.keep_apart.append((row.number, row.name, row.keep_apart))
    problems.extend(_pinned_together(result))
    problems.sort(key=lambda p: p.row)
    if problems:
        result.rows = []
        result.keep_apart = []
    return result


def _columns(
    header: list[str], problems: list[ImportProblem], flights: bool = False
) -> dict[str, int] | None:
    """Column index of each known column by key; None (with a problem naming the headers found)
    when there is no Name column, nor a First name and a Last name."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(header):
        key = COLUMNS.get(_header_key(cell))
        if key is None:
            continue
        if key in columns:
            problems.append(ImportProblem(1, f'There are two "{cell}" columns; keep only one.'))
        columns[key] = index
    if "name" in columns:
        return columns
    if "first_name" in columns and "last_name" in columns:
        return columns
    if "first_name" in columns or "last_name" in columns:
        half = "First name" if "first_name" in columns else "Last name"
        other = "Last name" if half == "First name" else "First name"
        problems.append(
            ImportProblem(1, f"There is a {half} column but no {other} column (or a Name column).")
        )
        return None
    found = [f'"{cell}"' for cell in header if cell]
    seen = f"The columns found are {', '.join(found)}." if found else "The first row is empty."
    problems.append(
        ImportProblem(
            1,
            "The first row must hold the column names, and one of them must be Name (or First "
            f"name and Last name). {seen} The columns read are {KNOWN_COLUMNS}"
            # Flight and Age are read only in an event with flights (see _row_flight).
            + (", Flight, Age." if flights else "."),
        )
    )
    return None


def _raw_rows(cells: list[list[str]], columns: dict[str, int]) -> list[_RawRow]:
    def value(row, key):
        index = columns.get(key)
        return row[index] if index is not None and index < len(row) else ""

    def name(row):
        if "name" in columns:
            return value(row, "name")
        return " ".join(f"{value(row, 'first_name')} {value(row, 'last_name')}".split())

    def contact(row):
        return ", ".join(part for part in (value(row, "phone"), value(row, "email")) if part)

    return [
        _RawRow(
            number,
            name(row),
            value(row, "club"),
            value(row, "keep_apart"),
            value(row, "table"),
            value(row, "member_number"),
            contact(row),
            value(row, "flight"),
            value(row, "age"),
            value(row, "born").removesuffix(" 00:00:00"),  # a spreadsheet's date cell
        )
        for number, row in enumerate(cells[1:], start=2)
        if any(row)
    ]


def _context(
    raw: list[_RawRow],
    existing_names: dict[str, int],
    existing_players: int,
    max_table_size: int,
    flights: tuple[str, ...],
) -> _FileContext:
    first_row_of: dict[str, int] = {}
    first_row_of_member: dict[str, int] = {}
    for row in raw:
        if row.name:
            first_row_of.setdefault(name_key(row.name), row.number)
        if row.member_number:
            first_row_of_member.setdefault(member_key(row.member_number), row.number)
    player_count = existing_players + sum(1 for row in raw if row.name)
    return _FileContext(
        first_row_of=first_row_of,
        first_row_of_member=first_row_of_member,
        existing_names=existing_names,
        player_count=player_count,
        table_count=len(table_sizes(player_count, max_table_size)),
        max_table_size=max_table_size,
        flights=flights,
    )


def _row_problems(row: _RawRow, context: _FileContext) -> list[str]:
    problems = []
    name, key = row.name, name_key(row.name)
    if not name:
        problems.append("The name is missing.")
    else:
        if len(name) > NAME_MAX:
            problems.append(f"The name is longer than {NAME_MAX} letters.")
        if context.first_row_of[key] != row.number:
            problems.append(f"{name} is also on row {context.first_row_of[key]}.")
        if key in context.existing_names:
            problems.append(
                f"{name} is already entered in this event as player #{context.existing_names[key]}."
            )
    if len(row.club) > CLUB_MAX:
        problems.append(f"The club is longer than {CLUB_MAX} letters.")
    problems.extend(_detail_problems(row, context))
    if row.keep_apart:
        partner = name_key(row.keep_apart)
        if name and partner == key:
            problems.append(f"{name} cannot be kept apart from themself.")
        elif partner not in context.first_row_of and partner not in context.existing_names:
            problems.append(
                f'Keep apart names "{row.keep_apart}", who is not in this file or in this event.'
            )
    if row.table_text:
        problems.extend(_table_problems(row.table_text, context))
    problems.extend(_birth_and_flight_problems(row, context))
    return problems


def _birth_and_flight_problems(row: _RawRow, context: _FileContext) -> list[str]:
    """A Born cell that cannot be read, or else what is wrong with the row's flight (which the
    birth may decide)."""
    birth_problem = _row_birth(row, context)[1]
    return [birth_problem] if birth_problem else _row_flight(row, context)[1]


def _row_birth(row: _RawRow, context: _FileContext) -> tuple[Birth, str]:
    birth, problem = read_birth(row.born_text, context.today)
    return birth, problem[0].upper() + problem[1:] if problem else ""


def _row_flight(row: _RawRow, context: _FileContext) -> tuple[str, list[str]]:
    """(the row's flight, "" for none; what is wrong with its Flight or Age cell). The Age cell
    counts only in an event with flights; the Born cell only without a Flight or Age, in an
    event with flights by age."""
    flights = context.flights
    if not (row.flight_text or row.age_text) and row.born_text and context.ages_on:
        return _flight_by_birth(row, context)
    flight = ""
    if row.flight_text:
        flight = flight_named(flights, row.flight_text) or ""
        if not flight:
            return "", [not_a_flight(row.flight_text, flights)]
    if not (row.age_text and flights):
        return flight, []
    by_age, problem = age_problem(row.age_text, flights)
    if by_age is None:
        return "", [problem]
    if flight and by_age != flight:
        return "", [f"flight {flight} and age {row.age_text} (flight {by_age}) disagree."]
    return by_age, []


def _flight_by_birth(row: _RawRow, context: _FileContext) -> tuple[str, list[str]]:
    if context.ages_on is None or not any(age_range(name) for name in context.flights):
        return "", []  # skill flights: a birth places no one
    placed = flight_by_birth(context.flights, _row_birth(row, context)[0], context.ages_on)
    if placed.flight is None:
        advice = (
            "the whole birth date, a Flight or an Age"
            if placed.needs_date
            else "a Flight or an Age"
        )
        return "", [f"{placed.why[0].upper()}{placed.why[1:]}: give {advice}."]
    return placed.flight, []


def _detail_problems(row: _RawRow, context: _FileContext) -> list[str]:
    """The member number and the contact: each short enough to keep, a number on one row only."""
    problems = []
    if len(row.member_number) > MEMBER_NUMBER_MAX:
        problems.append(f"The member number is longer than {MEMBER_NUMBER_MAX} letters.")
    elif (
        row.member_number
        and context.first_row_of_member[member_key(row.member_number)] != row.number
    ):
        first = context.first_row_of_member[member_key(row.member_number)]
        problems.append(f"Member number {row.member_number} is also on row {first}.")
    if len(row.contact) > CONTACT_MAX:
        problems.append(f"The phone and email are longer than {CONTACT_MAX} letters together.")
    return problems


def _table_problems(table_text: str, context: _FileContext) -> list[str]:
    table = _table_number(table_text)
    if table is None:
        return [f'Table "{table_text}" is not a table number.']
    if table < 1:
        return ["Table numbers start at 1."]
    if table > context.table_count:
        count, players = context.table_count, context.player_count
        tables = "1 table" if count == 1 else f"{count} tables"
        fill = "1 player fills" if players == 1 else f"{players} players fill"
        return [
            f"Table {table} does not exist: {fill} {tables} of at most {context.max_table_size}."
        ]
    return []


def _pinned_together(result: ParsedImport) -> list[ImportProblem]:
    """Two players pinned to one table who must sit apart can never be seated; say so now."""
    pins = {name_key(r.name): r.table for r in result.rows if r.table is not None}
    problems = []
    for number, name, partner in result.keep_apart:
        table = pins.get(name_key(name))
        if table is not None and pins.get(name_key(partner)) == table:
            problems.append(
                ImportProblem(
                    number,
                    f"{name} and {partner} must sit apart but are both pinned to table {table}.",
                )
            )
    return problems


def _table_number(text: str) -> int | None:
    text = text.strip()
    if text.lower().startswith("table"):
        text = text[5:].strip()
    # Spreadsheets often hand back 3 as "3.0".
    if re.fullmatch(r"\d+(\.0*)?", text) is None:
        return None
    digits = text.split(".")[0].lstrip("0") or "0"
    if len(digits) > 9:  # no event has a billion tables; and int() refuses 4,300+ digits
        return None
    return int(digits)
