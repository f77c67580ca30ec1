"""The organiser's practice copy of an event (scoring.practice): made, or reset, with one button."""

from django.contrib import messages
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from scoring.practice import practice_event
from tournaments.access import organiser_view


@organiser_view
@require_POST
def practice(request, tournament):
    try:
        copy, made = practice_event(tournament, by=request.user)
    except ServiceError as refusal:
        messages.error(request, str(refusal))
        return redirect("organiser:tournament", tournament.slug)
    if made:
        messages.success(
            request,
            f"Practice copy made: {copy.name}. Its table links are its own; hand them to the "
            "volunteers, and reset it when they are done.",
        )
    else:
        messages.success(request, f"{copy.name} is reset: every score, call and payment cleared.")
    return redirect("organiser:tournament", copy.slug)
