"""Games are built when a day is seated; pages, printouts and exports only read."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from scoring_factories import seated_day

from scoring.models import Game
from tournaments.services.registration import register_player
from tournaments.services.seating import seat_day

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE")


def writes_in(queries) -> list[str]:
    return [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith(WRITES)]


def test_seating_a_day_builds_its_games_from_the_rules(make_tournament, organiser):
    tournament = make_tournament(slug="built", organiser=organiser)
    for name in ["Ann", "Bob", "Cy", "Di", "Ed"]:
        register_player(tournament, name=name)
    day = tournament.days.get(number=1)
    assert not Game.objects.filter(day=day).exists()
    seat_day(day, seed=1)
    engines = list(
        Game.objects.filter(day=day).order_by("number").values_list("scheduled_engine", flat=True)
    )
    assert engines == tournament.rules.scheduled_engines()


def test_changing_the_rules_adds_the_games_they_call_for(organiser):
    world = seated_day(organiser=organiser)
    rules = world.tournament.rules
    before = Game.objects.filter(day=world.day).count()
    rules.games_per_day = before + 1
    rules.save()
    assert Game.objects.filter(day=world.day).count() == before + 1


def test_pages_printouts_and_exports_write_nothing(client, organiser):
    world = seated_day(organiser=organiser)
    client.force_login(organiser)
    slug, table = world.tournament.slug, world.tables[0]
    urls = [
        reverse("scorekeeper:table", args=[table.link_token]),
        reverse("organiser:scores_day", args=[slug, 1]),
        reverse("organiser:score_card", args=[slug, 1, table.number]),
        reverse("organiser:score_sheets", args=[slug, 1]),
        reverse("organiser:export_workbook", args=[slug, 1]),
        reverse("organiser:standings", args=[slug]),
        reverse("organiser:day_board", args=[slug, 1]),
        reverse("public:projector", args=[slug]),
        reverse("public:player", args=[slug, 1]),
        reverse("organiser:seating", args=[slug, 1]),
    ]
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        # A logged-in request may refresh its session row, and a printout records when the day
        # was printed (Reseat and Clear say so); nothing else is written.
        written = [
            sql
            for sql in writes_in(queries)
            if "django_session" not in sql and "_printed_at" not in sql
        ]
        assert written == [], url
