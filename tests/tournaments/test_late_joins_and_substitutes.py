"""Late players and substitutes as rules of the event: a club session lets a late player in at
game 3 and a substitute in at game 5; the two-day tournament refuses both."""

from __future__ import annotations

import re

import pytest
from scoring_factories import (
    DEFAULT_TABLES,
    club_session_with_a_late_player_and_a_substitute,
    play,
    seated_day,
    snapshot,
)

from core.errors import ServiceError
from scoring.selectors import day_workbook_rows, table_sheets
from scoring.unplayed import mark_not_played, undo_not_played
from standings.read import Cut, marks_legend, rank_label, standings
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, Seat
from tournaments.services.late import seat_late_player, seat_substitute
from tournaments.services.registration import (
    register_player,
    reinstate_entry,
    reinstate_refusal,
    withdraw_entry,
)
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

ROSTER = (Entry, Seat)


def test_a_late_player_joins_the_smallest_table_at_game_3_and_a_substitute_at_game_5():
    w, lou, late, _sam, sub = club_session_with_a_late_player_and_a_substitute()
    assert (late.table_number, late.from_game) == (2, 3)
    assert (sub.table_number, sub.from_game, sub.seat.replaces) == (1, 5, w.entries["Bob Roe"])
    table2 = table_sheets(w.tables[1])
    assert [s.entry for s in table2.playing(2)] == [s.entry for s in table2.seats[:3]]
    assert lou in [s.entry for s in table2.playing(3)]
    table1 = table_sheets(w.tables[0])
    playing5 = {s.entry.player.name for s in table1.playing(5)}
    assert "Sam Sub" in playing5 and "Bob Roe" not in playing5
    rows = day_workbook_rows(w.day)
    assert min(r["game"] for r in rows if r["player"] == "Lou Late") == 3
    assert min(r["game"] for r in rows if r["player"] == "Sam Sub") == 5
    assert max(r["game"] for r in rows if r["player"] == "Bob Roe") == 4


@pytest.mark.parametrize("rule", ["not_ranked", "own", "shared"])
def test_a_substitute_is_ranked_under_the_events_rule(rule):
    w, _lou, _late, _sam, _sub = club_session_with_a_late_player_and_a_substitute()
    rules = w.tournament.rules
    rules.substitute_ranking = rule
    result = standings(w.tournament, Cut(day=1))
    rows = {r.record.name: r for r in result.rows}
    assert ("S: a substitute, not ranked." in marks_legend(result)) == (rule == "not_ranked")
    if rule == "not_ranked":
        assert rows["Sam Sub"].rank is None and rank_label(rows["Sam Sub"]) == "S"
        assert rows["Bob Roe"].rank is None  # withdrawn
    elif rule == "own":
        assert rows["Sam Sub"].rank is not None and rows["Sam Sub"].total == 10
    else:
        assert "Sam Sub" not in rows
        bob = rows["Bob Roe"]  # 10 in each of games 1 to 4, and Sam's 10 in game 5
        assert bob.rank is not None and (bob.total, bob.record.games_played) == (50, 5)


def test_the_two_day_tournament_refuses_late_players_and_substitutes():
    w = seated_day()
    lou = register_player(w.tournament, name="Lou Late")  # entered, but not here for seating
    play(w, w.tables[0], [1])
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError, match="nobody joins once play has started"):
        register_player(w.tournament, name="Max Later")
    with pytest.raises(ServiceError, match="Late players may join"):
        seat_late_player(w.day, lou, by=COMMAND_LINE)
    assert snapshot(*ROSTER) == before


def test_a_substitute_needs_the_rule_a_withdrawn_player_and_a_game_still_to_come():
    w = seated_day(preset="club-session")
    play(w, w.tables[0], [1, 2, 3])
    sam = register_player(w.tournament, name="Sam Sub")
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError, match="withdraw them first") as refusal:
        seat_substitute(w.day, w.entries["Bob Roe"], sam, from_game=4, by=COMMAND_LINE)
    assert refusal.value.field == "replaced"
    withdraw_entry(w.entries["Bob Roe"])
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError, match="can start from game 4 to 12") as refusal:
        seat_substitute(w.day, w.entries["Bob Roe"], sam, from_game=3, by=COMMAND_LINE)
    assert refusal.value.field == "from_game"
    change_rules_after_play = pytest.raises(ServiceError, match="Play has started")
    with change_rules_after_play:
        change_rules(w.tournament, {"substitutes": False}, by=COMMAND_LINE)
    assert snapshot(*ROSTER) == before


def test_sheets_say_not_yet_before_a_late_player_joined_and_left_after_a_withdrawal(client):
    import io

    from pypdf import PdfReader

    from scoring.score_sheets_pdf import score_sheets_pdf

    w, _lou, _late, _sam, _sub = club_session_with_a_late_player_and_a_substitute()
    page = client.get(f"/table/{w.tables[1].link_token}/").content.decode()
    assert page.count("not yet") == 2  # Lou Late, games 1 and 2
    text = PdfReader(io.BytesIO(score_sheets_pdf(w.day))).pages[0].extract_text()
    # Sam Sub takes Bob Roe's column: games 1-4 in it are Bob's, and Bob has no column left.
    assert "not yet" not in text and "left" not in text
    assert text.count("Bob Roe") == 4 and text.count("Sam Sub") == 1


def test_the_table_history_records_the_late_player_the_substitute_and_the_withdrawal(
    client, organiser
):
    _w, _lou, _late, _sam, _sub = club_session_with_a_late_player_and_a_substitute()
    client.force_login(organiser)
    page1 = client.get("/organiser/t/cup/day/1/table/1/history/").content.decode()
    assert "Sam Sub substitutes for Bob Roe from game 5." in page1
    assert "Bob Roe left after game 4." in page1
    page2 = client.get("/organiser/t/cup/day/1/table/2/history/").content.decode()
    assert "Lou Late joined late, from game 3." in page2


def test_after_a_substitution_the_sheet_and_phone_show_who_plays_and_their_hand(client):
    """A table of 3 at puremco-d9 (3 players draw 11, 4 draw 10): Bob leaves after game 2 and
    Sam takes his seat. The sheet had "4 players: each draws 10 tiles" and Bob's own column."""
    import io

    from pypdf import PdfReader

    from scoring.score_sheets_pdf import score_sheets_pdf

    w = seated_day(preset="puremco-d9", tables=(("Ann Lee", "Bob Roe", "Cy Doe"),))
    rules = w.tournament.rules
    rules.substitutes = True
    rules.save()
    play(w, w.tables[0], [1, 2])
    withdraw_entry(w.entries["Bob Roe"])
    sam = register_player(w.tournament, name="Sam Sub")
    seat_substitute(w.day, w.entries["Bob Roe"], sam, from_game=3, by=COMMAND_LINE)
    text = PdfReader(io.BytesIO(score_sheets_pdf(w.day))).pages[0].extract_text()
    assert "3 players: each draws 11 tiles." in " ".join(text.split())
    assert "4 players" not in text and "left" not in text
    assert text.count("Bob Roe") == 2  # games 1 and 2, in Sam's column; no column of his own
    page = client.get(f"/table/{w.tables[0].link_token}/").content.decode()
    words = " ".join(re.sub(r"<[^>]+>", "", page).split())
    assert "game 3: 3 players, each player draws 11 tiles" in words


def test_a_withdrawal_without_a_substitute_changes_the_hand_from_the_next_game():
    from scoring.score_sheets_pdf import hand_size_line

    w = seated_day(
        preset="jib-room", tables=(("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox", "Ed Poe"),)
    )
    play(w, w.tables[0], [1, 2, 3, 4])
    withdraw_entry(w.entries["Bob Roe"])
    seats = list(w.tables[0].seats.order_by("position"))
    assert hand_size_line(w.tournament.rules, seats, 13) == (
        "Games 1-4: 5 players: each draws 12 tiles. Games 5-13: 4 players: each draws 15 tiles."
    )


def test_a_withdrawal_from_day_2_works_while_day_1_is_open_and_finished():
    """Day 1 is fully entered but not closed; Ann leaves after game 2 of day 2. The old code
    checked game 2 against day 1's table and refused, naming no day."""
    from scoring_factories import seat_tables

    from scoring.schedule import build_schedule

    w = seated_day(preset="club-session")
    rules = w.tournament.rules
    rules.days = 2
    rules.save()
    from tournaments.models import Day

    day2 = Day.objects.create(tournament=w.tournament, number=2)
    for table in w.tables:
        play(w, table, range(1, 13))
    groups = [
        [w.entries[n] for n in names]
        for names in (("Ann Lee", "Ed Poe", "Cy Doe"), ("Bob Roe", "Flo Ng", "Gus Ray", "Di Fox"))
    ]
    _, tables2 = seat_tables(day2, groups)
    w2 = type(w)(**{**vars(w), "games": {g.number: g for g in build_schedule(day2)}})
    play(w2, tables2[0], [1, 2])
    ann = w.entries["Ann Lee"]
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError, match="Day 2, table 1: game 2 already has a score for Ann"):
        withdraw_entry(ann, after_game=1, day_number=2)
    assert snapshot(*ROSTER) == before
    outcome = withdraw_entry(ann, after_game=2, day_number=2)
    assert outcome.left_during == [(2, 2)]
    assert Seat.objects.get(entry=ann, day=w.day).left_after_game is None
    assert Seat.objects.get(entry=ann, day=day2).left_after_game == 2


def test_a_withdrawal_from_day_2_is_refused_while_day_1_has_their_games_to_play():
    from tournaments.models import Day

    w = seated_day(preset="club-session")
    rules = w.tournament.rules
    rules.days = 2
    rules.save()
    Day.objects.get_or_create(tournament=w.tournament, number=2)
    play(w, w.tables[0], [1, 2, 3])
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError, match="Day 1, table 1 has not entered game 4 yet"):
        withdraw_entry(w.entries["Ann Lee"], day_number=2)
    assert snapshot(*ROSTER) == before


def test_a_withdrawal_cannot_be_undone_once_a_substitute_plays_in_the_seat():
    """Found by the simulated days: undone, the player and their substitute both played from
    game 3, five at a table of four seats on the card."""
    w = seated_day(preset="club-session")
    play(w, w.tables[0], [1, 2])
    bob = w.entries["Bob Roe"]
    withdraw_entry(bob)
    sam = register_player(w.tournament, name="Sam Sub")
    seat_substitute(w.day, bob, sam, from_game=3, by=COMMAND_LINE)
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError) as refused:
        reinstate_entry(bob)
    assert str(refused.value) == (
        "Sam Sub plays in Bob Roe's seat at day 1, table 1 from game 3, "
        "so the withdrawal cannot be undone now."
    )
    assert snapshot(*ROSTER) == before
    assert reinstate_refusal(Entry.objects.get(pk=bob.pk)) == str(refused.value)


def test_a_withdrawal_cannot_be_undone_once_late_players_fill_the_table():
    w = seated_day(preset="club-session")
    change_rules(w.tournament, {"max_table_size": 4}, by=COMMAND_LINE)
    play(w, w.tables[0], [1, 2])
    bob = w.entries["Bob Roe"]
    withdraw_entry(bob)
    lou = register_player(w.tournament, name="Lou Late")
    assert seat_late_player(w.day, lou, by=COMMAND_LINE).table_number == 1
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError) as refused:
        reinstate_entry(bob)
    assert str(refused.value) == (
        "Day 1, table 1 has 4 players for game 3 (Lou Late joined since), the most a table "
        "seats, so Bob Roe cannot come back to it: the withdrawal cannot be undone now."
    )
    assert snapshot(*ROSTER) == before


def test_a_withdrawal_is_undone_while_the_late_player_leaves_room():
    w = seated_day(preset="club-session")
    play(w, w.tables[0], [1, 2])
    bob = w.entries["Bob Roe"]
    withdraw_entry(bob)
    lou = register_player(w.tournament, name="Lou Late")
    seat_late_player(w.day, lou, by=COMMAND_LINE)
    assert reinstate_entry(bob).status == Entry.CHECKED_IN
    assert Seat.objects.get(entry=bob).plays_game(3)


# Found by make soak: a game taken back (here a "not played" mark undone; a game marked wrong
# does the same) makes a table's next game earlier than the game a late player already joins
# from, and that next game's free seat was taken for every game after it too.
FOURS = (DEFAULT_TABLES[0], ("Ed Poe", "Flo Ng", "Gus Ray", "Hal Orr"))


def _table_one_full_from_game_4(w):
    """Table 1 (4 players, at most 5) has games 1 and 2, and Lou Late plays from game 4."""
    change_rules(w.tournament, {"max_table_size": 5}, by=COMMAND_LINE)
    play(w, w.tables[0], [1, 2])
    if len(w.tables) > 1:
        play(w, w.tables[1], [1, 2, 3, 4])
    mark_not_played(w.tables[0], w.games[3], reason="time ran out", user=COMMAND_LINE)
    lou = register_player(w.tournament, name="Lou Late")
    assert seat_late_player(w.day, lou, by=COMMAND_LINE).table_number == 1
    undo_not_played(w.tables[0], w.games[3], reason="they played it", user=COMMAND_LINE)
    assert Seat.objects.get(entry=lou).joined_at_game == 4


def _most_at_table_one(w):
    seats = list(w.tables[0].seats.all())
    return max(sum(s.plays_game(game) for s in seats) for game in range(1, 13))


def test_a_late_player_is_not_seated_where_a_later_game_is_already_full():
    w = seated_day(preset="club-session", tables=FOURS)
    _table_one_full_from_game_4(w)
    seat = seat_late_player(w.day, register_player(w.tournament, name="Max Later"), by=COMMAND_LINE)
    assert (seat.table_number, seat.from_game) == (2, 5)  # not table 1 from game 3
    assert _most_at_table_one(w) == 5


def test_a_late_join_is_refused_when_the_only_free_seat_is_before_a_full_game():
    w = seated_day(preset="club-session", tables=FOURS[:1])
    _table_one_full_from_game_4(w)
    max_later = register_player(w.tournament, name="Max Later")
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError, match="No table on day 1 has a free seat"):
        seat_late_player(w.day, max_later, by=COMMAND_LINE)
    assert snapshot(*ROSTER) == before
    assert _most_at_table_one(w) == 5


def test_a_substitute_is_refused_where_a_late_player_took_the_withdrawn_players_place():
    w = seated_day(preset="club-session", tables=FOURS[:1])
    change_rules(w.tournament, {"max_table_size": 4}, by=COMMAND_LINE)
    play(w, w.tables[0], [1, 2])
    withdraw_entry(w.entries["Bob Roe"])
    lou = register_player(w.tournament, name="Lou Late")
    assert seat_late_player(w.day, lou, by=COMMAND_LINE).from_game == 3
    sam = register_player(w.tournament, name="Sam Sub")
    before = snapshot(*ROSTER)
    with pytest.raises(ServiceError) as refused:
        seat_substitute(w.day, w.entries["Bob Roe"], sam, from_game=3, by=COMMAND_LINE)
    assert str(refused.value) == (
        "Day 1, table 1 already has 4 players in a game from game 3 on (a late player took "
        "Bob Roe's place): there is no seat for a substitute."
    )
    assert refused.value.field == "replaced"
    assert snapshot(*ROSTER) == before
