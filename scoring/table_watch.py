"""What a table's phone page polls to notice, by itself, that its sheets changed: the desk
marked a game wrong or confirmed it, another phone saved one, a game was marked not played.

A short fingerprint, one token per game in game order: "3.2.e" is game 3's version 2, entered
(e), confirmed (c) or marked wrong (w), and "5.0.n" is game 5 marked not played. The page is
drawn with the fingerprint of the sheets it shows (from the sheets it read anyway, no query);
static/js/game-entry.js asks for the current one and compares.
"""

from collections.abc import Iterable

from scoring import table_reads
from scoring.models import SheetState
from scoring.selectors import TableSheets, table_by_link

_LETTER = {
    SheetState.ENTERED.value: "e",
    SheetState.CONFIRMED.value: "c",
    SheetState.REJECTED.value: "w",
    table_reads.UNPLAYED: "n",
}


def _newest(states: Iterable[tuple[int, int, str]]) -> tuple[dict[int, tuple[int, str]], set[int]]:
    """Per game its newest version and state (a game entered again after "wrong" still has the
    marked version), and the games marked not played."""
    newest: dict[int, tuple[int, str]] = {}
    unplayed: set[int] = set()
    for number, version, state in states:
        if state == table_reads.UNPLAYED:
            unplayed.add(number)
        elif state in _LETTER and (number not in newest or version > newest[number][0]):
            newest[number] = (version, state)
    return newest, unplayed


def fingerprint(states: Iterable[tuple[int, int, str]]) -> str:
    """The fingerprint of (game number, version, state) rows."""
    newest, unplayed = _newest(states)
    tokens = [(n, f"{n}.{v}.{_LETTER[state]}") for n, (v, state) in newest.items()]
    tokens += [(n, f"{n}.0.n") for n in unplayed]
    return " ".join(token for _, token in sorted(tokens))


def drawn_fingerprint(sheets: TableSheets) -> str:
    """The fingerprint of the sheets a page was drawn from."""
    rows = [(n, sheet.version, str(sheet.state)) for n, sheet in sheets.latest.items()]
    return fingerprint(rows + [(n, 0, table_reads.UNPLAYED) for n in sheets.unplayed])


def table_state(token: str) -> dict | None:
    """What the table's private link shows now, as the poll reads it: 2 queries however many
    games (the table by its link, its sheets and marks), or None when the link opens nothing
    (unknown, renewed, or the day closed), as the table page."""
    table = table_by_link(token)
    if table is None:
        return None
    states = table_reads.sheet_states(table.pk)
    newest, unplayed = _newest(states)
    return {
        "fingerprint": fingerprint(states),
        "games": [
            {"game": n, "version": v, "state": state} for n, (v, state) in sorted(newest.items())
        ],
        "not_played": sorted(unplayed),
    }
