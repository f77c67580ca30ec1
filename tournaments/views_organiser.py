from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from . import selectors
from .access import desk_view, tournaments_for


@login_required
def home(request):
    return render(
        request, "tournaments/organiser_home.html", {"tournaments": tournaments_for(request.user)}
    )


@desk_view
def tournament_overview(request, tournament):
    return render(
        request,
        "tournaments/overview.html",
        {"tournament": tournament, **selectors.tournament_overview(tournament)},
    )
