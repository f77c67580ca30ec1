"""What the score-entry pages show, worked out once so templates only display it: badge labels,
CSS class names, what a page may offer, and the words for what a save did (scoring.submit
returns facts; the sentences are built here). No queries, but who saved a sheet is read when
the sheet came without them (only a refused save shows that)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from html import escape

from django.utils.safestring import mark_safe

from core.formats import when_left
from domain.typed_sheet import possessive
from scoring.models import AuditEvent, GameSheet, SheetState, Source
from scoring.selectors import NOT_PLAYED, local_time
from scoring.sheet_values import Differs, outcome_text, values_of_sheet
from scoring.submit import GameNow, Outcome, Refusal, own_entry_refusal


@dataclass(frozen=True)
class Badge:
    label: str
    css_class: str


# The desk's day grid: one cell per table and game.
GRID_BADGES = {
    SheetState.ENTERED: Badge("entered", "entered"),
    SheetState.CONFIRMED: Badge("confirmed", "confirmed"),
}
GRID_EMPTY = Badge("empty", "empty")
GRID_NOT_PLAYED = Badge("not played", "not-played")

# The scorekeeper's table page: one row per game.
TABLE_PAGE_CONFIRMED = Badge("confirmed", "confirmed")
TABLE_PAGE_WAITING = Badge("saved, for the desk to confirm", "entered")
TABLE_PAGE_EMPTY = Badge("not entered", "empty")
TABLE_PAGE_NOT_PLAYED = Badge("not played", "not-played")


def grid_cells(cells: list[dict], table_number: int, review_url) -> tuple[list[dict], str]:
    """A day-grid row's cells (see :func:`grid_cell`) and the HTML of them all, in order."""
    shown = [grid_cell(cell, table_number, review_url) for cell in cells]
    # Each cell's HTML was built by grid_cell with every value escaped.
    return shown, mark_safe("".join(cell["html"] for cell in shown))  # noqa: S308


def grid_cell(cell: dict, table_number: int, review_url) -> dict:
    """A day-grid cell of table ``table_number`` with its ``badge``, ``css_class`` and ``html``
    (the whole ``<td>``); a game waiting for the desk also gets ``review_url``
    (``review_url(game number)`` gives it)."""
    state = cell["state"]
    badge = GRID_NOT_PLAYED if state == NOT_PLAYED else GRID_BADGES.get(state, GRID_EMPTY)
    shown = {**cell, "badge": badge, "css_class": f"cell-{state}"}
    if state == SheetState.ENTERED:
        shown["review_url"] = review_url(cell["game"].number)
    shown["html"] = _grid_cell_html(shown, table_number)
    return shown


def _grid_cell_html(cell: dict, table_number: int) -> str:
    # Drawn here rather than in the template: a 43-table day has 258 cells and the desk looks
    # at the grid after every confirmation; the template language (and format_html) took most
    # of the grid's time. Every value is escaped.
    badge = cell["badge"]
    html = f'<span class="badge {escape(badge.css_class)}">{escape(badge.label)}</span>'
    if cell.get("review_url"):
        label = f"Review table {table_number}, game {cell['game'].number}: {badge.label}"
        html = f'<a href="{escape(cell["review_url"])}" aria-label="{escape(label)}">{html}</a>'
    if cell["time"]:
        html += f'<br><span class="muted small">{escape(cell["time"])}</span>'
    return mark_safe(f'<td class="{escape(cell["css_class"])}">{html}</td>')  # noqa: S308 -- built from escaped parts just above


TABLE_PAGE_WRONG = Badge("marked wrong: enter it again", "wrong")


def table_page_row(row: dict, wrong: dict | None = None) -> dict:
    """A row of the table page with its ``badge``, and ``fixable`` when the table may still
    change it (entered, not yet confirmed by the desk, or marked wrong: ``wrong`` holds the
    desk's notes by game number, see selectors.wrong_notes)."""
    sheet = row["sheet"]
    if sheet is None and row.get("unplayed") is not None:
        return {**row, "badge": TABLE_PAGE_NOT_PLAYED, "fixable": False}
    note = (wrong or {}).get(row["game"].number)
    if sheet is None and note is not None:
        return {**row, "badge": TABLE_PAGE_WRONG, "fixable": True, "wrong": note}
    if sheet is None:
        return {**row, "badge": TABLE_PAGE_EMPTY, "fixable": False}
    if sheet.state == SheetState.CONFIRMED:
        return {**row, "badge": TABLE_PAGE_CONFIRMED, "fixable": False}
    return {**row, "badge": TABLE_PAGE_WAITING, "fixable": True}


def games_to_enter(sheets) -> str:
    """The games the table may still enter, each with the engine it is planned on ("2:11 3:10"):
    the page's script moves on to the next one itself when a save waits for the Wi-Fi."""
    plan = sheets.planned_engines()
    return " ".join(
        f"{g.number}:{plan.get(g.number, '')}"
        for g in sheets.games
        if g.number not in sheets.live and g.number not in sheets.unplayed
    )


def review_scores(seats, live) -> list[tuple]:
    """(seat, its Score or None when the player had left) for each seat, for the review page."""
    if live is None:
        return []
    points = {s.entry_id: s for s in live.score_rows()}
    return [(seat, points.get(seat.entry_id)) for seat in seats]


def is_provisional(sheet) -> bool:
    """Entered from a table link and not yet checked against the paper card."""
    return sheet is not None and sheet.state == SheetState.ENTERED


def who_label(sheet: GameSheet, *, confirming: bool = False) -> str:
    """Plain words for who made a sheet: "the table", "the desk (ann)".

    Reads the user when the sheet came without it: only a refused save shows this."""
    user = sheet.confirmed_by if confirming else sheet.entered_by
    name = f" ({user.get_username()})" if user is not None else ""
    if confirming or sheet.source == Source.DESK:
        return f"the desk{name}"
    if sheet.source == Source.TABLE_LINK:
        return f"the table{name}"
    if sheet.source == Source.WORKBOOK:
        return f"the workbook import{name}"
    return f"the organiser{name}"


@dataclass
class CurrentSheet:
    """What a game says now (a submit.GameNow) in words, shown to someone whose save was based
    on another version."""

    table: int
    game: int
    version: int  # 0 when there is no live sheet
    state: str  # "entered", "confirmed" or "empty"
    message: str
    engine: int | None = None
    outcome: str = ""
    scores: list[tuple[str, int]] = field(default_factory=list)
    score_entries: list[int] = field(default_factory=list)  # entry id of each of ``scores``
    went_out: int | None = None


def current_sheet_of(now: GameNow) -> CurrentSheet:
    """The conflict box's words: who changed the game and when (reads who saved it when the
    sheet came without them: only a refused save shows this)."""
    live, n = now.live, now.game
    if live is None:
        return CurrentSheet(now.table, n, 0, "empty", _emptied_message(now))
    what, moment = _what_happened(live, changed=now.base_version != 0)
    names = dict(now.names)
    return CurrentSheet(
        table=now.table,
        game=n,
        version=live.version,
        state=live.state,
        message=f"Game {n} was {what} at {local_time(moment)}; here is what it says now.",
        engine=live.engine_used,
        outcome=outcome_text(names, live.went_out_id, live.blocked),
        scores=[(names.get(s.entry_id, "?"), s.points) for s in live.score_rows()],
        score_entries=[s.entry_id for s in live.score_rows()],
        went_out=live.went_out_id,
    )


def _what_happened(live: GameSheet, *, changed: bool) -> tuple[str, object]:
    """How the live sheet came to be, and when: a confirmed game always says "confirmed",
    also when the desk keyed it (entered and confirmed at once), never just "entered"."""
    done = "changed" if changed else "entered"
    if live.state != SheetState.CONFIRMED:
        return f"{done} by {who_label(live)}", live.entered_at
    moment = live.confirmed_at or live.entered_at
    if live.confirmed_by_id and live.confirmed_by_id != live.entered_by_id:
        return f"confirmed by {who_label(live, confirming=True)}", moment
    return f"{done} and confirmed by {who_label(live)}", moment


def _emptied_message(now: GameNow) -> str:
    last, n = now.last, now.game
    if last is not None and last.state == SheetState.REJECTED:
        return (
            f"Game {n} was marked wrong by the desk at "
            f"{local_time(last.confirmed_at or last.entered_at)}; it needs entering again."
        )
    return f"Game {n} has no scores now: someone removed them. Enter it again."


def held_refusal(now: GameNow, day: int) -> Refusal:
    """A table link's save of a game the desk has confirmed, as a refusal of the whole game."""
    confirmed_at = now.live.confirmed_at if now.live is not None else None
    return Refusal(
        day,
        now.table,
        now.game,
        "",
        f"Game {now.game} was confirmed by the desk at {local_time(confirmed_at)}. Ask the "
        "desk if it needs changing.",
    )


def saved_message(game_number: int) -> str:
    """What the table's page says after a save from the phone."""
    return f"Game {game_number} is saved. The desk will check it against your card."


def kept_message(game_number: int) -> str:
    """What the table's page says when this phone keeps the numbers another phone saved."""
    return f"Game {game_number} keeps the saved numbers. What this phone typed for it is cleared."


def _games_text(numbers: list[int]) -> str:
    return f"game{'s' if len(numbers) > 1 else ''} {', '.join(map(str, numbers))}"


def left_table_message(name: str, left_after: int, game_number: int, typed: str) -> str:
    """A score typed for a player who withdrew while the table was typing: not stored."""
    return (
        f"{name} has left the table {when_left(left_after)}; {possessive(name)} score for "
        f"game {game_number} ({typed}) was not stored."
    )


def card_saved_message(table_number: int, outcomes: list[Outcome]) -> str:
    """What a desk card stored. A game the desk keys is stored confirmed, whether it is new or
    matched what the table entered; one the desk kept over the table's entry says so."""
    kept = [o.game for o in outcomes if o.action == "corrected"]
    confirmed = [o.game for o in outcomes if o.action != "corrected"]
    done = []
    if confirmed:
        done.append(f"{_games_text(confirmed)} confirmed")
    if kept:
        done.append(f"{_games_text(kept)} confirmed from the paper card")
    return f"Table {table_number} saved: {'; '.join(done) or 'no changes'}."


def differs_boxes(differs: list[Differs], names: dict[int, str]) -> list[dict]:
    """Each game where the desk's card and the table's entry disagree, line by line: the
    table's number beside the card's, and the value of the button that keeps the card."""
    boxes = []
    for item in differs:
        live, typed = item.live, item.typed
        entered = values_of_sheet(live)
        lines = [
            _line("Engine", f"double {entered.engine}", f"double {typed.engine}"),
            _line(
                "Went out",
                outcome_text(names, entered.went_out, entered.blocked) or "nothing",
                outcome_text(names, typed.went_out, typed.blocked) or "nothing",
            ),
        ]
        for entry_id in [e for e in names if e in entered.scores or e in typed.scores]:
            table_said, card_said = entered.scores.get(entry_id), typed.scores.get(entry_id)
            lines.append(_line(names[entry_id], str(table_said), str(card_said)))
        boxes.append(
            {
                "game": item.game,
                "entered": f"entered by {who_label(live)} at {local_time(live.entered_at)}",
                "lines": [
                    {
                        "label": x["label"],
                        "table": x["saved"],
                        "card": x["mine"],
                        "differs": x["differs"],
                    }
                    for x in lines
                ],
                "card_right": str(item.game),
            }
        )
    return boxes


def current_sheet(now: GameNow | None, typed=None) -> dict | None:
    """What a game says now (:func:`current_sheet_of`) for the conflict box, with
    ``may_save_again``: the game is still open, so the person may check and save once more.

    ``typed`` (the posted form's data) adds ``beside``: each line saved beside what this person
    typed, ``differs`` where they disagree, so a second phone sees what it would overwrite."""
    if now is None:
        return None
    current = current_sheet_of(now)
    shown = {**asdict(current), "may_save_again": current.state == SheetState.ENTERED}
    if typed is not None and current.version:
        shown["beside"] = _beside(current, typed)
    return shown


def _beside(current, typed) -> list[dict]:
    rows = [_line("Engine", f"double {current.engine}", f"double {typed.get('engine', '')}")]
    mine_out = [eid for eid in current.score_entries if typed.get(f"out-{eid}")]
    names = dict(zip(current.score_entries, (name for name, _ in current.scores), strict=True))
    yours = "blocked" if typed.get("blocked") else ", ".join(names[e] for e in mine_out)
    rows.append(_line("Went out", current.outcome, f"{yours} went out" if mine_out else yours))
    for entry_id, (name, points) in zip(current.score_entries, current.scores, strict=True):
        rows.append(_line(name, str(points), str(typed.get(f"score-{entry_id}", "")).strip()))
    return rows


def _line(label: str, saved: str, mine: str) -> dict:
    return {"label": label, "saved": saved, "mine": mine, "differs": saved != mine}


def history_what(event) -> str:
    """What an audit event did, in the words the desk uses: above all, how a game came to be
    confirmed (Confirm pressed on what the table entered, or a card keyed blind that matched)."""
    if event.action == AuditEvent.CONFIRMED:
        if event.how == AuditEvent.MATCHED:
            where = "in the workbook" if event.source == Source.WORKBOOK else "at the desk"
            return f"Confirmed: the card keyed {where} matched what the table entered"
        return "Confirmed by the desk (Confirm pressed)"
    if event.action == AuditEvent.ENTERED:
        if event.source == Source.TABLE_LINK:
            return "Entered by the table"
        if event.source == Source.WORKBOOK:
            return "Keyed in the workbook (confirmed)"
        return "Keyed at the desk (confirmed)"
    return event.get_action_display()


def history_rows(events) -> list[dict]:
    return [{"event": event, "what": history_what(event)} for event in events]


def check_rows(sheets, form, user, device: str = "") -> list[dict]:
    """The table's card as it entered it, for the desk to hold beside the paper: each game with
    its scores in seat order, its badge, and for a game waiting for the desk the tick box (or
    why this user may not confirm it)."""
    rows = []
    for row in sheets.rows():
        shown = table_page_row(row)
        sheet = row["sheet"]
        n = row["game"].number
        waiting = sheet is not None and sheet.state == SheetState.ENTERED
        refusal = own_entry_refusal(sheet, user, device) if waiting else ""
        shown["tick"] = form[f"confirm-{n}"] if waiting and not refusal else None
        shown["version"] = form[f"v{n}"] if waiting and not refusal else None
        shown["refusal"] = refusal
        shown["badge"] = GRID_BADGES.get(sheet.state, GRID_EMPTY) if sheet else GRID_EMPTY
        rows.append(shown)
    return rows
