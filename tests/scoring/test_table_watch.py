"""The table page's poll (issue 24): the table's private link answers with a short fingerprint
of its sheets, so the page notices by itself when the desk marks a game wrong or another phone
saves one. The same access as the table page, and a fixed number of queries."""

import pytest
from django.urls import reverse
from scoring_factories import T1, client_for, link, phone_enters, phone_post, stored_sheet

from scoring import services
from scoring.unplayed import mark_not_played

pytestmark = pytest.mark.django_db


def watch_url(table):
    return reverse("scorekeeper:table_watch", args=[table.link_token])


def test_the_poll_says_each_games_version_and_state_and_the_games_not_played(world, client):
    table = world.tables[0]
    first = phone_enters(world, 0, 1, T1, "Ann Lee").sheet
    phone_enters(world, 0, 2, {"Ann Lee": 5, "Bob Roe": 0, "Cy Doe": 9, "Di Fox": 3}, "Bob Roe")
    services.reject_game(table, world.games[1], first.version, world.desk, "the card says 9")
    mark_not_played(table, world.games[4], reason="time ran out", user=world.boss)
    response = client.get(watch_url(table))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert response.json() == {
        "fingerprint": "1.1.w 2.1.e 4.0.n",
        "games": [
            {"game": 1, "version": 1, "state": "rejected"},
            {"game": 2, "version": 1, "state": "entered"},
        ],
        "not_played": [4],
    }


def test_the_table_page_is_drawn_with_the_fingerprint_the_poll_gives(world, client):
    table = world.tables[0]
    sheet = phone_enters(world, 0, 1, T1, "Ann Lee").sheet
    services.reject_game(table, world.games[1], sheet.version, world.desk, "the card says 9")
    client.post(link(table), phone_post(world, game=1, base=0))  # entered again: version 2
    page = client.get(link(table)).content.decode()
    fingerprint = client.get(watch_url(table)).json()["fingerprint"]
    assert fingerprint == "1.2.e"
    assert f'data-fingerprint="{fingerprint}"' in page
    assert f'data-watch="{watch_url(table)}"' in page


def test_the_poll_is_two_queries_however_many_games(world, client, django_assert_num_queries):
    table = world.tables[1]  # three players
    with django_assert_num_queries(2):
        assert client.get(watch_url(table)).json()["fingerprint"] == ""
    for number in range(1, 6):
        stored_sheet(table, world.games[number], out=None)
    mark_not_played(table, world.games[6], reason="time ran out", user=world.boss)
    with django_assert_num_queries(2):
        answer = client.get(watch_url(table)).json()
    assert answer["fingerprint"] == "1.1.c 2.1.c 3.1.c 4.1.c 5.1.c 6.0.n"


def test_a_renewed_link_or_a_closed_day_gets_the_link_dead_page(world, client):
    table = world.tables[0]
    old = watch_url(table)
    renewed = services.regenerate_table_link(table, world.boss)
    response = client.get(old)
    assert response.status_code == 404
    assert b"fingerprint" not in response.content
    assert client.get(watch_url(renewed)).status_code == 200
    services.close_day(world.day, world.boss)
    closed = client.get(watch_url(renewed))
    assert closed.status_code == 404
    assert b"fingerprint" not in closed.content
    assert client.get("/table/no-such-link/sheets/").status_code == 404


def test_the_poll_needs_no_login_and_a_staff_login_opens_no_other_table(world):
    desk = client_for(world.desk)
    assert desk.get("/table/" + "x" * 80 + "/sheets/").status_code == 404
    assert desk.get(watch_url(world.tables[0])).status_code == 200
