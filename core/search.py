"""The one rule for finding people by name, used by every search (check-in, find your table, the
players list, the club directory, standings) and by the duplicate-name check: case, accents,
apostrophes (straight or the curly ones phones type) and punctuation never matter, so "jose"
finds José and "oneil" or "O’Neil" finds O'Neil. Plain Python: the pages' list filter
(static/js/filter-list.js) applies the same steps to what is typed."""

import re
import unicodedata

# Apostrophes and dots join a name's parts ("O'Neil", "St. John"): dropped, not spaced.
_JOINERS = re.compile(r"['\u2018\u2019\u02bc\u0060\u00b4.]")
_OTHER_PUNCTUATION = re.compile(r"[^\w\s]|_")


def search_key(text: str) -> str:
    """``text`` as searches compare it: no accents, apostrophes or dots, other punctuation as a
    space, spaces collapsed, case folded."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    bare = _OTHER_PUNCTUATION.sub(" ", _JOINERS.sub("", bare))
    return " ".join(bare.split()).casefold()


def matches(query: str, *texts: str) -> bool:
    """Whether ``query`` is found in any of ``texts`` by :func:`search_key`; an empty query
    matches everything."""
    needle = search_key(query)
    return not needle or any(needle in search_key(text or "") for text in texts)


def surname_key(name: str) -> tuple[str, str]:
    """Sorts a list of people by surname, as clubs keep them: the last word of the name (by
    :func:`search_key`), then the whole name."""
    key = search_key(name)
    return (key.rsplit(" ", 1)[-1], key)
