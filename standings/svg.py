"""A very small SVG builder: elements as text, every attribute and text node escaped.

Charts are drawn on the server as inline SVG (no chart library, nothing loaded at run time).
Only presentation attributes are written, never ``style``, so a strict Content-Security-Policy
that forbids inline styles still shows them.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

Attribute = str | int | float | None


def _number(value: float) -> str:
    """Coordinates to two decimals, without trailing zeros: short markup for big charts."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _attribute(name: str, value: Attribute) -> str:
    if isinstance(value, float):
        value = _number(value)
    return f' {name.rstrip("_").replace("_", "-")}="{escape(str(value), quote=True)}"'


def element(tag: str, children: Iterable[str] | str = (), **attributes: Attribute) -> str:
    """``<tag a="1">children</tag>``. Attribute names: ``class_`` for class, ``_`` for ``-``
    (``stroke_width``); None leaves the attribute out. Children are markup already built;
    plain text goes through ``text``."""
    attrs = "".join(_attribute(k, v) for k, v in attributes.items() if v is not None)
    inner = children if isinstance(children, str) else "".join(children)
    if not inner:
        return f"<{tag}{attrs}/>"
    return f"<{tag}{attrs}>{inner}</{tag}>"


def text(value: object) -> str:
    return escape(str(value), quote=False)


def points(pairs: Iterable[tuple[float, float]]) -> str:
    """The ``points`` of a polyline."""
    return " ".join(f"{_number(x)},{_number(y)}" for x, y in pairs)
