"""The day board for organisers and desk staff: every table of a day as a tile coloured by
progress, refreshing itself."""

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_safe

from scoring.day_board import day_board as board_of
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
