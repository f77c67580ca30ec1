"""Opening an uploaded spreadsheet safely: the one place for the size cap, the zip-bomb check and
the plain refusal of files that are not Excel workbooks. No Django here: the callers pass limits.

An .xlsx file is a zip archive. Python's zipfile never returns more bytes for a member than the
size the archive declares, so summing the declared sizes before anything is unpacked bounds what
openpyxl can unpack afterwards. openpyxl parses the XML through defusedxml when it is installed.
"""

import io
import zipfile

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
    import openpyxl

    try:
        return openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:
        # openpyxl raises many kinds of error for a damaged or foreign file; to the person
        # uploading it they all mean the same thing.
        raise UnreadableFile(not_a_workbook) from None
