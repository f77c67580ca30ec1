"""Check-in at the door: desk staff may help, so these are desk pages, not organiser-only."""

from urllib.parse import urlencode

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from domain.fees import METHODS, WAIVED
from tournaments import selectors
from tournaments.access import desk_view
from tournaments.forms import PlayerSearchForm
from tournaments.presenters import entries_named, with_status
from tournaments.selectors.fees import charges_fees, event_fee, fee_states
from tournaments.services import registration
from tournaments.views.common import entry_or_404


@desk_view
def check_in(request, tournament):
    search = PlayerSearchForm(request.GET)
    query = search.cleaned_data["q"].strip() if search.is_valid() else ""
    data = selectors.check_in_list(tournament)
    shown = with_status(entries_named(data["entries"], query))
    if charges_fees(tournament):
        states = fee_states(tournament)
        for entry in shown:
            entry.fee = states.get(entry.pk)
    return render(
        request,
        "tournaments/check_in.html",
        {
            "tournament": tournament,
            "search": search,
            "query": query,
            "shown": shown,
            "fee": event_fee(tournament),
            "methods": [(key, label) for key, label in METHODS if key != WAIVED],
            **data,
        },
    )


@desk_view
@require_POST
def check_in_set(request, tournament, number):
    entry = entry_or_404(tournament, number)
    here = request.POST.get("here") == "1"
    try:
        registration.set_checked_in(entry, here)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        state = "checked in" if here else "no longer checked in"
        messages.success(request, f"{entry.player.name} is {state}.")
    url = reverse("organiser:check_in", args=[tournament.slug])
    query = request.POST.get("q", "").strip()
    if query:
        url += "?" + urlencode({"q": query})
    return redirect(f"{url}#entry-{entry.number}")


@desk_view
@require_POST
def check_in_everyone(request, tournament):
    try:
        checked = registration.check_everyone_in(tournament)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        if checked:
            players = "1 player" if checked == 1 else f"{checked} players"
            messages.success(request, f"{players} checked in.")
        else:
            messages.info(request, "Everyone was already checked in.")
    return redirect("organiser:check_in", tournament.slug)
