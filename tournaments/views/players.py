"""The players of an event: the list, entering one (from the directory or new), their details and
keep-apart pairs, withdrawing and reinstating, importing a list from a file."""

from django.contrib import messages
from django.core import signing
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from domain.flights import age_range, ages_reached_on
from tournaments import selectors
from tournaments.access import organiser_view
from tournaments.forms import (
    BY_SURNAME,
    EVERYONE_NEW,
    EVERYONE_SAME,
    ExistingPlayerForm,
    FlightsByAgeForm,
    ImportForm,
    KeepApartForm,
    PlayerDetailsForm,
    PlayerSearchForm,
    SamePersonForm,
    WithdrawForm,
)
from tournaments.models import Entry
from tournaments.presenters import (
    import_summary,
    joining_closed,
    same_person_questions,
    with_status,
    withdrawal_notes,
)
from tournaments.selectors import leaving_mid_day
from tournaments.services import flight_ages, importing, registration
from tournaments.views.common import entry_or_404, form_error


@organiser_view
def players(request, tournament):
    search = PlayerSearchForm(request.GET)
    valid = search.is_valid()
    query = search.cleaned_data["q"].strip() if valid else ""
    by_surname = valid and search.cleaned_data["order"] == BY_SURNAME
    return render(
        request,
        "tournaments/players.html",
        {
            "tournament": tournament,
            "search": search,
            "query": query,
            "by_surname": by_surname,
            "by_surname_value": BY_SURNAME,
            "entries": with_status(
                selectors.entry_list(tournament, query=query, by_surname=by_surname)
            ),
            "joining_closed": joining_closed(
                selectors.first_started_day(tournament), tournament.rules
            ),
            "flights_by_age": _flights_by_age_form(tournament),
            "flight_notes": selectors.flight_notes(tournament),
        },
    )


def _flights_by_age_form(tournament) -> FlightsByAgeForm | None:
    """The form to set flights from birth years, in an event with flights by age."""
    if not any(age_range(name) for name in tournament.rules.flights):
        return None
    return FlightsByAgeForm(
        initial={"on": ages_reached_on(tournament.start_date, timezone.localdate())}
    )


@organiser_view
@require_POST
def set_flights_by_age(request, tournament):
    form = FlightsByAgeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give the date to count the ages on, such as 2026-12-31.")
        return redirect("organiser:players", tournament.slug)
    try:
        outcome = flight_ages.set_flights_by_age(tournament, on=form.cleaned_data["on"])
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("organiser:players", tournament.slug)
    summary, *_ = outcome.lines()
    messages.success(request, summary)
    for entry, why in outcome.left[:LEFT_SHOWN]:
        messages.warning(request, f"#{entry.number} {entry.player.name} keeps their flight: {why}.")
    if len(outcome.left) > LEFT_SHOWN:
        messages.warning(request, f"And {len(outcome.left) - LEFT_SHOWN} more kept theirs.")
    return redirect("organiser:players", tournament.slug)


# The players left as they were are each named, up to a screenful.
LEFT_SHOWN = 20


@organiser_view
def player_add(request, tournament):
    search = PlayerSearchForm(request.GET)
    query = search.cleaned_data["q"].strip() if search.is_valid() else ""
    flights = tournament.rules.flights
    form = PlayerDetailsForm(initial={"name": query}, flights=flights)
    if request.method == "POST":
        if "player" in request.POST:
            chosen = ExistingPlayerForm(request.POST)
            if chosen.is_valid():
                # Only players of events this organiser runs: any other id is "not found".
                player = get_object_or_404(
                    selectors.directory_for(request.user), pk=chosen.cleaned_data["player"]
                )
                try:
                    entry = registration.register_player(
                        tournament, player=player, user=request.user
                    )
                except ServiceError as error:
                    messages.error(request, str(error))
                else:
                    messages.success(
                        request, f"{player.name} is entered as player #{entry.number}."
                    )
                    _seat_late_hint(request, tournament, entry)
                    return redirect("organiser:player_add", tournament.slug)
        else:
            form = PlayerDetailsForm(request.POST, flights=flights)
            if form.is_valid():
                try:
                    entry = registration.register_player(tournament, **form.cleaned_data)
                except ServiceError as error:
                    form_error(form, error)
                else:
                    messages.success(
                        request, f"{entry.player.name} is entered as player #{entry.number}."
                    )
                    _seat_late_hint(request, tournament, entry)
                    return redirect("organiser:player_add", tournament.slug)
    return render(
        request,
        "tournaments/player_add.html",
        {
            "tournament": tournament,
            "search": search,
            "query": query,
            "form": form,
            "matches": selectors.directory_matches(tournament, query, request.user),
            "joining_closed": joining_closed(
                selectors.first_started_day(tournament), tournament.rules
            ),
        },
    )


def _seat_late_hint(request, tournament, entry) -> None:
    """Once play has started a new entry plays only once seated late: say where to do it."""
    started = selectors.first_started_day(tournament)
    if started is not None:
        messages.info(
            request,
            f"Play has started: seat {entry.player.name} late or as a substitute on the "
            "Seating page of their day.",
        )


@organiser_view
def player_edit(request, tournament, number):
    entry = entry_or_404(tournament, number)
    player = entry.player
    form = PlayerDetailsForm(
        initial={
            "name": player.name,
            "club": entry.club,
            "member_number": player.member_number,
            "contact": entry.contact,
            "pinned_table": entry.pinned_table,
            "flight": entry.flight,
            "birth": player.birth.words(),
        },
        flights=tournament.rules.flights,
    )
    if request.method == "POST":
        form = PlayerDetailsForm(request.POST, flights=tournament.rules.flights)
        if form.is_valid():
            try:
                registration.update_entry(entry, **form.cleaned_data, user=request.user)
            except ServiceError as error:
                form_error(form, error)
            else:
                messages.success(request, f"Saved the details of player #{entry.number}.")
                return redirect("organiser:players", tournament.slug)
    detail = selectors.entry_detail(tournament, number)
    if detail is None:  # found above, so only if it went in between
        raise Http404(f"No player #{number} in {tournament.name}.")
    with_status([detail])
    return render(
        request,
        "tournaments/player_edit.html",
        {
            "tournament": tournament,
            "entry": detail,
            "form": form,
            "keep_apart_form": KeepApartForm(entry=entry),
            "days_played": selectors.entry_days(entry),
            "undo_refusal": registration.reinstate_refusal(entry)
            if entry.status == Entry.WITHDRAWN
            else "",
        },
    )


@organiser_view
@require_POST
def keep_apart_add(request, tournament, number):
    entry = entry_or_404(tournament, number)
    form = KeepApartForm(request.POST, entry=entry)
    if form.is_valid():
        other = form.cleaned_data["other"]
        try:
            registration.add_keep_apart(entry, other)
        except ServiceError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request, f"{entry.player.name} and {other.player.name} will never share a table."
            )
    else:
        messages.error(request, "Choose the player to keep apart from.")
    return redirect("organiser:player_edit", tournament.slug, number)


@organiser_view
@require_POST
def keep_apart_remove(request, tournament, number, other):
    entry, other_entry = entry_or_404(tournament, number), entry_or_404(tournament, other)
    try:
        registration.remove_keep_apart(entry, other_entry)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, f"{entry.player.name} and {other_entry.player.name} may now share a table."
        )
    return redirect("organiser:player_edit", tournament.slug, number)


@organiser_view
def player_withdraw(request, tournament, number):
    entry = entry_or_404(tournament, number)
    under_way = leaving_mid_day(entry)
    data = request.POST if request.method == "POST" else None
    # A player leaves during the latest day under way, unless the organiser picks another.
    leaving = under_way[-1] if under_way else None
    form = WithdrawForm(data, leaving=leaving, under_way=under_way)
    if request.method == "POST" and form.is_valid():
        day_number = form.cleaned_data.get("day") or (leaving["day"] if leaving else None)
        try:
            outcome = registration.withdraw_entry(
                entry, after_game=form.cleaned_data.get("after_game"), day_number=day_number
            )
        except ServiceError as error:
            form.add_error(error.field if error.field in form.fields else None, str(error))
        else:
            name = entry.player.name
            messages.success(request, f"{name} is withdrawn.")
            for level, note in withdrawal_notes(name, outcome):
                getattr(messages, level)(request, note)
            return redirect("organiser:players", tournament.slug)
    return render(
        request,
        "tournaments/player_withdraw.html",
        {"tournament": tournament, "entry": entry, "form": form, "leaving": leaving},
    )


@organiser_view
@require_POST
def player_reinstate(request, tournament, number):
    entry = entry_or_404(tournament, number)
    try:
        registration.reinstate_entry(entry)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{entry.player.name} is entered again.")
    return redirect("organiser:player_edit", tournament.slug, number)


# The file waits for the organiser's answers in the review page itself, signed so that it
# comes back as it was read and only to this event: nothing is stored until they answer.
PENDING_IMPORT_SALT = "tournaments.import-review"
PENDING_IMPORT_HOURS = 12


def _pending_token(tournament, cells) -> str:
    return signing.dumps(
        {"event": tournament.pk, "cells": cells}, salt=PENDING_IMPORT_SALT, compress=True
    )


def _pending_cells(tournament, token: str) -> list[list[str]] | None:
    try:
        pending = signing.loads(
            token, salt=PENDING_IMPORT_SALT, max_age=PENDING_IMPORT_HOURS * 3600
        )
    except signing.BadSignature:
        return None
    if not isinstance(pending, dict) or pending.get("event") != tournament.pk:
        return None
    return pending.get("cells")


def _import_page(request, tournament, form, problems=(), refusal=""):
    return render(
        request,
        "tournaments/import.html",
        {
            "tournament": tournament,
            "form": form,
            "problems": problems,
            "refusal": refusal,
            "joining_closed": joining_closed(selectors.first_started_day(tournament)),
        },
    )


def _review_page(request, tournament, questions, form):
    return render(
        request,
        "tournaments/import_review.html",
        {
            "tournament": tournament,
            "questions": [
                (question, form[f"row_{question.row}"])
                for question in same_person_questions(questions)
            ],
            "count": len(questions),
            "form": form,
            "everyone_same": EVERYONE_SAME,
            "everyone_new": EVERYONE_NEW,
        },
    )


def _imported(request, tournament, outcome):
    messages.success(request, import_summary(outcome))
    return redirect("organiser:players", tournament.slug)


@organiser_view
def import_players(request, tournament):
    form = ImportForm()
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                cells = importing.read_player_file(upload.read(), upload.name)
                outcome = importing.import_cells(tournament, cells, user=request.user)
            except importing.ImportNeedsAnswers as waiting:
                rows = [question.row.row for question in waiting.questions]
                review = SamePersonForm(
                    initial={"pending": _pending_token(tournament, cells)}, rows=rows
                )
                return _review_page(request, tournament, waiting.questions, review)
            except importing.ImportRefused as error:
                form.add_error("file", str(error))
                return _import_page(request, tournament, form, error.problems)
            except ServiceError as error:
                form.add_error("file", str(error))
            else:
                return _imported(request, tournament, outcome)
    return _import_page(request, tournament, form)


@organiser_view
@require_POST
def import_review(request, tournament):
    """The answers to an import's "same person?" questions: the import, or the questions again
    with what is missing."""
    cells = _pending_cells(tournament, request.POST.get("pending", ""))
    if cells is None:
        refusal = (
            "The list waiting for your answers could not be read back (it was uploaded more "
            f"than {PENDING_IMPORT_HOURS} hours ago, or for another event). Nothing was "
            "imported: upload the file again."
        )
        return _import_page(request, tournament, ImportForm(), refusal=refusal)
    try:
        questions = importing.questions_for(tournament, cells, user=request.user)
        review = SamePersonForm(request.POST, rows=[q.row.row for q in questions])
        if not review.is_valid():
            return _review_page(request, tournament, questions, review)
        outcome = importing.import_cells(
            tournament, cells, user=request.user, answers=review.answers
        )
    except importing.ImportRefused as error:
        return _import_page(request, tournament, ImportForm(), error.problems, str(error))
    except ServiceError as error:
        return _import_page(request, tournament, ImportForm(), refusal=str(error))
    return _imported(request, tournament, outcome)
