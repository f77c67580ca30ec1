"""The prize table for organisers and the desk: the desk sees who wins and prints the sheets;
the organiser sets the prizes and decides the ties. Writes are tournaments.services.prizes."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from core.errors import ServiceError
from core.reports import PDF, Report, report_response
from domain.finals import has_final
from domain.prizes import FINAL_TABLE, KINDS
from standings.prizes import decide_prize_tie, prize_table
from standings.prizes_pdf import announcement_pdf, certificates_pdf
from tournaments.access import desk_view, organiser_view
from tournaments.presenters import can_manage
from tournaments.services import prizes as prize_services


@desk_view
@require_safe
def prizes(request, tournament):
    return render(
        request,
        "standings/prizes.html",
        {
            "tournament": tournament,
            "table": prize_table(tournament),
            "kinds": [
                (key, label)
                for key, label in KINDS
                if key != FINAL_TABLE or has_final(tournament.rules.rule_values())
            ],
            "can_manage": can_manage(request),
        },
    )


def _print(request, tournament, name: str, render_pdf) -> HttpResponse:
    table = prize_table(tournament)
    if not table.ready:
        text = "The prize sheets cannot be printed yet:\n" + "\n".join(table.problems)
        return HttpResponse(text, status=409, content_type="text/plain; charset=utf-8")
    if name == "announcement":
        prize_services.mark_printed(tournament)
    report = Report(f"{tournament.slug}-prizes-{name}", {PDF: lambda: render_pdf(table)})
    return report_response(report, PDF)


@desk_view
@require_safe
def announcement(request, tournament):
    return _print(request, tournament, "announcement", announcement_pdf)


@desk_view
@require_safe
def certificates(request, tournament):
    return _print(request, tournament, "certificates", certificates_pdf)


def _number(raw: str | None) -> int | None:
    raw = (raw or "").strip()
    return int(raw) if raw.isdigit() else None


def _done(request, tournament, action) -> HttpResponse:
    try:
        said = action()
    except ServiceError as refusal:
        messages.error(request, f"Nothing changed. {refusal}")
    else:
        messages.success(request, said)
    return redirect("organiser:prizes", tournament.slug)


@organiser_view
@require_POST
def prize_add(request, tournament):
    post = request.POST

    def add():
        prize = prize_services.add_prize(
            tournament,
            post.get("kind", ""),
            _number(post.get("place")),
            post.get("name", ""),
            by=request.user,
            flight=post.get("flight", ""),
        )
        return f"Prize added: {prize.spec.title}."

    return _done(request, tournament, add)


@organiser_view
@require_POST
def prize_remove(request, tournament, prize):
    def remove():
        removed = prize_services.remove_prize(tournament, prize, by=request.user)
        return f"Prize removed: {removed.spec.title}."

    return _done(request, tournament, remove)


@organiser_view
@require_POST
def prize_decide(request, tournament, prize):
    number = _number(request.POST.get("winner"))

    def decide():
        return decide_prize_tie(tournament, prize, number, by=request.user)

    return _done(request, tournament, decide)


@organiser_view
@require_POST
def prize_one_each(request, tournament):
    one_each = request.POST.get("one_each") == "1"

    def save():
        prize_services.set_one_each(tournament, one_each, by=request.user)
        return "One prize each." if one_each else "A player may win more than one prize."

    return _done(request, tournament, save)
