"""The desk's day: confirm a card at once, the grid's order, how a confirmation came about, and a
game marked wrong reaching the table."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from page_fields import value_of
from scoring_factories import T1, T2, client_for, phone_enters, snapshot, text_of, typed

from scoring import services
from scoring.models import AuditEvent, GameSheet, SheetState, Source
from tournaments.models import Seat

pytestmark = pytest.mark.django_db

GAME2_T1 = {"Ann Lee": 9, "Bob Roe": 0, "Cy Doe": 4, "Di Fox": 16}


def check_url(w, table=1):
    return reverse("organiser:check_card", args=[w.tournament.slug, 1, table])


def test_one_press_confirms_every_ticked_game_of_a_card(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    desk = client_for(world.desk)
    page = text_of(desk.get(check_url(world)))
    assert "Game 1 matches the card" in page and "Game 2 matches the card" in page
    response = desk.post(
        check_url(world), {"confirm-1": "on", "v1": "1", "confirm-2": "on", "v2": "1"}
    )
    assert response.status_code == 302
    assert set(GameSheet.objects.values_list("state", flat=True)) == {SheetState.CONFIRMED}
    events = AuditEvent.objects.filter(action=AuditEvent.CONFIRMED)
    assert {e.how for e in events} == {AuditEvent.PRESSED} and events.count() == 2


def test_an_unticked_game_stays_waiting(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    client_for(world.desk).post(check_url(world), {"confirm-1": "on", "v1": "1", "v2": "1"})
    states = dict(GameSheet.objects.values_list("game__number", "state"))
    assert states == {1: SheetState.CONFIRMED, 2: SheetState.ENTERED}


def test_confirm_and_next_table_opens_the_next_table_waiting(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    phone_enters(world, 1, 1, T2, "Flo Ng")
    desk = client_for(world.desk)
    response = desk.post(check_url(world), {"confirm-1": "on", "v1": "1", "next": "1"})
    assert response.url == check_url(world, 2)
    response = desk.post(check_url(world, 2), {"confirm-1": "on", "v1": "1", "next": "1"})
    # No table left waiting: back to the grid, saying so.
    assert response.url == reverse("organiser:scores_day", args=[world.tournament.slug, 1])
    assert "No other table has games to confirm" in text_of(desk.get(response.url))


def test_a_game_changed_since_the_page_was_drawn_confirms_nothing(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    changed = {**GAME2_T1, "Cy Doe": 5}
    services.submit_game(
        world.tables[0],
        world.games[2],
        typed(world, 2, changed, out="Bob Roe"),
        1,
        source=Source.TABLE_LINK,
    )
    before = snapshot()
    response = client_for(world.desk).post(
        check_url(world), {"confirm-1": "on", "v1": "1", "confirm-2": "on", "v2": "1"}
    )
    assert response.status_code == 200
    assert "Game 2" in text_of(response) and "changed" in text_of(response)
    assert snapshot() == before


def test_confirming_a_card_needs_a_ticked_game_and_desk_staff(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    before = snapshot()
    response = client_for(world.desk).post(check_url(world), {"v1": "1"})
    assert "Tick at least one game to confirm." in text_of(response)
    with pytest.raises(services.ServiceError):
        services.confirm_card(world.tables[0], {1: 1}, None)
    assert snapshot() == before


def test_the_history_says_how_each_game_was_confirmed(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    services.confirm_game(world.tables[0], world.games[1], 1, world.desk)
    services.save_card(
        world.tables[0],
        [services.GameInput(world.games[2], typed(world, 2, GAME2_T1, out="Bob Roe"), 1)],
        {},
        world.desk,
    )
    page = text_of(
        client_for(world.boss).get(
            reverse("organiser:table_history", args=[world.tournament.slug, 1, 1])
        )
    )
    assert "Confirmed by the desk (Confirm pressed)" in page
    assert "Confirmed: the card keyed at the desk matched what the table entered" in page
    assert "Entered by the table" in page


def test_the_grid_puts_tables_waiting_first_and_counts_players_now(world):
    phone_enters(world, 1, 1, T2, "Flo Ng")
    Seat.objects.filter(entry=world.entries["Di Fox"]).update(left_after_game=1)
    page = text_of(
        client_for(world.desk).get(reverse("organiser:scores_day", args=[world.tournament.slug, 1]))
    )
    assert page.index("Table 2") < page.index("Table 1 ")
    assert "Check 1 game" in page
    assert "3 players now (of 4)" in page
    assert "1 to confirm" in page and "waiting" not in page


def test_a_game_marked_wrong_shows_the_reason_and_the_numbers_in_question(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    desk = client_for(world.desk)
    bob = world.entries["Bob Roe"].pk
    review = reverse("organiser:review_game", args=[world.tournament.slug, 1, 1, 1])
    desk.post(
        review,
        {
            "base_version": "1",
            "decision": "wrong",
            "reason": "Bob's card says 21",
            "disputed": [str(bob)],
        },
    )
    assert GameSheet.objects.get().state == SheetState.REJECTED
    response = Client().get(reverse("scorekeeper:table", args=[world.tables[0].link_token]))
    page = text_of(response)
    assert "The desk marked game 1 wrong" in page
    assert "Bob's card says 21" in page
    assert "Bob Roe: 12 check this" in page
    html = response.content.decode()
    # What the table had entered is filled in, so it changes one number, not four.
    assert value_of(html, f"score-{bob}") == "12"
    assert value_of(html, f"score-{world.entries['Cy Doe'].pk}") == "40"
    assert re.search(r'player-entry[^"]*disputed', html)
    assert "marked wrong: enter it again" in page


def phone_data(w, scores, out, base=0, game=1):
    data = {"game": str(game), "base_version": str(base), "engine": "12"}
    for name, value in scores.items():
        data[f"score-{w.entries[name].pk}"] = str(value)
    data[f"out-{w.entries[out].pk}"] = "on"
    return data


def test_two_phones_on_one_table(world):
    url = reverse("scorekeeper:table", args=[world.tables[0].link_token])
    first, second = Client(), Client()
    first.post(url, phone_data(world, T1, "Ann Lee"))
    # The second phone had the page open before the first saved, and typed Bob as 21.
    before = snapshot()
    mine = {**T1, "Bob Roe": 21}
    # A refused save redirects to the game's page (going back never resends the form).
    response = second.post(url, phone_data(world, mine, "Ann Lee"), follow=True)
    page = text_of(response)
    assert "here is what it says now" in page
    assert "Saved now You typed" in page
    assert "Bob Roe 12 21 differs" in page
    assert "Cy Doe 40 40" in page and "Cy Doe 40 40 differs" not in page
    assert "Keep the saved numbers" in page and "Save my numbers instead" in page
    assert snapshot() == before
    # It chooses to save its numbers: the page now carries the saved version.
    assert value_of(response.content.decode(), "base_version") == "1"
    second.post(url, phone_data(world, mine, "Ann Lee", base=1))
    live = GameSheet.objects.get(state=SheetState.ENTERED)
    assert live.version == 2
    # The first phone is told on its next load, once.
    page = text_of(first.get(url))
    assert "Game 1 was changed after you saved it: by another phone on the table 1 link at" in page
    assert "changed after you saved it" not in text_of(first.get(url))
    # The phone that made the change is not told about its own save.
    assert "changed after you saved it" not in text_of(second.get(url))


def test_keeping_the_saved_numbers_drops_what_this_phone_typed(world):
    url = reverse("scorekeeper:table", args=[world.tables[0].link_token])
    first, second = Client(), Client()
    first.post(url, phone_data(world, T1, "Ann Lee"))
    second.post(url, phone_data(world, {**T1, "Bob Roe": 0, "Ann Lee": 3}, "Bob Roe"))
    assert "Keep the saved numbers" in text_of(second.get(url + "?game=1"))
    before = snapshot()
    response = second.get(url + "?kept=1", follow=True)
    page = text_of(response)
    assert "Game 1 keeps the saved numbers." in page and "Game 2" in page
    assert "here is what it says now" not in page
    # Game 1 again shows what is saved, not what this phone typed: one player went out.
    page = second.get(url + "?game=1").content.decode()
    assert value_of(page, f"score-{world.entries['Ann Lee'].pk}") == "0"
    assert page.count("checked") == 1
    assert snapshot() == before
    # A game that does not exist, or no number at all, keeps nothing and says nothing.
    for odd in ("?kept=99", "?kept=x"):
        assert "keeps the saved numbers" not in text_of(second.get(url + odd, follow=True))
    assert snapshot() == before


def test_the_review_page_offers_each_number_to_mark(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    review = reverse("organiser:review_game", args=[world.tournament.slug, 1, 1, 1])
    html = client_for(world.desk).get(review).content.decode()
    bob = world.entries["Bob Roe"].pk
    assert re.search(rf'<input type="checkbox" name="disputed" value="{bob}"[^>]*>', html)
    assert re.search(r'<input type="checkbox" name="disputed" value="engine"[^>]*>', html)


def test_a_grid_cell_is_drawn_with_every_value_escaped():
    from types import SimpleNamespace

    from scoring.presenters import grid_cell

    game = SimpleNamespace(number=3)
    waiting = grid_cell(
        {"game": game, "state": SheetState.ENTERED, "time": "<b>10:05</b>"},
        7,
        lambda number: f'/review/{number}/?x="y"&z',
    )
    assert waiting["html"] == (
        '<td class="cell-entered">'
        '<a href="/review/3/?x=&quot;y&quot;&amp;z" aria-label="Review table 7, game 3: entered">'
        '<span class="badge entered">entered</span></a>'
        '<br><span class="muted small">&lt;b&gt;10:05&lt;/b&gt;</span></td>'
    )
    empty = grid_cell({"game": game, "state": "empty", "time": ""}, 7, lambda number: "unused")
    assert empty["html"] == '<td class="cell-empty"><span class="badge empty">empty</span></td>'
    assert "review_url" not in empty


def test_the_organiser_sees_games_one_login_both_keyed_and_confirmed(
    world, django_assert_num_queries
):
    from scoring.second_eyes import SelfConfirmed, confirmed_by_whoever_entered

    # A card keyed at the desk with nothing from the table's phone: confirmed at once by its typist.
    services.save_card(
        world.tables[0],
        [services.GameInput(world.games[1], typed(world, 1, T1, out="Ann Lee"), 0)],
        {},
        world.desk,
    )
    # A phone's entry confirmed by the desk: two people, not listed.
    phone_enters(world, 1, 1, T2, "Flo Ng")
    services.confirm_game(world.tables[1], world.games[1], 1, world.desk)
    with django_assert_num_queries(1):
        listed = confirmed_by_whoever_entered(world.day)
    assert listed == [SelfConfirmed(table=1, game=1, username=world.desk.username)]
    url = reverse("organiser:scores_day", args=[world.tournament.slug, 1])
    page = text_of(client_for(world.boss).get(url))
    assert "Confirmed by the person who keyed them" in page
    assert f"Table 1, game 1 (by {world.desk.username})" in page
    assert "Table 2, game 1" not in page
    # The desk's own view of the grid does not carry the organiser's list.
    assert "Confirmed by the person who keyed them" not in text_of(client_for(world.desk).get(url))
