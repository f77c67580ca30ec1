"""Seating: planning the days ahead, seating a day, moving and swapping players, late joins and
substitutes, and the printed charts of a day."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from core.reports import PDF, Report, report_response
from domain.seating.plan_following import pairs_again
from tournaments import printouts, selectors
from tournaments.access import desk_view, organiser_view
from tournaments.forms import LateJoinForm, MoveForm, SeatDayForm, SubstituteForm, SwapForm
from tournaments.models import Entry
from tournaments.presenters import (
    SUBSTITUTE_COUNTS,
    can_manage,
    chart_tables,
    cleared_message,
    late_plan_notes,
    plan_summary,
    planned_chart_tables,
    printed_warning,
    seating_fixed_note,
    seating_summary,
    with_day_status,
)
from tournaments.selectors import tournament_days
from tournaments.services import late as late_service, planning, seating as seating_service
from tournaments.views.common import day_or_404

# The seating page shows a plan's tables while the days still planned seat at most this many
# players in all (about 450 bytes of page each, so under 1 MB); a larger plan's tables are shown
# day by day, on each day's own page (2,000 players planned over 30 days made 26 MB here).
INDEX_PLAN_SEATS = 2_000


@desk_view
def seating_index(request, tournament):
    days = with_day_status(selectors.seating_days(tournament))
    plan = selectors.seating_plan(tournament, seats_shown=INDEX_PLAN_SEATS)
    for day in days:
        day.plan_view = plan.day(day.number) if plan else None
    to_seat = len(selectors.players_to_seat(tournament))
    to_plan, refusal = planning.days_to_plan(days, tournament.rules, players=to_seat)
    return render(
        request,
        "tournaments/seating_index.html",
        {
            "tournament": tournament,
            "days": days,
            "to_seat": to_seat,
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
        messages.error(request, "Nothing was planned: the shuffle number must be a whole number.")
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
            "fixed_note": seating_fixed_note(day, tournament.rules, can_manage(request)),
            **(_late_forms(day) if can_manage(request) else {}),
        },
        status=status,
    )


@desk_view
def seating(request, tournament, day_number):
    return _seating_page(request, tournament, day_or_404(tournament, day_number))


@organiser_view
@require_POST
def seat_day(request, tournament, day_number):
    day = day_or_404(tournament, day_number)
    form = SeatDayForm(request.POST)
    if form.is_valid():
        if _asks_first(request, day):
            seed = form.cleaned_data["seed"]
            return _confirm_seating_change(
                request,
                tournament,
                day,
                _reseat_warnings(day),
                url_name="organiser:seat_day",
                fields={"seed": "" if seed is None else seed},
                summary=f"Reseat day {day.number}?",
                button=f"Yes, reseat day {day.number}",
            )
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
    day = day_or_404(tournament, day_number)
    if request.POST.get("confirmed") != "on" and not seating_service.is_fixed(day):
        return _confirm_seating_change(
            request,
            tournament,
            day,
            _clear_warnings(day),
            url_name="organiser:clear_seating",
            fields={},
            summary=f"Clear day {day.number}'s seating?",
            button=f"Yes, clear day {day.number}'s seating",
        )
    try:
        kept = seating_service.clear_seating(day, organiser=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, cleared_message(day.number, kept))
    return redirect("organiser:seating", tournament.slug, day.number)


def _asks_first(request, day) -> bool:
    # A fixed day is refused by the service with its own reason; asking first would hide it.
    return (
        bool(day.seated_at)
        and request.POST.get("confirmed") != "on"
        and not seating_service.is_fixed(day)
    )


def _reseat_warnings(day) -> list[str]:
    """What a reseat breaks: said before it happens, since it cannot be undone."""
    return [
        f"Everyone on day {day.number} gets a new table; the tables you see now are gone.",
        "Every table gets a new link and a new code. The old links, QR codes and codes stop "
        "working at once, so nobody can enter scores for a table that now seats other people.",
        printed_warning(day),
    ]


def _clear_warnings(day) -> list[str]:
    return [
        f"Every seat of day {day.number} is taken away. A day of the seating plan keeps its "
        "planned tables, to seat again.",
        "Every table link, QR code and code of the day stops working at once.",
        printed_warning(day),
    ]


def _late_forms(day, data=None) -> dict:
    rules = day.tournament.rules
    if not (rules.late_joins or rules.substitutes) or day.is_closed or not day.tables.exists():
        return {}
    choices = selectors.late_seating_choices(day)
    forms: dict = {"late_form": None, "substitute_form": None, "late_plan": None}
    if rules.late_joins and choices["waiting"]:
        try:
            plan = late_service.plan_late_join(day)
        except ServiceError as error:
            forms["late_refusal"] = str(error)
        else:
            initial = {"table": plan.table_number, "from_game": plan.from_game}
            forms["late_form"] = LateJoinForm(data, waiting=choices["waiting"], initial=initial)
            forms["late_plan"] = late_plan_notes(plan, rules, "The late player")
    if rules.substitutes and choices["waiting"] and choices["replaceable"]:
        forms["substitute_form"] = SubstituteForm(data, **choices)
        forms["substitute_counts"] = SUBSTITUTE_COUNTS[rules.substitute_ranking].format(
            name="The substitute", replaced="the player they replace"
        )
    forms["nobody_waiting"] = not choices["waiting"]
    return forms


def _late_refused(request, form, error=None) -> None:
    texts = [str(error)] if error else [e for errors in form.errors.values() for e in errors]
    for text in texts:
        messages.error(request, f"Nobody was seated: {text}")


@organiser_view
@require_POST
def late_join(request, tournament, day_number):
    day = day_or_404(tournament, day_number)
    form = _late_forms(day, request.POST).get("late_form")
    if form is None:
        messages.error(request, f"Nobody can join day {day.number} now.")
    elif not form.is_valid():
        _late_refused(request, form)
    else:
        entry = get_object_or_404(Entry, tournament=tournament, pk=form.cleaned_data["entry"])
        shown = form.cleaned_data["table"], form.cleaned_data["from_game"]
        try:
            placed = late_service.seat_late_player(
                day, entry, by=request.user, expected=shown if None not in shown else None
            )
        except ServiceError as error:
            _late_refused(request, form, error)
        else:
            messages.success(
                request,
                f"{placed.seat.entry.player.name} joins table {placed.table_number} from game "
                f"{placed.from_game}.",
            )
            for note in late_plan_notes(placed.plan, tournament.rules, entry.player.name)[1:]:
                messages.info(request, note)
    return redirect("organiser:seating", tournament.slug, day.number)


@organiser_view
@require_POST
def substitute(request, tournament, day_number):
    day = day_or_404(tournament, day_number)
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
    day = day_or_404(tournament, day_number)
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
    day = day_or_404(tournament, day_number)
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
    day = day_or_404(tournament, day_number)
    tables = chart_tables(selectors.day_tables(day))
    seating_service.record_printed(day, seating_service.CHARTS)
    figures = ""
    if day.repeat_pairs is not None and day.repeat_lower_bound is not None:
        figures = pairs_again(day.repeat_pairs, day.repeat_lower_bound).capitalize()
    report = Report(
        f"{tournament.slug}-day{day.number}-seating-chart",
        {
            PDF: lambda: printouts.seating_chart_pdf(
                title=tournament.name,
                day_number=day.number,
                tables=tables,
                per_day=tournament.rules.sessions_per_day,
                figures=figures,
            ),
        },
    )
    return report_response(report, PDF, disposition="attachment")


@desk_view
def planned_chart_pdf(request, tournament, day_number):
    """The plan of a day not seated yet, printed as the wall chart is, marked as a plan."""
    day = day_or_404(tournament, day_number)
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
                per_day=tournament.rules.sessions_per_day,
                figures=f"Planned: {pairs_again(planned.repeats, planned.lower_bound or 0)}",
            ),
        },
    )
    return report_response(report, PDF, disposition="attachment")


@desk_view
def find_table_pdf(request, tournament, day_number):
    day = day_or_404(tournament, day_number)
    rows = selectors.find_table_rows(day)
    seating_service.record_printed(day, seating_service.CHARTS)
    report = Report(
        f"{tournament.slug}-day{day.number}-find-your-table",
        {
            PDF: lambda: printouts.find_table_pdf(
                title=tournament.name,
                day_number=day.number,
                rows=rows,
                per_day=tournament.rules.sessions_per_day,
            ),
        },
    )
    return report_response(report, PDF, disposition="attachment")
