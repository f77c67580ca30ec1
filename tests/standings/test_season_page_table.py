"""The season page's table as the event standings': searched by name or club (accents and
case do not matter), sorted by any column with each row keeping its rank, on the organiser's
and the public page; a search that finds nobody says so."""

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from season_factories import club_session, people, season_of

pytestmark = pytest.mark.django_db


class _Rows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.cell, self.inside = [], None, False

    def handle_starttag(self, tag, attrs):
        if tag == "table" and dict(attrs).get("id") == "season-standings":
            self.inside = True
        elif self.inside and tag == "tr":
            self.rows.append([])
        elif self.inside and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join(self.cell.split()))
            self.cell = None
        elif tag == "table":
            self.inside = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def table(response):
    """(headings, body rows) of the season table."""
    assert response.status_code == 200
    parser = _Rows()
    parser.feed(response.content.decode())
    return parser.rows[0], parser.rows[1:]


@pytest.fixture
def season():
    """Week 1 and 2: José (Elks) 6 a game, Bob (Moose) 10, Ann (Elks) 15; Cy (Moose) only week 2."""
    who = {
        **people("José Núñez", "Ann Lee", club="Elks"),
        **people("Bob Roe", "Cy Doe", club="Moose Lodge"),
    }
    four = ["José Núñez", "Bob Roe", "Ann Lee"]
    one = club_session(
        "week-1", [four], who, scores=[[{"José Núñez": 6, "Bob Roe": 10, "Ann Lee": 15}]]
    )
    two = club_session(
        "week-2",
        [[*four, "Cy Doe"]],
        who,
        scores=[[{"José Núñez": 6, "Bob Roe": 10, "Ann Lee": 15, "Cy Doe": 1}]],
    )
    made = season_of("spring", one, two, best_of=2, public=True)
    return made


URLS = ["/organiser/season/spring/", "/season/spring/"]


@pytest.mark.parametrize("url", URLS)
def test_sorting_keeps_each_rows_rank(organiser_client, url, season):
    # The public page as anyone sees it, not logged in.
    viewer = organiser_client if url.startswith("/organiser") else Client()
    _, rows = table(viewer.get(url, {"columns": "all"}))
    assert [(r[0], r[1]) for r in rows] == [
        ("1", "José Núñez"),
        ("2", "Bob Roe"),
        ("3", "Ann Lee"),
        ("-", "Cy Doe"),
    ]
    _, by_name = table(viewer.get(url, {"sort": "name", "columns": "all"}))
    assert [(r[0], r[1]) for r in by_name] == [
        ("3", "Ann Lee"),
        ("2", "Bob Roe"),
        ("-", "Cy Doe"),
        ("1", "José Núñez"),
    ]
    _, down = table(viewer.get(url, {"sort": "-rank"}))
    assert [r[0] for r in down] == ["-", "3", "2", "1"]
    # A column some rows have no figure in lists those rows last, whichever the direction.
    for sort in ("best", "-best"):
        _, by_best = table(viewer.get(url, {"sort": sort}))
        assert by_best[-1][:2] == ["-", "Cy Doe"]
    _, avg_down = table(viewer.get(url, {"sort": "-average", "columns": "all"}))
    assert [r[1] for r in avg_down] == ["Ann Lee", "Bob Roe", "José Núñez", "Cy Doe"]
    # An unknown column is ignored: the ranking.
    _, odd = table(viewer.get(url, {"sort": "nonsense"}))
    assert [r[0] for r in odd] == ["1", "2", "3", "-"]


@pytest.mark.parametrize("url", URLS)
def test_search_by_name_or_club_without_accents(organiser_client, url, season):
    # The public page as anyone sees it, not logged in.
    viewer = organiser_client if url.startswith("/organiser") else Client()
    _, found = table(viewer.get(url, {"q": "nunez"}))
    assert [r[:2] for r in found] == [["1", "José Núñez"]]
    _, lodge = table(viewer.get(url, {"q": "MOOSE", "sort": "name"}))
    assert [r[:2] for r in lodge] == [["2", "Bob Roe"], ["-", "Cy Doe"]]
    _, nobody = table(viewer.get(url, {"q": "zz"}))
    assert nobody == [["No players match “zz”."]]
    page = viewer.get(url, {"q": "moose", "sort": "name"}).content.decode()
    assert 'value="moose"' in page and 'name="sort" value="name"' in page
    # The sort links keep the search, and "every column" keeps both.
    assert "q=moose" in page and "columns=all" in page


def test_headings_sort_links_and_the_phone_keeps_the_ranked_column(organiser_client, season):
    page = organiser_client.get("/organiser/season/spring/").content.decode()
    assert 'href="?sort=name"' in page
    best = re.search(r'<th class="([^"]*col-best[^"]*)"', page)
    assert best and {"ranked", "orderable", "num"} <= set(best.group(1).split())
    headings, _ = table(organiser_client.get("/organiser/season/spring/"))
    assert headings[:4] == ["Rank", "Player", "Club", "Sessions"]


def test_a_season_without_games_says_so_and_shows_no_search_result(organiser_client):
    season_of("empty")
    page = organiser_client.get("/organiser/season/empty/", {"q": "ann"}).content.decode()
    assert "No confirmed games yet." in page and "No players match" not in page
