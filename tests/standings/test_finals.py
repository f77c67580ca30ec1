"""A final (championship round, issue 27): the rule through the rules service, seating the
final through the service and the ``final`` command (each refusal with its reason and nothing
changed), and the standings with the final first in every output."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from scoring_factories import fresh, seated_day, snapshot, staff, stored_sheet
from standings_outputs import every_output

from core.errors import ServiceError
from scoring.models import Game
from standings.finals import draw_final, seat_final
from standings.read import rank_label, standings
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, Seat, StaffRole, Table
from tournaments.services.events import set_public_pages
from tournaments.services.rules import RuleProblems, change_rules
from tournaments.services.seating import seat_day

pytestmark = pytest.mark.django_db

TABLES = (
    ("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox"),
    ("Ed Poe", "Flo Ng", "Gus Ray", "Hal Oz"),
)
# Each player's points in every game of day 1 (6 games): totals 6 times these.
DAY_ONE = {
    "Ann Lee": 1,
    "Bob Roe": 5,
    "Cy Doe": 3,
    "Di Fox": 8,
    "Ed Poe": 2,
    "Flo Ng": 4,
    "Gus Ray": 9,
    "Hal Oz": 7,
}


def event(slug="cup", **final):
    w = seated_day(slug=slug, tables=TABLES)
    rules = {"final_qualify": "overall", "final_qualifiers": 4, "final_tables": 1} | final
    change_rules(w.tournament, rules, by=COMMAND_LINE)
    w.tournament = fresh(w.tournament)
    return w


def play(tables, day, points):
    """Every game of ``day`` at every table, with ``points`` {name: per game}; the first
    lowest at each table is entered as going out only when they scored 0 (else blocked)."""
    for game in Game.objects.filter(day=day).order_by("number"):
        for table in tables:
            seats = list(table.seats.select_related("entry__player"))
            scores = {s.entry: points[s.entry.player.name] for s in seats}
            stored_sheet(table, game, scores, out=None)


def qualifying_played(w):
    play(w.tables, w.day, DAY_ONE)
    return fresh(w.tournament)


def names(members) -> list[str]:
    return [e.player.name for e in members]


def test_best_four_overall_qualify_with_their_reasons():
    w = event()
    tournament = qualifying_played(w)
    draw, outcome = seat_final(tournament)
    assert [q.name for q in draw.qualifying.qualifiers] == ["Ann Lee", "Ed Poe", "Cy Doe", "Flo Ng"]
    assert [q.reason for q in draw.qualifying.qualifiers] == [
        "1st overall (6)",
        "2nd overall (12)",
        "3rd overall (18)",
        "4th overall (24)",
    ]
    assert [names(t) for t in outcome.tables] == [["Ann Lee", "Ed Poe", "Cy Doe", "Flo Ng"]]
    final_day = Day.objects.get(tournament=tournament, number=2)
    assert set(
        Seat.objects.filter(day=final_day).values_list("entry__player__name", flat=True)
    ) == {
        "Ann Lee",
        "Ed Poe",
        "Cy Doe",
        "Flo Ng",
    }


def final_played(w, points):
    """Qualifying played, the final seated and every game of it played with ``points``."""
    tournament = qualifying_played(w)
    _, outcome = seat_final(tournament)
    final = outcome.day
    play(list(Table.objects.filter(day=final)), final, points)
    return fresh(tournament)


# In the final, Flo (4th into it) plays best and Ann (1st into it) worst.
FINAL_POINTS = {"Ann Lee": 6, "Ed Poe": 2, "Cy Doe": 3, "Flo Ng": 1}


def ranked(result) -> list[tuple[str, str, int]]:
    return [(rank_label(row), row.record.name, row.total) for row in result.rows]


def test_the_final_on_its_own_total_leads_then_everyone_by_qualifying_rank():
    tournament = final_played(event(), FINAL_POINTS)
    result = standings(tournament)
    assert ranked(result) == [
        ("1", "Flo Ng", 6),
        ("2", "Ed Poe", 12),
        ("3", "Cy Doe", 18),
        ("4", "Ann Lee", 36),
        ("5", "Bob Roe", 30),
        ("6", "Hal Oz", 42),
        ("7", "Di Fox", 48),
        ("8", "Gus Ray", 54),
    ]
    assert result.status_line == (
        "Final. The final first, ranked on the final's own total; then everyone else by "
        "their qualifying rank."
    )


def test_the_final_added_to_qualifying_orders_finalists_by_both():
    tournament = final_played(event(final_counts="added"), FINAL_POINTS)
    assert ranked(standings(tournament))[:5] == [
        ("1", "Ed Poe", 24),  # 12 + 12
        ("2", "Flo Ng", 30),  # 24 + 6
        ("3", "Cy Doe", 36),  # 18 + 18
        ("4", "Ann Lee", 42),  # 6 + 36
        ("5", "Bob Roe", 30),
    ]
    assert "added to their qualifying total" in standings(tournament).status_line


def test_before_the_final_is_seated_the_standings_are_the_usual_ones():
    tournament = qualifying_played(event())
    result = standings(tournament)
    assert [name for _, name, _ in ranked(result)][:2] == ["Ann Lee", "Ed Poe"]
    assert "final first" not in result.status_line


def test_every_output_gives_the_final_first_in_the_same_order(client):
    w = event()
    tournament = final_played(w, FINAL_POINTS)
    set_public_pages(tournament, True)
    client.force_login(staff(tournament, "boss", StaffRole.ORGANISER))
    wanted = [name for _, name, _ in ranked(standings(tournament))]
    for output, seen in every_output(fresh(tournament), client).items():
        assert list(seen.ranks) == wanted, output
        assert "The final first" in f"{seen.status} {seen.text}", output


def test_lowest_at_each_table_of_the_chosen_session_qualifies():
    tournament = qualifying_played(
        event(final_qualify="tables", final_session=1, final_qualifiers=0)
    )
    draw = draw_final(tournament)
    assert [(q.name, q.reason) for q in draw.qualifying.qualifiers] == [
        ("Ann Lee", "lowest at table 1 in session 1 (6)"),
        ("Ed Poe", "lowest at table 2 in session 1 (12)"),
    ]
    assert draw.refusal == ""


def test_best_per_flight_qualifies_each_flights_best():
    w = event(flights=["60-69", "70-79"], final_qualify="flight", final_qualifiers=2)
    from tournaments.models import Entry

    for name in ("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox"):
        Entry.objects.filter(pk=w.entries[name].pk).update(flight="60-69")
    for name in ("Ed Poe", "Flo Ng", "Gus Ray", "Hal Oz"):
        Entry.objects.filter(pk=w.entries[name].pk).update(flight="70-79")
    draw = draw_final(qualifying_played(w))
    assert [(q.name, q.reason) for q in draw.qualifying.qualifiers] == [
        ("Ann Lee", "1st in flight 60-69 (6)"),
        ("Cy Doe", "2nd in flight 60-69 (18)"),
        ("Ed Poe", "1st in flight 70-79 (12)"),
        ("Flo Ng", "2nd in flight 70-79 (24)"),
    ]


def test_a_tie_for_the_last_place_says_which_tie_break_decided_it():
    points = DAY_ONE | {"Flo Ng": 5}  # Flo and Bob tie on 30 for 4th
    w = event(tie_breaks=["lowest_worst_game"])
    play(w.tables, w.day, points)
    draw = draw_final(fresh(w.tournament))
    # Level on every game, so level on the worst game too: the tie-break cannot split them.
    (tie,) = draw.qualifying.ties
    assert tie.decided_by == "tied: the organiser decides"
    assert set(tie.names) == {"Bob Roe", "Flo Ng"}
    assert len(draw.qualifying.qualifiers) == 5  # both go through: one table seats 7


def test_a_tie_a_tie_break_settles_names_it():
    w = event(tie_breaks=["lowest_worst_game"])
    play(w.tables, w.day, DAY_ONE | {"Flo Ng": 5})
    # Bob's worst game becomes 10 (one 0 to keep his total at 30).
    from scoring.models import Score

    bob = w.entries["Bob Roe"]
    first, second = Score.objects.filter(entry=bob).order_by("pk")[:2]
    Score.objects.filter(pk=first.pk).update(points=10)
    Score.objects.filter(pk=second.pk).update(points=0)
    draw = draw_final(fresh(w.tournament))
    (tie,) = draw.qualifying.ties
    assert tie.decided_by == "Lowest single worst game"
    assert tie.through == ("Flo Ng",)
    assert [q.name for q in draw.qualifying.qualifiers][-1] == "Flo Ng"
    assert "Lowest single worst game decided it: Flo Ng through" in tie.words


def test_a_final_with_more_qualifiers_than_its_tables_seat_is_refused_and_nothing_changes():
    w = seated_day(slug="big", tables=TABLES)
    before = fresh(w.tournament).rules.rule_values()
    with pytest.raises(RuleProblems) as refused:
        change_rules(
            w.tournament,
            {"final_qualify": "overall", "final_qualifiers": 8, "final_tables": 1},
            by=COMMAND_LINE,
        )
    assert refused.value.field == "final_qualifiers"
    assert "more than the final's 1 table can seat (7 at most" in str(refused.value)
    assert fresh(w.tournament).rules.rule_values() == before


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        (
            {"days": 1, "final_qualify": "overall", "final_qualifiers": 4},
            "final_qualify",
            "at least one qualifying session",
        ),
        (
            {"final_qualify": "tables", "final_session": 2},
            "final_session",
            "1 to 1 (day 2 is the final)",
        ),
        ({"final_qualify": "tables", "final_session": 0}, "final_session", "qualifying sessions"),
        ({"final_qualify": "flight", "final_qualifiers": 2}, "final_qualify", "needs flights"),
        (
            {"final_qualify": "overall", "final_qualifiers": 3, "final_tables": 2},
            "final_tables",
            "at least 2 players",
        ),
        ({"final_qualify": "knockout"}, "final_qualify", "Choose"),
        ({"final_counts": "double"}, "final_counts", "Choose"),
    ],
)
def test_a_final_that_cannot_be_played_is_refused_with_the_field(changes, field, words):
    w = seated_day(slug="bad", tables=TABLES)
    before = fresh(w.tournament).rules.rule_values()
    with pytest.raises(RuleProblems) as refused:
        change_rules(w.tournament, changes, by=COMMAND_LINE)
    assert refused.value.field == field
    assert words in str(refused.value)
    assert fresh(w.tournament).rules.rule_values() == before


def test_the_final_cannot_change_after_the_first_score():
    w = event()
    play(w.tables[:1], w.day, DAY_ONE)
    with pytest.raises(ServiceError, match="Play has started"):
        change_rules(fresh(w.tournament), {"final_qualifiers": 3}, by=COMMAND_LINE)
    assert fresh(w.tournament).rules.final_qualifiers == 4


def test_the_final_is_not_seated_as_an_ordinary_day():
    w = event()
    final = Day.objects.get(tournament=w.tournament, number=2)
    with pytest.raises(ServiceError, match="Day 2 is the final"):
        seat_day(final)
    assert not Table.objects.filter(day=final).exists()


def final_command(slug, *args):
    out = io.StringIO()
    call_command("final", slug, *args, stdout=out)
    return out.getvalue()


def test_the_command_refuses_while_qualifying_is_not_finished_naming_what_is_missing():
    w = event()
    game_one = Game.objects.get(day=w.day, number=1)
    seats = list(w.tables[0].seats.select_related("entry"))
    stored_sheet(w.tables[0], game_one, {s.entry: 1 for s in seats})
    before = snapshot(Table, Seat)
    with pytest.raises(CommandError) as refused:
        final_command("cup", "--seat")
    assert str(refused.value) == (
        "Qualifying is not finished: session 1: table 1 games 2, 3, 4, 5, 6; table 2 games 1, "
        "2, 3, 4, 5, 6. Each game must be confirmed or marked not played first."
    )
    assert snapshot(Table, Seat) == before


def test_the_command_refuses_without_a_final_and_when_already_seated():
    seated_day(slug="plain", tables=TABLES)
    with pytest.raises(CommandError, match="no final in its rules"):
        final_command("plain", "--seat")
    w = event()
    qualifying_played(w)
    printed = final_command("cup", "--seat")
    assert "#1 Ann Lee: 1st overall (6)" in printed
    assert "Table 1 (4): #1 Ann Lee, #5 Ed Poe, #3 Cy Doe, #6 Flo Ng" in printed
    before = snapshot(Table, Seat)
    with pytest.raises(CommandError, match="already seated"):
        final_command("cup", "--seat")
    assert snapshot(Table, Seat) == before


def test_the_command_without_seat_only_shows_who_would_qualify():
    w = event()
    qualifying_played(w)
    printed = final_command("cup")
    assert "4 qualified for the final" in printed
    assert "Flo Ng: 4th overall (24)" in printed
    assert not Table.objects.filter(day__number=2, day__tournament=w.tournament).exists()


def test_the_organiser_sees_who_goes_through_and_seats_the_final_from_the_page(client):
    w = event()
    tournament = qualifying_played(w)
    client.force_login(staff(tournament, "boss", StaffRole.ORGANISER))
    page = client.get(f"/organiser/t/{tournament.slug}/final/").content.decode()
    assert "Ann Lee: 1st overall (6)" in page
    assert "Seat the final" in page
    seating = client.get(f"/organiser/t/{tournament.slug}/seating/2/").content.decode()
    assert "Seat the final" in seating
    response = client.post(f"/organiser/t/{tournament.slug}/final/seat/")
    assert response.status_code == 302
    final_day = Day.objects.get(tournament=tournament, number=2)
    assert Seat.objects.filter(day=final_day).count() == 4
    again = client.post(f"/organiser/t/{tournament.slug}/final/seat/", follow=True)
    assert "Nothing changed. The final (day 2) is already seated" in again.content.decode()
    assert Seat.objects.filter(day=final_day).count() == 4


def test_desk_staff_cannot_seat_the_final(client):
    w = event()
    tournament = qualifying_played(w)
    client.force_login(staff(tournament, "desk1"))
    response = client.post(f"/organiser/t/{tournament.slug}/final/seat/")
    assert response.status_code in (302, 403)
    assert not Table.objects.filter(day__tournament=tournament, day__number=2).exists()


def test_the_final_costs_one_query_more_whatever_the_size_of_the_event(
    django_assert_num_queries,
):
    tournament = final_played(event(), FINAL_POINTS)
    with django_assert_num_queries(4):  # the usual three, and who sits at the final
        standings(tournament)
    bigger = final_played(
        event(slug="big", final_qualifiers=6), FINAL_POINTS | {"Bob Roe": 2, "Hal Oz": 5}
    )
    with django_assert_num_queries(4):
        standings(bigger)


def test_rules_set_takes_the_final_and_rules_prints_it_with_its_source():
    seated_day(slug="cmd", tables=TABLES)
    out = io.StringIO()
    call_command(
        "rules",
        "cmd",
        "--set",
        "final_qualify=overall",
        "final_qualifiers=4",
        "final_tables=1",
        "final_counts=added",
        stdout=out,
    )
    out = io.StringIO()
    call_command("rules", "cmd", stdout=out)
    printed = out.getvalue()
    assert (
        "A final (championship round): who goes through: The best players overall  "
        "[event: set for this event]" in printed
    )
    assert "The final counts: Added to the qualifying total  [event: set for this event]" in printed
    assert "Tables at the final: 1  [assumed: our assumption: the rule sheet does not say]" in (
        printed
    )


def test_rules_set_refuses_an_impossible_final_naming_the_field_and_changes_nothing():
    w = seated_day(slug="cmd", tables=TABLES)
    before = fresh(w.tournament).rules.rule_values()
    with pytest.raises(CommandError, match="more than the final's 1 table can seat"):
        call_command("rules", "cmd", "--set", "final_qualify=overall", "final_qualifiers=9")
    assert fresh(w.tournament).rules.rule_values() == before


def test_a_plan_of_the_remaining_days_leaves_the_final_out():
    from tournaments.services.planning import plan_remaining_days

    w = seated_day(slug="plan", tables=TABLES, day_number=1)
    change_rules(
        w.tournament,
        {"days": 3, "final_qualify": "overall", "final_qualifiers": 4, "final_tables": 1},
        by=COMMAND_LINE,
    )
    outcome = plan_remaining_days(fresh(w.tournament), seed=1)
    # Day 1 was seated past the service (no seating time), so the plan takes it too.
    assert [s.day.number for s in outcome.sessions] == [1, 2]


def test_a_pair_kept_apart_never_shares_a_final_table():
    from tournaments.models import KeepApart

    w = event(final_qualifiers=6, final_tables=2)
    # Dealt back and forth (Ann 1st, Ed 2nd, Cy 3rd, Flo 4th, Bob 5th, Hal 6th), table 1
    # would be Ann, Flo and Bob, who must sit apart from Ann.
    ann, bob = sorted([w.entries["Ann Lee"], w.entries["Bob Roe"]], key=lambda e: e.pk)
    KeepApart.objects.create(tournament=w.tournament, first=ann, second=bob)
    _, outcome = seat_final(qualifying_played(w))
    assert not any({"Ann Lee", "Bob Roe"} <= set(names(t)) for t in outcome.tables)
    assert sorted(len(t) for t in outcome.tables) == [3, 3]


def test_a_tie_too_big_for_the_final_is_refused_naming_it_and_nothing_changes():
    w = event()
    play(w.tables, w.day, dict.fromkeys(DAY_ONE, 5))  # all eight level on 30
    tournament = fresh(w.tournament)
    before = snapshot(Table, Seat)
    with pytest.raises(ServiceError) as refused:
        seat_final(tournament)
    words = str(refused.value)
    assert words.startswith(
        "8 qualified, more than the final's 1 table can seat (7, 7 a table), because of a tie: "
        "4th place overall: "
    )
    assert "tied on 30; tied: the organiser decides" in words
    assert words.endswith("Add a tie-break on the Rules page (Tie-breaks) that settles it.")
    assert snapshot(Table, Seat) == before
    # Most games gone out settles it: Ann went out twice; Bob, Cy and Ed once, the rest never.
    change_rules(tournament, {"tie_breaks": ["most_outs"]}, by=COMMAND_LINE)
    from scoring.models import GameSheet

    outs = [(0, 1, "Ann Lee"), (0, 2, "Ann Lee"), (0, 3, "Bob Roe"), (0, 4, "Cy Doe")]
    for table, game, name in [*outs, (1, 1, "Ed Poe")]:
        GameSheet.objects.filter(table=w.tables[table], game__number=game).update(
            went_out=w.entries[name], blocked=False
        )
    draw = draw_final(fresh(tournament))
    assert [q.name for q in draw.qualifying.qualifiers] == [
        "Ann Lee",
        "Bob Roe",
        "Cy Doe",
        "Ed Poe",
    ]
    assert [q.reason for q in draw.qualifying.qualifiers][:2] == [
        "1st overall (30)",
        "2nd overall (30)",
    ]
    (tie,) = draw.qualifying.ties
    assert tie.decided_by == "Most games gone out"
    assert tie.through == ("Ann Lee", "Bob Roe", "Cy Doe", "Ed Poe")  # of the 8 level on 30
    assert draw.refusal == ""


def test_a_players_page_ends_at_the_rank_the_standings_give_with_the_final_first():
    from standings.player_story import player_story

    tournament = final_played(event(), FINAL_POINTS)
    result = standings(tournament)
    for row in result.rows:
        story = player_story(result, row.record.player_number)
        ranks = [g.rank for day in story.days for g in day.games if g.rank]
        assert ranks[-1] == rank_label(row), row.record.name


def test_only_the_organiser_is_shown_the_final_in_the_menu(client):
    w = event()
    client.force_login(staff(w.tournament, "desk1"))
    assert "/final/" not in client.get(f"/organiser/t/{w.tournament.slug}/").content.decode()
    client.force_login(staff(w.tournament, "boss", StaffRole.ORGANISER))
    assert "/final/" in client.get(f"/organiser/t/{w.tournament.slug}/").content.decode()
