"""Reseating and clearing a day ask first, say what stops working, and a reseat gives every table
a new link and code (a printed QR code would otherwise open a table seating other people)."""

import pytest
from django.test import Client
from django.utils import timezone
from scoring_factories import link, organiser_url as url, register, text_of

from tournaments.models import Seat, Table
from tournaments.services.seating import clear_seating, seat_day

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]


def _tables(day) -> dict[int, tuple[str, str]]:
    return {t.number: (t.link_token, t.code) for t in Table.objects.filter(day=day)}


def _seats(day) -> list[tuple[int, int]]:
    return sorted(Seat.objects.filter(day=day).values_list("table__number", "entry_id"))


def test_a_reseat_gives_every_table_a_new_link_and_code(tournament):
    register(tournament, count=10)
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    before = _tables(day)
    seat_day(day, seed=2)
    after = _tables(day)
    assert sorted(after) == sorted(before) == [1, 2]  # the same tables, numbered as before
    for number, (token, code) in before.items():
        assert after[number][0] != token and after[number][1] != code


def test_reseat_asks_first_and_a_post_without_the_answer_changes_nothing(
    tournament, organiser_client
):
    register(tournament, count=10)
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    old_table = Table.objects.get(day=day, number=1)
    seats, tables = _seats(day), _tables(day)
    response = organiser_client.post(url(tournament, "seating/1/seat/"), {"seed": "7"})
    page = text_of(response)
    assert response.status_code == 200
    assert "Reseat day 1?" in page
    assert "The old links, QR codes and codes stop working at once" in page
    assert "No seating chart, find-your-table list or score sheet of day 1 has been printed" in page
    assert 'name="seed" value="7"' in response.content.decode()
    assert _seats(day) == seats and _tables(day) == tables
    day.refresh_from_db()
    assert day.seed == 1
    assert Client().get(link(old_table)).status_code == 200  # its link still works

    organiser_client.post(url(tournament, "seating/1/seat/"), {"seed": "7", "confirmed": "on"})
    day.refresh_from_db()
    assert day.seed == 7
    assert Client().get(link(old_table)).status_code == 404  # the link-dead page
    assert Client().get(link(Table.objects.get(day=day, number=1))).status_code == 200


def test_the_first_seating_does_not_ask(tournament, organiser_client):
    register(tournament, count=10)
    organiser_client.post(url(tournament, "seating/1/seat/"), {"seed": "3"})
    day = tournament.days.get(number=1)
    assert day.seed == 3 and Table.objects.filter(day=day).count() == 2


def test_clear_asks_first_and_a_post_without_the_answer_changes_nothing(
    tournament, organiser_client
):
    register(tournament, count=10)
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    seats, tables = _seats(day), _tables(day)
    response = organiser_client.post(url(tournament, "seating/1/clear/"))
    page = text_of(response)
    assert "Clear day 1's seating?" in page
    assert "Every table link, QR code and code of the day stops working at once." in page
    assert _seats(day) == seats and _tables(day) == tables
    organiser_client.post(url(tournament, "seating/1/clear/"), {"confirmed": "on"})
    assert not Table.objects.filter(day=day).exists()
    day.refresh_from_db()
    assert day.seated_at is None


def test_a_visitor_can_neither_reseat_nor_clear(tournament, client):
    register(tournament, count=10)
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    tables = _tables(day)
    for path in ("seating/1/seat/", "seating/1/clear/"):
        assert client.post(url(tournament, path), {"confirmed": "on"}).status_code in (302, 403)
    assert _tables(day) == tables


def test_clearing_takes_the_tables_and_their_links_away(tournament):
    register(tournament, count=10)
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    old = Table.objects.get(day=day, number=1)
    clear_seating(day)
    assert not _tables(day)
    assert Client().get(link(old)).status_code == 404


def _printed_at(moment) -> str:
    return f"{timezone.localtime(moment):%H:%M}"


def test_reseat_and_clear_name_the_time_the_charts_and_sheets_were_printed(
    tournament, organiser_client
):
    register(tournament, count=10)
    day = tournament.days.get(number=1)
    seat_day(day, seed=1)
    organiser_client.get(url(tournament, "seating/1/chart.pdf"))
    day.refresh_from_db()
    assert day.charts_printed_at is not None and day.sheets_printed_at is None
    page = text_of(organiser_client.post(url(tournament, "seating/1/seat/"), {"seed": "7"}))
    charts = f"The seating charts printed at {_printed_at(day.charts_printed_at)} will be wrong"
    assert charts in page and "score sheets printed" not in page

    organiser_client.get(url(tournament, "day/1/score-sheets.pdf"))
    day.refresh_from_db()
    assert day.sheets_printed_at is not None
    page = text_of(organiser_client.post(url(tournament, "seating/1/clear/")))
    assert (
        f"The seating charts printed at {_printed_at(day.charts_printed_at)} and the score "
        f"sheets printed at {_printed_at(day.sheets_printed_at)} will be wrong"
    ) in page

    # The new seating has not been printed: the next reseat says so.
    organiser_client.post(url(tournament, "seating/1/seat/"), {"seed": "7", "confirmed": "on"})
    day.refresh_from_db()
    assert day.charts_printed_at is None and day.sheets_printed_at is None
    page = text_of(organiser_client.post(url(tournament, "seating/1/seat/"), {"seed": "8"}))
    assert "score sheet of day 1 has been printed yet" in page
