"""The scorekeeper's private table link: no login, one table only, CSRF on."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from .devices import remember_device
from .forms import submit_game_form
from .models import SheetState, Source
from .presenters import current_sheet, table_page_row
from .schedule import day_games, game_numbered
from .selectors import table_by_link, table_sheets


def link_dead(request):
    return render(request, "scoring/link_dead.html", status=404)


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


@never_cache
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
        # Always the game the form was for: the service refuses it if the desk has it now.
        game = game_numbered(games, _game_number(request.POST.get("game")))
        if game is None:
            return redirect("scorekeeper:table", token=token)
        sheets = None  # the save reads the table under its lock
    else:
        sheets = table_sheets(table, games)
        game = _game_to_offer(sheets, _game_number(request.GET.get("game")))
    form = None
    conflict = None
    if game is not None:
        submission = submit_game_form(
            request, table, game, games=games, sheets=sheets, source=Source.TABLE_LINK
        )
        if submission.refusal:
            return link_dead(request)  # the day closed or the link changed while typing
        if submission.saved:
            messages.success(
                request, f"Game {game.number} is saved. The desk will check it against your card."
            )
            return redirect("scorekeeper:table", token=token)
        form, conflict, sheets = submission.form, submission.conflict, submission.sheets
        if conflict is not None and conflict.state == SheetState.CONFIRMED:
            form = None  # the desk has it now: nothing left to fix here
    return render(
        request,
        "scoring/table_page.html",
        {
            "table": table,
            "day": sheets.day,
            "tournament": sheets.day.tournament,
            "sheets": sheets,
            "rows": [table_page_row(row) for row in sheets.rows()],
            "game": game,
            "form": form,
            "conflict": current_sheet(conflict),
            "token": token,
            "hand_size": sheets.rules.hand_size(len(sheets.seats)),
        },
    )
