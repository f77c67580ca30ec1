"""The table phone's totals: each player's running total from the games stored so far, and the
totals written at the bottom of the paper card compared with them.

Both are worked out from a table's sheets already read (scoring.selectors.table_sheets): no
query of their own. The comparison goes through the desk card's own check
(scoring.card_checks.card_total_problems) and stores nothing, as the desk's card stores no total.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django import forms

from domain.tiles import parse_whole_number
from scoring.card_checks import card_total_problems
from scoring.forms import SCORE_INPUT
from scoring.models import SheetState
from scoring.presenters import TABLE_PAGE_WAITING, TABLE_PAGE_WRONG
from scoring.selectors import TableSheets

# A day's total is at most five digits (13 games of at most 1,092 pips each).
TOTAL_MAX_LENGTH = 6


def _games_words(numbers: list[int]) -> str:
    """ "game 4", "games 3 and 4", "games 1, 2 and 4"."""
    if len(numbers) == 1:
        return f"game {numbers[0]}"
    return f"games {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def running_totals(sheets: TableSheets) -> dict:
    """Each player now at the table (those playing the next game to enter, or the last game
    once all are entered) with their total over the games stored, in seat order; what those
    games are, which wait for the desk, and which the desk marked wrong (not counted)."""
    now = sheets.next_game() or (sheets.games[-1] if sheets.games else None)
    playing = sheets.playing(now.number) if now is not None else sheets.seats
    totals = sheets.totals()
    counted = sorted(sheets.live)
    waiting = [n for n in counted if sheets.live[n].state == SheetState.ENTERED]
    wrong = sorted(
        n
        for n, sheet in sheets.latest.items()
        if n not in sheets.live and sheet.state == SheetState.REJECTED
    )
    return {
        "rows": [
            {"name": sheets.names[seat.entry_id], "total": totals.get(seat.entry_id, 0)}
            for seat in playing
        ],
        "after": _after_words(sheets, counted),
        "waiting": _waiting_words(waiting, counted),
        "wrong": (
            f"Not counted: {_games_words(wrong)}, {TABLE_PAGE_WRONG.label}." if wrong else ""
        ),
        "fixable": waiting,
    }


def _after_words(sheets: TableSheets, counted: list[int]) -> str:
    if not counted:
        return "No game is saved yet: every total is 0."
    last = counted[-1]
    skipped = [g.number for g in sheets.games if g.number < last and g.number not in counted]
    missing = [n for n in skipped if n not in sheets.unplayed]
    if missing:
        return f"Totals after {_games_words(counted)} ({_games_words(missing)} not in them)."
    return f"Totals after game {last}."


def _waiting_words(waiting: list[int], counted: list[int]) -> str:
    if not counted:
        return ""
    if not waiting:
        return "The desk has confirmed every game in these totals."
    return f"{_games_words(waiting).capitalize()}: {TABLE_PAGE_WAITING.label}."


# ---------------------------------------------------------------------------
# The card's written totals, typed on the phone once every game is entered
# ---------------------------------------------------------------------------


class CardTotalsForm(forms.Form):
    """One box per player on the card (everyone seated at the table that day, in seat order),
    for the total written at its bottom. Sent by GET: comparing stores nothing."""

    def __init__(self, data=None, *, sheets: TableSheets):
        super().__init__(data)
        self.sheets = sheets
        for seat in sheets.seats:
            name = sheets.names[seat.entry_id]
            self.fields[f"total-{seat.entry_id}"] = forms.CharField(
                label=f"{name}'s total on the card",
                required=False,
                max_length=TOTAL_MAX_LENGTH,
                widget=forms.TextInput(attrs={**SCORE_INPUT, "enterkeyhint": "next"}),
                error_messages={
                    "max_length": f"{name}'s total is too long: type the number written at "
                    "the bottom of the card, like 142."
                },
            )

    def clean(self):
        cleaned = super().clean()
        if not self.errors and not any(self.written().values()):
            raise forms.ValidationError("Type at least one total from the bottom of the card.")
        return cleaned

    def written(self) -> dict[int, str]:
        """Entry id -> the total as typed ("" when left blank)."""
        return {
            seat.entry_id: (self.cleaned_data.get(f"total-{seat.entry_id}") or "")
            for seat in self.sheets.seats
        }

    def field_rows(self) -> list[dict]:
        return [
            {"field": self[f"total-{seat.entry_id}"], "name": self.sheets.names[seat.entry_id]}
            for seat in self.sheets.seats
        ]


@dataclass(frozen=True)
class TotalCompared:
    """One typed total: what the card says, what the stored games add up to, and why they do
    not agree ("" when they do). ``refused`` when what was typed is not a total at all."""

    entry_id: int
    name: str
    written: str
    games_total: int
    problem: str = ""
    refused: bool = False

    @property
    def matches(self) -> bool:
        return not self.problem


def compare_written_totals(sheets: TableSheets, written: Mapping[int, str]) -> list[TotalCompared]:
    """Each typed total against the games stored, by the desk card's rule; blanks are skipped.
    ``sheets`` must hold every live game's scores (table_sheets reads them all by default)."""
    problems = {p.field: p.message for p in card_total_problems(sheets, written)}
    totals = sheets.totals()
    compared = []
    for entry_id, typed in written.items():
        if not typed.strip():
            continue
        problem = problems.get(f"total-{entry_id}", "")
        compared.append(
            TotalCompared(
                entry_id=entry_id,
                name=sheets.names[entry_id],
                written=typed,
                games_total=totals.get(entry_id, 0),
                problem=problem,
                refused=bool(problem) and not _is_total(typed),
            )
        )
    return compared


def _is_total(typed: str) -> bool:
    try:
        return parse_whole_number(typed) >= 0
    except ValueError:
        return False


def card_totals_check(query: Mapping[str, str], sheets: TableSheets) -> dict | None:
    """What the "all games entered" page shows for the card's totals: the form (bound when
    totals were sent) and, when they could be compared, each one's outcome. None while a game
    is still to be entered: the card is compared once it is complete."""
    if sheets.next_game() is not None:
        return None
    sent = any(key.startswith("total-") for key in query)
    form = CardTotalsForm(query if sent else None, sheets=sheets)
    if not sent or not form.is_valid():
        return {"form": form, "compared": [], "differ": [], "refused": []}
    compared = compare_written_totals(sheets, form.written())
    for item in compared:
        if item.problem:
            form.add_error(f"total-{item.entry_id}", item.problem)
    return {
        "form": form,
        "compared": compared,
        "differ": [c for c in compared if c.problem and not c.refused],
        "refused": [c for c in compared if c.refused],
    }
