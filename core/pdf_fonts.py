"""One font choice for every printout: seating charts, score sheets and standings.

DejaVu Sans (Debian's fonts-dejavu) covers accents, Greek, Cyrillic, Hebrew and more; where it
is not installed the built-in Helvetica still prints Western European names. Characters the
font cannot draw (emoji, say) print as "?" rather than a blank box.
"""

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")


@dataclass(frozen=True)
class PdfFonts:
    regular: str
    bold: str
    covered: frozenset[int] | None  # code points the font draws; None: Latin-1/cp1252 only


@lru_cache(maxsize=1)
def pdf_fonts() -> PdfFonts:
    try:
        regular = TTFont("TrainSans", str(FONT_DIR / "DejaVuSans.ttf"))
        bold = TTFont("TrainSans-Bold", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
    except (OSError, TTFError):
        return PdfFonts("Helvetica", "Helvetica-Bold", None)
    pdfmetrics.registerFont(regular)
    pdfmetrics.registerFont(bold)
    return PdfFonts(regular.fontName, bold.fontName, frozenset(regular.face.charToGlyph))


def printable(text: str) -> str:
    if text.isascii():
        return text
    covered = pdf_fonts().covered
    return "".join(ch if _drawable(ch, covered) else "?" for ch in text)


def _drawable(ch: str, covered: frozenset[int] | None) -> bool:
    if ch == "\n":
        return True
    if covered is not None:
        return ord(ch) in covered
    try:
        ch.encode("cp1252")
    except UnicodeEncodeError:
        return False
    return True
