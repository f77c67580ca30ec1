"""The late_join and substitute commands: the same services as the seating page, a clear
message and exit 1 on refusal, and nothing changed then."""

from __future__ import annotations

import pytest
from command_line import run_from_the_shell
from scoring_factories import play, seated_day, snapshot

from tournaments.models import Entry, Player, Seat

pytestmark = pytest.mark.django_db(transaction=True)

ROSTER = (Player, Entry, Seat)


def test_late_join_seats_a_walk_in_at_the_smallest_table_from_its_next_game(capsys):
    w = seated_day(preset="club-session")
    play(w, w.tables[0], [1, 2, 3])
    play(w, w.tables[1], [1, 2])
    run_from_the_shell("late_join", "cup", "--day", "1", "Lou Late", "--club", "Elks")
    out = capsys.readouterr().out
    assert "Lou Late is entered as player #8." in out
    assert "Lou Late joins day 1, table 2" in out and "from game 3: 4 players there" in out
    assert "each draws 12 tiles" in out
    assert "games 1 to 2: they count nothing" in out and "over 10 games, not 12" in out
    seat = Seat.objects.get(entry__player__name="Lou Late")
    assert (seat.table.number, seat.joined_at_game, seat.entry.club) == (2, 3, "Elks")


def test_late_join_is_refused_where_the_rules_forbid_it_and_nothing_changes(capsys):
    w = seated_day()  # the two-day tournament: no late players
    play(w, w.tables[0], [1])
    before = snapshot(*ROSTER)
    with pytest.raises(SystemExit) as exit_status:
        run_from_the_shell("late_join", "cup", "--day", "1", "Lou Late")
    assert exit_status.value.code == 1
    err = capsys.readouterr().err
    assert "Nobody was entered or seated" in err and "Late players may join" in err
    assert snapshot(*ROSTER) == before


def test_late_join_is_refused_when_every_table_is_full(capsys):
    w = seated_day(preset="club-session")
    rules = w.tournament.rules
    rules.max_table_size = 4
    rules.save()
    play(w, w.tables[0], [1])
    run_from_the_shell("late_join", "cup", "--day", "1", "Lou Late")
    before = snapshot(*ROSTER)
    with pytest.raises(SystemExit):
        run_from_the_shell("late_join", "cup", "--day", "1", "Max More")
    assert "No table on day 1 has a free seat (at most 4 players)" in capsys.readouterr().err
    assert snapshot(*ROSTER) == before


def test_substitute_withdraws_the_player_and_seats_the_substitute_in_their_seat(capsys):
    w = seated_day(preset="club-session")
    play(w, w.tables[0], [1, 2, 3, 4])
    bob = w.entries["Bob Roe"]
    run_from_the_shell(
        "substitute", "cup", "--day", "1", "--for", str(bob.number), "Sam Sub", "--from-game", "5"
    )
    out = capsys.readouterr().out
    assert "Sam Sub takes Bob Roe's seat at day 1, table 1, from game 5: 4 players" in out
    assert "Games 1 to 4 are Bob Roe's. Sam Sub's games are shown without a rank" in out
    bob.refresh_from_db()
    assert bob.status == Entry.WITHDRAWN
    assert Seat.objects.get(entry=bob).left_after_game == 4
    sub = Seat.objects.get(entry__player__name="Sam Sub")
    assert (sub.table_id, sub.joined_at_game, sub.replaces_id) == (w.tables[0].pk, 5, bob.pk)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--for", "2", "Sam Sub", "--from-game", "3"],
            "table 1 has entered games up to 4: the substitute can start from game 5 to 12",
        ),
        (["--for", "2", "Sam Sub", "--from-game", "13"], "Choose a game from 1 to 12"),
        (["--for", "99", "Sam Sub", "--from-game", "5"], "No player #99"),
        (["--for", "2", "Ann Lee", "--from-game", "5"], "Ann Lee is already entered"),
    ],
)
def test_substitute_refusals_change_nothing(capsys, args, message):
    w = seated_day(preset="club-session")
    play(w, w.tables[0], [1, 2, 3, 4])
    before = snapshot(*ROSTER)
    with pytest.raises(SystemExit) as exit_status:
        run_from_the_shell("substitute", "cup", "--day", "1", *args)
    assert exit_status.value.code == 1
    assert message in capsys.readouterr().err
    assert snapshot(*ROSTER) == before


def test_substitute_is_refused_under_the_tournament_rules(capsys):
    w = seated_day()
    play(w, w.tables[0], [1])
    before = snapshot(*ROSTER)
    with pytest.raises(SystemExit):
        run_from_the_shell(
            "substitute", "cup", "--day", "1", "--for", "2", "Sam Sub", "--from-game", "2"
        )
    assert "Substitutes allowed" in capsys.readouterr().err
    assert snapshot(*ROSTER) == before
