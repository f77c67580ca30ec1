from urllib.parse import urlencode

import segno
from django import forms as forms_module
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from core.reports import PDF, Report, report_response
from core.venue import link_address, wifi_qr_text
from tournaments import printouts, selectors
from tournaments.access import desk_view, organiser_view, tournaments_for
from tournaments.forms import (
    ExistingPlayerForm,
    ImportForm,
    KeepApartForm,
    LateJoinForm,
    MoveForm,
    NewTournamentForm,
    PlayerDetailsForm,
    PlayerSearchForm,
    RulesForm,
    SeatDayForm,
    SettingsForm,
    SubstituteForm,
    SwapForm,
    WifiForm,
    WithdrawForm,
)
from tournaments.models import Day, Entry
from tournaments.presenters import (
    can_manage,
    chart_tables,
    entries_named,
    entry_status,
    import_summary,
    joining_closed,
    plan_summary,
    planned_chart_tables,
    rule_change_notes,
    rule_rows,
    seating_summary,
    with_day_status,
    with_status,
    withdrawal_notes,
)
from tournaments.selectors import leaving_mid_day, tournament_days
from tournaments.services import (
    events,
    importing,
    late as late_service,
    planning,
    registration,
    rules as rules_service,
    seating as seating_service,
)


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
    return render(request, "tournaments/overview.html", {"tournament": tournament, **overview})


def _form_error(form, error: ServiceError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, str(error))


def _entry(tournament, number) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, number=number
    )


def _day(tournament, number) -> Day:
    day = get_object_or_404(Day, tournament=tournament, number=number)
    day.tournament = tournament  # already loaded with its rules by the access decorator
    return day


# ---------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------


@organiser_view
def players(request, tournament):
    search = PlayerSearchForm(request.GET)
    query = search.cleaned_data["q"].strip() if search.is_valid() else ""
    return render(
        request,
        "tournaments/players.html",
        {
            "tournament": tournament,
            "search": search,
            "query": query,
            "entries": with_status(selectors.entry_list(tournament, query=query)),
            "joining_closed": joining_closed(selectors.first_started_day(tournament)),
        },
    )


@organiser_view
def player_add(request, tournament):
    search = PlayerSearchForm(request.GET)
    query = search.cleaned_data["q"].strip() if search.is_valid() else ""
    form = PlayerDetailsForm(initial={"name": query})
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
                    return redirect("organiser:player_add", tournament.slug)
        else:
            form = PlayerDetailsForm(request.POST)
            if form.is_valid():
                try:
                    entry = registration.register_player(tournament, **form.cleaned_data)
                except ServiceError as error:
                    _form_error(form, error)
                else:
                    messages.success(
                        request, f"{entry.player.name} is entered as player #{entry.number}."
                    )
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
            "joining_closed": joining_closed(selectors.first_started_day(tournament)),
        },
    )


@organiser_view
def player_edit(request, tournament, number):
    entry = _entry(tournament, number)
    player = entry.player
    form = PlayerDetailsForm(
        initial={
            "name": player.name,
            "club": player.club,
            "contact": entry.contact,
            "pinned_table": entry.pinned_table,
        }
    )
    if request.method == "POST":
        form = PlayerDetailsForm(request.POST)
        if form.is_valid():
            try:
                registration.update_entry(entry, **form.cleaned_data, user=request.user)
            except ServiceError as error:
                _form_error(form, error)
            else:
                messages.success(request, f"Saved the details of player #{entry.number}.")
                return redirect("organiser:players", tournament.slug)
    detail = selectors.entry_detail(tournament, number)
    detail.shown_status = entry_status(detail)
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
    entry = _entry(tournament, number)
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
    entry, other_entry = _entry(tournament, number), _entry(tournament, other)
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
    entry = _entry(tournament, number)
    under_way = leaving_mid_day(entry)
    data = request.POST if request.method == "POST" else None
    form = WithdrawForm(data, leaving=under_way[0] if under_way else None)
    if request.method == "POST" and form.is_valid():
        try:
            outcome = registration.withdraw_entry(
                entry, after_game=form.cleaned_data.get("after_game")
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
        {"tournament": tournament, "entry": entry, "form": form, "under_way": under_way},
    )


@organiser_view
@require_POST
def player_reinstate(request, tournament, number):
    entry = _entry(tournament, number)
    try:
        registration.reinstate_entry(entry)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{entry.player.name} is entered again.")
    return redirect("organiser:player_edit", tournament.slug, number)


@organiser_view
def import_players(request, tournament):
    form = ImportForm()
    problems = []
    if request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                outcome = importing.import_players(
                    tournament, upload.read(), upload.name, user=request.user
                )
            except importing.ImportRefused as error:
                problems = error.problems
                form.add_error("file", str(error))
            except ServiceError as error:
                form.add_error("file", str(error))
            else:
                messages.success(request, import_summary(outcome))
                return redirect("organiser:players", tournament.slug)
    return render(
        request,
        "tournaments/import.html",
        {
            "tournament": tournament,
            "form": form,
            "problems": problems,
            "joining_closed": joining_closed(selectors.first_started_day(tournament)),
        },
    )


# ---------------------------------------------------------------------------
# Check-in (desk staff may help at the door)
# ---------------------------------------------------------------------------


@desk_view
def check_in(request, tournament):
    search = PlayerSearchForm(request.GET)
    query = search.cleaned_data["q"].strip() if search.is_valid() else ""
    data = selectors.check_in_list(tournament)
    shown = with_status(entries_named(data["entries"], query))
    return render(
        request,
        "tournaments/check_in.html",
        {
            "tournament": tournament,
            "search": search,
            "query": query,
            "shown": shown,
            **data,
        },
    )


@desk_view
@require_POST
def check_in_set(request, tournament, number):
    entry = _entry(tournament, number)
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


# ---------------------------------------------------------------------------
# Seating
# ---------------------------------------------------------------------------


@desk_view
def seating_index(request, tournament):
    days = with_day_status(selectors.seating_days(tournament))
    plan = selectors.seating_plan(tournament)
    for day in days:
        day.plan_view = plan.day(day.number) if plan else None
    to_plan, refusal = planning.days_to_plan(days, tournament.rules)
    return render(
        request,
        "tournaments/seating_index.html",
        {
            "tournament": tournament,
            "days": days,
            "to_seat": len(selectors.players_to_seat(tournament)),
            "plan": plan,
            "can_plan": can_manage(request),
            "to_plan": to_plan,
            "plan_refusal": refusal,
            "plan_form": SeatDayForm(),
        },
    )


@organiser_view
@require_POST
def plan_days(request, tournament):
    form = SeatDayForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Nothing was planned: the seed must be a whole number.")
        return redirect("organiser:seating_index", tournament.slug)
    try:
        outcome = planning.plan_remaining_days(
            tournament, seed=form.cleaned_data["seed"], organiser=request.user
        )
    except ServiceError as error:
        messages.error(request, f"Nothing was planned: {error}")
    else:
        messages.success(request, plan_summary(outcome))
    return redirect("organiser:seating_index", tournament.slug)


@organiser_view
@require_POST
def clear_plan(request, tournament):
    try:
        planning.clear_plan(tournament, organiser=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "The seating plan is cleared: no day is planned now.")
    return redirect("organiser:seating_index", tournament.slug)


def _seating_page(
    request,
    tournament,
    day,
    *,
    data=None,
    seat_form=None,
    move_form=None,
    swap_form=None,
    status=200,
):
    # ``data``: the day's seating when the caller already read it (a refused change saves nothing).
    if data is None:
        data = selectors.day_seating(day)
    can_change = can_manage(request) and not data["scores_started"] and not day.is_closed
    plan = None if day.seated_at else selectors.seating_plan(tournament)
    planned = plan.day(day.number) if plan else None
    return render(
        request,
        "tournaments/seating.html",
        {
            "tournament": tournament,
            **data,
            "can_change": can_change,
            "days": tournament_days(tournament),
            "fewest_possible": day.repeat_pairs == day.repeat_lower_bound,
            "seat_form": seat_form or SeatDayForm(),
            "move_form": move_form or MoveForm(tables=data["tables"]),
            "swap_form": swap_form or SwapForm(tables=data["tables"]),
            "to_seat": len(selectors.players_to_seat(tournament)) if can_change else None,
            "plan": plan if planned else None,
            "planned": planned,
            **(_late_forms(day) if can_manage(request) else {}),
        },
        status=status,
    )


@desk_view
def seating(request, tournament, day_number):
    return _seating_page(request, tournament, _day(tournament, day_number))


@organiser_view
@require_POST
def seat_day(request, tournament, day_number):
    day = _day(tournament, day_number)
    form = SeatDayForm(request.POST)
    if form.is_valid():
        try:
            outcome = seating_service.seat_day(
                day, seed=form.cleaned_data["seed"], organiser=request.user
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, seating_summary(day, outcome))
            return redirect("organiser:seating", tournament.slug, day.number)
    return _seating_page(request, tournament, day, seat_form=form, status=400)


@organiser_view
@require_POST
def clear_seating(request, tournament, day_number):
    day = _day(tournament, day_number)
    try:
        seating_service.clear_seating(day, organiser=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"Day {day.number}'s seating is cleared: it has no tables now.")
    return redirect("organiser:seating", tournament.slug, day.number)


def _late_forms(day, data=None) -> dict:
    rules = day.tournament.rules
    if not (rules.late_joins or rules.substitutes) or day.is_closed or not day.tables.exists():
        return {}
    choices = selectors.late_seating_choices(day)
    forms: dict[str, forms_module.Form | None] = {"late_form": None, "substitute_form": None}
    if rules.late_joins and choices["waiting"]:
        forms["late_form"] = LateJoinForm(data, waiting=choices["waiting"])
    if rules.substitutes and choices["waiting"] and choices["replaceable"]:
        forms["substitute_form"] = SubstituteForm(data, **choices)
    return forms


def _late_refused(request, form, error=None) -> None:
    texts = [str(error)] if error else [e for errors in form.errors.values() for e in errors]
    for text in texts:
        messages.error(request, f"Nobody was seated: {text}")


@organiser_view
@require_POST
def late_join(request, tournament, day_number):
    day = _day(tournament, day_number)
    form = _late_forms(day, request.POST).get("late_form")
    if form is None:
        messages.error(request, f"Nobody can join day {day.number} now.")
    elif not form.is_valid():
        _late_refused(request, form)
    else:
        entry = get_object_or_404(Entry, tournament=tournament, pk=form.cleaned_data["entry"])
        try:
            placed = late_service.seat_late_player(day, entry, by=request.user)
        except ServiceError as error:
            _late_refused(request, form, error)
        else:
            messages.success(
                request,
                f"{placed.seat.entry.player.name} joins table {placed.table_number} from game "
                f"{placed.from_game}.",
            )
    return redirect("organiser:seating", tournament.slug, day.number)


@organiser_view
@require_POST
def substitute(request, tournament, day_number):
    day = _day(tournament, day_number)
    form = _late_forms(day, request.POST).get("substitute_form")
    if form is None:
        messages.error(request, f"No substitute can be seated on day {day.number} now.")
    elif not form.is_valid():
        _late_refused(request, form)
    else:
        data = form.cleaned_data
        replaced = get_object_or_404(Entry, tournament=tournament, pk=data["replaced"])
        sub = get_object_or_404(Entry, tournament=tournament, pk=data["substitute"])
        try:
            placed = late_service.seat_substitute(
                day, replaced, sub, from_game=data["from_game"], by=request.user
            )
        except ServiceError as error:
            _late_refused(request, form, error)
        else:
            messages.success(
                request,
                f"{placed.seat.entry.player.name} takes {replaced.player.name}'s seat at table "
                f"{placed.table_number} from game {placed.from_game}.",
            )
    return redirect("organiser:seating", tournament.slug, day.number)


def _seated_entry(tournament, pk) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player"), tournament=tournament, pk=pk)


def _confirm_seating_change(
    request,
    tournament,
    day,
    warnings: list[str],
    *,
    url_name: str,
    fields: dict,
    summary: str,
    button: str,
):
    """The page that lists what a move or swap would break and asks to go ahead anyway: it
    posts ``fields`` back to ``url_name`` with the change confirmed."""
    return render(
        request,
        "tournaments/seating_confirm.html",
        {
            "tournament": tournament,
            "day": day,
            "warnings": warnings,
            "action": reverse(url_name, args=[tournament.slug, day.number]),
            "fields": fields,
            "summary": summary,
            "button": button,
        },
    )


@organiser_view
@require_POST
def move_player(request, tournament, day_number):
    day = _day(tournament, day_number)
    data = selectors.day_seating(day)
    form = MoveForm(request.POST, tables=data["tables"])
    if form.is_valid():
        entry = _seated_entry(tournament, form.cleaned_data["entry"])
        table_number = form.cleaned_data["table"]
        try:
            warnings = seating_service.check_move(day, entry, table_number)
            if warnings and not form.cleaned_data["confirmed"]:
                return _confirm_seating_change(
                    request,
                    tournament,
                    day,
                    warnings,
                    url_name="organiser:move_player",
                    fields={"entry": entry.pk, "table": table_number},
                    summary=f"Move {entry.player.name} to table {table_number}?",
                    button="Move anyway",
                )
            seating_service.move_player(day, entry, table_number)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"{entry.player.name} moved to table {table_number}.")
            return redirect("organiser:seating", tournament.slug, day.number)
    return _seating_page(request, tournament, day, data=data, move_form=form, status=400)


@organiser_view
@require_POST
def swap_players(request, tournament, day_number):
    day = _day(tournament, day_number)
    data = selectors.day_seating(day)
    form = SwapForm(request.POST, tables=data["tables"])
    if form.is_valid():
        first = _seated_entry(tournament, form.cleaned_data["first"])
        second = _seated_entry(tournament, form.cleaned_data["second"])
        try:
            warnings = seating_service.check_swap(day, first, second)
            if warnings and not form.cleaned_data["confirmed"]:
                return _confirm_seating_change(
                    request,
                    tournament,
                    day,
                    warnings,
                    url_name="organiser:swap_players",
                    fields={"first": first.pk, "second": second.pk},
                    summary=f"Swap {first.player.name} and {second.player.name}?",
                    button="Swap anyway",
                )
            seating_service.swap_players(day, first, second)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, f"{first.player.name} and {second.player.name} swapped tables."
            )
            return redirect("organiser:seating", tournament.slug, day.number)
    return _seating_page(request, tournament, day, data=data, swap_form=form, status=400)


@desk_view
def seating_chart_pdf(request, tournament, day_number):
    day = _day(tournament, day_number)
    tables = chart_tables(selectors.day_tables(day))
    report = Report(
        f"{tournament.slug}-day{day.number}-seating-chart",
        {
            PDF: lambda: printouts.seating_chart_pdf(
                title=tournament.name, day_number=day.number, tables=tables
            ),
        },
    )
    return report_response(report, PDF, disposition="attachment")


@desk_view
def planned_chart_pdf(request, tournament, day_number):
    """The plan of a day not seated yet, printed as the wall chart is, marked as a plan."""
    day = _day(tournament, day_number)
    plan = selectors.seating_plan(tournament)
    planned = plan.day(day.number) if plan and not day.seated_at else None
    if planned is None:
        raise Http404(f"Day {day.number} has no plan.")
    tables = planned_chart_tables(planned)
    report = Report(
        f"{tournament.slug}-day{day.number}-planned-seating",
        {
            PDF: lambda: printouts.seating_chart_pdf(
                title=f"{tournament.name} (PLANNED, not seated)",
                day_number=day.number,
                tables=tables,
            ),
        },
    )
    return report_response(report, PDF, disposition="attachment")


@desk_view
def find_table_pdf(request, tournament, day_number):
    day = _day(tournament, day_number)
    rows = selectors.find_table_rows(day)
    report = Report(
        f"{tournament.slug}-day{day.number}-find-your-table",
        {
            PDF: lambda: printouts.find_table_pdf(
                title=tournament.name, day_number=day.number, rows=rows
            ),
        },
    )
    return report_response(report, PDF, disposition="attachment")


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
        },
    )


# ---------------------------------------------------------------------------
# The event: a new one, its settings, its rules
# ---------------------------------------------------------------------------


@login_required
def tournament_new(request):
    if not events.may_create_events(request.user):
        raise PermissionDenied("Ask an administrator for the right to create tournaments.")
    form = NewTournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = events.create_tournament(
                slug=data["slug"] or events.slug_from_name(data["name"]),
                name=data["name"],
                preset_key=data["preset"],
                start_date=data["start_date"],
                venue=data["venue"],
                organiser=request.user,
            )
        except ServiceError as error:
            _form_error(form, error)
        else:
            messages.success(request, f"{tournament.name} is created. Check its rules below.")
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
            _form_error(form, error)
        else:
            messages.success(request, "Settings saved.")
            return redirect("organiser:settings", tournament.slug)
    return render(request, "tournaments/settings.html", {"tournament": tournament, "form": form})


@organiser_view
def tournament_rules(request, tournament):
    fixed = rules_service.play_started_reason(tournament)
    form = RulesForm(
        None if fixed else request.POST or None, initial=RulesForm.initial_from(tournament.rules)
    )
    if request.method == "POST" and not fixed and form.is_valid():
        try:
            change = rules_service.change_rules(tournament, form.cleaned_data, by=request.user)
        except rules_service.RuleProblems as refusal:
            for field, problems in refusal.problems.items():
                for problem in problems:
                    form.add_error(field if field in form.fields else None, problem)
        except ServiceError as error:
            _form_error(form, error)
        else:
            for level, text in rule_change_notes(change):
                getattr(messages, level)(request, text)
            return redirect("organiser:rules", tournament.slug)
    return render(
        request,
        "tournaments/rules.html",
        {
            "tournament": tournament,
            "form": form,
            "fixed": fixed,
            "rows": rule_rows(tournament.rules, tournament.preset),
        },
    )
