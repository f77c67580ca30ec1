"""Merging two people who are one, from a player's page: find the other, compare them side by
side, merge keeping either; then the event's merges, each with an undo while it is possible."""

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from tournaments import selectors
from tournaments.access import organiser_view
from tournaments.forms import PlayerSearchForm
from tournaments.models import Player, PlayerMerge
from tournaments.selectors.merges import event_merges, person_entries
from tournaments.services import merging
from tournaments.views.common import entry_or_404


class MergeForm(forms.Form):
    keep = forms.IntegerField(min_value=1)
    drop = forms.IntegerField(min_value=1)


class OtherForm(forms.Form):
    other = forms.IntegerField(min_value=1, required=False)


@organiser_view
def player_merge(request, tournament, number):
    entry = entry_or_404(tournament, number)
    if request.method == "POST":
        done = _merge(request, tournament)
        if done:
            return redirect("organiser:player_merges", tournament.slug)
    search = PlayerSearchForm(request.GET)
    query = search.cleaned_data["q"].strip() if search.is_valid() else ""
    chosen = OtherForm(request.GET)
    other_pk = chosen.cleaned_data["other"] if chosen.is_valid() else None
    other = None
    if other_pk is not None and other_pk != entry.player_id:
        # Only someone in this organiser's directory: any other id shows the search again.
        other = selectors.directory_for(request.user).filter(pk=other_pk).first()
    matches = [
        p
        for p in selectors.directory_matches(tournament, query, request.user)
        if p.pk != entry.player_id
    ]
    return render(
        request,
        "tournaments/player_merge.html",
        {
            "tournament": tournament,
            "entry": entry,
            "search": search,
            "query": query,
            "matches": matches,
            "other": other,
            "people": _side_by_side(entry.player, other) if other else [],
            "refusal": merging.merge_refusal(entry.player, other, request.user) if other else "",
        },
    )


def _side_by_side(here: Player, other: Player) -> list[dict]:
    return [
        {"player": person, "entries": person_entries(person), "other": partner}
        for person, partner in ((here, other), (other, here))
    ]


def _merge(request, tournament) -> bool:
    form = MergeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose whom to keep with one of the Merge buttons.")
        return False
    pks = (form.cleaned_data["keep"], form.cleaned_data["drop"])
    found = {p.pk: p for p in Player.objects.filter(pk__in=pks)}
    if len(found) != len(set(pks)):
        messages.error(request, merging.NOT_YOURS)
        return False
    keep, drop = found[pks[0]], found[pks[1]]
    try:
        outcome = merging.merge_players(keep, drop, user=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
        return False
    count = len(outcome.events)
    moved = f" ({', '.join(outcome.events)})" if outcome.events else ""
    messages.success(
        request,
        f"Merged {drop.name} into {keep.name}: {count} "
        f"entr{'ies' if count != 1 else 'y'} moved{moved}.",
    )
    return True


@organiser_view
def player_merges(request, tournament):
    merges = event_merges(tournament)
    rows = [{"merge": m, "refusal": merging.undo_refusal(m, request.user)} for m in merges]
    return render(
        request,
        "tournaments/player_merges.html",
        {"tournament": tournament, "rows": rows},
    )


@organiser_view
@require_POST
def merge_undo(request, tournament, merge):
    # Only a merge this event's page lists: any other id is "not found".
    record = get_object_or_404(
        PlayerMerge.objects.select_related("kept", "dropped"),
        pk=merge,
        pk__in=[m.pk for m in event_merges(tournament)],
    )
    try:
        merging.undo_merge(record, user=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            f"Undone: {record.dropped.name} and {record.kept.name} are two people again, "
            "each with their own entries.",
        )
    return redirect(reverse("organiser:player_merges", args=[tournament.slug]))
