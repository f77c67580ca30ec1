from django.shortcuts import render
from django.views.decorators.http import require_safe

from . import selectors
from .access import public_view
from .forms import FindTableForm
from .selectors import public_tournaments


@require_safe
def home(request):
    return render(
        request,
        "tournaments/public_home.html",
        {"tournaments": public_tournaments()},
    )


@public_view
def tournament_home(request, tournament):
    return render(request, "tournaments/public_tournament.html", {"tournament": tournament})


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
