"""Small reads the organiser, desk and public pages need besides tournaments.selectors: one
query each, so views and templates never build a query themselves."""

from __future__ import annotations

from .models import Day, Tournament


def tournament_days(tournament) -> list[Day]:
    """The tournament's days, first day first (the day tabs and download links)."""
    return list(Day.objects.filter(tournament=tournament).order_by("number"))


def public_tournaments():
    """The tournaments whose public pages are on, for the public home page."""
    return Tournament.objects.filter(public_pages=True)
