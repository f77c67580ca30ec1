"""The tiles of a domino set, and reading what a scorekeeper types: tiles, doubles, numbers.

Plain Python, no Django. Every score check reads what was typed through here, so "12-11 6-6",
"9/9" and " 12 " read the same on the phone, at the desk and in the workbook.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Sequence

Tile = tuple[int, int]

# Anything longer than this cannot be a real score; we keep it as "huge"
# rather than converting (Python refuses very long digit strings anyway).
_MAX_DIGITS = 9
_HUGE: int = 10**_MAX_DIGITS


def is_blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def tile_text(tile: Tile) -> str:
    return f"{tile[0]}-{tile[1]}"


# ---------------------------------------------------------------------------
# Whole numbers
# ---------------------------------------------------------------------------

_WHOLE_RE = re.compile(r"[+-]?[0-9]+", re.ASCII)


def parse_whole_number(value: object) -> int:
    """Read a typed whole number.

    Accepts ints and strings of digits with surrounding spaces ("  12 "), and
    whole-valued floats (a spreadsheet cell holding 12.0).  Negative numbers
    are returned as they are (the caller decides whether they are allowed).
    Raises ValueError for blanks, booleans, fractions ("3.5"), exponents
    ("1e3") and words.  Numbers with more than nine digits come back as
    10**9, which is above any possible score.
    """
    if type(value) is int:
        return value
    if isinstance(value, str):
        return _parse_whole_text(value)
    if isinstance(value, bool) or value is None:
        raise ValueError("not a whole number")
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")) or not value.is_integer():
            raise ValueError("not a whole number")
        return int(value)
    raise ValueError("not a whole number")


def _parse_whole_text(value: str) -> int:
    text = value.strip()
    if not _WHOLE_RE.fullmatch(text):
        raise ValueError("not a whole number")
    sign = -1 if text.startswith("-") else 1
    digits = text.lstrip("+-").lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS:
        return sign * _HUGE
    return sign * int(digits)


# Letters a quick thumb or an old keyboard habit puts in place of a digit.
_LOOKALIKES = {"O": "0", "o": "0", "l": "1", "I": "1"}


def letter_typo_text(raw: object, whose: str) -> str | None:
    """'Did you mean 10?' for "1O" or "l2": a number typed with a letter in it.

    ``whose`` names the field in the message ("Bob Roe", "Bob Roe's total").
    None when the text is not a number with look-alike letters."""
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if not text or len(text) > _MAX_DIGITS:
        return None
    if not all(c in _LOOKALIKES or "0" <= c <= "9" for c in text):
        return None
    letter = next((c for c in text if c in _LOOKALIKES), None)
    if letter is None:
        return None
    meant = int("".join(_LOOKALIKES.get(c, c) for c in text))
    return (
        f'Did you mean {meant} for {whose}? "{text}" has the letter {letter} in it, '
        f"not the number {_LOOKALIKES[letter]}."
    )


# ---------------------------------------------------------------------------
# Tiles
# ---------------------------------------------------------------------------

_TILE_RE = re.compile(r"([0-9]+)[-/]([0-9]+)", re.ASCII)


def parse_tiles(text: str, top_double: int) -> list[Tile]:
    """Read tiles typed like "12-11 6-6 0-0".

    Halves are joined by "-" or "/" (spaces around them are allowed); tiles
    are separated by spaces, commas or semicolons.  Each tile comes back as
    (high, low), in the order typed.  Repeats are kept (the caller reports
    them, naming the players).  Raises ValueError with a plain message that
    names every piece that is not a tile.
    """
    if text is None:
        return []
    if not isinstance(text, str):
        raise ValueError("Write the tiles like 12-11 6-6 0-0.")
    tiles, problems = parse_tiles_partly(text, top_double)
    if problems:
        raise ValueError(" ".join(problems))
    return tiles


def parse_tiles_partly(text: str, top_double: int) -> tuple[list[Tile], list[str]]:
    """The tiles typed in ``text`` that are tiles of the set, and a sentence for each piece
    that is not, so one message can say everything that is wrong."""
    cleaned = re.sub(r"\s*([-/])\s*", r"\1", text.strip())
    tiles: list[Tile] = []
    problems: list[str] = []
    for token in re.split(r"[\s,;]+", cleaned):
        if not token:
            continue
        m = _TILE_RE.fullmatch(token)
        if not m:
            problems.append(
                f'"{token}" is not a tile. Write each tile as its two numbers '
                "with a dash, like 12-11, and leave a space between tiles."
            )
            continue
        a_text, b_text = m.group(1), m.group(2)
        if len(a_text) > 3 or len(b_text) > 3:
            problems.append(f"{token} is not a tile in a double-{top_double} set.")
            continue
        a, b = int(a_text), int(b_text)
        if a > top_double or b > top_double:
            problems.append(f"{a}-{b} is not a tile in a double-{top_double} set.")
            continue
        tiles.append((max(a, b), min(a, b)))
    return tiles, problems


def tile_pips(tiles: Iterable[Sequence[int]], double_blank_value: int) -> int:
    """Pips in a hand: every tile counts its dots, the double blank counts
    ``double_blank_value``."""
    total = 0
    for a, b in tiles:
        if a == 0 and b == 0:
            total += double_blank_value
        else:
            total += a + b
    return total


def read_tiles(value: object, top_double: int) -> list[Tile]:
    """Tiles given as text, or already as pairs (e.g. from an import)."""
    if isinstance(value, str):
        return parse_tiles(value, top_double)
    if not isinstance(value, Iterable):
        raise ValueError("Write the tiles like 12-11 6-6 0-0.")
    result: list[Tile] = []
    for item in value:
        try:
            a, b = item
            a = parse_whole_number(a)
            b = parse_whole_number(b)
        except (TypeError, ValueError):
            raise ValueError("Write the tiles like 12-11 6-6 0-0.") from None
        if a < 0 or b < 0 or a > top_double or b > top_double:
            raise ValueError(f"{a}-{b} is not a tile in a double-{top_double} set.")
        result.append((max(a, b), min(a, b)))
    return result


def read_double(text: str) -> int | None:
    """The number of a double typed as a tile ("9-9", "9 / 9"), else None."""
    if "-" not in text and "/" not in text:
        return None
    m = _TILE_RE.fullmatch(re.sub(r"\s*([-/])\s*", r"\1", text.strip()))
    if m and m.group(1) == m.group(2) and len(m.group(1)) <= 3:
        return int(m.group(1))
    return None
