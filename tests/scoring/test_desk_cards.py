"""The desk keys paper cards (issue 23): a card that disagrees with a phone saves what matches
and asks about the rest, "the paper card is right" keeps the card, "Save and next table" goes
to the next table not finished, a lone 0 on a card is the player who went out, and "Wrong"
returns to the table's check page. Each refused post changes nothing."""

import pytest
from django.test import Client
from django.urls import reverse
from scoring_factories import (
    T1,
    T2,
    client_for,
    phone_enters,
    seated_day,
    snapshot,
    staff,
    text_of,
    typed,
)

from scoring import services
from scoring.models import AuditEvent, GameSheet, SheetState, Source
from scoring.selectors import next_table_to_key, table_sheets
from scoring.sheet_values import CARD_IS_RIGHT
from scoring.unplayed import mark_not_played

pytestmark = pytest.mark.django_db

GAME2_T1 = {"Ann Lee": 9, "Bob Roe": 0, "Cy Doe": 4, "Di Fox": 16}


def card_url(w, table=1, day=1):
    return reverse("organiser:score_card", args=[w.tournament.slug, day, table])


def card_data(w, games, table=0, **extra):
    """The desk card's post: {game: (scores by name, who went out or "blocked" or "")}, each
    game at the version the page would have drawn."""
    sheets = table_sheets(w.tables[table])
    data = {}
    for n, (scores, out) in games.items():
        live = sheets.live.get(n)
        data[f"g{n}-base"] = str(live.version if live else 0)
        data[f"g{n}-engine"] = str(w.games[n].scheduled_engine)
        data[f"g{n}-out"] = str(w.entries[out].pk) if out in w.entries else out
        for name, value in scores.items():
            data[f"g{n}-score-{w.entries[name].pk}"] = str(value)
    return {**data, **extra}


def states(w, table=0):
    return dict(
        GameSheet.objects.filter(table=w.tables[table])
        .exclude(state=SheetState.SUPERSEDED)
        .values_list("game__number", "state")
    )


def points(sheet):
    return {s.entry.player.name: s.points for s in sheet.scores.select_related("entry__player")}


# ---------------------------------------------------------------------------
# A card that disagrees with the phone
# ---------------------------------------------------------------------------


def test_a_card_that_disagrees_saves_the_games_that_match_and_shows_both(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    card = {**GAME2_T1, "Cy Doe": 14}
    third = {"Ann Lee": 5, "Bob Roe": 6, "Cy Doe": 0, "Di Fox": 8}
    response = client_for(world.desk).post(
        card_url(world),
        card_data(world, {1: (T1, "Ann Lee"), 2: (card, "Bob Roe"), 3: (third, "")}),
    )
    assert response.status_code == 200
    page = text_of(response)
    # Game 1 matched and game 3 was new: both confirmed. Game 2 stays as the table entered it.
    assert states(world) == {
        1: SheetState.CONFIRMED,
        2: SheetState.ENTERED,
        3: SheetState.CONFIRMED,
    }
    assert "Table 1 saved: games 1, 3 confirmed." in page
    assert "The paper card and what the table entered disagree in game 2" in page
    assert "Cy Doe 4 14" in page  # the table's number beside the card's
    assert "The paper card is right: save game 2" in page
    html = response.content.decode()
    # The card keeps what the desk typed for game 2, at the version the table left.
    assert f'name="g2-score-{world.entries["Cy Doe"].pk}"' in html and 'value="14"' in html


def test_the_paper_card_is_right_stores_the_card_and_keeps_the_phone_in_the_history(world):
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    card = {**GAME2_T1, "Cy Doe": 14}
    desk = client_for(world.desk)
    data = card_data(world, {2: (card, "Bob Roe")})
    desk.post(card_url(world), data)
    assert states(world) == {2: SheetState.ENTERED}
    response = desk.post(card_url(world), {**data, "card_right": "2"})
    assert response.status_code == 302
    live = GameSheet.objects.get(table=world.tables[0], state=SheetState.CONFIRMED)
    assert live.version == 2 and live.source == Source.DESK
    assert points(live)["Cy Doe"] == 14
    phone = GameSheet.objects.get(table=world.tables[0], version=1)
    assert phone.state == SheetState.SUPERSEDED and points(phone)["Cy Doe"] == 4
    event = AuditEvent.objects.get(sheet=live, action=AuditEvent.CORRECTED)
    assert event.reason == CARD_IS_RIGHT
    assert {"entry": world.entries["Cy Doe"].pk, "name": "Cy Doe", "from": 4, "to": 14} in (
        event.changes
    )
    page = text_of(desk.get(response.url))
    assert "game 2 confirmed from the paper card" in page


def test_keeping_the_card_of_a_game_not_offered_or_a_bad_value_keeps_nothing(world):
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    card = {**GAME2_T1, "Cy Doe": 14}
    desk = client_for(world.desk)
    before = snapshot()
    for value in ("5", "two", "-2", "2.0", ""):
        response = desk.post(
            card_url(world), card_data(world, {2: (card, "Bob Roe")}, card_right=value)
        )
        assert response.status_code == 200
        assert "disagree in game 2" in text_of(response)
    assert snapshot() == before


def test_a_refused_game_on_the_card_stores_nothing_not_even_the_games_that_match(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    bad = {"Ann Lee": 0, "Bob Roe": -3, "Cy Doe": 1, "Di Fox": 2}
    before = snapshot()
    response = client_for(world.desk).post(
        card_url(world),
        card_data(
            world,
            {1: (T1, "Ann Lee"), 2: ({**GAME2_T1, "Cy Doe": 14}, "Bob Roe"), 3: (bad, "Ann Lee")},
            card_right="2",
        ),
    )
    assert response.status_code == 200
    assert "Nothing was saved." in text_of(response)
    assert snapshot() == before


def test_a_card_game_may_not_take_the_engine_of_a_game_that_waits(world):
    # Found by the simulated days: the card's game 2 took the engine the table entered for
    # game 1, which waits for the desk; the database refused the second live sheet with that
    # engine and the desk read "someone else saved", though nobody had.
    phone_enters(world, 0, 1, T1, "Ann Lee")
    engine = world.games[1].scheduled_engine
    # The card swaps the two games' engines: game 1 then differs from the table's entry.
    card = card_data(
        world,
        {1: (T1, "Ann Lee"), 2: (GAME2_T1, "Bob Roe")},
        **{"g1-engine": str(world.games[2].scheduled_engine), "g2-engine": str(engine)},
    )
    before = snapshot()
    response = client_for(world.desk).post(card_url(world), card)
    assert response.status_code == 200
    page = text_of(response)
    assert (
        f"Double {engine} is the engine the table entered for game 1, which does not match "
        "this card. Say which is right for game 1 first, or check game 2's engine."
    ) in page
    assert "since you opened" not in page and "someone else" not in page.lower()
    assert snapshot() == before


def test_keeping_the_card_is_for_desk_staff_and_a_stale_page_is_a_conflict(world):
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    data = card_data(world, {2: ({**GAME2_T1, "Cy Doe": 14}, "Bob Roe")}, card_right="2")
    # The table changes game 2 again after the desk's page was drawn.
    services.submit_game(
        world.tables[0],
        world.games[2],
        typed(world, 2, {**GAME2_T1, "Cy Doe": 5}, out="Bob Roe"),
        1,
        source=Source.TABLE_LINK,
    )
    before = snapshot()
    response = client_for(world.desk).post(card_url(world), data)
    assert response.status_code == 200 and "here is what it says now" in text_of(response)
    stranger = Client()
    stranger.force_login(staff(seated_day(slug="other").tournament, "elsewhere"))
    assert stranger.post(card_url(world), data).status_code in (302, 403, 404)
    inputs = [
        services.GameInput(
            world.games[2], typed(world, 2, {**GAME2_T1, "Cy Doe": 14}, out="Bob Roe"), 2
        )
    ]
    from scoring.review import save_card

    assert save_card(world.tables[0], inputs, {}, None, card_right=frozenset({2})).denied
    assert snapshot() == before


def test_a_workbook_that_differs_is_still_refused_whole(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    before = snapshot()
    inputs = [
        services.GameInput(
            world.games[1], typed(world, 1, {**T1, "Cy Doe": 41}, out="Ann Lee"), None
        )
    ]
    from scoring.submit import import_games

    saved = import_games([(world.tables[0], inputs)], user=world.desk)
    assert not saved.saved and not saved.differs
    assert snapshot() == before


# ---------------------------------------------------------------------------
# Save and next table
# ---------------------------------------------------------------------------


def test_save_and_next_goes_to_the_next_table_not_finished_without_any_phone(world):
    desk = client_for(world.desk)
    response = desk.post(card_url(world), card_data(world, {1: (T1, "Ann Lee")}, next="1"))
    assert response.url == card_url(world, 2)
    # Table 2 keys its card: table 1 is not finished (one game of six), so the desk goes back.
    response = desk.post(
        card_url(world, 2), card_data(world, {1: (T2, "Flo Ng")}, table=1, next="1")
    )
    assert response.url == card_url(world, 1)


def test_save_and_next_passes_over_finished_tables_and_says_when_none_is_left(world):
    w = seated_day(
        slug="three", tables=(("A One", "B One"), ("C Two", "D Two"), ("E Tri", "F Tri"))
    )
    desk = staff(w.tournament, "desk3")
    games = list(w.games.values())
    for number in w.games:
        for table in (w.tables[1],):
            seats = [s.entry for s in table.seats.order_by("position")]
            out, other = seats
            services.save_card(
                table,
                [
                    services.GameInput(
                        w.games[number],
                        typed(
                            w,
                            number,
                            {out.player.name: 0, other.player.name: 5},
                            out=out.player.name,
                            engine=w.games[number].scheduled_engine,
                        ),
                        0,
                    )
                ],
                {},
                desk,
            )
    assert next_table_to_key(w.day, 1, games) == 3  # table 2 is finished
    for number in w.games:
        if number > 1:
            mark_not_played(w.tables[2], w.games[number], reason="time ran out", user=desk)
    assert next_table_to_key(w.day, 1, games) == 3  # game 1 of table 3 is still open
    client = client_for(desk)
    response = client.post(
        card_url(w, 3), card_data(w, {1: ({"E Tri": 0, "F Tri": 9}, "E Tri")}, table=2, next="1")
    )
    assert response.url == card_url(w, 1)
    assert next_table_to_key(w.day, 1, games) is None
    response = client.post(card_url(w, 1), {"next": "1"}, follow=True)
    page = text_of(response)
    assert "The card was empty: nothing was saved." in page
    assert "Every other table of day 1 is finished" in page
    assert response.redirect_chain[-1][0] == card_url(w, 1)


# ---------------------------------------------------------------------------
# A lone 0 on a card where the double blank counts 0
# ---------------------------------------------------------------------------


def good_sam():
    w = seated_day(slug="sam", preset="good-sam")
    w.desk = staff(w.tournament, "samdesk")
    return w


def test_a_lone_zero_on_the_card_is_the_player_who_went_out(db):
    w = good_sam()
    response = client_for(w.desk).post(card_url(w), card_data(w, {1: (T1, ""), 2: (GAME2_T1, "")}))
    assert response.status_code == 302
    outs = dict(GameSheet.objects.values_list("game__number", "went_out__player__name"))
    assert outs == {1: "Ann Lee", 2: "Bob Roe"}


def test_two_zeros_on_the_card_ask_which_went_out_and_save_nothing(db):
    w = good_sam()
    before = snapshot()
    two = {**T1, "Bob Roe": 0}
    response = client_for(w.desk).post(card_url(w), card_data(w, {1: (two, "")}))
    assert response.status_code == 200
    assert "Ann Lee and Bob Roe both score 0 in game 1: choose which of them went out." in text_of(
        response
    )
    assert snapshot() == before
    # Chosen: the other held just the double blank.
    response = client_for(w.desk).post(card_url(w), card_data(w, {1: (two, "Bob Roe")}))
    assert response.status_code == 302
    assert GameSheet.objects.get().went_out.player.name == "Bob Roe"


def test_a_lone_zero_in_a_game_marked_blocked_stays_blocked(db):
    w = good_sam()
    response = client_for(w.desk).post(card_url(w), card_data(w, {1: (T1, "blocked")}))
    assert response.status_code == 302
    sheet = GameSheet.objects.get()
    assert sheet.blocked and sheet.went_out is None


# ---------------------------------------------------------------------------
# Wrong keeps the desk's place
# ---------------------------------------------------------------------------


def test_wrong_goes_back_to_the_tables_check_page(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    phone_enters(world, 0, 2, GAME2_T1, "Bob Roe")
    url = reverse("organiser:review_game", args=[world.tournament.slug, 1, 1, 1])
    response = client_for(world.desk).post(url, {"base_version": "1", "decision": "wrong"})
    assert response.url == reverse("organiser:check_card", args=[world.tournament.slug, 1, 1])
    assert states(world) == {1: SheetState.REJECTED, 2: SheetState.ENTERED}
