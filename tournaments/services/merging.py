"""Merging two people who are one (entered twice, say as "Núñez" and "Nunez"), and undoing it.

The person dropped is kept, with no entries and ``merged_into`` set, so the merge can be undone;
the PlayerMerge row is the audit record. Every refusal is checked before anything is written,
so a refused merge or undo changes nothing.
"""

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from core.formats import date_and_time, long_date
from tournaments.access import account_of
from tournaments.hooks import play_record
from tournaments.models import Entry, Player, PlayerMerge, Seat
from tournaments.selectors import directory_for

NOT_YOURS = "That person is not in your directory."


@dataclass(frozen=True)
class MergeOutcome:
    merge: PlayerMerge
    events: list[str]  # the events of the entries moved, in date order


def _lock(*players: Player) -> list[Player]:
    # Both rows, always in pk order, so two merges of the same pair wait for each other instead
    # of each holding one lock and waiting for the other's.
    pks = sorted({p.pk for p in players})
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=pks)}
    if len(locked) != len(pks):
        raise ServiceError(NOT_YOURS)
    return [locked[p.pk] for p in players]


def _visible(player: Player, user) -> bool:
    # Someone merged away has no entries of their own: they are seen through the person they
    # were merged into, so "already merged" is said only to whoever may see that person.
    seen_as = player.merged_into_id or player.pk
    return directory_for(user).filter(pk=seen_as).exists()


def day_date(day) -> datetime.date | None:
    """The calendar date of a day of play: its own, else counted from the event's start."""
    if day.date is not None:
        return day.date
    start = day.tournament.start_date
    return start + datetime.timedelta(days=day.number - 1) if start else None


def _days_seated(player: Player) -> dict[datetime.date, str]:
    seats = Seat.objects.filter(entry__player=player).select_related("day__tournament")
    dates: dict[datetime.date, str] = {}
    for seat in seats:
        when = day_date(seat.day)
        if when is not None:
            dates.setdefault(when, seat.day.tournament.name)
    return dates


def merge_refusal(keep: Player, drop: Player, user) -> str:
    """Why ``drop`` may not be merged into ``keep`` by ``user``, in plain words; "" when it may.
    The page asks before offering the button; :func:`merge_players` asks again under lock."""
    if keep.pk == drop.pk:
        return "A person cannot be merged with themselves: choose two different people."
    if not (_visible(keep, user) and _visible(drop, user)):
        return NOT_YOURS
    for player in (keep, drop):
        if player.merged_into_id is not None:
            into = Player.objects.get(pk=player.merged_into_id)
            return (
                f"{player.name} (#{player.pk}) was already merged into {into.name} "
                f"(#{into.pk}): choose {into.name} instead."
            )
    both = (
        Entry.objects.filter(player=keep, tournament__entries__player=drop)
        .select_related("tournament")
        .order_by("tournament__start_date", "tournament__name")
    )
    shared = [entry.tournament.name for entry in both]
    if shared:
        return (
            f"{keep.name} and {drop.name} are both entered in {_and(shared)}: one person "
            "cannot hold two entries in one event, so these two cannot be merged."
        )
    kept_days, dropped_days = _days_seated(keep), _days_seated(drop)
    same = sorted(kept_days.keys() & dropped_days.keys())
    if same:
        when = same[0]
        where = _and(sorted({kept_days[when], dropped_days[when]}))
        return (
            f"{keep.name} and {drop.name} both sat at a table on {long_date(when)} ({where}): "
            "one person cannot play twice on one day, so these are two people."
        )
    return ""


@transaction.atomic
def merge_players(keep: Player, drop: Player, *, user) -> MergeOutcome:
    """Move every entry of ``drop`` to ``keep`` and mark ``drop`` merged into ``keep``, with its
    audit record. Refused (ServiceError, nothing changed) as :func:`merge_refusal` says."""
    if keep.pk == drop.pk:
        raise ServiceError(merge_refusal(keep, drop, user))
    keep, drop = _lock(keep, drop)
    refusal = merge_refusal(keep, drop, user)
    if refusal:
        raise ServiceError(refusal)
    moved = list(
        Entry.objects.filter(player=drop)
        .select_related("tournament")
        .order_by("tournament__start_date", "tournament__name", "pk")
    )
    Entry.objects.filter(pk__in=[e.pk for e in moved]).update(player=keep)
    drop.merged_into = keep
    drop.save(update_fields=["merged_into"])
    merge = PlayerMerge.objects.create(
        kept=keep,
        dropped=drop,
        entries=[e.pk for e in moved],
        actor=account_of(user),
        actor_label=user.get_username(),
        at=timezone.now(),
    )
    return MergeOutcome(merge, [e.tournament.name for e in moved])


def undo_refusal(merge: PlayerMerge, user) -> str:
    """Why ``merge`` may not be undone by ``user``; "" when it may. A merge is undone only until
    either person plays again: a score entered for the kept person, or a new entry, after it."""
    kept, dropped = merge.kept, merge.dropped
    if not _visible(kept, user):
        return NOT_YOURS
    if merge.undone_at is not None:
        return (
            f"This merge was already undone on {date_and_time(merge.undone_at)} "
            f"by {merge.undone_by_label}."
        )
    if kept.merged_into_id is not None:
        return f"{kept.name} has since been merged into someone else: undo that merge first."
    if dropped.merged_into_id != kept.pk:
        return f"{dropped.name} is no longer merged into {kept.name}."
    entries = Entry.objects.filter(player=kept)
    later = entries.filter(registered_at__gt=merge.at).select_related("tournament").first()
    if later is not None:
        return (
            f"{kept.name} was entered in {later.tournament.name} after the merge, so the two "
            "can no longer be told apart there. The merge stays."
        )
    if play_record().scores_entered_since(entries, merge.at):
        return (
            f"{kept.name} has scores entered after the merge, so they have played as one "
            "person since. The merge stays."
        )
    return ""


@transaction.atomic
def undo_merge(merge: PlayerMerge, *, user) -> PlayerMerge:
    """Move back exactly the entries ``merge`` moved and put the dropped person back in the
    directory. Refused (ServiceError, nothing changed) as :func:`undo_refusal` says."""
    merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    merge.kept, merge.dropped = _lock(merge.kept, merge.dropped)
    refusal = undo_refusal(merge, user)
    if refusal:
        raise ServiceError(refusal)
    Entry.objects.filter(pk__in=merge.entries, player=merge.kept).update(player=merge.dropped)
    merge.dropped.merged_into = None
    merge.dropped.save(update_fields=["merged_into"])
    merge.undone_at = timezone.now()
    merge.undone_by_label = user.get_username()
    merge.save(update_fields=["undone_at", "undone_by_label"])
    return merge


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
