"""The scorekeeper's private table link: no login, one table only, CSRF on."""
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from tournaments.services import ServiceError

from . import services
from .entry_selectors import table_by_link, table_sheets
from .forms import GameForm
from .models import SheetState, Source
from .schedule import ensure_schedule


def link_dead(request):
    return render(request, "scoring/link_dead.html", status=404)


def _game_number(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@never_cache
@csrf_protect
def table_page(request, token):
    table = table_by_link(token)
    if table is None:
        return link_dead(request)
    ensure_schedule(table.day)
    sheets = table_sheets(table)
    if request.method == "POST":
        # Always the game the form was for: the service refuses it if the desk has it now.
        game = sheets.game(_game_number(request.POST.get("game")))
        if game is None:
            return redirect("scorekeeper:table", token=token)
    else:
        asked = sheets.game(_game_number(request.GET.get("game")))
        live = sheets.live.get(asked.number) if asked else None
        # A confirmed game is the desk's now: offer the next open one instead.
        game = asked if asked and (live is None or live.state != SheetState.CONFIRMED) else sheets.next_game()
    form = None
    conflict = None
    if game is not None:
        form = GameForm(request.POST if request.method == "POST" else None, sheets=sheets, game=game)
        if request.method == "POST" and form.is_valid():
            user = request.user if request.user.is_authenticated else None
            try:
                services.submit_game(table, game, form.typed(), form.cleaned_data["base_version"],
                                     source=Source.TABLE_LINK, user=user)
            except services.SheetRefused as refused:
                form.add_refusals(refused.refusals)
            except services.VersionConflict as clash:
                conflict = clash.current[0]
                data = request.POST.copy()
                data["base_version"] = str(conflict.version)
                sheets = table_sheets(table)
                form = GameForm(data, sheets=sheets, game=game)
                form.is_valid()
                if conflict.state == SheetState.CONFIRMED:
                    form = None  # the desk has it now: nothing left to fix here
            except ServiceError:
                return link_dead(request)
            else:
                messages.success(request, f"Game {game.number} is saved. The desk will check it "
                                          "against your card.")
                return redirect("scorekeeper:table", token=token)
    return render(request, "scoring/table_page.html", {
        "table": table, "day": sheets.day, "tournament": sheets.day.tournament, "sheets": sheets,
        "rows": sheets.rows(), "game": game, "form": form,
        "conflict": conflict, "token": token,
        "hand_size": sheets.rules.hand_size(len(sheets.seats)),
    })
