""" "Call the desk": a table's phone calls, the grid and the day board show the call with its table
and age until the desk answers it, calls are throttled per table, and a link reaches only its
own table."""

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from scoring_factories import client_for, link, seated_day, snapshot, staff, text_of

from core.errors import ServiceError
from scoring.day_board import day_board
from scoring.desk_calls import answer_call, call_the_desk, open_calls
from scoring.models import DeskCall
from scoring.selectors import day_grid
from scoring.services import close_day
from tournaments.models import StaffRole

pytestmark = pytest.mark.django_db


def call_url(table):
    return reverse("scorekeeper:call_desk", args=[table.link_token])


def answer_url(w, call):
    return reverse("organiser:answer_call", args=[w.tournament.slug, 1, call.pk])


def test_a_call_shows_on_the_grid_and_the_board_until_the_desk_answers(world):
    second = world.tables[1]
    before = day_board(world.day).version
    now = timezone.now()
    call_the_desk(second, "dispute", now=now - timedelta(minutes=4))
    board = day_board(world.day)
    assert board.version != before
    tiles = {tile.number: tile for tile in board.tiles}
    assert [c.words for c in tiles[2].calls] == ["a dispute"] and not tiles[1].calls
    assert "tile-calling" in tiles[2].css_class
    assert [(c.table_number, c.age) for c in board.calls] == [(2, "4 minutes ago")]
    grid = day_grid(world.day)
    assert [c.table_number for c in grid["calls"]] == [2]
    rows = {row["table"].number: row for row in grid["rows"]}
    assert [c.reason for c in rows[2]["calls"]] == ["dispute"] and rows[1]["calls"] == []

    page = client_for(world.desk).get(reverse("organiser:day_board", args=["cup", 1]))
    text = text_of(page)
    assert "Calling the desk: 1 table" in text
    assert "Table 2: a dispute, 4 minutes ago" in text
    grid_page = text_of(
        client_for(world.desk).get(reverse("organiser:scores_day", args=["cup", 1]))
    )
    assert "Calling the desk: a dispute, 4 minutes ago" in grid_page

    call = DeskCall.objects.get()
    response = client_for(world.desk).post(answer_url(world, call), {"back": "board"})
    assert response["Location"] == reverse("organiser:day_board", args=["cup", 1])
    call.refresh_from_db()
    assert call.answered_at is not None and call.answered_by_label == world.desk.username
    assert open_calls(world.day) == [] and day_board(world.day).calls == []
    # The same answer again says who answered it, and changes nothing.
    again = client_for(world.boss).post(answer_url(world, call), follow=True)
    assert f"{world.desk.username} answered table 2's call at" in text_of(again)
    assert DeskCall.objects.get().answered_by_label == world.desk.username


def test_the_phone_calls_from_its_page_and_sees_its_call_waiting(world):
    table = world.tables[0]
    phone = Client()
    page = text_of(phone.get(link(table)))
    assert "Call the desk" in page and "Need help? Press a button" in page
    response = phone.post(call_url(table), {"reason": "tile"})
    assert response.status_code == 302 and response["Location"] == link(table)
    page = text_of(phone.get(response["Location"]))
    assert "The desk is called (a missing tile). Someone will come to table 1." in page
    assert "You called the desk at" in page and "(a missing tile)" in page
    assert [(c.table_id, c.reason) for c in DeskCall.objects.all()] == [(table.pk, "tile")]


def test_a_button_pressed_again_or_by_a_second_phone_makes_no_second_call(world):
    table = world.tables[0]
    now = timezone.now()
    call_the_desk(table, "dispute", now=now - timedelta(minutes=3))
    before = snapshot(DeskCall)
    with pytest.raises(ServiceError, match="already has your call about a dispute"):
        call_the_desk(table, "dispute", now=now)
    second_phone = Client()
    page = text_of(second_phone.post(call_url(table), {"reason": "dispute"}, follow=True))
    assert "The desk already has your call about a dispute (3 minutes ago)" in page
    assert snapshot(DeskCall) == before
    # Another reason goes through, but not twice within a minute.
    call_the_desk(table, "rule", now=now)
    with pytest.raises(ServiceError, match="less than a minute ago"):
        call_the_desk(table, "done", now=now + timedelta(seconds=30))
    call_the_desk(table, "done", now=now + timedelta(seconds=61))
    assert DeskCall.objects.filter(answered_at__isnull=True).count() == 3
    # Another table is not held back by this one.
    call_the_desk(world.tables[1], "dispute", now=now + timedelta(seconds=62))


@pytest.mark.parametrize("posted", [{}, {"reason": ""}, {"reason": "fire"}, {"reason": "x" * 5000}])
def test_a_call_without_a_known_reason_says_so_and_stores_nothing(world, posted):
    table = world.tables[0]
    page = text_of(Client().post(call_url(table), posted, follow=True))
    assert "Choose one of the buttons" in page
    assert not DeskCall.objects.exists()


def test_a_dead_link_or_a_closed_day_calls_nobody(world):
    table = world.tables[0]
    dead = Client().post("/table/not-a-token/call/", {"reason": "dispute"})
    assert dead.status_code == 404
    close_day(world.day, world.boss)
    table.refresh_from_db()
    # A closed day's links are dead: its phones are sent to the desk in person.
    assert Client().post(call_url(table), {"reason": "dispute"}).status_code == 404
    with pytest.raises(ServiceError, match="closed"):
        call_the_desk(table, "dispute")
    assert not DeskCall.objects.exists()
    assert open_calls(world.day) == []


def test_a_call_is_a_post_with_its_token_and_csrf(world):
    table = world.tables[0]
    assert Client().get(call_url(table)).status_code == 405
    strict = Client(enforce_csrf_checks=True)
    strict.get(link(table))
    assert strict.post(call_url(table), {"reason": "dispute"}).status_code == 403
    assert not DeskCall.objects.exists()


def test_only_this_events_desk_answers_and_only_this_days_calls(world):
    call = call_the_desk(world.tables[0], "done")
    other = seated_day(slug="other")
    stranger = staff(other.tournament, "stranger")
    response = client_for(stranger).post(answer_url(world, call))
    assert response.status_code in (403, 404)
    anonymous = Client().post(answer_url(world, call))
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    with pytest.raises(ServiceError, match="no such call"):
        answer_call(other.day, call.pk, by=stranger)
    with pytest.raises(ServiceError, match="no such call"):
        answer_call(world.day, 10**6, by=world.desk)
    assert DeskCall.objects.get().answered_at is None
    # A GET never answers.
    assert client_for(world.desk).get(answer_url(world, call)).status_code == 405
    assert DeskCall.objects.get().answered_at is None


def test_an_organiser_answers_from_the_grid_and_goes_back_to_it(world):
    call = call_the_desk(world.tables[1], "rule")
    boss = client_for(world.boss)
    response = boss.post(answer_url(world, call), {"back": "grid"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("organiser:scores_day", args=["cup", 1])
    assert "Table 2's call (a rule question) is answered." in text_of(response)
    assert StaffRole.objects.filter(user=world.boss, role=StaffRole.ORGANISER).exists()
