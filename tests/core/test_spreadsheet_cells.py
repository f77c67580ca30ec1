"""A workbook's cells are counted before openpyxl parses a sheet: a row of thousands of cells (a
2.3 MB file can hold 2.3 million) is refused without openpyxl reading it, and a slow read stops
at its time budget."""

import io
import zipfile

import openpyxl
import pytest

from core import spreadsheet_files
from core.spreadsheet_files import (
    MAX_ROW_CELLS,
    UnreadableFile,
    open_xlsx,
    within_time,
)


def _workbook(rows: list[list]) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _with_sheet_xml(data: bytes, sheet_xml: bytes) -> bytes:
    """The workbook ``data`` with its first sheet's XML replaced."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for member in source.infolist():
            body = (
                sheet_xml if member.filename == "xl/worksheets/sheet1.xml" else source.read(member)
            )
            target.writestr(member.filename, body)
    return out.getvalue()


def _open(data: bytes):
    return open_xlsx(
        data, not_a_workbook="not a workbook", holds="a player list", max_unpacked=50 * 2**20
    )


def _one_wide_row(cells: int, prefix: str = "") -> bytes:
    p = f"{prefix}:" if prefix else ""
    ns = f'xmlns{":" + prefix if prefix else ""}="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    # Each cell a little different, as a real file's are: a run of identical ones would pack
    # past the zip check's ratio and be refused for that instead.
    row = "".join(f'<{p}c r="A1" s="{n * 7919 % 100_003}"/>' for n in range(cells))
    return (
        f'<?xml version="1.0"?><{p}worksheet {ns}><{p}sheetData><{p}row r="1">{row}</{p}row>'
        f"</{p}sheetData></{p}worksheet>"
    ).encode()


@pytest.mark.parametrize("prefix", ["", "x"])
def test_a_row_of_too_many_cells_is_refused_before_openpyxl_reads_it(monkeypatch, prefix):
    wide = _with_sheet_xml(_workbook([["Name"]]), _one_wide_row(5_000, prefix))
    assert len(wide) < 100_000  # small on the wire, 5,000 cells inside
    monkeypatch.setattr(openpyxl, "load_workbook", lambda *a, **k: pytest.fail("parsed"))
    with pytest.raises(UnreadableFile, match=f"more than {MAX_ROW_CELLS:,} cells"):
        _open(wide)


def test_a_sheet_of_too_many_cells_in_all_is_refused(monkeypatch):
    monkeypatch.setattr(spreadsheet_files, "MAX_CELLS", 500)
    rows = "".join(f'<row r="{n}">' + '<c r="A1"/>' * 10 + "</row>" for n in range(1, 60))
    sheet = (
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/'
        f'spreadsheetml/2006/main"><sheetData>{rows}</sheetData></worksheet>'
    ).encode()
    with pytest.raises(UnreadableFile, match="far more than a player list holds"):
        _open(_with_sheet_xml(_workbook([["Name"]]), sheet))


def test_a_sheet_with_a_document_type_is_not_read():
    sheet = (
        b'<?xml version="1.0"?><!DOCTYPE w [<!ENTITY a "aaaa">]><worksheet '
        b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>'
    )
    with pytest.raises(UnreadableFile):
        _open(_with_sheet_xml(_workbook([["Name"]]), sheet))


def test_broken_sheet_xml_is_not_a_workbook():
    with pytest.raises(UnreadableFile, match="not a workbook"):
        _open(_with_sheet_xml(_workbook([["Name"]]), b"<worksheet><sheetData><row>"))


def test_an_ordinary_workbook_opens_and_reads():
    rows = [["Name", "Club"]] + [[f"Player {n}", "Elks"] for n in range(200)]
    book = _open(_workbook(rows))
    assert sum(1 for _ in book.worksheets[0].iter_rows(values_only=True)) == 201
    book.close()


def test_a_read_past_its_time_budget_stops(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(spreadsheet_files.time, "monotonic", lambda: clock[0])

    def slow_rows():
        for n in range(10):
            clock[0] += 3
            yield n

    read = []
    with pytest.raises(UnreadableFile, match="took too long"):
        for row in within_time(slow_rows(), seconds=10):
            read.append(row)
    assert read == [0, 1, 2]
