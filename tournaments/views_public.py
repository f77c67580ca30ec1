from django.shortcuts import render

from .access import public_view
from .models import Tournament


def home(request):
    return render(
        request,
        "tournaments/public_home.html",
        {"tournaments": Tournament.objects.filter(public_pages=True)},
    )


@public_view
def tournament_home(request, tournament):
    return render(request, "tournaments/public_tournament.html", {"tournament": tournament})
