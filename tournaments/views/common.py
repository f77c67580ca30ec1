"""What the organiser pages share: an entry or a day looked up by its number in the event (a 404
otherwise), and a service's refusal shown on the form field it names."""

from django.shortcuts import get_object_or_404

from core.errors import ServiceError
from tournaments.models import Day, Entry


def form_error(form, error: ServiceError) -> None:
    field = error.field if error.field in form.fields else None
    form.add_error(field, str(error))


def entry_or_404(tournament, number) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player"), tournament=tournament, number=number
    )


def day_or_404(tournament, number) -> Day:
    day = get_object_or_404(Day, tournament=tournament, number=number)
    day.tournament = tournament  # already loaded with its rules by the access decorator
    return day
