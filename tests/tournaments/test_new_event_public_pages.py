"""A new event's public pages start off until its organiser turns them on: on the web, on the
command line and through the service; the demo stays public; the overview says which it is
and holds the switch."""

import io

import pytest
from django.core.management import call_command
from django.test import Client
from scoring_factories import staff

from tournaments.models import StaffRole, Tournament
from tournaments.services.events import create_tournament

pytestmark = pytest.mark.django_db


def test_the_service_and_the_command_make_events_with_public_pages_off():
    assert create_tournament(slug="a", name="A", preset_key="tournament").public_pages is False
    call_command(
        "new_tournament", "b", "--name", "B", "--rules", "tournament", stdout=io.StringIO()
    )
    call_command(
        "new_tournament",
        "c",
        "--name",
        "C",
        "--rules",
        "tournament",
        "--public",
        stdout=io.StringIO(),
    )
    assert dict(Tournament.objects.values_list("slug", "public_pages")) == {
        "a": False,
        "b": False,
        "c": True,
    }
    anyone = Client()
    assert anyone.get("/t/b/").status_code == 404
    assert anyone.get("/t/b/standings/").status_code == 404
    assert anyone.get("/t/c/standings/").status_code == 200


def test_the_demo_event_stays_public(demo_tournament):
    assert demo_tournament.public_pages is True
    assert Client().get(f"/t/{demo_tournament.slug}/standings/").status_code == 200


def test_an_event_made_on_the_web_starts_private_and_its_overview_says_how_to_open_it(
    organiser_client,
):
    made = organiser_client.post(
        "/organiser/new/",
        {"name": "Club Night", "preset": "club-session", "slug": "night"},
        follow=True,
    )
    assert "Its public pages stay off until you turn them on from its overview." in (
        made.content.decode()
    )
    assert Tournament.objects.get(slug="night").public_pages is False
    assert Client().get("/t/night/standings/").status_code == 404

    overview = organiser_client.get("/organiser/t/night/").content.decode()
    assert 'id="public-pages-off"' in overview
    assert "Public pages are off: the standings, the projector board" in overview
    assert "Turn public pages on" in overview
    turned = organiser_client.post(
        "/organiser/t/night/standings/public/", {"public_pages": "on", "from": "overview"}
    )
    assert turned.status_code == 302 and turned["Location"] == "/organiser/t/night/"
    assert Tournament.objects.get(slug="night").public_pages is True
    assert Client().get("/t/night/standings/").status_code == 200
    overview = organiser_client.get("/organiser/t/night/").content.decode()
    assert 'id="public-pages-off"' not in overview
    assert (
        "Public pages are <strong>on</strong>" in overview and "Turn public pages off" in overview
    )
    # From the standings page the switch still leads back there.
    back = organiser_client.post("/organiser/t/night/standings/public/", {"public_pages": "off"})
    assert back["Location"] == "/organiser/t/night/standings/"
    assert Tournament.objects.get(slug="night").public_pages is False


def test_desk_staff_are_told_but_get_no_switch(client):
    event = create_tournament(slug="night", name="Night", preset_key="club-session")
    client.force_login(staff(event, "desk", StaffRole.DESK))
    overview = client.get("/organiser/t/night/").content.decode()
    assert "Public pages are off" in overview and "An organiser of the event can turn them on." in (
        overview
    )
    assert "Turn public pages on" not in overview
    refused = client.post(
        "/organiser/t/night/standings/public/", {"public_pages": "on", "from": "overview"}
    )
    assert refused.status_code == 403
    assert Tournament.objects.get(slug="night").public_pages is False


def test_a_practice_copy_shows_no_public_switch(organiser_client, make_tournament, organiser):
    real = make_tournament(slug="real", organiser=organiser)
    event = make_tournament(slug="night", organiser=organiser)
    Tournament.objects.filter(pk=event.pk).update(practice_of=real)
    overview = organiser_client.get("/organiser/t/night/").content.decode()
    assert 'id="public-pages"' not in overview
