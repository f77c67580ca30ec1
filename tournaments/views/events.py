"""The event as a whole: the organiser's home, an event's overview and the tent card that
connects phones to it, a new event, its settings, its rules."""

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render

from core.errors import ServiceError
from core.venue import connected_words, link_address, wifi_qr_text
from tournaments import selectors
from tournaments.access import desk_view, organiser_view, tournaments_for
from tournaments.forms import (
    NewTournamentForm,
    RulesForm,
    SettingsForm,
    StandingsSettingsForm,
    WifiForm,
)
from tournaments.presenters import (
    can_manage,
    rule_change_notes,
    rule_rows,
    setting_history_rows,
    with_day_status,
)
from tournaments.services import events, rules as rules_service
from tournaments.views.common import form_error


@login_required
def home(request):
    return render(
        request,
        "tournaments/organiser_home.html",
        {
            "tournaments": tournaments_for(request.user),
            "may_create": events.may_create_events(request.user),
            "seasons": selectors.seasons_for(request.user),
        },
    )


@desk_view
def tournament_overview(request, tournament):
    overview = selectors.tournament_overview(tournament)
    with_day_status(overview["days"])
    return render(
        request,
        "tournaments/overview.html",
        {
            "tournament": tournament,
            "can_manage": can_manage(request),
            "practice_copy": selectors.practice_copy_of(tournament),
            **overview,
        },
    )


def _qr(text: str) -> str:
    return segno.make(text, error="m").svg_data_uri(scale=6, border=4)


@desk_view
def connect_phones(request, tournament):
    """A QR code that opens the site, and one that joins the venue's Wi-Fi, as a tent card.

    The Wi-Fi details come by POST so the password stays out of addresses and logs."""
    address = link_address(request)
    form = WifiForm(request.POST if request.method == "POST" else None)
    wifi = None
    if form.is_bound and form.is_valid():
        ssid, password = form.cleaned_data["ssid"], form.cleaned_data["password"]
        wifi = {"ssid": ssid, "password": password, "qr": _qr(wifi_qr_text(ssid, password))}
    return render(
        request,
        "tournaments/connect.html",
        {
            "tournament": tournament,
            "address": address,
            "site_qr": _qr(address.base_url),
            "form": form,
            "wifi": wifi,
            "connected": connected_words()[0],
        },
    )


@login_required
def tournament_new(request):
    if not events.may_create_events(request.user):
        raise PermissionDenied("Ask an administrator for the right to create tournaments.")
    form = NewTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = events.create_tournament(
                slug=data["slug"] or events.slug_from_name(data["name"], data["start_date"]),
                name=data["name"],
                preset_key=data["preset"],
                start_date=data["start_date"],
                venue=data["venue"],
                organiser=request.user,
            )
        except ServiceError as error:
            form_error(form, error)
        else:
            made = f"{tournament.name} is created"
            if not data["slug"]:
                made += f", its web address name {tournament.slug}"
            messages.success(
                request,
                f"{made}. Check its rules below. Its public pages stay off until you turn them "
                "on from its overview.",
            )
            return redirect("organiser:rules", tournament.slug)
    return render(request, "tournaments/tournament_new.html", {"form": form})


@organiser_view
def tournament_settings(request, tournament):
    form = SettingsForm(
        request.POST or None,
        initial={
            "name": tournament.name,
            "start_date": tournament.start_date,
            "venue": tournament.venue,
            "public_pages": tournament.public_pages,
        },
    )
    if request.method == "POST" and form.is_valid():
        try:
            events.update_settings(tournament, **form.cleaned_data)
        except ServiceError as error:
            form_error(form, error)
        else:
            messages.success(request, "Settings saved.")
            return redirect("organiser:settings", tournament.slug)
    return render(request, "tournaments/settings.html", {"tournament": tournament, "form": form})


# The value of the hidden "form" field of the standings settings' form on the rules page.
STANDINGS_FORM = "standings"


def _save_rules(request, tournament, form) -> bool:
    """Apply a bound form's rules, or put every refusal on the form. True when applied."""
    if not form.is_valid():
        return False
    try:
        change = rules_service.change_rules(tournament, form.cleaned_data, by=request.user)
    except rules_service.RuleProblems as refusal:
        for field, problems in refusal.problems.items():
            for problem in problems:
                form.add_error(field if field in form.fields else None, problem)
        return False
    except ServiceError as error:
        form_error(form, error)
        return False
    for level, text in rule_change_notes(change):
        getattr(messages, level)(request, text)
    return True


@organiser_view
def tournament_rules(request, tournament):
    """The rules, the form that changes them until play starts, and the standings settings'
    form and history, which stay open all event."""
    fixed = rules_service.play_started_reason(tournament)
    initial = RulesForm.initial_from(tournament.rules)
    posted = request.POST if request.method == "POST" else None
    settings_posted = posted is not None and posted.get("form") == STANDINGS_FORM
    settings_form = StandingsSettingsForm(posted if settings_posted else None, initial=initial)
    form = RulesForm(None if fixed or settings_posted else posted, initial=initial)
    bound = settings_form if settings_posted else form
    if bound.is_bound and _save_rules(request, tournament, bound):
        return redirect("organiser:rules", tournament.slug)
    return render(
        request,
        "tournaments/rules.html",
        {
            "tournament": tournament,
            "form": form,
            "fixed": fixed,
            "rows": rule_rows(tournament.rules, tournament.preset),
            "settings_form": settings_form,
            "standings_form": STANDINGS_FORM,
            "history": setting_history_rows(selectors.standings_setting_history(tournament)),
            "flight_notes": selectors.flight_notes(tournament),
        },
    )
