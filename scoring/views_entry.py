"""What the table's page and the organiser's correction page share: a posted game form read,
saved through scoring.submit, and what the save returned put on the form; and a refused save's
form kept in the session for the page drawn next (POST, redirect, GET). View layer: the session
and the request are handled here, never in the forms or the save.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring import submit
from scoring.devices import device_mark
from scoring.forms import RECHECKED, GameForm, submission_id
from scoring.models import Game, Source
from scoring.presenters import held_refusal
from scoring.selectors import TableSheets, table_seats, table_sheets
from scoring.submit import GameNow, Saved
from tournaments.models import Table


@dataclass
class GameSubmission:
    form: GameForm
    sheets: TableSheets | None  # what to draw the page from (None when nothing was read)
    saved: bool = False
    conflict: GameNow | None = None  # what the game says now, when the page was out of date
    refusal: str = ""  # a refusal that belongs to no field (the day closed, say)
    to_check: bool = False  # nothing saved: "please check" notes wait for a "Yes, it is right"
    version: int | None = None  # the version saved, when a save stored one


def submit_game_form(
    request,
    table: Table,
    game: Game,
    *,
    games: list[Game],
    source: str,
    sheets: TableSheets | None = None,
    **form_options,
) -> GameSubmission:
    """Bind a game form to the request and save it through scoring.submit.

    A GET draws the form from ``sheets``, what the page has read. A POST is read against
    ``sheets`` when the page read them anyway, else against who sits at the table alone; the
    save then locks the table and reads its sheets once, so the checks see what the save
    replaces. A save based on an old version is never written: the form is bound again to the
    version stored now, so the page shows "here is what it says now" beside what was typed.
    """
    if request.method != "POST":
        if sheets is None:
            raise TypeError("a game form is drawn from the table's sheets")
        return GameSubmission(GameForm(None, sheets=sheets, game=game, **form_options), sheets)
    data = request.POST
    user = request.user if request.user.is_authenticated else None
    # A table-link save marks the browser it came from; any other save is compared with it.
    device = device_mark(request, create=source == Source.TABLE_LINK)
    parse_with = sheets if sheets is not None else table_seats(table, games)
    form = GameForm(data, sheets=parse_with, game=game, **form_options)
    if not form.is_valid():
        return GameSubmission(form, sheets or table_sheets(table, games))
    saved = submit.submit_game(
        table,
        game,
        form.typed(),
        form.cleaned_data["base_version"],
        source=source,
        user=user,
        reason=form.cleaned_data.get("reason", ""),
        device=device,
        submission_id=submission_id(data) if source == Source.TABLE_LINK else "",
        rechecked=form.rechecked,
        seated=parse_with,
    )
    return _answered(GameSubmission(form, saved.sheets), saved, data, form_options)


def _answered(result: GameSubmission, saved: Saved, data, form_options) -> GameSubmission:
    """``result`` with what the save did put on its form."""
    form = result.form
    if saved.denied:
        result.refusal = saved.denied
        form.add_error(None, saved.denied)
    elif saved.conflicts:
        result.conflict = saved.conflicts[0]
        rebased = data.copy()
        rebased["base_version"] = str(result.conflict.version)
        drawn = saved.sheets or form.sheets  # no read when the unique constraints caught a race
        result.form = GameForm(rebased, sheets=drawn, game=form.game, **form_options)
        result.form.is_valid()
    elif saved.refused:
        day = form.sheets.day.number
        form.add_refusals(saved.refusals + [held_refusal(now, day) for now in saved.held])
        form.add_warnings(saved.warnings)
    elif saved.to_check:
        form.add_warnings(saved.warnings)
        result.to_check = True
    else:
        result.saved = True
        result.version = saved.outcomes[0].sheet.version if saved.outcomes else None
    return result


# What a refused save leaves for the page it redirects to (POST, redirect, GET: going back
# never asks to send the form again), keyed by the table's link in the session.
PENDING_KEY = "scoring.pending_entry"
_NOT_KEPT = {"csrfmiddlewaretoken", RECHECKED}


# A table link needs no login, so anyone holding one can post refused saves: what is kept is
# only the form's own fields, each cut one character past its longest (so it is still "too
# long" when the page is drawn again), in a session that ends soon after.
KEPT_VALUE_MAX = 200
TABLE_SESSION_SECONDS = 6 * 60 * 60  # the rest of the playing day


def _longest_kept(field) -> int:
    return (getattr(field, "max_length", None) or KEPT_VALUE_MAX) + 1


def keep_refused(session, token: str, submission: GameSubmission, conflict=None) -> None:
    """Keep a refused save's typed values, problems and notes (and ``conflict``, the box saying
    what the game says now) for the page drawn next."""
    form = submission.form
    if "_auth_user_id" not in session:  # an organiser's login keeps its own life
        session.set_expiry(TABLE_SESSION_SECONDS)
    session[PENDING_KEY] = {
        "token": token,
        "game": form.game.number,
        "data": {
            name: str(form.data[name])[: _longest_kept(field)]
            for name, field in form.fields.items()
            if name in form.data and name not in _NOT_KEPT
        },
        "errors": {name: list(errors) for name, errors in form.errors.items()},
        "warnings": form.warnings,
        "to_check": submission.to_check,
        "conflict": conflict,
    }


def drop_refused(session) -> None:
    session.pop(PENDING_KEY, None)


def refused_form(
    session, token: str, sheets: TableSheets, game: Game
) -> tuple[GameForm | None, dict]:
    """The form of the last refused save of ``game`` at this table, as it was typed, with its
    problems and notes; None when there is none, or the game changed since (its version moved
    on). With it, the rest of what was kept ("to_check", "conflict")."""
    pending = session.get(PENDING_KEY)
    if not pending or pending.get("token") != token or pending.get("game") != game.number:
        return None, {}
    live = sheets.live.get(game.number)
    base = str(pending["data"].get("base_version", "")).strip()
    if base.isdigit() and int(base) != (live.version if live else 0):
        drop_refused(session)  # the game changed since: draw it as it is now
        return None, {}
    form = GameForm(pending["data"], sheets=sheets, game=game)
    form.is_valid()
    for name, errors in pending["errors"].items():
        field = name if name in form.fields else None
        for error in errors:
            if error not in form.errors.get(name, []):
                form.add_error(field, error)
    form.warnings = pending["warnings"]
    return form, pending
