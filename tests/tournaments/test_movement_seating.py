"""Progressive tables (issue 27): a session seated by the movement from the session before's
results, through the seat service and the ``seat`` command; refusals change nothing."""

from __future__ import annotations

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from scoring_factories import add_entries, fresh, snapshot, stored_sheet

from core.errors import ServiceError
from scoring.models import Game, SheetState
from scoring.services import close_day
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, Entry, PlannedDay, RuleSet, Seat, StaffRole, Table
from tournaments.services.events import create_tournament
from tournaments.services.planning import plan_remaining_days
from tournaments.services.rules import RuleProblems, change_rules
from tournaments.services.seating import seat_day, swap_players

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]

MOVEMENT = {
    "days": 3,
    "games_per_day": 2,
    "max_table_size": 4,
    "session_seating": "movement",
    "move_up": 1,
    "move_down": 1,
}


def event(players=12, **rules):
    tournament = create_tournament(
        slug="prog",
        name="Progressive",
        preset_key="tournament",
        start_date=datetime.date(2026, 5, 4),
    )
    add_entries(tournament, [f"P{n:02d}" for n in range(1, players + 1)])
    change_rules(tournament, {**MOVEMENT, **rules}, by=COMMAND_LINE)
    return fresh(tournament)


def tables_of(day) -> dict[int, list[str]]:
    tables: dict[int, list[str]] = {}
    seats = Seat.objects.filter(day=day).order_by("table__number", "position")
    for number, name in seats.values_list("table__number", "entry__player__name"):
        tables.setdefault(number, []).append(name)
    return tables


def play_session(day, points_of, *, skip=(), unconfirmed=()):
    """Every table plays both games; each player scores ``points_of(name)`` a game. ``skip``
    and ``unconfirmed`` are (table, game) pairs left out, or entered and not confirmed."""
    for table in Table.objects.filter(day=day):
        seats = list(table.seats.select_related("entry__player").order_by("position"))
        for game in Game.objects.filter(day=day):
            if (table.number, game.number) in skip:
                continue
            points = {s.entry: points_of(s.entry.player.name) for s in seats}
            low = min(seats, key=lambda s: points[s.entry])
            points[low.entry] = 0
            state = (
                SheetState.ENTERED
                if (table.number, game.number) in unconfirmed
                else SheetState.CONFIRMED
            )
            stored_sheet(table, game, points, out=low.entry, state=state)


def by_number(name: str) -> int:
    # P01 scores 1 a game, P12 scores 12: the lower the number, the lower the total.
    return int(name[1:])


def test_the_second_session_is_seated_by_the_movement():
    tournament = event()
    day1, day2 = tournament.days.get(number=1), tournament.days.get(number=2)
    seat_day(day1, seed=3)
    first = tables_of(day1)
    play_session(day1, by_number)
    outcome = seat_day(day2)
    second = tables_of(day2)
    assert sorted(map(len, second.values())) == [4, 4, 4]
    # Each table's lowest moves up, its highest down, the rest stay (table 1's lowest and the
    # last table's highest stay where they are: the ends do not wrap).
    for number, names in first.items():
        ranked = sorted(names, key=by_number)
        up, down = ranked[0], ranked[-1]
        assert up in second[max(1, number - 1)]
        assert down in second[min(3, number + 1)]
        for name in ranked[1:-1]:
            assert name in second[number]
    stored = fresh(tournament).days.get(number=2).moves
    assert len(stored) == 12 and stored == outcome.moves
    low_of_3 = sorted(first[3], key=by_number)[0]
    move = next(m for m in stored if Entry.objects.get(pk=m["entry"]).player.name == low_of_3)
    # The lowest at a table goes out of both games: 0.
    assert move["words"] == "lowest at table 3 (0): moves up to table 2"
    assert (move["from_table"], move["to_table"]) == (3, 2)


def test_the_seating_page_shows_who_moves_where_and_why(organiser, client):
    tournament = event()
    StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.ORGANISER)
    day1, day2 = tournament.days.get(number=1), tournament.days.get(number=2)
    seat_day(day1, seed=3)
    play_session(day1, by_number)
    seat_day(day2)
    client.force_login(organiser)
    page = client.get(reverse("organiser:seating", args=[tournament.slug, 2])).content.decode()
    assert "Who moves where and why" in page
    assert "Lowest at table 3 (0): moves up to table 2" in page
    assert page.count('<tr data-entry="') == 12


def test_waiting_games_are_named_and_nothing_is_seated(organiser):
    tournament = event()
    StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.ORGANISER)
    day1, day2 = tournament.days.get(number=1), tournament.days.get(number=2)
    seat_day(day1, seed=3)
    play_session(day1, by_number, skip={(2, 2)}, unconfirmed={(3, 1)})
    before = snapshot(Day, Table, Seat)
    with pytest.raises(ServiceError) as refused:
        seat_day(day2)
    assert "every game of Day 1 must be confirmed (or Day 1 closed) first" in str(refused.value)
    assert "Waiting: Table 2: game 2 not entered; table 3: game 1 waiting for the desk" in str(
        refused.value
    )
    assert snapshot(Day, Table, Seat) == before
    # Closed, the session's confirmed games are its results.
    close_day(day1, organiser)
    seat_day(fresh(tournament).days.get(number=2))
    assert sum(map(len, tables_of(day2).values())) == 12


def test_an_unseated_session_before_is_refused():
    tournament = event()
    with pytest.raises(ServiceError, match="Day 1 is not seated yet"):
        seat_day(tournament.days.get(number=2))
    assert not Seat.objects.exists()


def test_withdrawals_even_the_tables_and_say_so():
    tournament = event()
    day1, day2 = tournament.days.get(number=1), tournament.days.get(number=2)
    seat_day(day1, seed=3)
    play_session(day1, by_number)
    gone = Entry.objects.filter(tournament=tournament, number__in=(1, 2, 3))
    gone.update(status=Entry.WITHDRAWN)
    outcome = seat_day(day2)
    assert sorted(map(len, tables_of(day2).values())) == [3, 3, 3]
    evened = [m for m in outcome.moves if "evened out" in m["words"]]
    assert evened and all("players left or arrived" in m["words"] for m in evened)
    assert all(m["words"].endswith(f"sits at table {m['to_table']}") for m in evened)
    assert {m["entry"] for m in outcome.moves} == set(
        Entry.objects.filter(tournament=tournament)
        .exclude(number__in=(1, 2, 3))
        .values_list("pk", flat=True)
    )


def test_a_move_by_hand_is_noted_on_the_moves():
    tournament = event()
    day1, day2 = tournament.days.get(number=1), tournament.days.get(number=2)
    seat_day(day1, seed=3)
    play_session(day1, by_number)
    seat_day(day2)
    one = Seat.objects.filter(day=day2, table__number=1).select_related("entry").first()
    three = Seat.objects.filter(day=day2, table__number=3).select_related("entry").first()
    swap_players(day2, one.entry, three.entry)
    moves = {m["entry"]: m for m in fresh(tournament).days.get(number=2).moves}
    assert moves[one.entry_id]["words"].endswith("; then moved to table 3 by the organiser")
    assert moves[three.entry_id]["words"].endswith("; then moved to table 1 by the organiser")
    assert (moves[one.entry_id]["to_table"], moves[three.entry_id]["to_table"]) == (3, 1)


def test_the_rules_refuse_with_the_field_and_change_nothing():
    tournament = event()
    before = snapshot(RuleSet, Day)
    with pytest.raises(RuleProblems) as refused:
        change_rules(tournament, {"move_up": 3, "move_down": 2}, by=COMMAND_LINE)
    assert refused.value.field == "move_up"
    assert "5 players, but a table seats at most 4" in str(refused.value)
    with pytest.raises(RuleProblems) as refused:
        change_rules(tournament, {"move_up": 0, "move_down": 0}, by=COMMAND_LINE)
    assert refused.value.field == "move_up"
    with pytest.raises(RuleProblems) as refused:
        change_rules(tournament, {"days": 1}, by=COMMAND_LINE)
    assert refused.value.field == "session_seating"
    assert snapshot(RuleSet, Day) == before


def test_a_movement_needs_players_for_two_tables():
    tournament = create_tournament(slug="small", name="Small", preset_key="tournament")
    add_entries(tournament, ["A", "B", "C", "D", "E"])
    before = snapshot(RuleSet)
    with pytest.raises(RuleProblems) as refused:
        change_rules(tournament, {"session_seating": "movement", "move_up": 1}, by=COMMAND_LINE)
    assert refused.value.field == "session_seating"
    assert "the 5 players entered fill one table" in str(refused.value)
    assert snapshot(RuleSet) == before


def test_the_format_is_fixed_after_the_first_score():
    tournament = event()
    day1 = tournament.days.get(number=1)
    seat_day(day1, seed=3)
    play_session(day1, by_number)
    with pytest.raises(ServiceError, match="Play has started"):
        change_rules(tournament, {"session_seating": "reshuffle"}, by=COMMAND_LINE)
    assert fresh(tournament).rules.session_seating == "movement"


def test_a_movement_is_not_planned_ahead():
    tournament = event()
    with pytest.raises(ServiceError, match="cannot be planned ahead"):
        plan_remaining_days(tournament, seed=1)
    assert not PlannedDay.objects.exists()


def test_sessions_share_a_date_and_say_so():
    tournament = event(sessions_per_day=2, days=4)
    dates = list(Day.objects.filter(tournament=tournament).values_list("date", flat=True))
    start = datetime.date(2026, 5, 4)
    next_day = start + datetime.timedelta(days=1)
    assert dates == [start, start, next_day, next_day]
    out = StringIO()
    call_command("seat", "prog", "--day", "1", "--seed", "3", stdout=out)
    assert "Progressive, day 1, session 1: shuffle number 3" in out.getvalue()
    play_session(tournament.days.get(number=1), by_number)
    out = StringIO()
    call_command("seat", "prog", "--day", "2", stdout=out)
    text = out.getvalue()
    assert (
        "Progressive, day 1, session 2: seated by the movement (2 moved up, 2 moved down, 8 stayed)"
        in text
    )
    assert "Who moves where and why:" in text
    assert "lowest at table 2" in text and "moves up to table 1" in text


def test_the_command_refuses_with_the_reason():
    event()
    call_command("seat", "prog", "--day", "1", "--seed", "3", stdout=StringIO())
    before = snapshot(Seat)
    with pytest.raises(CommandError, match="Waiting: Table 1: games 1 and 2 not entered"):
        call_command("seat", "prog", "--day", "2", stdout=StringIO())
    assert snapshot(Seat) == before


def test_rules_command_sets_and_shows_the_movement():
    tournament = create_tournament(slug="set", name="Set", preset_key="tournament")
    out = StringIO()
    call_command(
        "rules",
        "set",
        "--set",
        "session_seating=movement",
        "move_up=2",
        "end_tables=wrap",
        stdout=out,
    )
    rules = fresh(tournament).rules
    assert (rules.session_seating, rules.move_up, rules.end_tables) == ("movement", 2, "wrap")
    out = StringIO()
    call_command("rules", "set", stdout=out)
    text = out.getvalue()
    assert (
        "Seat each session after the first by: Movement: players move table to table by their "
        "results  [event: set for this event]"
    ) in text
    assert "Sessions a day: 1  [assumed: our assumption: the rule sheet does not say]" in text
    with pytest.raises(CommandError, match="seats at most 7"):
        call_command("rules", "set", "--set", "move_down=6", stdout=StringIO())
    assert fresh(tournament).rules.move_down == 0


def test_the_printouts_name_the_session():
    import io

    from pypdf import PdfReader

    from tournaments.printouts import find_table_pdf, seating_chart_pdf

    chart = seating_chart_pdf(title="Cup", day_number=2, tables=[(1, [(1, "Ann")])], per_day=2)
    door = find_table_pdf(title="Cup", day_number=3, rows=[("Ann", 1, 1)], per_day=2)
    one_a_day = seating_chart_pdf(title="Cup", day_number=2, tables=[(1, [(1, "Ann")])])

    def text(data):
        return PdfReader(io.BytesIO(data)).pages[0].extract_text()

    assert "Cup: day 1, session 2 seating" in text(chart)
    assert "Cup: day 2, session 1" in text(door)
    assert "Cup: day 2 seating" in text(one_a_day)


def test_the_standings_head_each_session():
    from standings.columns import player_columns
    from standings.read import standings

    tournament = event(sessions_per_day=2, days=4)
    seat_day(tournament.days.get(number=1), seed=3)
    play_session(tournament.days.get(number=1), by_number)
    result = standings(fresh(tournament))
    columns = player_columns(result.day_numbers, 2).columns
    labels = [c.heading for c in columns if c.key.startswith("day_")]
    assert labels == [
        "Day 1, session 1",
        "Day 1, session 2",
        "Day 2, session 1",
        "Day 2, session 2",
    ]
    out = StringIO()
    call_command("standings", "prog", stdout=out)
    assert "Day 1, session 2" in out.getvalue()


def test_a_movement_then_a_final_moves_session_2_and_seats_the_final_from_both():
    from standings.finals import seat_final
    from standings.read import standings

    tournament = event(final_qualify="overall", final_qualifiers=4, final_tables=1)
    days = {d.number: d for d in Day.objects.filter(tournament=tournament)}
    seat_day(days[1], seed=5)
    play_session(days[1], by_number)
    moved = seat_day(Day.objects.get(pk=days[2].pk))
    assert moved.moves, "session 2 is seated by the movement"
    play_session(days[2], by_number)
    with pytest.raises(ServiceError):  # the final is never seated as an ordinary session
        seat_day(Day.objects.get(pk=days[3].pk), seed=1)
    # The best four over both sessions, as the standings rank them, go through.
    best = [row.record.name for row in standings(fresh(tournament)).rows[:4]]
    draw, outcome = seat_final(fresh(tournament))
    assert [q.name for q in draw.qualifying.qualifiers] == best
    assert sorted(tables_of(outcome.day)[1]) == sorted(best)
