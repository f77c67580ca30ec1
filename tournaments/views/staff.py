"""The event's Staff page: the logins that run it, a new desk or organiser login, a password
reset and a removal. The event's organisers use it; desk logins may not (organiser_view)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from tournaments import selectors
from tournaments.access import organiser_view
from tournaments.forms import StaffLoginForm, StaffPasswordForm
from tournaments.services import staff as staff_service
from tournaments.views.common import form_error


def _page(request, tournament, form=None, reset=None, status=200):
    """The page; ``reset`` is (user id, bound form) for a refused password reset."""
    rows = [
        (
            row,
            reset[1]
            if reset is not None and reset[0] == row.user_id
            else StaffPasswordForm(prefix=f"u{row.user_id}"),
        )
        for row in selectors.event_staff(tournament)
    ]
    context = {"tournament": tournament, "staff": rows, "form": form or StaffLoginForm()}
    return render(request, "tournaments/staff.html", context, status=status)


@organiser_view
def staff(request, tournament):
    form = StaffLoginForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            added = staff_service.add_staff(tournament, **form.cleaned_data)
        except ServiceError as error:
            form_error(form, error)
        else:
            role = staff_service.ROLE_NAMES[added.role].lower()
            messages.success(request, f"{added.user.username} can now log in as {role}.")
            return redirect("organiser:staff", tournament.slug)
    return _page(request, tournament, form)


@organiser_view
@require_POST
def staff_password(request, tournament, number):
    form = StaffPasswordForm(request.POST, prefix=f"u{number}")
    if form.is_valid():
        try:
            changed = staff_service.reset_password(
                tournament, number, **form.cleaned_data, by=request.user
            )
        except ServiceError as error:
            form_error(form, error)
        else:
            messages.success(request, f"{changed.user.username}'s password is changed.")
            return redirect("organiser:staff", tournament.slug)
    return _page(request, tournament, reset=(number, form))


@organiser_view
@require_POST
def staff_remove(request, tournament, number):
    try:
        username = staff_service.remove_staff(tournament, number, by=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{username} can no longer log in.")
    return redirect("organiser:staff", tournament.slug)
