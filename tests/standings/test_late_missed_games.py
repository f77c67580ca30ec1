"""A late player's missed games under the event's rule (issue 27, the Good Sams of Florida's
"must accept the highest score at the table"): the one standings read credits them, every
output marks them, and the rule is set on the rules page and by the commands until play
starts."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from scoring_factories import fresh, play, seated_day, snapshot, stored_sheet
from standings_outputs import every_output

from core.errors import ServiceError
from scoring.models import GameSheet, SheetState
from standings.columns import row_note
from standings.late import late_legend
from standings.read import Cut, marks_legend, rank_label, standings
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, RuleSet, Tournament
from tournaments.services.events import set_public_pages
from tournaments.services.late import seat_late_player
from tournaments.services.registration import register_player
from tournaments.services.rules import change_rules

pytestmark = pytest.mark.django_db

RULE_MODELS = (Tournament, RuleSet, Day)


def late_at_table_2(rule: str, *, game_2=SheetState.CONFIRMED, organiser=None):
    """A club session under ``rule``: table 2 (Ed, Flo, Gus) plays games 1 (0, 12, 30) and 2
    (7, 0, 41, in ``game_2``'s state) before Lou Late joins it at game 3; both tables then
    play game 3 (the first player out, the others 10)."""
    w = seated_day(preset="club-session", organiser=organiser)
    change_rules(w.tournament, {"late_missed_games": rule}, by=COMMAND_LINE)
    e = w.entries
    play(w, w.tables[0], [1, 2, 3])
    game_1 = {e["Ed Poe"]: 0, e["Flo Ng"]: 12, e["Gus Ray"]: 30}
    stored_sheet(w.tables[1], w.games[1], game_1, out=e["Ed Poe"])
    stored_sheet(
        w.tables[1],
        w.games[2],
        {e["Ed Poe"]: 7, e["Flo Ng"]: 0, e["Gus Ray"]: 41},
        out=e["Flo Ng"],
        state=game_2,
    )
    lou = register_player(w.tournament, name="Lou Late")
    late = seat_late_player(w.day, lou, by=COMMAND_LINE)
    assert (late.table_number, late.from_game) == (2, 3)
    play(w, w.tables[1], [3])  # Ed out; Flo, Gus and Lou 10 each
    w.tournament = fresh(w.tournament)
    return w


def rows(result):
    return {row.record.name: row for row in result.rows}


@pytest.mark.parametrize(
    ("rule", "total", "short"),
    [("highest", 30 + 41 + 10, False), ("average", 14 + 16 + 10, False), ("nothing", 10, True)],
)
def test_each_missed_game_counts_what_the_rule_says(rule, total, short):
    w = late_at_table_2(rule)
    result = standings(w.tournament, Cut(day=1, game=3))
    lou = rows(result)["Lou Late"]
    assert lou.total == total and lou.record.day_totals == (total,)
    # Credited games count as games for the short mark (the total holds a score for each game
    # the table played); the Games column still says the games they played.
    assert bool(lou.short_of) is short and lou.record.games_played == 1
    assert lou.record.late == (() if rule == "nothing" else (2,))
    # The others' totals are their own.
    assert rows(result)["Gus Ray"].total == 81


def test_the_race_chart_line_of_a_late_player_holds_the_credited_games():
    from standings.race import race_lines

    w = late_at_table_2("highest")
    result = standings(w.tournament, Cut(day=1, game=3))
    lou = next(line for line in race_lines(result) if line.name == "Lou Late")
    assert lou.games == {(1, 1): 30, (1, 2): 41, (1, 3): 10}


def test_a_missed_game_not_confirmed_yet_counts_nothing_until_it_is():
    w = late_at_table_2("highest", game_2=SheetState.ENTERED)
    result = standings(w.tournament, Cut(day=1, game=3))
    assert rows(result)["Lou Late"].total == 30 + 10
    assert result.to_confirm == 1  # the standings already wait for game 2 at table 2
    GameSheet.objects.filter(state=SheetState.ENTERED).update(
        state=SheetState.CONFIRMED, confirmed_at=timezone.now()
    )
    assert rows(standings(w.tournament, Cut(day=1, game=3)))["Lou Late"].total == 81


def test_a_cut_before_the_player_joined_credits_the_games_up_to_it():
    w = late_at_table_2("highest")
    lou = rows(standings(w.tournament, Cut(day=1, game=1)))["Lou Late"]
    # No game of their own yet: the credited game alone, not a dash.
    assert (lou.total, lou.record.day_totals, lou.record.games_played) == (30, (30,), 0)
    assert not lou.short_of


def test_a_substitute_is_not_credited_the_games_of_the_player_replaced():
    from tournaments.services.late import seat_substitute
    from tournaments.services.registration import withdraw_entry

    w = late_at_table_2("highest")
    withdraw_entry(w.entries["Bob Roe"])
    sam = register_player(w.tournament, name="Sam Sub")
    seat_substitute(w.day, w.entries["Bob Roe"], sam, from_game=4, by=COMMAND_LINE)
    play(w, w.tables[0], [4])
    sam_row = rows(standings(w.tournament))["Sam Sub"]
    assert sam_row.record.late == () and sam_row.total == 10


def test_the_rule_adds_one_query_per_read_whatever_the_number_of_late_players():
    w = late_at_table_2("highest")
    with CaptureQueriesContext(connection) as one:
        standings(w.tournament, Cut(day=1, game=3))
    for name in ("Max Later", "Ned Later"):
        seat_late_player(w.day, register_player(w.tournament, name=name), by=COMMAND_LINE)
    with CaptureQueriesContext(connection) as three:
        standings(w.tournament, Cut(day=1, game=3))
    assert len(one) == len(three)
    RuleSet.objects.filter(tournament=w.tournament).update(late_missed_games="nothing")
    w.tournament.rules.refresh_from_db()
    with CaptureQueriesContext(connection) as nothing:
        standings(w.tournament, Cut(day=1, game=3))
    assert len(nothing) == len(one) - 1


@pytest.mark.parametrize(
    ("rule", "words", "day"),
    [("highest", "late: highest at the table", "81L"), ("average", "late: table average", "40L")],
)
def test_every_output_marks_the_credited_day_and_says_why(
    organiser_client, organiser, rule, words, day
):
    w = late_at_table_2(rule, organiser=organiser)
    set_public_pages(w.tournament, True)
    result = standings(w.tournament)
    assert words in late_legend(result) and words in marks_legend(result, brief=True)
    assert row_note(rows(result)["Lou Late"]) == f"{words}, 2 missed games"
    shown = every_output(fresh(w.tournament), organiser_client)
    for name, output in shown.items():
        assert words in output.text, name
        if name != "workbook":  # the workbook's days are numbers, its note says why
            assert f"{day} " in output.text + " ", name
    assert f"{words}, 2 missed games" in shown["workbook"].text


def test_no_mark_and_no_legend_when_nobody_was_credited():
    w = seated_day(preset="club-session")
    change_rules(w.tournament, {"late_missed_games": "highest"}, by=COMMAND_LINE)
    play(w, w.tables[0], [1])
    result = standings(fresh(w.tournament))
    assert late_legend(result) == "" and "late:" not in marks_legend(result)


# --- setting the rule ------------------------------------------------------------------------


def test_the_rules_command_sets_it_refuses_a_bad_value_and_refuses_it_after_the_first_score(
    capsys,
):
    w = seated_day(preset="club-session")
    call_command("rules", "cup", "--set", "late_missed_games=highest")
    out = capsys.readouterr().out
    assert (
        "A late player's missed games count: The highest score at their table in that game  "
        "[event: set for this event]" in out
    )
    before = snapshot(*RULE_MODELS)
    with pytest.raises(
        CommandError, match='late_missed_games: Choose "nothing", "highest" or "average"'
    ):
        call_command("rules", "cup", "--set", "late_missed_games=most")
    assert snapshot(*RULE_MODELS) == before
    stored_sheet(w.tables[0], w.games[1])
    with pytest.raises(CommandError, match=r"Play has started.*a late player's missed games"):
        call_command("rules", "cup", "--set", "late_missed_games=average")
    with pytest.raises(ServiceError, match="Play has started"):
        change_rules(w.tournament, {"late_missed_games": "nothing"}, by=COMMAND_LINE)
    assert snapshot(*RULE_MODELS) == before
    assert fresh(w.tournament).rules.late_missed_games == "highest"


def test_new_tournament_takes_the_rule_and_refuses_a_bad_value(capsys):
    call_command(
        "new_tournament", "eve", "--name", "Eve", "--rules", "club-session",
        "--late-missed-games", "Average",
    )  # fmt: skip
    assert Tournament.objects.get(slug="eve").rules.late_missed_games == "average"
    with pytest.raises(CommandError, match='Choose "nothing", "highest" or "average"'):
        call_command(
            "new_tournament", "odd", "--name", "Odd", "--rules", "club-session",
            "--late-missed-games", "most",
        )  # fmt: skip
    assert not Tournament.objects.filter(slug="odd").exists()


RULES_FORM = {
    "top_double": "12",
    "days": "1",
    "games_per_day": "12",
    "first_engine": "12",
    "engine_order": "",
    "max_table_size": "7",
    "hand_sizes": "2-7: 12",
    "double_blank_value": "50",
    "reshuffle_each_day": "",
    "spread_clubs": "on",
    "unplayed_counts": "nothing",
    "late_joins": "on",
    "substitutes": "on",
    "substitute_ranking": "not_ranked",
}


def test_the_rules_page_sets_it_refuses_a_bad_value_beside_the_field_and_is_fixed_after_play(
    client, make_user
):
    boss = make_user("boss", superuser=True)
    w = seated_day(preset="club-session", organiser=boss)
    client.force_login(boss)
    page = client.get("/organiser/t/cup/rules/").content.decode()
    assert "A late player&#x27;s missed games count" in page
    before = snapshot(*RULE_MODELS)
    page = client.post(
        "/organiser/t/cup/rules/", {**RULES_FORM, "late_missed_games": "most"}
    ).content.decode()
    assert "Select a valid choice. most is not one of the available choices." in page
    assert snapshot(*RULE_MODELS) == before
    highest = {**RULES_FORM, "late_missed_games": "highest"}
    assert client.post("/organiser/t/cup/rules/", highest).status_code == 302
    assert fresh(w.tournament).rules.late_missed_games == "highest"
    # A form without the field (posted before the rule existed) keeps the event's value.
    assert client.post("/organiser/t/cup/rules/", RULES_FORM).status_code == 302
    assert fresh(w.tournament).rules.late_missed_games == "highest"
    stored_sheet(w.tables[0], w.games[1])
    before = snapshot(*RULE_MODELS)
    client.post("/organiser/t/cup/rules/", {**RULES_FORM, "late_missed_games": "average"})
    assert snapshot(*RULE_MODELS) == before


def test_the_good_sam_preset_records_the_published_rule_and_the_others_keep_nothing(
    make_tournament, capsys
):
    from tournaments.models import RulePreset

    presets = {p.key: p for p in RulePreset.objects.all()}
    assert presets["good-sam"].sources["late_missed_games"] == "published"
    assert "published rules" in presets["good-sam"].source
    assert {k for k, p in presets.items() if p.late_missed_games != "nothing"} == {"good-sam"}
    make_tournament(slug="sam", preset="good-sam")
    call_command("rules", "sam")
    assert (
        "A late player's missed games count: The highest score at their table in that game  "
        "[published: from the published rules or chart the preset names]"
    ) in capsys.readouterr().out


@pytest.mark.parametrize(
    ("rule", "words"),
    [
        ("highest", "each counts the highest score at their table in that game, once it is"),
        ("average", "each counts their table's average in that game, rounded, once it is"),
        ("nothing", "they count nothing, so their day total is over 10 games, not 12"),
    ],
)
def test_the_late_seating_note_says_what_the_missed_games_count(rule, words):
    from types import SimpleNamespace

    from tournaments.presenters import late_plan_notes
    from tournaments.services.late import LatePlan

    plan = LatePlan(day_number=1, table_number=2, from_game=3, games_per_day=12, players=4,
                    hand_size=12)  # fmt: skip
    notes = late_plan_notes(plan, SimpleNamespace(late_missed_games=rule), "Lou Late")
    assert f"Lou Late was not at a table for games 1 to 2: {words}" in notes[1]


def test_a_season_counts_the_late_players_session_as_the_event_does():
    from standings.seasons.read import season_standings
    from tournaments.services.seasons import add_events, create_season

    w = late_at_table_2("highest")
    season = create_season(slug="year", name="Year")
    add_events(season, [w.tournament.slug])
    rows = {row.player.name: row for row in season_standings(season).rows}
    event = {r.record.name: r for r in standings(w.tournament).rows}
    # The session's total is the event's day total, over the games it counts (1 played and 2
    # credited).
    assert rows["Lou Late"].total == event["Lou Late"].total == 81
    assert rows["Lou Late"].games == 3
    assert rows["Gus Ray"].total == event["Gus Ray"].total


def test_the_players_page_shows_the_credited_games_and_ends_at_their_total(client):
    from standings.player_story import player_story
    from standings.read import public_standings

    w = late_at_table_2("highest")
    set_public_pages(w.tournament, True)
    result = public_standings(fresh(w.tournament))
    lou = rows(result)["Lou Late"]
    story = player_story(result, lou.record.player_number)
    games = story.days[0].games
    assert [(g.points, g.late) for g in games[:3]] == [
        (30, "late: highest at the table"),
        (41, "late: highest at the table"),
        (10, ""),
    ]
    assert games[2].total == story.days[0].total == lou.total == 81
    # The rank after the last game is the standings' rank: everyone's credit counted alike.
    assert games[2].rank == rank_label(lou)
    page = client.get(f"/t/cup/player/{lou.record.player_number}/").content.decode()
    assert "30L" in page and "L: late: highest at the table" in page
