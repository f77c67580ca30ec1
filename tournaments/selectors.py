"""Reads that feed pages and exports, each a fixed number of queries."""
from django.db.models import Count, Q

from .models import Day, Entry


def tournament_overview(tournament) -> dict:
    counts = Entry.objects.filter(tournament=tournament).aggregate(
        registered=Count("pk"),
        checked_in=Count("pk", filter=Q(status=Entry.CHECKED_IN)),
        withdrawn=Count("pk", filter=Q(status=Entry.WITHDRAWN)),
    )
    days = list(
        Day.objects.filter(tournament=tournament)
        .annotate(table_count=Count("tables", distinct=True), seat_count=Count("seats", distinct=True))
        .order_by("number")
    )
    return {"entry_counts": counts, "days": days}
