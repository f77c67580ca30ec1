"""The scorekeeper's private table link: no login, one table only, CSRF on."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.messages.storage.base import BaseStorage
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from core.security_headers import phone_keeps_a_copy
from core.throttle import Throttle, client_address
from domain.desk_calls import BUTTON, REASONS
from scoring.card_totals import card_totals_check, running_totals
from scoring.desk_calls import call_the_desk, table_open_calls
from scoring.devices import remember_device, set_phone_cookie
from scoring.models import SheetState, Source
from scoring.presenters import (
    current_sheet,
    games_to_enter,
    kept_message,
    left_table_message,
    saved_message,
    table_page_row,
    who_label,
)
from scoring.schedule import day_games, game_numbered
from scoring.selectors import (
    local_time,
    table_by_code,
    table_by_link,
    table_sheets,
    wrong_notes,
)
from scoring.table_code_form import TableCodeForm
from scoring.table_watch import drawn_fingerprint, table_state
from scoring.views_entry import (
    PENDING_KEY,
    drop_refused,
    keep_refused,
    refused_form,
    submit_game_form,
)

# Ten wrong codes from one address in ten minutes, then that address waits: guessing one of
# the open tables' codes would take millions of tries.
WRONG_CODES = Throttle("table-code", limit=10, window_seconds=10 * 60)


def link_dead(request):
    return render(request, "scoring/link_dead.html", status=404)


@never_cache
@csrf_protect
def enter_code(request):
    """A table code typed on the home page opens that table's page, as its link does."""
    form = TableCodeForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        client = client_address(request)
        # A well-formed code is paid for before it is looked up, so that phones guessing in
        # parallel get no more lookups than the limit; a right code is given back.
        if WRONG_CODES.blocked(client) or (form.is_valid() and not WRONG_CODES.take(client)):
            form.errors.clear()
            form.add_error(
                None,
                "Too many wrong codes from this phone. Try again in "
                f"{WRONG_CODES.wait_words(client)}, or scan the QR code on your table's card, "
                "or ask the desk for your table's link.",
            )
            status = 429
        elif form.is_valid():
            table = table_by_code(form.cleaned_data["code"])
            if table is not None:
                WRONG_CODES.give_back(client)
                return redirect("scorekeeper:table", token=table.link_token)
            # Only a code that could exist counts toward the wait: a slip of the thumb (a
            # letter codes never use, one too few) tells a guesser nothing.
            form.add_error("code", "No open table has this code. Check the card on your table.")
            status = 400
        else:
            status = 400
    return render(request, "scoring/enter_code.html", {"form": form}, status=status)


# How often the table's page asks whether its sheets changed: as often as the public pages
# refresh (STANDINGS_REFRESH_SECONDS), so one setting makes the tests fast.
WATCH_SECONDS = 30


@never_cache
def table_watch(request, token):
    """The poll of the table's page: its sheets' fingerprint (scoring.table_watch), for the
    private link only; a dead link gets the link-dead page, as the table page."""
    state = table_state(token)
    if state is None:
        return link_dead(request)
    return JsonResponse(state)  # never_cache: Cache-Control says no-store


def _game_number(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _game_to_offer(sheets, asked_number: int | None):
    """The game the page asks for, unless the desk has confirmed it: a confirmed game is the
    desk's now, so the next open one is offered instead (None when all are entered)."""
    asked = sheets.game(asked_number)
    live = sheets.live.get(asked.number) if asked else None
    if asked and (live is None or live.state != SheetState.CONFIRMED):
        return asked
    return sheets.next_game()


# What this phone saved: {game number: version} in a signed cookie per table. Every phone of a
# table shares the table's link, so the phone's own cookie is what tells it from another; a
# cookie, not the session, so the page every phone reloads after every save reads nothing more.
def _saved_cookie(table) -> str:
    return f"saved-{table.pk}"


def saved_versions(request, table) -> dict[str, int]:
    raw = request.get_signed_cookie(_saved_cookie(table), default="", salt="table-saves")
    try:
        saved = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return saved if isinstance(saved, dict) else {}


def keep_saved_versions(response, table, saved: dict[str, int]) -> None:
    set_phone_cookie(
        response,
        _saved_cookie(table),
        json.dumps(saved),
        salt="table-saves",
        max_age=3 * 24 * 60 * 60,
    )


def changed_since_saved(saved: dict[str, int], sheets) -> list[str]:
    """For each game this phone saved that someone has changed since (another phone on the
    table's link, or the desk), who and when. ``saved`` is brought up to date, so each change
    is told once."""
    notes = []
    for number, live in sorted(sheets.live.items()):
        key = str(number)
        if key not in saved or saved[key] == live.version:
            continue
        notes.append(
            f"Game {number} was changed after you saved it: by {changed_by(live)} at "
            f"{local_time(live.entered_at)}. Check it against your card."
        )
        saved[key] = live.version
    return notes


def changed_by(live) -> str:
    if live.source == Source.TABLE_LINK:
        return f"another phone on the table {live.table.number} link"
    return who_label(live)


# The venue serves plain HTTP, where phones run no service worker: the browser's copy of the
# page is what a phone with no Wi-Fi can show (the page says it is one, static/js/game-entry.js).
@phone_keeps_a_copy
@csrf_protect
def table_page(request, token):
    # A save marks the browser it came from (scoring/devices.py): the cookie goes with any answer.
    return remember_device(request, _table_page(request, token))


def _table_page(request, token):
    table = table_by_link(token)
    if table is None:
        return link_dead(request)
    games = day_games(table.day)
    if request.method == "POST":
        return _save(request, token, table, games)
    keep_game = _game_number(request.GET.get("kept"))
    if keep_game is not None:
        return _keep_saved(request, token, game_numbered(games, keep_game))
    sheets = table_sheets(table, games)
    game = _game_to_offer(sheets, _game_number(request.GET.get("game")))
    notes = wrong_notes(sheets)
    form, kept = _offered_form(request, token, table, games, sheets, game, notes)
    conflict = kept.get("conflict") or request.session.pop(SHOWN_CONFLICT, None)
    saved = saved_versions(request, table)
    changed = changed_since_saved(saved, sheets)
    response = render(
        request,
        "scoring/table_page.html",
        {
            "table": table,
            "day": sheets.day,
            "tournament": sheets.day.tournament,
            "sheets": sheets,
            "rows": [table_page_row(row, notes) for row in sheets.rows()],
            "wrong": notes.get(game.number) if game is not None else None,
            "game": game,
            "form": form,
            "to_check": bool(kept.get("to_check")),
            "conflict": conflict,
            "changed": changed,
            "token": token,
            "to_enter": games_to_enter(sheets),
            "running": running_totals(sheets),
            "fingerprint": drawn_fingerprint(sheets),
            "watch_seconds": getattr(settings, "STANDINGS_REFRESH_SECONDS", WATCH_SECONDS),
            "card_totals": card_totals_check(request.GET, sheets) if game is None else None,
            "saved_notes": saved_notes(request.GET.get("saved"), sheets),
            # Who plays the game offered, and the deal for that many: a withdrawal, a late
            # player or a substitute changes the table from one game to the next.
            "players_now": len(now := sheets.playing(game.number if game else len(sheets.games))),
            "hand_size": sheets.rules.hand_size(len(now)),
            "calls": table_open_calls(table),
            "reasons": REASONS,
        },
    )
    if changed:
        keep_saved_versions(response, table, saved)
    return response


@require_POST
@csrf_protect
def call_desk(request, token):
    """A button of "Call the desk": said on the table page drawn next, stored or refused."""
    table = table_by_link(token)
    if table is None:
        return link_dead(request)
    try:
        call = call_the_desk(table, request.POST.get("reason", ""))
    except ServiceError as refusal:
        messages.warning(request, str(refusal))
    else:
        messages.success(
            request,
            f"The desk is called ({BUTTON[call.reason].lower()}). Someone will come to "
            f"table {table.number}.",
        )
    # The page opens at its top, where what was said about the call is shown.
    return redirect("scorekeeper:table", token=token)


def _offered_form(request, token, table, games, sheets, game, notes):
    """The game's form: as a refused save left it (with what it kept), or new."""
    if game is None:
        return None, {}
    form, kept = refused_form(request.session, token, sheets, game)
    if form is None:
        form = submit_game_form(
            request,
            table,
            game,
            games=games,
            sheets=sheets,
            source=Source.TABLE_LINK,
            wrong=notes.get(game.number),
        ).form
    return form, kept


def saved_notes(asked: str | None, sheets) -> list[str]:
    """ "Game N is saved." for the games the page's script says it just saved (``?saved=2,3``),
    each only where the table holds it: said by the page itself, not kept in the session, so a
    page lost on its way to the phone still says it when the phone loads it again."""
    numbers = {_game_number(part) for part in (asked or "").split(",")[: len(sheets.games)]}
    return [saved_message(number) for number in sorted(sheets.live) if number in numbers]


def _keep_saved(request, token, game):
    """\"Keep the saved numbers\" after a clash with another phone: what this phone typed for
    the game is dropped (the page's script drops its own copy too), and the page goes on to
    the next game to enter, not back to the same clash."""
    if game is None:  # no such game today: nothing to keep
        return redirect("scorekeeper:table", token=token)
    pending = request.session.get(PENDING_KEY)
    if pending and pending.get("token") == token and pending.get("game") == game.number:
        drop_refused(request.session)
    request.session.pop(SHOWN_CONFLICT, None)
    messages.info(request, kept_message(game.number))
    return redirect("scorekeeper:table", token=token)


def say_once(request, text: str) -> None:
    """Say ``text`` on the page drawn next, unless it waits to be said already: a save the phone
    sent again after an answer it could not hear (stored once, by its id) is said saved once."""
    waiting = messages.get_messages(request)
    already = any(message.message == text for message in waiting)
    if isinstance(waiting, BaseStorage):
        waiting.used = False  # read here, not shown: they stay for the page drawn next
    if not already:
        messages.success(request, text)


# The header of a save the table page's script sends in the background.
BACKGROUND_SAVE = "X-Table-Save"

# A conflict with a game the desk has confirmed: shown once on the page drawn next.
SHOWN_CONFLICT = "scoring.shown_conflict"


def _saved(request, token, table, game, version: int | None):
    drop_refused(request.session)
    if request.headers.get(BACKGROUND_SAVE) != "background":
        say_once(request, saved_message(game.number))  # the script's page says it itself
    response = redirect("scorekeeper:table", token=token)
    if version is not None:
        saved = saved_versions(request, table)
        saved[str(game.number)] = version
        keep_saved_versions(response, table, saved)
    return response


def _save(request, token, table, games):
    """Save the posted game, then always redirect (POST, redirect, GET): a refused save keeps
    what was typed in the session for the page drawn next, so going back never asks to send
    the form again."""
    # Always the game the form was for: the service refuses it if the desk has it now.
    game = game_numbered(games, _game_number(request.POST.get("game")))
    if game is None:
        return redirect("scorekeeper:table", token=token)
    submission = submit_game_form(
        request, table, game, games=games, sheets=None, source=Source.TABLE_LINK
    )
    if submission.refusal:
        return link_dead(request)  # the day closed or the link changed while typing
    for name, left_after, typed in submission.form.left_the_table():
        messages.warning(request, left_table_message(name, left_after, game.number, typed))
    if submission.saved:
        return _saved(request, token, table, game, submission.version)
    # Beside what it says now, what this phone typed: a second phone sees what it would
    # overwrite and chooses.
    conflict = current_sheet(submission.conflict, request.POST)
    sheets = submission.sheets
    live = sheets.live.get(game.number) if sheets is not None else None
    if submission.conflict is not None and submission.conflict.state == SheetState.CONFIRMED:
        drop_refused(request.session)  # the desk has it now: nothing left to fix here
        request.session[SHOWN_CONFLICT] = conflict
    elif live is not None and live.state == SheetState.CONFIRMED:
        drop_refused(request.session)  # the page offers the next game: say why here
        for error in submission.form.non_field_errors():
            messages.error(request, str(error))
    else:
        keep_refused(request.session, token, submission, conflict)
    if request.headers.get(BACKGROUND_SAVE) == "background":
        # static/js/game-entry.js sent it: a redirect is hidden from the script, which could
        # not tell this answer from a stored save; it opens the game's page itself.
        return HttpResponse(status=409)
    return redirect(f"{reverse('scorekeeper:table', args=[token])}?game={game.number}")
