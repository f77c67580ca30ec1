"""A hidden finish on every output: public pages, projector, PDF, workbook, player pages, race
chart and public season pages stop at the chosen game; staff pages and the command line see
everything; the organiser hides and reveals, and nobody else can."""

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from openpyxl import load_workbook
from scoring_factories import fresh, snapshot, staff, two_days_that_turn_round
from season_factories import season_of
from standings_outputs import every_output, workbook_scores

from core.errors import ServiceError
from standings.race import race_chart
from standings.read import Cut, requested_standings, standings
from standings.seasons.read import season_standings
from tournaments.access import COMMAND_LINE
from tournaments.models import StandingsSettingChange, Tournament
from tournaments.services.events import set_hidden_finish, set_public_pages

pytestmark = pytest.mark.django_db

HIDDEN_TITLE = "Standings after game 1 of day 2"


@pytest.fixture
def event():
    made = two_days_that_turn_round()
    # A hidden finish is about what the public pages show: these start off on a new event.
    set_public_pages(made, True)
    return made


def hide(t, day, game=None):
    set_hidden_finish(t, day, game, by=COMMAND_LINE)
    return fresh(t)


def leader(result) -> str:
    return next(row.record.name for row in result.rows if row.rank == 1)


def test_every_public_output_stops_at_the_hidden_game_and_staff_see_the_end(event, organiser):
    full = standings(event)
    at_cut = standings(event, Cut(day=2, game=1))
    assert leader(full) != leader(at_cut)
    t = hide(event, 2, 1)

    staff_client = Client()
    staff_client.force_login(organiser)
    shown = every_output(t, staff_client)
    cut_totals = {row.record.name: str(row.total) for row in at_cut.rows}
    full_totals = {row.record.name: str(row.total) for row in full.rows}
    for name in ("public page", "projector", "pdf", "workbook"):
        assert shown[name].heading == HIDDEN_TITLE, name
        if name != "workbook":  # the workbook says it on its Rules sheet (below)
            assert "hidden for the last 2 games (from game 2 of day 2)" in shown[name].text, name
        if shown[name].totals:
            assert shown[name].totals == cut_totals, name
    for name in ("page", "command"):
        assert shown[name].heading == "Standings", name
        assert shown[name].totals == full_totals, name
    assert "Public pages and the projector stop after game 1 of day 2" in shown["page"].text
    assert "(--public)" in shown["command"].text
    book = load_workbook(io.BytesIO(Client().get("/t/cup/standings.xlsx").content))
    rules = dict(book["Rules"].iter_rows(min_row=2, values_only=True))
    assert rules["Hidden finish"].startswith("The standings are hidden for the last 2 games")
    # The public workbook's Scores sheet holds no hidden game.
    assert {(row[0], row[2]) for row in workbook_scores(t)} == {
        (1, 1),
        (1, 2),
        (1, 3),
        (2, 1),
    }


def test_a_later_cut_asked_for_is_held_at_the_finish_an_earlier_one_is_kept(event):
    t = hide(event, 2, 1)
    public = Client()
    for params in ({"after_day": 2}, {"after_day": "", "after_game": ""}, {"after_game": 3}):
        page = public.get("/t/cup/standings/", params).content.decode()
        assert f'<h2 id="standings-title">{HIDDEN_TITLE}</h2>' in page, params
    page = public.get("/t/cup/standings/", {"after_day": 1}).content.decode()
    assert '<h2 id="standings-title">Standings after day 1</h2>' in page
    assert "hidden for the last 2 games" in page
    assert requested_standings(t, {"after_day": 2}).title == "Standings after day 2"


def test_the_public_player_page_and_race_chart_stop_at_the_finish(event):
    t = hide(event, 2, 1)
    at_cut = standings(t, Cut(day=2, game=1))
    public = Client()
    ann = next(row for row in at_cut.rows if row.record.name == "Ann Lee")
    page = public.get(f"/t/cup/player/{ann.record.player_number}/").content.decode()
    assert f'id="player-total">{ann.total}<' in page
    assert "hidden for the last 2 games" in page
    # Day 2 shows its first game only: the hidden games' rows are not drawn.
    assert not re.search(r"Game 3\b[^<]*</t[hd]>\s*<td[^>]*>\s*\d", page.split("Day 2", 1)[-1])
    public_result = requested_standings(t, {}, public=True)
    assert race_chart(public_result) == race_chart(at_cut)
    assert race_chart(public_result) != race_chart(standings(t))


def test_the_public_pages_do_not_tell_when_a_hidden_game_was_saved(event):
    t = hide(event, 2, 1)
    page = Client().get("/t/cup/standings/").content.decode()
    assert "not shown while the last games are hidden" in page
    assert not re.search(r"<time datetime=", page.split('id="live"', 1)[1].split("</div>")[0])
    version = re.search(r'data-version="([^"]*)"', page).group(1)
    # A save to a hidden game changes nothing a public page shows, its version included.
    sheet = t.days.get(number=2).tables.first().sheets.get(game__number=3)
    sheet.scores.update(points=99)
    again = Client().get("/t/cup/standings/").content.decode()
    assert re.search(r'data-version="([^"]*)"', again).group(1) == version


def test_the_command_line_prints_what_the_public_sees(event):
    hide(event, 2, 1)
    out = io.StringIO()
    call_command("standings", "cup", "--public", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == f"Cup: {HIDDEN_TITLE}"
    assert lines[2].startswith("The standings are hidden for the last 2 games")


def test_revealing_shows_every_game_again(event):
    t = hide(event, 2, 1)
    set_hidden_finish(t, None, None, by=COMMAND_LINE)
    t = fresh(t)
    assert t.hidden_finish is None
    result = requested_standings(t, {}, public=True)
    assert result.title == "Standings" and not result.hidden_note
    assert len(workbook_scores(t)) == 2 * 3 * 7
    history = [(c.setting, c.before, c.after) for c in StandingsSettingChange.objects.all()]
    assert ("hidden_finish", [], [2, 1]) in history
    assert ("hidden_finish", [2, 1], []) in history


def test_a_public_season_leaves_out_a_day_the_finish_hides_in_part(event):
    season_of("year", SimpleEvent(event), public=True)
    hide(event, 2, 1)
    public = season_standings(season_of_slug("year"), public=True)
    assert [s.label for s in public.sessions] == ["Cup, day 1"]
    assert "Not counted here yet" in public.status_line and "Cup, day 2" in public.status_line
    staff_view = season_standings(season_of_slug("year"))
    assert [s.label for s in staff_view.sessions] == ["Cup, day 1", "Cup, day 2"]
    page = Client().get("/season/year/").content.decode()
    assert "Not counted here yet, while their standings are hidden" in page
    hide(event, 1)
    assert [s.label for s in season_standings(season_of_slug("year"), public=True).sessions] == [
        "Cup, day 1"
    ]


class SimpleEvent:
    def __init__(self, event):
        self.event = event


def season_of_slug(slug):
    from tournaments.models import Season

    return Season.objects.get(slug=slug)


@pytest.mark.parametrize(
    ("day", "game", "field"),
    [(3, None, "day"), (0, None, "day"), (1, 4, "game"), (2, None, "day"), (2, 3, "day")],
)
def test_a_finish_that_cannot_be_is_refused_and_changes_nothing(event, day, game, field):
    before = snapshot(Tournament, StandingsSettingChange)
    with pytest.raises(ServiceError) as refused:
        set_hidden_finish(event, day, game, by=COMMAND_LINE)
    assert refused.value.field == field
    assert snapshot(Tournament, StandingsSettingChange) == before


def test_only_an_organiser_hides_or_reveals(event):
    desk = staff(event, "desk1")
    before = snapshot(Tournament, StandingsSettingChange)
    with pytest.raises(ServiceError, match="Only an organiser"):
        set_hidden_finish(event, 2, 1, by=desk)
    assert snapshot(Tournament, StandingsSettingChange) == before


def test_the_organiser_hides_and_reveals_on_the_standings_page(event, organiser_client):
    url = "/organiser/t/cup/standings/hidden-finish/"
    page = organiser_client.get("/organiser/t/cup/standings/").content.decode()
    assert 'id="hidden-finish"' in page
    response = organiser_client.post(url, {"day": "2", "game": "1"}, follow=True)
    assert "Public pages and the projector stop after game 1 of day 2" in response.content.decode()
    assert fresh(event).hidden_finish.as_value() == [2, 1]
    response = organiser_client.post(url, {"reveal": "1"}, follow=True)
    assert "The standings are revealed" in response.content.decode()
    assert fresh(event).hidden_finish is None
    rules_page = organiser_client.get("/organiser/t/cup/rules/").content.decode()
    assert "Hidden finish" in rules_page and "Hidden after game 1 of day 2" in rules_page


@pytest.mark.parametrize(
    "posted",
    [
        {"day": "x"},
        {"day": "9"},
        {"day": "2", "game": "7"},
        {"day": "2"},
        {},
        {"day": "2", "game": "3"},
    ],
)
def test_bad_choices_on_the_page_say_why_and_change_nothing(event, organiser_client, posted):
    before = snapshot(Tournament, StandingsSettingChange)
    response = organiser_client.post(
        "/organiser/t/cup/standings/hidden-finish/", posted, follow=True
    )
    text = response.content.decode()
    assert "Nothing changed." in text
    assert snapshot(Tournament, StandingsSettingChange) == before


def test_the_desk_sees_the_note_but_no_form_and_cannot_post(event, client):
    hide(event, 2, 1)
    client.force_login(staff(event, "desk1"))
    page = client.get("/organiser/t/cup/standings/").content.decode()
    assert "Public pages and the projector stop after game 1 of day 2" in page
    assert 'id="hidden-finish"' not in page
    response = client.post("/organiser/t/cup/standings/hidden-finish/", {"reveal": "1"})
    assert response.status_code in (302, 403)
    assert fresh(event).hidden_finish is not None
    anonymous = Client().post("/organiser/t/cup/standings/hidden-finish/", {"reveal": "1"})
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    assert fresh(event).hidden_finish is not None


def run(*args) -> str:
    out = io.StringIO()
    call_command("hidden_finish", *args, stdout=out)
    return out.getvalue()


def test_the_command_hides_reports_and_reveals(event):
    assert run("cup") == "Nothing is hidden: public pages show every game.\n"
    said = run("cup", "--after-day", "2", "--after-game", "1")
    assert said.startswith("Public pages and the projector stop after game 1 of day 2")
    assert fresh(event).hidden_finish.as_value() == [2, 1]
    assert run("cup", "--after-day", "2", "--after-game", "1").startswith("Nothing changed.")
    assert "stop after day 1: the last 3 games" in run("cup", "--after-day", "1")
    assert run("cup", "--reveal").startswith("Nothing is hidden")
    assert fresh(event).hidden_finish is None


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["nope", "--after-day", "1"], 'There is no tournament with the slug "nope"'),
        (["cup", "--after-day", "3"], "--after-day: Choose a day from 1 to 2."),
        (["cup", "--after-day", "1", "--after-game", "4"], "--after-game: Choose a game"),
        (["cup", "--after-day", "2"], "--after-day: That is the end of the event"),
        (["cup", "--after-game", "2"], "Give --after-day with --after-game."),
        (["cup", "--reveal", "--after-day", "1"], "Give --reveal alone"),
    ],
)
def test_the_command_refuses_with_the_option_and_changes_nothing(event, args, said):
    before = snapshot(Tournament, StandingsSettingChange)
    with pytest.raises(CommandError, match=re.escape(said)):
        run(*args)
    assert snapshot(Tournament, StandingsSettingChange) == before
