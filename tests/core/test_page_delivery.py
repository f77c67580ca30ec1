"""How pages travel: gzip only where no secret rides along, the favicon, the projector's refresh."""

import gzip
import re

import pytest
from django.contrib.staticfiles import finders
from scoring_factories import seated_day

pytestmark = pytest.mark.django_db

GZIP = {"HTTP_ACCEPT_ENCODING": "gzip, deflate"}


def body(response) -> bytes:
    content = response.content
    return gzip.decompress(content) if response.get("Content-Encoding") == "gzip" else content


@pytest.fixture
def event(demo_tournament):
    return demo_tournament


@pytest.mark.parametrize(
    "path",
    [
        "/t/{slug}/",
        "/t/{slug}/standings/",
        "/t/{slug}/find-your-table/?q=jensen",
        "/t/{slug}/projector/",
        "/t/{slug}/projector/?page=5",  # the race chart
        "/t/{slug}/player/2/",
    ],
)
def test_public_pages_are_gzipped_and_read_the_same(client, event, path):
    url = path.format(slug=event.slug)
    plain = client.get(url)
    packed = client.get(url, **GZIP)
    assert plain.status_code == packed.status_code == 200
    assert plain.get("Content-Encoding") is None  # a browser that did not ask gets plain HTML
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    assert len(packed.content) < len(plain.content)
    assert b"csrfmiddlewaretoken" not in body(packed)
    assert body(packed).count(b"<tr") == plain.content.count(b"<tr")


def test_public_standings_shrink_to_a_fraction(client, event):
    plain = client.get(f"/t/{event.slug}/standings/")
    packed = client.get(f"/t/{event.slug}/standings/", **GZIP)
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 3


def test_a_public_page_holding_a_csrf_token_goes_out_plain(client, event, organiser):
    # Logged in, every page carries the log-out button and its CSRF token: no compression, so
    # the page's size says nothing about the token (BREACH).
    client.force_login(organiser)
    response = client.get(f"/t/{event.slug}/find-your-table/?q=csrfmiddlewaretoken", **GZIP)
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content
    assert response.get("Content-Encoding") is None


def test_the_home_page_with_its_table_code_form_goes_out_plain(client, event):
    # "Enter your table code" is a form with a CSRF token, so the home page is never compressed.
    response = client.get("/", **GZIP)
    assert response.status_code == 200
    assert b"csrfmiddlewaretoken" in response.content
    assert response.get("Content-Encoding") is None


def test_the_table_page_and_organiser_pages_are_never_gzipped(client, organiser):
    world = seated_day()
    table_page = client.get(f"/table/{world.tables[0].link_token}/", **GZIP)
    assert table_page.status_code == 200 and table_page.get("Content-Encoding") is None
    client.force_login(organiser)
    for url in (
        f"/organiser/t/{world.tournament.slug}/standings/",
        f"/organiser/t/{world.tournament.slug}/players/",
        "/accounts/login/",
    ):
        response = client.get(url, **GZIP)
        assert response.status_code == 200, url
        assert response.get("Content-Encoding") is None, url


def test_downloads_are_not_gzipped_by_the_page_rule(client, event):
    response = client.get(f"/t/{event.slug}/standings.pdf", **GZIP)
    assert response.status_code == 200 and response.get("Content-Encoding") is None


def test_favicon_is_our_own_file(client, event):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith("img/favicon.ico")
    assert client.post("/favicon.ico").status_code == 405
    assert finders.find("img/favicon.ico") and finders.find("img/favicon.svg")
    page = client.get(f"/t/{event.slug}/").content.decode()
    assert re.search(r'<link rel="icon" href="[^"]*img/favicon\.svg"', page)


def test_projector_refresh_reads_seconds_then_the_next_screen(client, event):
    page = client.get(f"/t/{event.slug}/projector/?seconds=12").content.decode()
    content = re.search(r'http-equiv="refresh" content="([^"]+)"', page).group(1)
    # The HTML standard's form: the delay, a semicolon, a space, then url=.
    assert re.fullmatch(r"12; url=/t/[\w-]+/projector/\?page=2&amp;seconds=12", content)
