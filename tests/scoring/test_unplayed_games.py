"""A game a table did not play: marked by the organiser or the desk with a reason, counted by
the event's rule, shown on the phone page, the day grid and the workbook, and the day final."""

from __future__ import annotations

import io
import re

import pytest
from openpyxl import load_workbook
from scoring_factories import T1, fresh, snapshot, stored_sheet, typed
from standings_outputs import board_states, every_output, workbook_scores

from core.errors import ServiceError
from scoring import services
from scoring.day_board import day_board
from scoring.models import GameSheet, UnplayedChange, UnplayedGame
from scoring.unplayed import mark_not_played, undo_not_played
from scoring.workbook_export import export_day
from scoring.workbook_import import import_workbook
from standings.read import default_cut, standings
from tournaments.access import COMMAND_LINE
from tournaments.models import RuleSet
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

SCORE_AND_MARKS = (GameSheet, UnplayedGame)


def play_all_but_game_6_at_table_1(w):
    """Every game confirmed except game 6 at table 1: Ann goes out, the others score."""
    # One day, so a confirmed day is the whole event and the standings can be final.
    change_rules(w.tournament, {"days": 1}, by=COMMAND_LINE)
    for table in w.tables:
        seats = list(table.seats.order_by("position"))
        for number in range(1, 7):
            if table == w.tables[0] and number == 6:
                continue
            points = {s.entry: (0 if i == 0 else 10 * i + number) for i, s in enumerate(seats)}
            stored_sheet(table, w.games[number], points, out=seats[0].entry)


def row_of(result, name):
    return next(r for r in result.rows if r.record.name == name)


def test_a_game_not_played_lets_the_standings_become_final_and_counts_nothing(world):
    play_all_but_game_6_at_table_1(world)
    assert not standings(world.tournament).is_final
    mark_not_played(world.tables[0], world.games[6], reason="time ran out", user=world.desk)
    result = standings(world.tournament)
    assert result.is_final
    bob = row_of(result, "Bob Roe")  # 11 + 12 + 13 + 14 + 15 over games 1 to 5
    assert (bob.record.games_played, bob.total) == (5, 65)
    assert row_of(result, "Ed Poe").record.games_played == 6


def test_under_the_average_rule_a_game_not_played_counts_the_players_rounded_average(world):
    change_rules(world.tournament, {"unplayed_counts": "average"}, by=COMMAND_LINE)
    play_all_but_game_6_at_table_1(world)
    mark_not_played(world.tables[0], world.games[6], reason="time ran out", user=world.boss)
    world.tournament.refresh_from_db()
    world.tournament.rules = RuleSet.objects.get(tournament=world.tournament)
    result = standings(world.tournament)
    cy = row_of(result, "Cy Doe")  # 21..25: 115 over 5 games, average 23
    assert (cy.record.games_played, cy.total) == (5, 115 + 23)
    di = row_of(result, "Di Fox")  # 31..35: 165, average 33
    assert di.total == 165 + 33
    assert row_of(result, "Ann Lee").total == 0
    assert result.is_final


def test_the_phone_page_skips_the_game_and_refuses_scores_for_it(world, client):
    mark_not_played(world.tables[0], world.games[1], reason="table late", user=world.desk)
    page = client.get(f"/table/{world.tables[0].link_token}/").content.decode()
    words = " ".join(re.sub(r"<[^>]+>", "", page).split())
    assert "Game 2" in words and "engine double 11" in words
    assert "not played" in page and "table late" in page
    before = snapshot(*SCORE_AND_MARKS)
    with pytest.raises(services.SheetRefused) as refused:
        services.submit_game(
            world.tables[0],
            world.games[1],
            typed(world, 1, T1, out="Ann Lee"),
            0,
            source="table_link",
        )
    assert "Game 1 was marked not played (table late)" in str(refused.value.refusals)
    assert snapshot(*SCORE_AND_MARKS) == before


def test_the_workbook_says_not_played_with_blank_scores_and_reads_back_unchanged(world):
    mark_not_played(world.tables[1], world.games[3], reason="time ran out", user=world.desk)
    data = export_day(world.day)
    sheet = load_workbook(io.BytesIO(data)).active
    rows = [r for r in sheet.iter_rows(min_row=2, values_only=True) if r[1] == 2 and r[2] == 3]
    assert rows and all(r[7] == "not played" and r[6] is None for r in rows)
    before = snapshot(*SCORE_AND_MARKS)
    import_workbook(world.tournament, data, user=world.desk)
    assert snapshot(*SCORE_AND_MARKS) == before


@pytest.mark.parametrize(
    "setup, words",
    [
        ("no_reason", "Say why the game was not played"),
        ("has_scores", "has scores"),
        ("twice", "already marked not played"),
        ("closed", "is closed"),
        ("outsider", "Only the tournament's organisers and desk staff"),
    ],
)
def test_a_refused_mark_names_why_and_stores_nothing(world, make_user, setup, words):
    from tournaments.models import Day

    reason, user = "time ran out", world.desk
    if setup == "no_reason":
        reason = "   "
    if setup == "has_scores":
        stored_sheet(world.tables[0], world.games[1])
    if setup == "twice":
        mark_not_played(world.tables[0], world.games[1], reason=reason, user=user)
    if setup == "closed":
        from django.utils import timezone

        Day.objects.filter(pk=world.day.pk).update(closed_at=timezone.now())
    if setup == "outsider":
        user = make_user("stranger")
    before = snapshot(*SCORE_AND_MARKS)
    with pytest.raises(ServiceError, match=words):
        mark_not_played(world.tables[0], world.games[1], reason=reason, user=user)
    assert snapshot(*SCORE_AND_MARKS) == before


def test_the_desk_marks_and_undoes_on_the_card_page_and_the_grid_shows_it(world, client):
    client.force_login(world.desk)
    base = f"/organiser/t/{world.tournament.slug}/day/1/table/1/"
    response = client.post(base + "not-played/", {"game": "6", "reason": "time ran out"})
    assert response.status_code == 302
    mark = UnplayedGame.objects.get()
    assert (mark.game.number, mark.reason, mark.marked_by) == (6, "time ran out", world.desk)
    grid = client.get(f"/organiser/t/{world.tournament.slug}/day/1/scores/").content.decode()
    assert "not played" in grid
    card = client.get(base + "card/").content.decode()
    assert "time ran out" in card
    # A reason left empty is refused and nothing is stored.
    before = snapshot(*SCORE_AND_MARKS)
    client.post(base + "not-played/", {"game": "5", "reason": ""})
    assert snapshot(*SCORE_AND_MARKS) == before
    # An undo says why: without a reason it is refused and the mark stays.
    before_undo = snapshot(*SCORE_AND_MARKS, UnplayedChange)
    page = client.post(base + "game/6/not-played/undo/", {"reason": "  "}, follow=True)
    assert "Not taken back: This field is required." in page.content.decode()
    assert snapshot(*SCORE_AND_MARKS, UnplayedChange) == before_undo
    client.post(base + "game/6/not-played/undo/", {"reason": "they played it after all"})
    assert not UnplayedGame.objects.exists()
    undo = pytest.raises(ServiceError, match="is not marked")
    with undo:
        undo_not_played(world.tables[0], world.games[6], reason="again", user=world.desk)
    # Both the mark and its undoing stay in the table's history (an organiser's page), with
    # who, when and why.
    client.force_login(world.boss)
    history = client.get(base + "history/").content.decode()
    assert "Game 6 marked not played: time ran out (by desk" in history
    assert "Game 6 mark taken back: they played it after all (by desk" in history
    assert list(UnplayedChange.objects.values_list("action", "reason", "actor")) == [
        ("marked", "time ran out", world.desk.pk),
        ("undone", "they played it after all", world.desk.pk),
    ]


def test_an_undo_without_a_reason_is_refused_and_changes_nothing(world):
    mark_not_played(world.tables[0], world.games[6], reason="time ran out", user=world.desk)
    before = snapshot(*SCORE_AND_MARKS, UnplayedChange)
    with pytest.raises(ServiceError, match="Say why the mark is taken back"):
        undo_not_played(world.tables[0], world.games[6], reason=" \t", user=world.desk)
    assert snapshot(*SCORE_AND_MARKS, UnplayedChange) == before


# --- a game not played is finished for every output (issue 23) --------------------------------


def closed_day_with_game_6_not_played_at_table_1(world):
    """The issue's day: table 1 ran out of time for game 6, every other game is confirmed, the
    day is closed and the standings are public."""
    from django.utils import timezone

    from tournaments.models import Day
    from tournaments.services.events import set_public_pages

    play_all_but_game_6_at_table_1(world)
    mark_not_played(world.tables[0], world.games[6], reason="time ran out", user=world.desk)
    Day.objects.filter(pk=world.day.pk).update(closed_at=timezone.now())
    set_public_pages(world.tournament, True)
    return fresh(world.tournament)


def test_a_game_not_played_holds_back_no_output_of_the_standings(world, client):
    tournament = closed_day_with_game_6_not_played_at_table_1(world)
    client.force_login(world.boss)
    shown = every_output(tournament, client)
    # Table 2 played six games: its players' totals count game 6 in every output.
    flo = 10 * 1 * 6 + sum(range(1, 7))  # 10 + g for g in 1..6 = 81
    for output, seen in shown.items():
        assert (seen.heading, seen.status) == ("Standings", "Final"), output
        assert "after game 5" not in seen.text and "waiting" not in seen.text, output
        if seen.totals:
            assert seen.totals["Flo Ng"] == str(flo), output
            assert seen.games["Flo Ng"] == "6" and seen.games["Bob Roe"] == "5", output
    scores = workbook_scores(tournament)
    assert {row[2] for row in scores if row[1] == 2} == {1, 2, 3, 4, 5, 6}
    assert board_states(world.day) == {1: "done", 2: "done"}
    tile = next(t for t in day_board(world.day).tiles if t.number == 1)
    assert tile.counts == "5/6 confirmed · 1 not played"
    # The page, the projector and the command agree row for row on every total.
    assert shown["page"].totals == shown["projector"].totals == shown["command"].totals
    # The workbook keeps totals as numbers: the short-total mark is the printed outputs'.
    assert {k: v.rstrip("*") for k, v in shown["page"].totals.items()} == shown["workbook"].totals
    assert shown["page"].totals == shown["public page"].totals


def test_mid_day_a_game_not_played_counts_as_that_table_finishing_it(world):
    # Table 1 skipped game 2 (not played) and played 1 and 3; table 2 played 1 to 3: the level
    # view is after game 3, not after game 1.
    for table in world.tables:
        seats = list(table.seats.order_by("position"))
        for number in (1, 3) if table == world.tables[0] else (1, 2, 3):
            stored_sheet(
                table, world.games[number], {s.entry: 5 for s in seats[1:]}, out=seats[0].entry
            )
    mark_not_played(world.tables[0], world.games[2], reason="table late", user=world.desk)
    assert default_cut(fresh(world.tournament)) is None
    # A table that has entered nothing of game 4 yet holds the view at game 3.
    stored_sheet(world.tables[1], world.games[4], {}, out=None)
    cut = default_cut(fresh(world.tournament))
    assert (cut.day, cut.game) == (1, 3)
    assert board_states(world.day) == {1: "playing", 2: "playing"}


def test_a_player_who_left_before_playing_never_reads_as_leaving_after_game_0(world):
    from scoring.selectors import table_roster_changes
    from tournaments.models import Seat

    Seat.objects.filter(entry=world.entries["Bob Roe"]).update(left_after_game=0)
    notes = table_roster_changes(world.tables[0])
    assert "Bob Roe left before game 1." in notes
    assert not any("game 0" in note for note in notes)
