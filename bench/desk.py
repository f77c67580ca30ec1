"""Benchmark for the desk's work on a 43-table day -- run as ``.venv/bin/python bench/desk.py``.

Counts, not times: the page loads and form posts a desk volunteer makes to confirm a whole day
whose paper cards all match what the tables entered from their phones, by the two ways the desk
has: confirm from the card (hold the paper beside the table's entry, one press per table with
"Confirm and next table") and blind keying (type each card, "Save and next table"; the desk
never sees the table's numbers and the save confirms what matches). Each is walked through the
real pages with Django's test client, following the links and forms the pages give, and the
result is checked in the database. The floor is one form post per table; the ratio to it is
printed for both. Last, a venue without Wi-Fi: no phone entered anything, and the desk keys all
43 paper cards in a row (target: one save per card, no page opened in between). One PASS/FAIL
line per target.

With no DATABASE_URL the event goes in a throwaway SQLite file; with DATABASE_URL set a
throwaway test database is created beside it and dropped at the end.
"""

from __future__ import annotations

import random
import re
from html import unescape

import in_process  # type: ignore[import-not-found]  # sets Django up: before every Django import

# isort: split

from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from domain.seating.pairs import table_sizes
from scoring.models import LIVE_STATES, GameSheet, Score, SheetState, Source
from scoring.schedule import build_schedule
from tournaments.models import Entry, Player, Seat, StaffRole, Table
from tournaments.services.events import create_tournament

TABLES = 43
PLAYERS = 300  # 42 tables of 7 and one of 6 at the tournament preset's table size


def build_day(slug: str, seed: int, phones: bool = True):
    """A seated day with every game entered from the tables' phones (none with ``phones`` off:
    a venue without Wi-Fi): the 'paper cards' are returned as
    {table number: {game number: (engine, {entry id: points}, went out id)}}."""
    rng = random.Random(seed)
    tournament = create_tournament(slug=slug, name=f"Bench {slug}", preset_key="tournament")
    people = Player.objects.bulk_create(
        Player(name=f"Player {slug} {i:03}") for i in range(1, PLAYERS + 1)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, number=i, status=Entry.CHECKED_IN)
        for i, p in enumerate(people, start=1)
    )
    day = tournament.days.get(number=1)
    games = build_schedule(day)
    sizes = table_sizes(PLAYERS, tournament.rules.max_table_size)
    assert len(sizes) == TABLES, sizes
    cards: dict[int, dict[int, tuple]] = {}
    start = 0
    now = timezone.now()
    plan = []
    for number, size in enumerate(sizes, start=1):
        table = Table.objects.create(day=day, number=number)
        group = entries[start : start + size]
        start += size
        Seat.objects.bulk_create(
            Seat(day=day, table=table, entry=e, position=i) for i, e in enumerate(group, 1)
        )
        cards[number] = {}
        for game in games:
            out = rng.choice(group)
            points = {e.pk: (0 if e is out else rng.randint(1, 60)) for e in group}
            cards[number][game.number] = (game.scheduled_engine, points, out.pk)
            plan.append((table, game, out, points))
    if not phones:
        return _with_desk(tournament, slug, day, cards)
    # What the phones entered, written in bulk (the desk's side is what is counted): every
    # game waiting for the desk, as a table link's save leaves it.
    sheets = GameSheet.objects.bulk_create(
        GameSheet(
            table=table,
            game=game,
            state=SheetState.ENTERED,
            engine_used=game.scheduled_engine,
            went_out=out,
            blocked=False,
            source=Source.TABLE_LINK,
            entered_at=now,
        )
        for table, game, out, _ in plan
    )
    Score.objects.bulk_create(
        Score(sheet=sheet, entry_id=entry_id, points=value)
        for sheet, (_, _, _, points) in zip(sheets, plan, strict=True)
        for entry_id, value in points.items()
    )
    return _with_desk(tournament, slug, day, cards)


def _with_desk(tournament, slug, day, cards):
    desk = get_user_model().objects.create(username=f"desk-{slug}")
    StaffRole.objects.create(tournament=tournament, user=desk, role=StaffRole.DESK)
    return tournament, day, cards, desk


class Desk:
    """The desk volunteer's browser: counts every page load (GET, redirects followed) and post."""

    def __init__(self, user):
        self.client = Client()
        self.client.force_login(user)
        self.loads = 0
        self.posts = 0

    def _follow(self, response):
        while response.status_code in (301, 302):
            self.loads += 1
            response = self.client.get(response["Location"])
        assert response.status_code == 200, response.status_code
        return response

    def get(self, url):
        self.loads += 1
        return self._follow(self.client.get(url))

    def post(self, url, data):
        self.posts += 1
        return self._follow(self.client.post(url, data))


def hidden_fields(html: str) -> dict[str, str]:
    return {
        name: unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html)
        + re.findall(r'<input[^>]*name="([^"]+)"[^>]*type="hidden"[^>]*value="([^"]*)"', html)
        if name != "csrfmiddlewaretoken"
    }


def found(pattern: str, text: str) -> str:
    """The first group of ``pattern`` in ``text``, which the page must hold."""
    match = re.search(pattern, text)
    assert match is not None, pattern
    return match.group(1)


def table_of(url: str) -> int:
    return int(found(r"/table/(\d+)/", url))


def by_confirm_from_card(tournament, day, cards, user) -> Desk:
    desk = Desk(user)
    grid = desk.get(reverse("organiser:scores_day", args=[tournament.slug, day.number]))
    first = found(r'href="([^"]+/check/)"', grid.content.decode())
    page = desk.get(first)
    seen = set()
    while True:
        html = page.content.decode()
        url = page.request["PATH_INFO"]
        if not re.search(r"/table/\d+/check/$", url):
            return desk
        if url in seen:  # the post was refused: say why instead of trying again
            raise SystemExit(f"{url} was refused: {re.findall(r'<li>([^<]+)</li>', html)}")
        seen.add(url)
        # The desk holds the paper card beside the page: every game matches, so every box
        # stays ticked as the page drew it.
        data = hidden_fields(html)
        ticked = r'<input type="checkbox"\s+name="(confirm-\d+)"[^>]*\schecked'
        for name in re.findall(ticked, html):
            data[name] = "on"
        data["next"] = "1"
        page = desk.post(url, data)


def by_blind_keying(tournament, day, cards, user) -> Desk:
    desk = Desk(user)
    grid = desk.get(reverse("organiser:scores_day", args=[tournament.slug, day.number]))
    first = found(r'href="([^"]+/card/)"', grid.content.decode())
    page = desk.get(first)
    keyed = set()
    while True:
        url = page.request["PATH_INFO"]
        number = table_of(url)
        if number in keyed:
            return desk  # no table left waiting: the save came back to the same card
        keyed.add(number)
        html = page.content.decode()
        data = hidden_fields(html)
        for game, (engine, points, out) in cards[number].items():
            prefilled = found(rf'name="g{game}-engine"\s+value="(\d*)"', html)
            assert prefilled == str(engine), (number, game, prefilled)  # nothing to type
            data[f"g{game}-engine"] = prefilled
            data[f"g{game}-out"] = str(out)
            for entry_id, value in points.items():
                data[f"g{game}-score-{entry_id}"] = str(value)
        data["next"] = "1"
        page = desk.post(url, data)


def check(name: str, desk: Desk, day) -> None:
    waiting = GameSheet.objects.filter(table__day=day, state=SheetState.ENTERED).count()
    confirmed = GameSheet.objects.filter(table__day=day, state=SheetState.CONFIRMED).count()
    per_table = desk.posts / TABLES
    print(
        f"{name}: {desk.loads} page loads and {desk.posts} form posts for {TABLES} tables "
        f"({confirmed} games confirmed, {waiting} left waiting); posts per table "
        f"{per_table:.2f} (floor 1.00, ratio {per_table:.2f}x); page loads per table "
        f"{desk.loads / TABLES:.2f}"
    )
    in_process.record(
        f"{name}: every game confirmed with one post per table",
        waiting == 0 and desk.posts == TABLES,
        f"{desk.posts} posts, {desk.loads} page loads, {waiting} games left waiting",
    )


def run() -> None:
    print(f"database: {connection.vendor}; {TABLES} tables, {PLAYERS} players, 6 games each")
    a = build_day("by-card", 1)
    b = build_day("by-keying", 2)
    print("both days built; the desk starts")
    confirm = by_confirm_from_card(*a)
    check("confirm from the card", confirm, a[1])
    blind = by_blind_keying(*b)
    check("blind keying", blind, b[1])
    ratio = (blind.loads + blind.posts) / (confirm.loads + confirm.posts)
    print(f"blind keying takes {ratio:.2f}x the requests of confirming from the card")
    c = build_day("no-wifi", 3, phones=False)
    paper = by_blind_keying(*c)
    check_keyed_without_wifi(paper, c[1])


def check_keyed_without_wifi(desk: Desk, day) -> None:
    """No phone entered anything: every card is keyed at the desk in a row, "Save and next
    table" after each. Counted: the games stored, the saves, and the pages opened in between."""
    stored = GameSheet.objects.filter(table__day=day, state__in=LIVE_STATES).count()
    # The day grid and the first card are opened once; each save's redirect is not a click.
    between = desk.loads - 2 - desk.posts
    print(
        f"keying paper cards without Wi-Fi: {desk.posts} saves and {between} pages in between "
        f"for {TABLES} cards ({stored} games stored); clicks per card "
        f"{(desk.posts + between) / TABLES:.2f} (floor 1.00)"
    )
    in_process.record(
        "keying paper cards without Wi-Fi: one save per card, no page in between",
        stored == TABLES * 6 and desk.posts == TABLES and between == 0,
        f"{desk.posts} saves, {between} pages in between, {stored} games stored",
    )


def main() -> None:
    in_process.run_bench(run)


if __name__ == "__main__":
    main()
