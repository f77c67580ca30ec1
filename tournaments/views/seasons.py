"""Organiser pages that make a season and choose its events (standings.seasons ranks them).

A season is created by whoever may create events, and is theirs (and superusers') alone until
its first event is added; its events are added and removed by a superuser or an organiser of
every event in it, from among the events they organise."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ServiceError
from core.forms import field_of
from domain.season_ranking import MAX_MIN_SESSIONS, min_sessions_problem
from tournaments.access import season_organiser_view
from tournaments.models import Season
from tournaments.selectors import events_free_for_a_season
from tournaments.services import seasons as season_services
from tournaments.services.events import may_create_events, slug_problem
from tournaments.views.common import form_error


class SeasonRankingForm(forms.Form):
    """How a season ranks, on the new season's form and the season's own settings."""

    best_of = forms.IntegerField(
        label="Rank by the best N sessions",
        required=False,
        min_value=1,
        max_value=MAX_MIN_SESSIONS,
        help_text="Leave empty to rank by the average per game.",
    )
    min_sessions = forms.IntegerField(
        label="Minimum sessions to be ranked by average",
        initial=1,
        required=False,
        # Checked in clean_min_sessions with the service's own words; the attributes only help
        # a phone's keyboard and the browser's spinner.
        widget=forms.NumberInput(attrs={"min": 1, "max": MAX_MIN_SESSIONS}),
        help_text="Players with fewer sessions than this are listed after the ranked players, "
        "without a rank. 1 ranks everyone with a game; best N already asks for N sessions.",
        error_messages={"invalid": "Give the minimum as a whole number of sessions, such as 3."},
    )

    def clean_min_sessions(self):
        value = self.cleaned_data["min_sessions"]
        if value is None:
            return 1  # the field left empty asks for no minimum, as a season made elsewhere
        problem = min_sessions_problem(value)
        if problem:
            raise forms.ValidationError(problem)
        return value


class SeasonForm(SeasonRankingForm):
    name = forms.CharField(max_length=200)
    slug = forms.CharField(
        label="Short name", max_length=50, help_text="For its web address, such as spring-2027."
    )
    field_order = ["name", "slug", "best_of", "min_sessions", "avoid_earlier_pairings"]
    avoid_earlier_pairings = forms.BooleanField(
        label="Seat each new session away from the season's earlier pairings",
        required=False,
        initial=True,
    )

    def clean_slug(self):
        # The service checks it too; said here it shows beside the other fields' mistakes at once.
        slug = self.cleaned_data["slug"]
        problem = slug_problem(slug)
        if problem:
            raise forms.ValidationError(problem.replace("the event", "the season"))
        return slug


class AddEventForm(forms.Form):
    event = forms.ChoiceField(label="Event")
    position = forms.IntegerField(
        label="At place", required=False, min_value=1, help_text="Empty: after the last."
    )


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def season_new(request):
    if not may_create_events(request.user):
        raise PermissionDenied("You may not create seasons.")
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = season_services.create_season(**form.cleaned_data, created_by=request.user)
        except ServiceError as error:
            form_error(form, error)
        else:
            messages.success(request, f"{season.name} is created: add its events.")
            return redirect("organiser:season_events", season.slug)
    return render(request, "tournaments/season_new.html", {"form": form})


@season_organiser_view
@require_http_methods(["GET", "HEAD", "POST"])
def season_events(request, season: Season):
    addable = events_free_for_a_season(request.user)
    form = AddEventForm(request.POST or None)
    field_of(form, "event", forms.ChoiceField).choices = [(e.slug, e.name) for e in addable]
    if request.method == "POST" and form.is_valid():
        try:
            (place,) = season_services.add_events(
                season, [form.cleaned_data["event"]], position=form.cleaned_data["position"]
            )
        except ServiceError as error:
            form_error(form, error)
        else:
            messages.success(request, f"Added as event {place} of {season.name}.")
            return redirect("organiser:season_events", season.slug)
    places = season.season_events.select_related("tournament").order_by("position")
    return render(
        request,
        "tournaments/season_events.html",
        {"season": season, "places": places, "form": form, "addable": addable},
    )


@season_organiser_view
@require_http_methods(["GET", "HEAD", "POST"])
def season_ranking(request, season: Season):
    initial = {"best_of": season.best_of, "min_sessions": season.min_sessions}
    form = SeasonRankingForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            season_services.set_season_ranking(season, **form.cleaned_data)
        except ServiceError as error:
            form_error(form, error)
        else:
            messages.success(request, f"{season.name} is ranked by the new rule.")
            return redirect("organiser:season", season.slug)
    return render(request, "tournaments/season_ranking.html", {"season": season, "form": form})


@season_organiser_view
@require_POST
def season_event_remove(request, season: Season):
    try:
        season_services.remove_event(season, request.POST.get("event", ""))
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "The event is no longer in the season.")
    return redirect("organiser:season_events", season.slug)
