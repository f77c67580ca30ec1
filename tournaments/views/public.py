from django.shortcuts import render
from django.views.decorators.http import require_safe

from core.compression import compress_public_page
from tournaments import selectors
from tournaments.access import public_view
from tournaments.forms import FindTableForm
from tournaments.selectors import public_seasons, public_tournaments


@compress_public_page
@require_safe
def home(request):
    return render(
        request,
        "tournaments/public_home.html",
        {"tournaments": public_tournaments(), "seasons": public_seasons()},
    )


@compress_public_page
@public_view
def tournament_home(request, tournament):
    return render(request, "tournaments/public_tournament.html", {"tournament": tournament})


@compress_public_page
@public_view
def find_table(request, tournament):
    form = FindTableForm(request.GET)
    query = form.cleaned_data["q"] if form.is_valid() else ""
    return render(
        request,
        "tournaments/find_table.html",
        {
            "tournament": tournament,
            "form": form,
            **selectors.find_your_table(tournament, query),
        },
    )
