"""The final (championship round) for the organiser: who goes through and why, and the button
that seats it (``standings.finals``, which the ``final`` command uses too)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from core.errors import ServiceError
from domain.finals import NO_FINAL, final_words
from standings.finals import draw_final, seat_final
from tournaments.access import organiser_view


@organiser_view
@require_safe
def final(request, tournament):
    draw = draw_final(tournament)
    rules = tournament.rules
    return render(
        request,
        "standings/final.html",
        {
            "tournament": tournament,
            "draw": draw,
            "rule": final_words(rules.rule_values()),
            "qualifier_lines": draw.qualifier_lines,
            "can_seat": rules.final_qualify != NO_FINAL,
            "final_day": rules.days,
        },
    )


@organiser_view
@require_POST
def seat_final_view(request, tournament):
    try:
        draw, outcome = seat_final(tournament, organiser=request.user)
    except ServiceError as refusal:
        messages.error(request, f"Nothing changed. {refusal}")
        return redirect("organiser:final", tournament.slug)
    count = len(draw.qualifying.qualifiers) if draw.qualifying else 0
    messages.success(
        request,
        f"The final is seated: {count} players at {len(outcome.tables)} "
        f"table{'' if len(outcome.tables) == 1 else 's'}.",
    )
    return redirect("organiser:seating", tournament.slug, outcome.day.number)
