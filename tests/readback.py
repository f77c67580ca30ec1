"""Reading back what the app printed, as a person or a program on the other end would: the QR
codes on a page image, the fonts of a PDF."""

import io

from PIL import Image
from pypdf import PdfReader
from pypdf.generic import IndirectObject


def decode_qr(image_bytes: bytes) -> list[str]:
    from pyzbar.pyzbar import decode

    image = Image.open(io.BytesIO(image_bytes)).convert("L")
    # Give the code a quiet zone and some size, as a phone camera would see it on paper.
    image = image.resize((image.width * 3, image.height * 3), Image.NEAREST)
    framed = Image.new("L", (image.width + 80, image.height + 80), 255)
    framed.paste(image, (40, 40))
    return [symbol.data.decode() for symbol in decode(framed)]


FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def _resolved(value):
    return value.get_object() if isinstance(value, IndirectObject) else value


def font_embedding(reader: PdfReader) -> dict[str, bool]:
    """Each font a page uses, by its base name, with whether its glyphs are in the file."""
    fonts: dict[str, bool] = {}
    for page in reader.pages:
        resources = _resolved(page.get("/Resources")) or {}
        for font in (_resolved(resources.get("/Font")) or {}).values():
            font = _resolved(font)
            described = font
            if font.get("/Subtype") == "/Type0":  # a composite font describes its glyphs below
                described = _resolved(_resolved(font["/DescendantFonts"])[0])
            descriptor = _resolved(described.get("/FontDescriptor")) or {}
            fonts[str(font["/BaseFont"])] = any(key in descriptor for key in FONT_FILES)
    return fonts
