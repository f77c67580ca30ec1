"""Writes for an event as a whole: creating it, its settings, opening its public pages and
hiding their finish."""

import datetime
import re

from django.db import transaction
from django.utils.text import slugify

from core.errors import ServiceError
from domain.hidden_finish import (
    SETTING as HIDDEN_FINISH,
    HiddenFinish,
    finish_problem,
    stored_value,
)
from domain.rules import rule_problems
from domain.session_days import session_date
from tournaments.access import account_of, role_in
from tournaments.models import (
    Day,
    RulePreset,
    RuleSet,
    StaffRole,
    StandingsSettingChange,
    Tournament,
)
from tournaments.services.rules import RuleProblems, date_sessions, proposed_rules

PRACTICE_NEVER_PUBLIC = "A practice event is never public: its standings are for trying out."


def may_create_events(user) -> bool:
    """Superusers, and users given the "can create tournaments" permission."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and (user.is_superuser or user.has_perm("tournaments.create_tournament"))
    )


def slug_from_name(name: str, start_date: datetime.date | None = None) -> str:
    """The web address name for an event whose organiser left it empty. A weekly club night
    repeats its name: a taken address gets the event's date, then a number."""
    base = slugify(name)[:SLUG_MAX].strip("-")
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    if base not in taken:
        return base
    dated = f"{base[: SLUG_MAX - 11].strip('-')}-{start_date.isoformat()}" if start_date else base
    candidate, n = dated, 2
    while candidate in taken:
        suffix = f"-{n}"
        candidate, n = f"{dated[: SLUG_MAX - len(suffix)].strip('-')}{suffix}", n + 1
    return candidate


def _preset(key: str) -> RulePreset:
    preset = RulePreset.objects.filter(key=key).first()
    if preset is None:
        known = ", ".join(RulePreset.objects.values_list("key", flat=True))
        raise ServiceError(
            f'There is no rule preset called "{key}". Choose one of: {known}.', field="preset"
        )
    return preset


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


def check_slug(slug: str) -> None:
    """A usable short name (see :func:`slug_problem`) not taken by another event."""
    problem = slug_problem(slug)
    if problem:
        raise ServiceError(problem, field="slug")
    if Tournament.objects.filter(slug=slug).exists():
        # Said as a season's is: "taken" would tell anyone who can create events that a
        # private event of that name exists.
        raise ServiceError(
            f'The short name "{slug}" cannot be used for a new tournament; choose another.',
            field="slug",
        )


@transaction.atomic
def create_tournament(
    *,
    slug: str,
    name: str,
    preset_key: str,
    start_date: datetime.date | None = None,
    organiser=None,
    venue: str = "",
    rules: dict | None = None,
    public_pages: bool = False,
) -> Tournament:
    """A new event with the preset's rules, changed by ``rules`` (field -> value) under the
    same checks as the rules page; ``organiser`` becomes its organiser.

    Its public pages start off (the model's default is on, for events made other ways): a new
    event's list of names and clubs is the organiser's to open, once it is checked."""
    name = " ".join(name.split())
    if not name:
        raise ServiceError("Give the tournament a name.", field="name")
    check_slug(slug)
    preset = _preset(preset_key)
    values = proposed_rules(preset, rules or {})
    problems = rule_problems(values)
    if problems:
        raise RuleProblems(problems)
    tournament = Tournament.objects.create(
        slug=slug,
        name=name,
        start_date=start_date,
        preset=preset,
        venue=venue.strip(),
        public_pages=public_pages,
    )
    RuleSet.objects.create(tournament=tournament, **values)
    per_day = values.get("sessions_per_day", 1)
    for number in range(1, values["days"] + 1):
        Day.objects.create(
            tournament=tournament, number=number, date=session_date(start_date, number, per_day)
        )
    if organiser is not None:
        StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.ORGANISER)
    return tournament


@transaction.atomic
def update_settings(
    tournament: Tournament,
    *,
    name: str,
    start_date: datetime.date | None,
    venue: str,
    public_pages: bool,
) -> None:
    """The event's name, dates, venue and whether its public pages are open. Each day's date
    follows the start date (day 2 is the day after)."""
    name = " ".join(name.split())
    if not name:
        raise ServiceError("Give the tournament a name.", field="name")
    if public_pages and tournament.is_practice:
        raise ServiceError(PRACTICE_NEVER_PUBLIC, field="public_pages")
    Tournament.objects.filter(pk=tournament.pk).update(
        name=name, start_date=start_date, venue=venue.strip(), public_pages=public_pages
    )
    date_sessions(tournament, start_date)
    tournament.name, tournament.start_date = name, start_date
    tournament.venue, tournament.public_pages = venue.strip(), public_pages


def set_public_pages(tournament: Tournament, on: bool) -> None:
    """Open or close the public standings, projector and "find your table" pages."""
    if on and tournament.is_practice:
        raise ServiceError(PRACTICE_NEVER_PUBLIC)
    Tournament.objects.filter(pk=tournament.pk).update(public_pages=on)
    tournament.public_pages = on


@transaction.atomic
def set_hidden_finish(tournament: Tournament, day: int | None, game: int | None, *, by) -> bool:
    """Hide the public standings after game ``game`` of day ``day`` (no game: the whole day),
    or show them to the end again with ``day=None`` (the reveal). Organisers only; each change
    goes in the standings settings' history. True when something changed."""
    if role_in(by, tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can hide or reveal the standings.")
    locked = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("rules")
        .get(pk=tournament.pk)
    )
    finish = None
    if day is not None:
        rules = locked.rules
        problem = finish_problem(day, game, rules.days, rules.games_per_day)
        if problem:
            raise ServiceError(problem[1], field=problem[0])
        finish = HiddenFinish(day, game)
    before = locked.hidden_finish
    if before == finish:
        return False
    Tournament.objects.filter(pk=tournament.pk).update(
        hidden_after_day=finish.day if finish else None,
        hidden_after_game=finish.game if finish else None,
    )
    StandingsSettingChange.objects.create(
        tournament=tournament,
        setting=HIDDEN_FINISH,
        before=stored_value(before),
        after=stored_value(finish),
        changed_by=account_of(by),
        changed_by_label=by.get_username(),
    )
    tournament.hidden_after_day = finish.day if finish else None
    tournament.hidden_after_game = finish.game if finish else None
    return True
