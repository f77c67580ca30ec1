"""Seasons built the way a club runs one: one-day club sessions, the same people (Player rows)
entered in several of them, each session seated and its cards confirmed."""

from __future__ import annotations

from types import SimpleNamespace

from scoring_factories import seat_tables, stored_sheet

from tournaments.models import Entry, Player
from tournaments.services.events import create_tournament, set_public_pages
from tournaments.services.seasons import add_events, create_season


def people(*names: str, club: str = "") -> dict[str, Player]:
    return {name: Player.objects.create(name=name, club=club) for name in names}


def club_session(slug: str, tables, who: dict[str, Player], *, preset="club-session", scores=()):
    """An event of ``preset`` whose day 1 seats ``tables`` (lists of names of ``who``), with
    ``scores``: a list of per-game {name: points} for each table, confirmed.

    Returns the event with ``entries`` (name -> entry) and ``day``."""
    event = create_tournament(slug=slug, name=slug.replace("-", " ").title(), preset_key=preset)
    names = [name for table in tables for name in table]
    entries = {
        name: Entry.objects.create(
            tournament=event, player=who[name], number=n, status=Entry.CHECKED_IN
        )
        for n, name in enumerate(names, start=1)
    }
    day = event.days.get(number=1)
    games, table_rows = seat_tables(day, [[entries[name] for name in t] for t in tables])
    for table, table_scores in zip(table_rows, scores, strict=False):
        for number, points in enumerate(table_scores, start=1):
            stored_sheet(table, games[number], {entries[n]: p for n, p in points.items()})
    return SimpleNamespace(event=event, entries=entries, day=day, games=games, tables=table_rows)


def season_of(slug: str, *events, best_of=None, public=False):
    """``public``: the season's public page on, and its events' (a new event's start off, and
    the season's page shows only while every event's is on)."""
    season = create_season(slug=slug, name=slug.title(), best_of=best_of, public_pages=public)
    if events:
        add_events(season, [e.event.slug for e in events])
    if public:
        for event in events:
            set_public_pages(event.event, True)
    return season
