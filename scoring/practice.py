"""A practice copy of an event, for the evening before: the same players, staff, rules, days and
seating, with table links of its own, so volunteers try the phones on tables that are not the
real ones. It is never public, counts in no season and adds nobody to the player directory (its
entries are the same people). "Reset practice" clears every score, call and payment it holds
and reopens its days; the real event's rows are never read for writing, let alone changed.
"""

from __future__ import annotations

from django.db import transaction

from core.errors import ServiceError
from scoring.models import (
    AuditEvent,
    DeskCall,
    Game,
    GameSheet,
    TableSubmission,
    UnplayedChange,
    UnplayedGame,
)
from tournaments.access import role_in
from tournaments.models import (
    Day,
    Entry,
    KeepApart,
    Payment,
    RuleSet,
    Seat,
    StaffRole,
    Table,
    Tournament,
)
from tournaments.services.events import SLUG_MAX

SUFFIX = "-practice"
PREFIX = "Practice: "


def practice_slug(slug: str) -> str:
    return slug[: SLUG_MAX - len(SUFFIX)].rstrip("-") + SUFFIX


@transaction.atomic
def practice_event(tournament: Tournament, *, by) -> tuple[Tournament, bool]:
    """The event's practice copy, made now or reset when it exists (a practice event named
    itself is reset): (the practice event, True when it was made)."""
    if role_in(by, tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can make or reset a practice event.")
    if tournament.is_practice:
        return reset_practice(tournament), False
    existing = Tournament.objects.filter(practice_of=tournament).first()
    if existing is not None:
        return reset_practice(existing), False
    slug = practice_slug(tournament.slug)
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(
            f'The short name "{slug}" is taken by another event: rename one of them first.'
        )
    return _copy(tournament, slug), True


def _copy(real: Tournament, slug: str) -> Tournament:
    copy = Tournament.objects.create(
        slug=slug,
        name=(PREFIX + real.name)[: Tournament._meta.get_field("name").max_length],
        start_date=real.start_date,
        venue=real.venue,
        preset=real.preset,
        public_pages=False,
        entry_fee=real.entry_fee,
        day_fee=real.day_fee,
        pot_percent=real.pot_percent,
        pot_split=real.pot_split,
        practice_of=real,
    )
    RuleSet.objects.create(tournament=copy, **real.rules.rule_values())
    StaffRole.objects.bulk_create(
        StaffRole(tournament=copy, user_id=user_id, role=role)
        for user_id, role in StaffRole.objects.filter(tournament=real).values_list(
            "user_id", "role"
        )
    )
    entries = {
        old.pk: Entry.objects.create(
            tournament=copy,
            player=old.player,
            number=old.number,
            status=old.status,
            club=old.club,
            pinned_table=old.pinned_table,
            contact=old.contact,
        )
        # the player comes with the entry: a blank club would otherwise read it once per entry
        for old in Entry.objects.filter(tournament=real).select_related("player").order_by("number")
    }
    KeepApart.objects.bulk_create(
        KeepApart(tournament=copy, first=entries[a], second=entries[b])
        for a, b in KeepApart.objects.filter(tournament=real).values_list("first_id", "second_id")
    )
    for day in Day.objects.filter(tournament=real).order_by("number"):
        _copy_day(day, copy, entries)
    return Tournament.objects.select_related("rules").get(pk=copy.pk)


def _copy_day(day: Day, copy: Tournament, entries: dict[int, Entry]) -> None:
    new_day = Day.objects.create(
        tournament=copy,
        number=day.number,
        date=day.date,
        seed=day.seed,
        seated_at=day.seated_at,
        repeat_pairs=day.repeat_pairs,
        repeat_lower_bound=day.repeat_lower_bound,
    )
    Game.objects.bulk_create(
        Game(day=new_day, number=number, scheduled_engine=engine)
        for number, engine in Game.objects.filter(day=day).values_list("number", "scheduled_engine")
    )
    tables = {
        old.pk: Table.objects.create(day=new_day, number=old.number)
        for old in Table.objects.filter(day=day).order_by("number")
    }
    Seat.objects.bulk_create(
        Seat(
            day=new_day,
            table=tables[old.table_id],
            entry=entries[old.entry_id],
            position=old.position,
            joined_at_game=old.joined_at_game,
            left_after_game=old.left_after_game,
            replaces=entries[old.replaces_id] if old.replaces_id else None,
        )
        for old in Seat.objects.filter(day=day).order_by("pk")
    )


@transaction.atomic
def reset_practice(practice: Tournament) -> Tournament:
    """Clear every score, mark, call and payment of a practice event and reopen its days; its
    players, staff and seating stay."""
    if not practice.is_practice:
        raise ServiceError(f"{practice.name} is a real event: only a practice event is reset.")
    tables = Table.objects.filter(day__tournament=practice)
    for model in (AuditEvent, TableSubmission, UnplayedChange, UnplayedGame, DeskCall):
        model.objects.filter(table__in=tables).delete()
    GameSheet.objects.filter(table__in=tables).delete()
    Payment.objects.filter(entry__tournament=practice).delete()
    Day.objects.filter(tournament=practice).update(closed_at=None)
    return practice
