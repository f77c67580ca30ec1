"""The season pages: who sees them, what they show, the downloads."""

import pytest
from scoring_factories import staff
from season_factories import club_session, people, season_of

from tournaments.models import Season, StaffRole, Tournament
from tournaments.selectors import seasons_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    who = people("Ann Lee", "Bob Roe", "Cy Doe", club="Elks")
    one = club_session(
        "week-1",
        [["Ann Lee", "Bob Roe", "Cy Doe"]],
        who,
        scores=[[{"Ann Lee": 10, "Bob Roe": 20, "Cy Doe": 5}]],
    )
    two = club_session(
        "week-2", [["Ann Lee", "Bob Roe"]], who, scores=[[{"Ann Lee": 7, "Bob Roe": 2}]]
    )
    made = season_of("spring", one, two, best_of=2)
    made.who = who
    return made


def test_staff_of_every_event_see_the_season_page(client, season):
    organiser = staff(Tournament.objects.get(slug="week-1"), "boss", StaffRole.ORGANISER)
    StaffRole.objects.create(
        tournament=Tournament.objects.get(slug="week-2"), user=organiser, role=StaffRole.DESK
    )
    client.force_login(organiser)
    page = client.get("/organiser/season/spring/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ranked by the best 2 of 2 sessions" in text
    assert "Bob Roe" in text and "1 of 2" in text
    # A desk role in one event is not an organiser of every event: no public switch.
    assert "Make it public" not in text
    assert (
        client.post("/organiser/season/spring/public/", {"public_pages": "on"}).status_code == 403
    )
    assert not Season.objects.get(pk=season.pk).public_pages


def test_staff_of_only_some_events_and_strangers_get_404(client, season):
    client.force_login(staff(Tournament.objects.get(slug="week-1"), "desk"))
    assert client.get("/organiser/season/spring/").status_code == 404
    assert client.get("/organiser/season/spring.pdf").status_code == 404
    client.logout()
    assert client.get("/organiser/season/spring/").status_code == 302  # to the login page


def test_public_page_only_when_the_season_and_every_event_are_public(client, season):
    assert client.get("/season/spring/").status_code == 404
    Season.objects.filter(pk=season.pk).update(public_pages=True)
    # The season's page waits for every event's public pages too, which start off.
    assert client.get("/season/spring/").status_code == 404
    Tournament.objects.filter(slug__in=["week-1", "week-2"]).update(public_pages=True)
    page = client.get("/season/spring/")
    assert page.status_code == 200 and "Ann Lee" in page.content.decode()
    assert client.get("/season/spring.xlsx").status_code == 200
    Tournament.objects.filter(slug="week-2").update(public_pages=False)
    assert client.get("/season/spring/").status_code == 404
    assert client.get("/season/spring.pdf").status_code == 404
    ann = season.who["Ann Lee"].pk
    assert client.get(f"/season/spring/player/{ann}/").status_code == 404
    assert client.post("/season/spring/").status_code == 405


def test_superuser_turns_the_public_page_on(organiser_client, season):
    response = organiser_client.post("/organiser/season/spring/public/", {"public_pages": "on"})
    assert response.status_code == 302
    assert Season.objects.get(pk=season.pk).public_pages


def test_player_page_lists_each_session(organiser_client, season):
    ann = season.who["Ann Lee"].pk
    page = organiser_client.get(f"/organiser/season/spring/player/{ann}/")
    text = page.content.decode()
    assert page.status_code == 200
    assert "2 of 2 sessions" in text and "Week 1" in text and "Week 2" in text
    assert 'id="player-best">17<' in text
    assert organiser_client.get("/organiser/season/spring/player/999999/").status_code == 404


def test_downloads(organiser_client, season):
    pdf = organiser_client.get("/organiser/season/spring.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    assert 'filename="spring-season-standings.pdf"' in pdf["Content-Disposition"]
    xlsx = organiser_client.get("/organiser/season/spring.xlsx")
    assert xlsx["Content-Disposition"].startswith("attachment")


def test_create_a_season_and_add_and_remove_events_on_the_web(organiser_client, season):
    page = organiser_client.post(
        "/organiser/seasons/new/",
        {"name": "Fall 2027", "slug": "fall-2027", "best_of": "8", "avoid_earlier_pairings": "on"},
    )
    assert page.status_code == 302 and page["Location"] == "/organiser/season/fall-2027/events/"
    fall = Season.objects.get(slug="fall-2027")
    assert (fall.best_of, fall.avoid_earlier_pairings) == (8, True)
    people_ = people("Zed Roy")
    club_session("free-week", [["Zed Roy"]], people_)
    form = organiser_client.get("/organiser/season/fall-2027/events/").content.decode()
    # Only events in no season are offered.
    assert 'value="free-week"' in form and 'value="week-1"' not in form
    organiser_client.post("/organiser/season/fall-2027/events/", {"event": "free-week"})
    assert list(fall.season_events.values_list("tournament__slug", flat=True)) == ["free-week"]
    organiser_client.post("/organiser/season/fall-2027/events/remove/", {"event": "free-week"})
    assert not fall.season_events.exists()


def test_refused_season_form_changes_nothing(organiser_client, season):
    before = list(Season.objects.values())
    page = organiser_client.post(
        "/organiser/seasons/new/", {"name": "Again", "slug": "spring", "best_of": ""}
    )
    assert page.status_code == 200
    assert "cannot be used for a new season" in page.content.decode()
    assert "another season" not in page.content.decode()
    assert list(Season.objects.values()) == before
    # Every mistake at once: a blank name, a short name with spaces, best of 0.
    page = organiser_client.post(
        "/organiser/seasons/new/", {"name": " ", "slug": "Bad Slug!", "best_of": "0"}
    )
    text = page.content.decode()
    assert page.status_code == 200 and "This field is required." in text
    assert "greater than or equal to 1" in text
    assert text.count('class="field-error"') >= 3, "the short name's mistake is not shown too"
    assert list(Season.objects.values()) == before


def test_season_pages_need_the_right_to_create_or_run(client, season):
    user = staff(Tournament.objects.get(slug="week-1"), "desk")
    client.force_login(user)
    assert client.get("/organiser/seasons/new/").status_code == 403
    assert client.get("/organiser/season/spring/events/").status_code == 404


def test_hostile_names_stay_text_on_the_page_and_in_the_workbook(organiser_client):
    import io

    import openpyxl

    who = people("<b>Bold</b>", '=HYPERLINK("http://x")')
    week = club_session("odd-week", [list(who)], who, scores=[[dict.fromkeys(who, 3)]])
    season_of("odd", week)
    page = organiser_client.get("/organiser/season/odd/").content.decode()
    assert "<b>Bold</b>" not in page and "&lt;b&gt;Bold&lt;/b&gt;" in page
    book = openpyxl.load_workbook(
        io.BytesIO(organiser_client.get("/organiser/season/odd.xlsx").content)
    )
    cells = [
        c for row in book["Season"].iter_rows() for c in row if c.value == '=HYPERLINK("http://x")'
    ]
    assert cells and all(c.data_type == "s" for c in cells)


def test_the_event_page_names_its_season(organiser_client, season):
    page = organiser_client.get("/organiser/t/week-2/").content.decode()
    assert "Event 2 of the season" in page and 'href="/organiser/season/spring/"' in page


def test_the_organiser_home_lists_the_season_once_under_its_own_heading(organiser_client, season):
    page = organiser_client.get("/organiser/").content.decode()
    assert "<title>My tournaments · Mexican Train</title>" in page
    assert page.count("<h2>Seasons</h2>") == 1
    assert page.count(f">{season.name}</a>") == 1


def _event_creator(make_user, username):
    from django.contrib.auth.models import Permission

    user = make_user(username)
    user.user_permissions.add(Permission.objects.get(codename="create_tournament"))
    return user


def test_an_empty_season_is_only_its_makers_until_its_first_event(client, make_user):
    """Another organiser who may create events can neither see nor fill someone else's empty
    season (it used to be anyone's who could create events), and cannot learn its name."""
    maker = _event_creator(make_user, "maker")
    other = _event_creator(make_user, "other")
    client.force_login(maker)
    made = client.post("/organiser/seasons/new/", {"name": "Secret", "slug": "secret-2027"})
    assert made.status_code == 302
    season = Season.objects.get(slug="secret-2027")
    assert season.created_by == maker
    assert client.get("/organiser/season/secret-2027/events/").status_code == 200
    assert [s.slug for s in seasons_for(maker)] == ["secret-2027"]

    people_ = people("Zed Roy")
    club_session("others-night", [["Zed Roy"]], people_)
    StaffRole.objects.create(
        tournament=Tournament.objects.get(slug="others-night"), user=other, role=StaffRole.ORGANISER
    )
    client.force_login(other)
    assert seasons_for(other) == []
    assert client.get("/organiser/season/secret-2027/").status_code == 404
    assert client.get("/organiser/season/secret-2027/events/").status_code == 404
    taken = client.post("/organiser/season/secret-2027/events/", {"event": "others-night"})
    assert taken.status_code == 404
    assert not season.season_events.exists()
    # Trying the name on "New season" does not say a season of that name exists elsewhere.
    probe = client.post("/organiser/seasons/new/", {"name": "Mine", "slug": "secret-2027"})
    text = probe.content.decode()
    assert probe.status_code == 200 and "cannot be used for a new season" in text
    assert "another season" not in text and "Secret" not in text
    assert list(Season.objects.values_list("slug", flat=True)) == ["secret-2027"]


def test_a_superuser_sees_every_empty_season(organiser_client, make_user):
    from tournaments.services.seasons import create_season

    create_season(slug="made-by-command", name="From the command line")
    maker = _event_creator(make_user, "maker")
    create_season(slug="made-by-maker", name="Maker's", created_by=maker)
    for slug in ("made-by-command", "made-by-maker"):
        assert organiser_client.get(f"/organiser/season/{slug}/events/").status_code == 200
