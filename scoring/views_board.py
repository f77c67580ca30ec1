"""The day board for organisers and desk staff: every table of a day as a tile coloured by
progress, refreshing itself; and the desk's answer to a table's call, from the board or the
grid."""

from django.conf import settings
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from core.errors import ServiceError
from scoring.day_board import day_board as board_of
from scoring.desk_calls import answer_call as answer
from scoring.selectors import day_for
from tournaments.access import desk_view
from tournaments.selectors import tournament_days

BOARD_SECONDS = 20


@desk_view
@require_safe
def day_board(request, tournament, day):
    """Tables as tiles coloured by progress: the room at a glance, refreshing itself."""
    found = day_for(tournament, day)
    if found is None:
        raise Http404("No such day.")
    board = board_of(found)
    card = reverse("organiser:score_card", args=[tournament.slug, found.number, 1])
    card_head = card[: card.rindex("/1/")]
    return render(
        request,
        "scoring/day_board.html",
        {
            "tournament": tournament,
            "day": found,
            "board": board,
            "card_head": card_head,
            "days": tournament_days(tournament),
            "refresh_seconds": getattr(settings, "STANDINGS_REFRESH_SECONDS", BOARD_SECONDS),
        },
    )


@desk_view
@require_POST
def answer_call(request, tournament, day, call):
    """The desk went over to a table that called: its call leaves the board and the grid."""
    found = day_for(tournament, day)
    if found is None:
        raise Http404("No such day.")
    try:
        answered = answer(found, call, by=request.user)
    except ServiceError as refusal:
        messages.warning(request, str(refusal))
    else:
        messages.success(
            request, f"Table {answered.table_number}'s call ({answered.words}) is answered."
        )
    back = "organiser:day_board" if request.POST.get("back") == "board" else "organiser:scores_day"
    return redirect(back, tournament.slug, found.number)
