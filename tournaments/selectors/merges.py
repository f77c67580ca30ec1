"""Reads for merging two people: each person as the merge page shows them side by side, and the
merges an event's organiser may look back on."""

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import Entry, Player, PlayerMerge


@dataclass(frozen=True)
class EntryLine:
    event: str
    date: object  # the event's start date, or None
    number: int
    club: str


def person_entries(player: Player) -> list[EntryLine]:
    """Every entry of ``player``, earliest event first, with the club as at that event. One
    query."""
    entries = (
        Entry.objects.filter(player=player)
        .select_related("tournament")
        .order_by("tournament__start_date", "tournament__name", "pk")
    )
    return [
        EntryLine(e.tournament.name, e.tournament.start_date, e.number, e.club) for e in entries
    ]


def event_merges(tournament) -> list[PlayerMerge]:
    """The merges of people entered in ``tournament`` (kept, or dropped and back after an undo),
    latest first. One query."""
    touching = Q(kept__entries__tournament=tournament) | Q(dropped__entries__tournament=tournament)
    pks = PlayerMerge.objects.filter(touching).values("pk")
    return list(PlayerMerge.objects.filter(pk__in=pks).select_related("kept", "dropped"))
