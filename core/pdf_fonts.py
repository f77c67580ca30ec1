"""One font choice for every printout: seating charts, score sheets and standings.

DejaVu Sans covers accents, Greek, Cyrillic, Hebrew and more, and every PDF embeds the part of
it that it uses, so print shops and PDF/A checks accept the file. It comes from Debian's
fonts-dejavu-core when installed, else from the copy shipped in core/fonts (its licence,
LICENSE-DejaVu.txt beside it, allows that). Only when neither can be read does the printout
fall back to the built-in Helvetica, which prints Western European names but is not embedded.
Characters the font cannot draw (emoji, say) print as "?" rather than a blank box.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path(__file__).resolve().parent / "fonts")
REGULAR_FILE, BOLD_FILE = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"
# The language every printout is written in, as the pages' <html lang> says.
DOCUMENT_LANGUAGE = "en"


@dataclass(frozen=True)
class PdfFonts:
    regular: str
    bold: str
    covered: frozenset[int] | None  # code points the font draws; None: Latin-1/cp1252 only
    embedded: bool  # False only for the Helvetica fallback


def font_dir(dirs: Sequence[Path] | None = None) -> Path | None:
    """The first folder holding both DejaVu Sans files (of ``FONT_DIRS`` unless given)."""
    for folder in FONT_DIRS if dirs is None else dirs:
        if (folder / REGULAR_FILE).is_file() and (folder / BOLD_FILE).is_file():
            return folder
    return None


@lru_cache(maxsize=1)
def pdf_fonts() -> PdfFonts:
    folder = font_dir()
    try:
        if folder is None:
            raise OSError("DejaVu Sans not found")
        regular = TTFont("TrainSans", str(folder / REGULAR_FILE))
        bold = TTFont("TrainSans-Bold", str(folder / BOLD_FILE))
    except (OSError, TTFError):
        return PdfFonts("Helvetica", "Helvetica-Bold", None, embedded=False)
    pdfmetrics.registerFont(regular)
    pdfmetrics.registerFont(bold)
    return PdfFonts(
        regular.fontName, bold.fontName, frozenset(regular.face.charToGlyph), embedded=True
    )


def document_settings(*, title: str, author: str) -> dict:
    """What every printout's document says of itself, as keyword arguments for reportlab's
    SimpleDocTemplate: title, author (the event), language, and the font a page starts in (so
    no page names Helvetica, which is never embedded)."""
    return {
        "title": title,
        "author": author,
        "creator": "Mexican Train",
        "lang": DOCUMENT_LANGUAGE,
        "initialFontName": pdf_fonts().regular,
    }


def document_canvas(buffer, *, pagesize, title: str, author: str) -> Canvas:
    """A reportlab canvas with the same document settings, for printouts drawn by hand."""
    settings = document_settings(title=title, author=author)
    canvas = Canvas(
        buffer,
        pagesize=pagesize,
        lang=settings["lang"],
        initialFontName=settings["initialFontName"],
    )
    canvas.setTitle(settings["title"])
    canvas.setAuthor(settings["author"])
    canvas.setCreator(settings["creator"])
    return canvas


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
