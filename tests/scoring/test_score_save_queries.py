"""One save, one read: a phone's save and a desk card's save read the table's sheets once, in a
fixed number of queries however many games the table has entered (scoring/submit.py)."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from scoring_factories import seated_day, staff

from scoring.models import GameSheet, SheetState

pytestmark = pytest.mark.django_db

# Good scores for table 1 (four players, double blank worth 50): the first player went out.
POINTS = (0, 12, 40, 7)
SHEETS_READ = re.compile(r'^SELECT\b.*\bFROM "scoring_gamesheet"', re.DOTALL)


@pytest.fixture
def world():
    w = seated_day()
    w.desk = staff(w.tournament, "desk1")
    w.seated = list(w.tables[0].seats.order_by("position").values_list("entry_id", flat=True))
    return w


def counted(send):
    """The SQL of one request, and how many of its statements read the sheets table."""
    with CaptureQueriesContext(connection) as captured:
        response = send()
    assert response.status_code == 302, response.content.decode()[:2000]
    statements = [q["sql"] for q in captured]
    return statements, sum(bool(SHEETS_READ.match(sql)) for sql in statements)


def kinds(statements):
    """How many reads and writes, by their first word."""
    words = [sql.split()[0] for sql in statements]
    return words.count("SELECT"), words.count("INSERT")


def phone_save(w, client, game):
    data = {
        "game": str(game),
        "base_version": "0",
        "engine": str(w.games[game].scheduled_engine),
        "submission_id": f"save-game-{game}-of-table-1",  # as the page's script sends one
        f"out-{w.seated[0]}": "on",
    }
    data.update({f"score-{pk}": str(p) for pk, p in zip(w.seated, POINTS, strict=True)})
    url = reverse("scorekeeper:table", args=[w.tables[0].link_token])
    return counted(lambda: client.post(url, data))


def card_save(w, desk, game):
    """The desk keys one game of the card, as the page posts it: every open game's version."""
    data = {}
    for number in w.games:
        if not GameSheet.objects.filter(game__number=number, state=SheetState.CONFIRMED).exists():
            data[f"g{number}-base"] = "0"
            data[f"g{number}-engine"] = ""
    data[f"g{game}-engine"] = str(w.games[game].scheduled_engine)
    data[f"g{game}-out"] = str(w.seated[0])
    data.update({f"g{game}-score-{pk}": str(p) for pk, p in zip(w.seated, POINTS, strict=True)})
    url = reverse("organiser:score_card", args=[w.tournament.slug, 1, 1])
    return counted(lambda: desk.post(url, data))


def test_a_phone_save_reads_the_sheets_once_in_a_fixed_number_of_queries(world, client):
    first, first_reads = phone_save(world, client, 1)
    for game in (2, 3, 4):
        phone_save(world, client, game)
    fifth, fifth_reads = phone_save(world, client, 5)
    assert first_reads == fifth_reads == 1
    # Reads: the link, the games, the seats; under the lock the table, its sheets and the games
    # not played. Writes: the submission's id (its unique key tells a save sent twice), the
    # sheet, its scores, the audit event. And the transaction, the id's savepoint round it.
    assert kinds(first) == kinds(fifth) == (6, 4)
    assert len(first) == len(fifth) == 14, "\n".join(fifth)
    assert GameSheet.objects.filter(state=SheetState.ENTERED).count() == 5


def test_a_desk_card_save_reads_the_sheets_once_in_a_fixed_number_of_queries(world):
    desk = Client()
    desk.force_login(world.desk)
    first, first_reads = card_save(world, desk, 1)
    for game in (2, 3, 4):
        card_save(world, desk, game)
    fifth, fifth_reads = card_save(world, desk, 5)
    assert first_reads == fifth_reads == 1
    # Reads: the session, the user, the tournament and the desk's role (the desk's pages), the
    # table, the games, the seats; under the lock the table, the role, its sheets and the games
    # not played. Writes: the sheet, its scores, the audit event. And the transaction.
    assert kinds(first) == kinds(fifth) == (11, 3)
    assert len(first) == len(fifth) == 16, "\n".join(fifth)
    assert GameSheet.objects.filter(state=SheetState.CONFIRMED).count() == 5
