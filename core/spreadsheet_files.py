"""Opening an uploaded spreadsheet safely: the one place for the size cap, the zip-bomb check and
the plain refusal of files that are not Excel workbooks. No Django here: the callers pass limits.

An .xlsx file is a zip archive. Python's zipfile never returns more bytes for a member than the
size the archive declares, so summing the declared sizes before anything is unpacked bounds what
openpyxl can unpack afterwards. openpyxl parses the XML through defusedxml when it is installed.
"""

import io
import time
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from xml.parsers import expat

# Excel saves a password-protected workbook (and the old .xls format) as an OLE compound file.
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
LOCKED_OR_OLD_EXCEL = (
    "This workbook is protected by a password, or is an old Excel file (.xls). Open it in your "
    'spreadsheet program, remove the password, save it as "Excel Workbook (.xlsx)" and try again.'
)
MAX_ZIP_MEMBERS = 500
MAX_PACK_RATIO = 100  # real workbooks pack 5 to 20 times; a bomb packs thousands of times
# A sheet can claim a million rows in a few kilobytes. Every reader stops after the header and
# this many rows, far more than any event's player list or score workbook holds.
MAX_SHEET_ROWS = 20_000
# Cells are counted before openpyxl reads a sheet (it parses a whole row before any of it can be
# checked): a row of 2.3 million empty cells fits in a 2.3 MB file and kept a worker 30 s.
MAX_ROW_CELLS = 1_000
MAX_CELLS = 1_000_000
# However a file is built, reading it stops after this long, for the server's sake.
READ_SECONDS = 20.0
TOO_MANY_CELLS = (
    "A row of this file has more than {max_row:,} cells, or the file more than {max_all:,}: "
    "far more than {holds} holds, so it was not read."
)
TOO_SLOW = "This file took too long to read (over {seconds:g} seconds), so it was not read."


class UnreadableFile(ValueError):
    """The file was not read; the message says why in plain words."""


def describe_size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    return f"{max(1, round(n / 1024))} KB"


def refuse_if_too_big(size: int, limit: int) -> None:
    if size > limit:
        raise UnreadableFile(
            f"The file is {describe_size(size)}; the largest file accepted is "
            f"{describe_size(limit)}."
        )


def open_xlsx(data: bytes, *, not_a_workbook: str, holds: str, max_unpacked: int):
    """An openpyxl read-only workbook, or UnreadableFile before anything large is unpacked.

    ``holds`` names what the file should be ("a player list"), for the zip-bomb message.
    """
    if data.startswith(OLE_MAGIC):
        raise UnreadableFile(LOCKED_OR_OLD_EXCEL)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise UnreadableFile(not_a_workbook) from None
    if len(members) > MAX_ZIP_MEMBERS:
        raise UnreadableFile(not_a_workbook)
    unpacked = sum(member.file_size for member in members)
    if unpacked > max_unpacked or unpacked > MAX_PACK_RATIO * max(len(data), 1):
        raise UnreadableFile(
            f"This file would unpack to {unpacked / (1024 * 1024):,.0f} MB, far more than "
            f"{holds} holds, so it was not opened."
        )
    if "xl/workbook.xml" not in {member.filename for member in members}:
        raise UnreadableFile(not_a_workbook)
    _count_cells(data, members, holds=holds, not_a_workbook=not_a_workbook)
    import openpyxl

    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:
        # openpyxl raises many kinds of error for a damaged or foreign file; to the person
        # uploading it they all mean the same thing.
        raise UnreadableFile(not_a_workbook) from None


class _TooManyCells(Exception):
    pass


class _CellCounter:
    """Counts the cells of a worksheet's XML as it streams through expat, stopping the parse at
    the first row over MAX_ROW_CELLS or the sheet over MAX_CELLS. A document type (where
    entities live) stops it too: a worksheet has none."""

    def __init__(self, counted_before: int):
        self.total = counted_before
        self.in_row = 0

    def start(self, name: str, _attributes) -> None:
        local = name.rsplit(" ", 1)[-1]  # "namespace local" with the separator below
        if local == "row":
            self.in_row = 0
        elif local == "c":
            self.in_row += 1
            self.total += 1
            if self.in_row > MAX_ROW_CELLS or self.total > MAX_CELLS:
                raise _TooManyCells

    @staticmethod
    def refuse_doctype(*_args) -> None:
        raise _TooManyCells


def _count_cells(data: bytes, members, *, holds: str, not_a_workbook: str) -> None:
    counted = 0
    started = time.monotonic()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for member in members:
            if not (
                member.filename.startswith("xl/worksheets/") and member.filename.endswith(".xml")
            ):
                continue
            counter = _CellCounter(counted)
            parser = expat.ParserCreate(namespace_separator=" ")
            parser.StartElementHandler = counter.start
            parser.StartDoctypeDeclHandler = counter.refuse_doctype
            try:
                with archive.open(member) as sheet:
                    while chunk := sheet.read(64 * 1024):
                        parser.Parse(chunk, False)
                        if time.monotonic() - started > READ_SECONDS:
                            raise UnreadableFile(TOO_SLOW.format(seconds=READ_SECONDS))
                    parser.Parse(b"", True)
            except UnreadableFile:
                raise
            except _TooManyCells:
                raise UnreadableFile(
                    TOO_MANY_CELLS.format(max_row=MAX_ROW_CELLS, max_all=MAX_CELLS, holds=holds)
                ) from None
            except (expat.ExpatError, zipfile.BadZipFile, zlib.error, OSError, ValueError):
                raise UnreadableFile(not_a_workbook) from None
            counted = counter.total


def within_time(rows: Iterable, seconds: float = READ_SECONDS) -> Iterator:
    """``rows`` as they come, refused with UnreadableFile once reading them takes too long."""
    started = time.monotonic()
    for row in rows:
        if time.monotonic() - started > seconds:
            raise UnreadableFile(TOO_SLOW.format(seconds=seconds))
        yield row
