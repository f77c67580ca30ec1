"""Late players and substitutes as rules of the event: a club session lets a late player in at
game 3 and a substitute in at game 5; the two-day tournament refuses both."""

from __future__ import annotations

import pytest
from scoring_factories import (
    club_session_with_a_late_player_and_a_substitute,
    play,
    seated_day,
    snapshot,
)

from core.errors import ServiceError
from scoring.selectors import day_workbook_rows, table_sheets
from standings.read import Cut, marks_legend, rank_label, standings
from tournaments.access import COMMAND_LINE
from tournaments.models import Entry, Seat
from tournaments.services.late import seat_late_player, seat_substitute
from tournaments.services.registration import register_player, withdraw_entry
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
    assert text.count("not yet") == 4 and text.count("left") == 8  # Sam 1-4, Bob 5-12


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
