"""Fees at check-in and the treasurer's page: the desk takes payments; the organiser sets the fees
and the prize pot. The rules are domain.fees; the writes are services.fees."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from urllib.parse import urlencode

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from core.errors import ServiceError
from core.formats import money
from core.reports import PDF, XLSX, report_response
from domain import fees
from tournaments.access import desk_view, organiser_view
from tournaments.presenters import can_manage
from tournaments.selectors.fees import fee_report
from tournaments.services import fees as fee_services
from tournaments.treasurer import treasurer_report
from tournaments.views.common import entry_or_404


def _back_to_check_in(request, tournament, entry):
    url = reverse("organiser:check_in", args=[tournament.slug])
    query = request.POST.get("q", "").strip()
    if query:
        url += "?" + urlencode({"q": query})
    return redirect(f"{url}#entry-{entry.number}")


@desk_view
@require_POST
def take_payment(request, tournament, number):
    """One tap: the fee paid by the method pressed (or waived), and the player checked in."""
    entry = entry_or_404(tournament, number)
    method = request.POST.get("method", "")
    try:
        payment = fee_services.take_payment(entry, method, by=request.user)
    except ServiceError as error:
        messages.error(request, f"Nothing was taken for {entry.player.name}. {error}")
        return _back_to_check_in(request, tournament, entry)
    entry.refresh_from_db()
    how = "waived" if method == fees.WAIVED else f"paid {money(payment.amount)} by {method}"
    here = " and is checked in" if entry.status == entry.CHECKED_IN else ""
    messages.success(request, f"{entry.player.name} {how}{here}.")
    return _back_to_check_in(request, tournament, entry)


@desk_view
@require_POST
def undo_payment(request, tournament, number):
    entry = entry_or_404(tournament, number)
    try:
        undone = fee_services.undo_last_payment(entry, by=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        what = (
            "waiver" if undone.method == fees.WAIVED else f"{money(undone.amount)} {undone.method}"
        )
        messages.success(request, f"Undone: {entry.player.name}'s {what}.")
    return _back_to_check_in(request, tournament, entry)


@desk_view
@require_safe
def treasurer(request, tournament):
    return render(
        request,
        "tournaments/treasurer.html",
        {
            "tournament": tournament,
            "report": fee_report(tournament),
            "can_manage": can_manage(request),
            "split_text": " ".join(str(p) for p in tournament.pot_split or []),
        },
    )


@desk_view
@require_safe
def treasurer_xlsx(request, tournament):
    return report_response(treasurer_report(fee_report(tournament)), XLSX)


@desk_view
@require_safe
def treasurer_pdf(request, tournament):
    return report_response(treasurer_report(fee_report(tournament)), PDF)


def _decimal(raw: str, field: str) -> Decimal:
    try:
        return Decimal((raw or "0").strip().lstrip("$").replace(",", ""))
    except InvalidOperation:
        raise ServiceError("Give an amount like 12.50.", field=field) from None


def _percent(raw: str) -> int:
    try:
        return int((raw or "0").strip().rstrip("%"))
    except ValueError:
        raise ServiceError("Give a whole percentage, like 80.", field="pot_percent") from None


FIELD_LABELS = {
    "entry_fee": "Entry fee",
    "day_fee": "Fee per day",
    "pot_percent": "Share of the fees for prizes",
    "pot_split": "Split of the prize pot",
}


@organiser_view
@require_POST
def set_fees(request, tournament):
    post = request.POST
    try:
        try:
            split = fees.parse_split(post.get("pot_split", ""))
        except ValueError as error:
            raise ServiceError(str(error), field="pot_split") from None
        fee_services.set_fees(
            tournament,
            entry_fee=_decimal(post.get("entry_fee", ""), "entry_fee"),
            day_fee=_decimal(post.get("day_fee", ""), "day_fee"),
            pot_percent=_percent(post.get("pot_percent", "")),
            pot_split=split,
            by=request.user,
        )
    except ServiceError as error:
        label = FIELD_LABELS.get(error.field or "", "")
        messages.error(request, f"Nothing changed. {label}: {error}" if label else str(error))
    else:
        messages.success(request, "Fees saved.")
    return redirect("organiser:treasurer", tournament.slug)
