"""A page's elements and form fields as a browser reads them, whatever the template's layout.

Templates are formatted (djlint): a tag's attributes may stand on one line or one per line, so a
test that asks what a field holds reads the parsed page here rather than matching the markup's
exact spelling. ``elements(html, "input", name="score-3")`` gives each matching element's
attributes (``class_`` matches one of its classes, ``for_`` the ``for`` attribute) and its text;
``value_of`` is what the one field of that name would send; ``options`` a select's choices.
"""

from html.parser import HTMLParser

# Elements whose text a test reads (a label's words, an option's, a button's).
WITH_TEXT = {"label", "option", "button", "textarea", "select"}
VOID = {"input", "br", "img", "meta", "link", "hr"}


class _Elements(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[dict] = []
        self.open: list[dict] = []

    def handle_starttag(self, tag, attrs):
        element = {name: "" if value is None else value for name, value in attrs}
        element.update(tag=tag, text="")
        element["select"] = next((e.get("id") for e in self.open if e["tag"] == "select"), None)
        self.found.append(element)
        if tag in WITH_TEXT and tag not in VOID:
            self.open.append(element)

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index]["tag"] == tag:
                del self.open[index:]
                break

    def handle_data(self, data):
        for element in self.open:
            element["text"] += data


def _parsed(html: str) -> list[dict]:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    for element in parser.found:
        element["text"] = " ".join(element["text"].split())
    return parser.found


def _matches(element: dict, wanted: dict) -> bool:
    for key, value in wanted.items():
        name = key.rstrip("_")
        if name == "class":
            if value not in element.get("class", "").split():
                return False
        elif element.get(name) != value:
            return False
    return True


def elements(html: str, tag: str, **wanted: str) -> list[dict]:
    """Every ``tag`` element with the attributes given, in page order."""
    return [e for e in _parsed(html) if e["tag"] == tag and _matches(e, wanted)]


def value_of(html: str, name: str) -> str:
    """The value of the one input or button named ``name`` (fails if there is not exactly one)."""
    found = [e for e in _parsed(html) if e["tag"] in ("input", "button") and e.get("name") == name]
    assert len(found) == 1, f"{len(found)} fields named {name!r}"
    return found[0].get("value", "")


def options(html: str, select_id: str) -> list[tuple[str, bool]]:
    """The choices of the select with this id: (value, is it selected), in order."""
    return [
        (e.get("value", e["text"]), "selected" in e)
        for e in _parsed(html)
        if e["tag"] == "option" and e["select"] == select_id
    ]
