"""Writes for events, players and seating. Each action is one function in one transaction."""
import datetime

from django.db import transaction

from .models import Day, RulePreset, RuleSet, StaffRole, Tournament


class ServiceError(Exception):
    """A refusal with a message for the person who asked."""


@transaction.atomic
def create_tournament(
    *, slug: str, name: str, preset_key: str, start_date: datetime.date | None = None,
    organiser=None, venue: str = "",
) -> Tournament:
    preset = RulePreset.objects.filter(key=preset_key).first()
    if preset is None:
        known = ", ".join(RulePreset.objects.values_list("key", flat=True))
        raise ServiceError(f'There is no rule preset called "{preset_key}". Choose one of: {known}.')
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
