"""A season ranked by average per game with a minimum of sessions: the same rule on every output
(the page, the public page, the player's page, the PDF, the workbook, the command line), set on
the new season's form, the season's ranking page and the command line, bad minimums refused
with nothing saved; and the season workbook's person id."""

import io

import openpyxl
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from pypdf import PdfReader
from season_factories import club_session, people, season_of

from standings.seasons.read import season_standings
from standings.seasons.report import season_report
from tournaments.models import Season

pytestmark = pytest.mark.django_db

RULE = "Ranked by average per game, at least 2 sessions"
FOUR = ("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox")


@pytest.fixture
def season():
    """Ann plays three weeks (12.5 a game), Bob two (7.33), Di two (30.5), Cy one lucky game (5)."""
    who = people(*FOUR, club="Elks")
    weeks = (
        club_session(
            "week-1",
            [["Ann Lee", "Bob Roe", "Cy Doe"]],
            who,
            scores=[[{"Ann Lee": 10, "Bob Roe": 20, "Cy Doe": 5}, {"Ann Lee": 4, "Bob Roe": 0}]],
        ),
        club_session(
            "week-2",
            [["Ann Lee", "Bob Roe", "Di Fox"]],
            who,
            scores=[[{"Ann Lee": 30, "Bob Roe": 2, "Di Fox": 1}]],
        ),
        club_session(
            "week-3", [["Ann Lee", "Di Fox"]], who, scores=[[{"Ann Lee": 6, "Di Fox": 60}]]
        ),
    )
    made = season_of("spring", *weeks, public=True)
    Season.objects.filter(pk=made.pk).update(min_sessions=2)
    made.refresh_from_db()
    made.who = who
    return made


def ranks(result):
    return [(row.player.name, row.rank) for row in result.rows]


def test_a_one_session_player_is_listed_after_the_ranked_players(season):
    result = season_standings(season)
    assert ranks(result) == [("Bob Roe", 1), ("Ann Lee", 2), ("Di Fox", 3), ("Cy Doe", None)]
    assert result.rule == RULE
    assert "Players with fewer than 2 sessions are listed last, without a rank (-)." in (
        result.legend
    )
    Season.objects.filter(pk=season.pk).update(min_sessions=1)
    season.refresh_from_db()
    # Without a minimum the lucky day leads, as before.
    assert ranks(season_standings(season))[0] == ("Cy Doe", 1)
    assert season_standings(season).rule == "Ranked by average per game"


def test_every_output_says_the_same_rule(organiser_client, season):
    staff_page = organiser_client.get("/organiser/season/spring/").content.decode()
    anyone = Client()
    public_page = anyone.get("/season/spring/").content.decode()
    cy = season.who["Cy Doe"].pk
    player_page = anyone.get(f"/season/spring/player/{cy}/").content.decode()
    for text in (staff_page, public_page, player_page):
        assert RULE in text
    assert "fewer than 2 sessions: not ranked yet" in player_page

    report = season_report(season_standings(season))
    pdf = "".join(p.extract_text() for p in PdfReader(io.BytesIO(report.as_pdf())).pages)
    assert RULE in pdf
    sheet = openpyxl.load_workbook(io.BytesIO(report.as_xlsx()))["Season"]
    assert RULE in sheet.oddHeader.left.text
    out = io.StringIO()
    call_command("season", "standings", "spring", stdout=out)
    assert RULE in out.getvalue().splitlines()


def test_the_workbook_carries_the_persons_id_and_the_page_and_pdf_do_not(organiser_client, season):
    report = season_report(season_standings(season))
    book = openpyxl.load_workbook(io.BytesIO(report.as_xlsx()))
    rows = list(book["Season"].iter_rows(values_only=True))
    assert rows[0][:3] == ("Rank", "Player ID (all events)", "Player")
    ids = {row[2]: row[1] for row in rows[1:]}
    assert ids == {name: player.pk for name, player in season.who.items()}
    sessions = list(book["Sessions"].iter_rows(values_only=True))
    assert sessions[0][:2] == ("Player ID (all events)", "Player")
    assert all(row[0] == season.who[row[1]].pk for row in sessions[1:])
    pdf = "".join(p.extract_text() for p in PdfReader(io.BytesIO(report.as_pdf())).pages)
    assert "Player ID" not in pdf
    assert "Player ID" not in organiser_client.get("/organiser/season/spring/").content.decode()


def test_the_new_season_form_takes_a_minimum(organiser_client):
    page = organiser_client.post(
        "/organiser/seasons/new/", {"name": "Fall", "slug": "fall", "min_sessions": "3"}
    )
    assert page.status_code == 302
    assert Season.objects.get(slug="fall").min_sessions == 3
    # Left empty it asks for no minimum.
    organiser_client.post("/organiser/seasons/new/", {"name": "Winter", "slug": "winter"})
    assert Season.objects.get(slug="winter").min_sessions == 1


BAD = [
    ("0", "A minimum of 0 sessions cannot be: give 1 or more"),
    ("-2", "A minimum of -2 sessions cannot be: give 1 or more"),
    ("three", "Give the minimum as a whole number of sessions, such as 3."),
    ("2.5", "Give the minimum as a whole number of sessions, such as 3."),
    ("367", "A minimum of 367 sessions is more than a season holds: give 1 to 366"),
    ("40000", "A minimum of 40000 sessions is more than a season holds"),
]


@pytest.mark.parametrize(("value", "message"), BAD)
def test_a_bad_minimum_on_the_new_season_form_saves_nothing(organiser_client, value, message):
    page = organiser_client.post(
        "/organiser/seasons/new/", {"name": "Fall", "slug": "fall", "min_sessions": value}
    )
    text = page.content.decode()
    assert page.status_code == 200
    assert message in text and 'class="field-error"' in text
    assert not Season.objects.exists()


def test_a_best_of_beyond_a_season_is_refused_by_the_field(organiser_client):
    page = organiser_client.post(
        "/organiser/seasons/new/", {"name": "Fall", "slug": "fall", "best_of": "40000"}
    )
    assert page.status_code == 200
    assert 'class="field-error"' in page.content.decode()
    assert not Season.objects.exists()


def test_the_ranking_page_changes_the_rule(organiser_client, season):
    page = organiser_client.get("/organiser/season/spring/ranking/")
    assert page.status_code == 200 and 'value="2"' in page.content.decode()
    done = organiser_client.post(
        "/organiser/season/spring/ranking/", {"best_of": "", "min_sessions": "3"}
    )
    assert done.status_code == 302 and done["Location"] == "/organiser/season/spring/"
    season.refresh_from_db()
    assert (season.best_of, season.min_sessions) == (None, 3)
    assert ranks(season_standings(season)) == [
        ("Ann Lee", 1),
        ("Bob Roe", None),
        ("Di Fox", None),
        ("Cy Doe", None),
    ]
    organiser_client.post(
        "/organiser/season/spring/ranking/", {"best_of": "2", "min_sessions": "1"}
    )
    season.refresh_from_db()
    assert season_standings(season).rule == "Ranked by the best 2 of 3 sessions"


@pytest.mark.parametrize(("value", "message"), BAD)
def test_a_bad_minimum_on_the_ranking_page_saves_nothing(organiser_client, season, value, message):
    before = list(Season.objects.values())
    page = organiser_client.post(
        "/organiser/season/spring/ranking/", {"best_of": "", "min_sessions": value}
    )
    assert page.status_code == 200 and message in page.content.decode()
    assert list(Season.objects.values()) == before


def test_the_ranking_page_is_for_the_seasons_organisers(client, season, make_user):
    client.force_login(make_user("stranger"))
    assert client.get("/organiser/season/spring/ranking/").status_code == 404
    assert (
        client.post("/organiser/season/spring/ranking/", {"min_sessions": "5"}).status_code == 404
    )
    assert Season.objects.get(pk=season.pk).min_sessions == 2


def test_the_command_takes_a_minimum_and_refuses_a_bad_one():
    call_command(
        "season", "create", "fall", "--name", "Fall", "--min-sessions", "4", stdout=io.StringIO()
    )
    assert Season.objects.get(slug="fall").min_sessions == 4
    for value, message in (("0", "give 1 or more"), ("500", "more than a season holds")):
        with pytest.raises(CommandError, match=message):
            call_command(
                "season",
                "create",
                "new",
                "--name",
                "New",
                "--min-sessions",
                value,
                stdout=io.StringIO(),
            )
    with pytest.raises(CommandError):
        call_command("season", "create", "new", "--name", "New", "--min-sessions", "lots")
    assert list(Season.objects.values_list("slug", flat=True)) == ["fall"]


def test_the_database_refuses_a_minimum_below_one(season):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.filter(pk=season.pk).update(min_sessions=0)
    assert Season.objects.get(pk=season.pk).min_sessions == 2
