"""Writes for an event as a whole: creating it, opening its public pages."""

import datetime
import re

from django.db import transaction

from core.errors import ServiceError
from tournaments.models import Day, RulePreset, RuleSet, StaffRole, Tournament

SLUG_MAX = Tournament._meta.get_field("slug").max_length or 50
# The slug is part of every address of the event, and the URL patterns match only these letters.
_SLUG = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")


def slug_problem(slug: str) -> str:
    """Why ``slug`` cannot name an event's pages, or "" when it can."""
    if not slug:
        return "Give the event a short name for its web addresses, such as spring-open-2027."
    if len(slug) > SLUG_MAX:
        return f"The short name is longer than {SLUG_MAX} characters."
    if not _SLUG.fullmatch(slug):
        return (
            f'"{slug}" cannot be part of a web address: use only letters, digits and hyphens '
            "between them, such as spring-open-2027."
        )
    return ""


@transaction.atomic
def create_tournament(
    *,
    slug: str,
    name: str,
    preset_key: str,
    start_date: datetime.date | None = None,
    organiser=None,
    venue: str = "",
) -> Tournament:
    problem = slug_problem(slug)
    if problem:
        raise ServiceError(problem, field="slug")
    preset = RulePreset.objects.filter(key=preset_key).first()
    if preset is None:
        known = ", ".join(RulePreset.objects.values_list("key", flat=True))
        raise ServiceError(
            f'There is no rule preset called "{preset_key}". Choose one of: {known}.'
        )
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(f'The slug "{slug}" is already taken by another tournament.')
    tournament = Tournament.objects.create(
        slug=slug, name=name, start_date=start_date, preset=preset, venue=venue
    )
    RuleSet.objects.create(tournament=tournament, **preset.rule_values())
    for number in range(1, preset.days + 1):
        date = start_date + datetime.timedelta(days=number - 1) if start_date else None
        Day.objects.create(tournament=tournament, number=number, date=date)
    if organiser is not None:
        StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.ORGANISER)
    return tournament


def set_public_pages(tournament: Tournament, on: bool) -> None:
    """Open or close the public standings, projector and "find your table" pages."""
    Tournament.objects.filter(pk=tournament.pk).update(public_pages=on)
    tournament.public_pages = on
