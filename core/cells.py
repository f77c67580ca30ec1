"""What a spreadsheet cell or a typed field holds, read and written the same way everywhere.

Plain Python: no Django and no openpyxl import, so the pure modules may use it too.
"""

from __future__ import annotations

# Text starting with one of these is taken by a spreadsheet for a formula (or the lead-in to
# one), so a player typed as "=HYPERLINK(...)" would run instead of staying a name.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_blank(value: object) -> bool:
    """Nothing was put there: no value at all, or text of spaces only."""
    return value is None or (isinstance(value, str) and not value.strip())


def reads_as_formula(value: object) -> bool:
    """True for text a spreadsheet would take for a formula."""
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def keep_as_text(cell):
    """The openpyxl cell (ordinary or write-only) with formula-like text stored as text.

    The quote prefix is how Excel itself marks "this is text, do not evaluate it"; the cell's
    value must be set before the call. Returns the cell, so a writer can wrap it in place.
    """
    if reads_as_formula(cell.value):
        cell.data_type = "s"
        cell.quotePrefix = True
    return cell
