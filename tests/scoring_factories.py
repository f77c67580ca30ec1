"""Test data every test module builds the same way: seated days without the seating pages,
sheets stored past the services' checks, snapshots of the database for "nothing changed", and
player files as a club would upload them."""

from __future__ import annotations

import csv
import io
import re
from types import SimpleNamespace

import openpyxl
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from domain.sheet_checks import TypedSheet
from scoring import services
from scoring.models import AuditEvent, GameSheet, Score, SheetState, Source
from scoring.schedule import build_schedule
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, KeepApart, Player, Seat, StaffRole, Table, Tournament
from tournaments.services.events import create_tournament
from tournaments.services.late import seat_late_player, seat_substitute
from tournaments.services.registration import register_player, withdraw_entry
from tournaments.services.rules import change_rules

DEFAULT_TABLES = (("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox"), ("Ed Poe", "Flo Ng", "Gus Ray"))


def seated_day(
    *, slug="cup", preset="tournament", tables=DEFAULT_TABLES, day_number=1, organiser=None
):
    """A tournament with one day seated: players numbered 1.. in table order, games scheduled.

    The rule presets it needs are in place for every database test: conftest's autouse
    ``rule_presets`` fixture loads them again after a transactional test's flush."""
    tournament = create_tournament(
        slug=slug, name=slug.title(), preset_key=preset, organiser=organiser
    )
    day = tournament.days.get(number=day_number)
    added = iter(add_entries(tournament, [name for names in tables for name in names]))
    groups = [[next(added) for _ in names] for names in tables]
    games, table_rows = seat_tables(day, groups)
    entries = {entry.player.name: entry for group in groups for entry in group}
    return SimpleNamespace(
        tournament=tournament,
        day=day,
        tables=table_rows,
        entries=entries,
        games=games,
        rules=tournament.rules,
    )


def register(tournament, *names, count=0, prefix="Player"):
    """Entries registered through the service, as the organiser's form makes them: the names
    given, or ``count`` numbered ones ("Player 1", "Player 2", ...)."""
    names = names or tuple(f"{prefix} {i}" for i in range(1, count + 1))
    return [register_player(tournament, name=name) for name in names]


def add_entries(tournament, players) -> list[Entry]:
    """Checked-in entries for ``players`` (names, or (name, club) pairs), numbered from 1 in the
    order given, each with a new player in the directory."""
    entries = []
    for number, player in enumerate(players, start=1):
        name, club = (player, "") if isinstance(player, str) else player
        entries.append(
            Entry.objects.create(
                tournament=tournament,
                player=Player.objects.create(name=name, club=club),
                number=number,
                status=Entry.CHECKED_IN,
            )
        )
    return entries


def seat_tables(day, groups):
    """Seat each group of entries at its own table, numbered from 1 in seat order, and schedule
    the day's games: (games by number, tables in order)."""
    games = {g.number: g for g in build_schedule(day)}
    tables = []
    for number, members in enumerate(groups, start=1):
        table = Table.objects.create(day=day, number=number)
        Seat.objects.bulk_create(
            Seat(day=day, table=table, entry=entry, position=position)
            for position, entry in enumerate(members, start=1)
        )
        tables.append(table)
    return games, tables


def stored_sheet(table, game, points=None, *, out=None, state=SheetState.CONFIRMED, **fields):
    """A sheet written straight to the database, past the services' checks (for the database's
    own constraints, the standings' sums and "play has started"): confirmed at the desk by
    default, blocked when nobody went out, with ``points`` {entry: score} if given."""
    now = timezone.now()
    values = {
        "table": table,
        "game": game,
        "state": state,
        "engine_used": game.scheduled_engine,
        "went_out": out,
        "blocked": out is None,
        "source": Source.DESK,
        "entered_at": now,
        "confirmed_at": now if state == SheetState.CONFIRMED else None,
    }
    values.update(fields)
    sheet = GameSheet.objects.create(**values)
    Score.objects.bulk_create(
        Score(sheet=sheet, entry=entry, points=score) for entry, score in (points or {}).items()
    )
    return sheet


def staff(tournament, username, role=StaffRole.DESK):
    """A staff user (no password: tests log in with force_login, and hashing is slow)."""
    user = get_user_model().objects.create(username=username)
    StaffRole.objects.create(tournament=tournament, user=user, role=role)
    return user


def typed(world, game_number, scores, *, out=None, blocked=False, engine=None, tiles=None):
    """A typed sheet from player names: scores {"Ann Lee": 0, ...}, out "Ann Lee" or a list."""
    ids = {name: world.entries[name].pk for name in world.entries}
    if isinstance(out, (list, tuple)):
        went_out = [ids[name] for name in out]
    else:
        went_out = ids[out] if out else None
    return TypedSheet(
        game_number=game_number,
        engine=world.games[game_number].scheduled_engine if engine is None else engine,
        scores={ids[name]: value for name, value in scores.items()},
        tiles={ids[name]: value for name, value in (tiles or {}).items()},
        went_out=went_out,
        blocked=blocked,
    )


SCORE_MODELS = (GameSheet, Score, AuditEvent)
ROSTER_MODELS = (Player, Entry, KeepApart, Seat)


def snapshot(*models):
    """Every row of ``models`` (the score records when none are named), field by field in
    primary-key order: a refusal leaves it equal."""
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in models or SCORE_MODELS
    }


def fresh(tournament):
    """The tournament read again from the database, with its rules."""
    return Tournament.objects.select_related("rules").get(pk=tournament.pk)


def organiser_url(tournament, rest=""):
    """A page of the organiser's site for ``tournament``, by its path as typed."""
    return f"/organiser/t/{tournament.slug}/{rest}"


def csv_bytes(rows, encoding="utf-8") -> bytes:
    """A player file as a spreadsheet program saves CSV: ``rows`` of cells, header first."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(rows)
    return buffer.getvalue().encode(encoding)


def xlsx_bytes(rows) -> bytes:
    """The same rows as an Excel workbook (.xlsx) with one sheet."""
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(list(row))
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


# Good scores for table 1 (four players), double blank worth 50: Ann went out.
T1 = {"Ann Lee": 0, "Bob Roe": 12, "Cy Doe": 40, "Di Fox": 7}
T2 = {"Ed Poe": 5, "Flo Ng": 0, "Gus Ray": 33}


# The table page, as a phone posts to it and as a person reads it.
def link(table):
    return reverse("scorekeeper:table", args=[table.link_token])


def phone_post(
    w, game=1, scores=T1, out=("Ann Lee",), blocked=False, base=0, engine=None, tiles=None
):
    data = {
        "game": str(game),
        "base_version": str(base),
        "engine": str(engine if engine is not None else w.games[game].scheduled_engine),
    }
    for name, value in scores.items():
        data[f"score-{w.entries[name].pk}"] = str(value)
    for name in out:
        data[f"out-{w.entries[name].pk}"] = "on"
    for name, value in (tiles or {}).items():
        data[f"tiles-{w.entries[name].pk}"] = value
    if blocked:
        data["blocked"] = "on"
    return data


def text_of(response):
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


def client_for(user):
    """A test client signed in as ``user``."""
    client = Client()
    client.force_login(user)
    return client


def phone_enters(w, table, game, scores, out):
    """Game ``game`` saved from table ``table``'s phone, as a first entry."""
    return services.submit_game(
        w.tables[table], w.games[game], typed(w, game, scores, out=out), 0, source=Source.TABLE_LINK
    )


# A club session's day with a late player and a substitute.
def play(w, table, games):
    """Confirmed games at ``table``: its first player goes out, the others score 10 each."""
    for number in games:
        seats = [s for s in table.seats.order_by("position") if s.plays_game(number)]
        points = {s.entry: 0 if i == 0 else 10 for i, s in enumerate(seats)}
        stored_sheet(table, w.games[number], points, out=seats[0].entry)


def club_session_with_a_late_player_and_a_substitute():
    w = seated_day(preset="club-session")
    play(w, w.tables[0], [1, 2])
    play(w, w.tables[1], [1, 2])
    lou = register_player(w.tournament, name="Lou Late")
    late = seat_late_player(w.day, lou, by=COMMAND_LINE)
    play(w, w.tables[0], [3, 4])
    withdraw_entry(w.entries["Bob Roe"])
    sam = register_player(w.tournament, name="Sam Sub")
    sub = seat_substitute(w.day, w.entries["Bob Roe"], sam, from_game=5, by=COMMAND_LINE)
    play(w, w.tables[0], [5])
    return w, lou, late, sam, sub


# Standings settings (issue 23): a tie the tie-breaks split.
def three_tied_for_second(w):
    """Three games at both tables: Ann leads on 0; Bob, Ed and Flo share 20 points. Bob never
    went out (worst game 10); Ed and Flo went out once each, Ed's worst game is 10, Flo's 18.
    Gus has 60, Cy 90, Di 120."""
    from tournaments.services.events import set_public_pages
    from tournaments.services.rules import change_rules

    change_rules(w.tournament, {"days": 1}, by=COMMAND_LINE)
    e = w.entries
    first = {"Ann Lee": 0, "Bob Roe": 5, "Cy Doe": 30, "Di Fox": 40}
    for number, bob in ((1, 5), (2, 5), (3, 10)):
        points = {e[name]: score for name, score in first.items()} | {e["Bob Roe"]: bob}
        stored_sheet(w.tables[0], w.games[number], points, out=e["Ann Lee"])
    second = {
        1: ({"Ed Poe": 0, "Flo Ng": 2, "Gus Ray": 30}, "Ed Poe"),
        2: ({"Ed Poe": 10, "Flo Ng": 0, "Gus Ray": 30}, "Flo Ng"),
        3: ({"Ed Poe": 10, "Flo Ng": 18, "Gus Ray": 0}, "Gus Ray"),
    }
    for number, (scores, out) in second.items():
        points = {e[name]: score for name, score in scores.items()}
        stored_sheet(w.tables[1], w.games[number], points, out=e[out])
    set_public_pages(w.tournament, True)
    return fresh(w.tournament)


def two_days_that_turn_round(slug="cup"):
    """Seven players over two days of three games, every game confirmed, reseated on day 2;
    day 2's last two games turn the order round (Ann Lee leads after game 1 of day 2, Gus Ray
    at the end)."""
    t = create_tournament(slug=slug, name=slug.title(), preset_key="club-session")
    change_rules(t, {"days": 2, "games_per_day": 3}, by=COMMAND_LINE)
    t = fresh(t)
    entries = add_entries(t, [name for names in DEFAULT_TABLES for name in names])
    for day in t.days.all():
        groups = [entries[:4], entries[4:]] if day.number == 1 else [entries[3:], entries[:3]]
        games, tables = seat_tables(day, groups)
        for number, game in games.items():
            for table in tables:
                seated = [s.entry for s in table.seats.select_related("entry")]
                late = day.number == 2 and number > 1
                points = {e: 10 * (8 - e.number) if late else e.number + number for e in seated}
                stored_sheet(table, game, points, out=seated[0])
    return fresh(t)


def a_tie_for_first(slug="tie"):
    """One game at two tables, confirmed: Ann Lee and Ed Poe both go out, so they share 1st
    place; Bob Roe is 3rd alone (10), then Flo Ng (20), Cy Doe and Gus Ray (30)."""
    t = create_tournament(slug=slug, name=slug.title(), preset_key="club-session")
    change_rules(t, {"days": 1, "games_per_day": 1}, by=COMMAND_LINE)
    t = fresh(t)
    entries = add_entries(t, ["Ann Lee", "Bob Roe", "Cy Doe", "Ed Poe", "Flo Ng", "Gus Ray"])
    groups = [entries[:3], entries[3:]]
    games, tables = seat_tables(t.days.get(number=1), groups)
    for table, group, second in zip(tables, groups, [10, 20], strict=True):
        stored_sheet(table, games[1], {group[0]: 0, group[1]: second, group[2]: 30}, out=group[0])
    return fresh(t)
