"""Standings that never mislead: dashes for days not played, the banner's three states, the
mid-day default view, the race chart and a player's page."""

import io
import re
from xml.etree import ElementTree

import pytest
import test_standings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from hypothesis import given, strategies as st
from openpyxl import load_workbook
from pypdf import PdfReader
from scoring_factories import add_entries, fresh, seat_tables, stored_sheet
from test_standings import EVERY_GAME, page_rows

from scoring.day_board import day_board
from scoring.models import GameSheet, SheetState
from standings.pdf import player_table_rows, render_standings_pdf
from standings.player_story import player_story
from standings.race import race_chart, race_lines, slots
from standings.race_chart import RaceLine, race_chart_svg
from standings.read import (
    COMPLETE,
    FINAL,
    PROVISIONAL,
    Cut,
    default_cut,
    level_cut,
    rank_label,
    standings,
)
from standings.xlsx import standings_workbook
from tournaments.services.events import set_public_pages

DASH = "\u2013"
# The hand-worked events of test_standings, shared rather than built again.
small = test_standings.small
small_two_days = test_standings.small_two_days


# --- a day not played is a dash, never 0 ------------------------------------------------------


def test_a_day_not_played_is_a_dash_on_the_page_and_the_projector(organiser_client, small):
    response = organiser_client.get(reverse("organiser:standings", args=["small"]), EVERY_GAME)
    rows = {r[2]: r for r in page_rows(response)}
    assert rows["Bob"][4:7] == ["10", DASH, "10"]
    assert all(r[5] == DASH for r in rows.values())
    board = organiser_client.get(reverse("public:projector", args=["small"]), EVERY_GAME)
    cells = list(page_rows(board, "board-players"))
    assert cells and all(DASH in r for r in cells) and all("0" not in r[3:5] for r in cells)


def test_a_day_not_played_is_a_dash_in_the_pdf_and_an_empty_cell_in_the_workbook(small):
    result = standings(fresh(small))
    header, body = player_table_rows(result)
    day_2 = header.index("Day 2")
    assert {row[day_2] for row in body} == {DASH}
    text = PdfReader(io.BytesIO(render_standings_pdf(result))).pages[0].extract_text()
    assert DASH in text
    sheet = load_workbook(io.BytesIO(standings_workbook(result)))["Standings"]
    rows = list(sheet.iter_rows(values_only=True))
    column = rows[0].index("Day 2")
    assert [r[column] for r in rows[1:]] == [None] * 5
    assert all(isinstance(r[rows[0].index("Day 1")], int) for r in rows[1:])


def test_a_day_not_played_is_a_dash_on_the_command_line(small):
    out = io.StringIO()
    call_command("standings", "small", stdout=out)
    bob = next(line for line in out.getvalue().splitlines() if " Bob " in line)
    assert re.search(r"\b10\s+-\s+10\b", bob)


def test_a_player_seated_without_a_game_has_dashes_not_zeros(small_two_days):
    # Day 2 after game 2: Di and Ed's table has played game 1 only, so they have a day 2 total,
    # but cut to day 2 before anything: nobody has one.
    result = standings(fresh(small_two_days), Cut(day=2, game=1))
    assert all(row.record.day_totals[1] is not None for row in result.rows)
    assert (
        next(r.record.day_totals for r in standings(fresh(small_two_days), Cut(day=1)).rows)[0]
        is not None
    )


# --- the banner: Final, Complete after ..., Provisional: N games still to play -------------


def test_final_only_when_the_whole_event_is_over_and_confirmed(demo_tournament):
    tournament = fresh(demo_tournament)
    everything = standings(tournament)
    assert (everything.state, everything.status_line) == (FINAL, "Final")
    after_day_1 = standings(tournament, Cut(day=1))
    assert (after_day_1.state, after_day_1.status_line) == (COMPLETE, "Complete after day 1")
    mid = standings(tournament, Cut(day=2, game=2))
    assert (mid.state, mid.status_line) == (COMPLETE, "Complete after day 2, game 2")
    assert standings(tournament, Cut(day=2, game=6)).state == FINAL


def test_games_waiting_make_it_provisional_with_the_count(demo_tournament):
    GameSheet.objects.filter(pk__in=GameSheet.objects.order_by("-pk").values("pk")[:2]).update(
        state=SheetState.ENTERED, confirmed_at=None
    )
    result = standings(fresh(demo_tournament))
    assert (result.state, result.status_line) == (PROVISIONAL, "Provisional: 2 games to confirm")
    # The view before those games is complete.
    assert standings(fresh(demo_tournament), Cut(day=1)).state == COMPLETE


def test_a_confirmed_first_day_with_the_second_not_seated_is_complete_not_final(small):
    day = small.days.get(number=1)
    table = day.tables.get()
    GameSheet.objects.filter(table=table).exclude(state=SheetState.CONFIRMED).delete()
    entries = list(small.players.values())
    for game in day.games.filter(number__gte=3):
        stored_sheet(table, game, dict.fromkeys(entries[1:], 4) | {entries[0]: 0}, out=entries[0])
    result = standings(fresh(small))
    assert result.unseated_days == (2,)
    assert (result.state, result.status_line) == (COMPLETE, "Complete after day 1")


def test_the_pages_show_each_state_in_its_own_colour(organiser_client, client, demo_tournament):
    set_public_pages(demo_tournament, True)
    url = reverse("organiser:standings", args=[demo_tournament.slug])
    page = organiser_client.get(url, {"after_day": 1}).content.decode()
    assert '<p class="banner banner-complete"' in page and "Complete after day 1" in page
    assert "banner-final" not in page
    assert "banner-final" in organiser_client.get(url).content.decode()
    board = client.get(reverse("public:projector", args=[demo_tournament.slug]), {"after_day": 1})
    assert (
        '<p class="board-complete" role="status">Complete after day 1</p>' in board.content.decode()
    )


# --- the default view mid-day ----------------------------------------------------------------


@pytest.mark.parametrize(
    "day, confirmed, cut",
    [
        (2, [{1, 2}, {1, 2}], None),  # level: no cut needed
        (2, [{1, 2, 3}, {1}], Cut(day=2, game=1)),
        (2, [{1, 3}, {1, 2}], Cut(day=2, game=1)),  # a gap: game 2 of table one is waiting
        (2, [{2}, {1}], Cut(day=1)),  # a table has not finished game 1 of day 2
        (1, [set(), {1}], None),  # nothing common on day 1: every game entered, provisional
        (1, [{1, 2, 3, 4, 5, 6}, {1, 2, 3, 4, 5, 6}], None),
    ],
)
def test_level_cut_is_the_last_game_every_table_has_finished(day, confirmed, cut):
    assert level_cut(day, confirmed) == cut


def test_mid_day_the_default_view_is_after_the_last_game_every_table_finished(
    organiser_client, small_two_days, django_assert_num_queries
):
    tournament = fresh(small_two_days)
    # The latest day in play, then its tables, live sheets and games marked not played.
    with django_assert_num_queries(4):
        assert default_cut(tournament) == Cut(day=2, game=1)
    url = reverse("organiser:standings", args=["small"])
    page = organiser_client.get(url)
    body = page.content.decode()
    assert "Standings after game 1 of day 2" in body and 'id="default-view"' in body
    # Everyone's total counts game 1 of day 2 only (Ann's game 2 is not in it yet).
    assert {r[2]: r[6] for r in page_rows(page)}["Ann"] == "20"
    assert {r[2]: r[-1] for r in page_rows(page)} == {
        "Ann": "3",
        "Bob": "3",
        "Cy": "3",
        "Di": "3",
        "Ed": "3",
    }
    every = organiser_client.get(url, EVERY_GAME).content.decode()
    assert (
        'id="default-view"' not in every
        and "Provisional: 12 games still to play; 1 game to confirm" in every
    )


def test_the_command_prints_what_the_page_opens_on_and_every_game_when_asked(small_two_days):
    out = io.StringIO()
    call_command("standings", "small", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Small: Standings after game 1 of day 2"
    assert lines[2].startswith("Showing the standings after game 1 of day 2: the last game")
    ann = next(line for line in lines if " Ann " in line).split()
    assert ann[-3:] == ["20", "1", "3"]  # total, outs, games: as the page's default view
    every = io.StringIO()
    call_command("standings", "small", "--every-game", stdout=every)
    lines = every.getvalue().splitlines()
    assert lines[0] == "Small: Standings" and "Showing" not in every.getvalue()
    assert next(line for line in lines if " Ann " in line).split()[-3:] == ["20", "2", "4"]


def test_no_default_cut_when_the_tables_stand_level(demo_tournament):
    assert default_cut(fresh(demo_tournament)) is None


# --- the race chart ---------------------------------------------------------------------------


def chart_lines(svg: str) -> dict[int, list[int]]:
    """{player number: cumulative values} of each line of an SVG chart."""
    root = ElementTree.fromstring(svg)
    return {
        int(g.get("data-player")): [int(v) for v in g.get("data-values").split()]
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "race-line" in (g.get("class") or "")
    }


def test_every_line_of_the_race_ends_at_the_players_total(demo_tournament):
    result = standings(fresh(demo_tournament))
    totals = {row.record.player_number: row.total for row in result.rows}
    lines = chart_lines(race_chart(result))
    assert list(lines) == [row.record.player_number for row in result.rows[:10]]
    for number, values in lines.items():
        assert values[0] == 0 and values[-1] == totals[number]
        assert len(values) == 1 + 12 and values == sorted(values)


def test_a_cut_chart_ends_at_the_cut_totals(small_two_days):
    result = standings(fresh(small_two_days), Cut(day=2, game=1))
    assert slots(result) == [(1, g) for g in range(1, 7)] + [(2, 1)]
    for number, values in chart_lines(race_chart(result)).items():
        row = next(r for r in result.rows if r.record.player_number == number)
        assert values[-1] == row.total


def test_a_picked_player_is_drawn_dashed_after_the_top_ten(demo_tournament):
    result = standings(fresh(demo_tournament))
    last = result.rows[-1].record.player_number
    lines = race_lines(result, [last])
    assert len(lines) == 11 and lines[-1].number == last and lines[-1].picked
    assert not any(line.picked for line in lines[:10])
    assert 'stroke-dasharray="7 4"' in race_chart(result, [last])


def test_the_top_of_the_race_never_cuts_through_a_tie(db):
    from scoring_factories import seated_day, three_tied_for_second

    w = seated_day()
    result = standings(three_tied_for_second(w))
    # Ann leads; Bob, Ed and Flo share 2nd: a top three takes all of them.
    lines = race_lines(result, top=3)
    assert sorted(line.name for line in lines) == ["Ann Lee", "Bob Roe", "Ed Poe", "Flo Ng"]
    assert not any(line.picked for line in lines)
    assert "top 3 and 1 tied with them" in race_chart(result, top=3)
    assert len(race_lines(result, top=5)) == 5  # 5th (Gus) is alone: no tie to take


def test_picking_a_player_who_is_not_there_says_so_next_to_the_field(client, demo_tournament):
    set_public_pages(demo_tournament, True)
    url = reverse("public:standings", args=[demo_tournament.slug])
    for bad, words in [
        ("abc", "no Player ID &quot;abc&quot;"),
        ("999", "Player ID &quot;999&quot;"),
    ]:
        page = client.get(url, {"pick": bad})
        body = page.content.decode()
        assert page.status_code == 200 and words in body and 'id="pick-error"' in body
        assert body.count('class="race-line"') == 10
    good = client.get(url, {"pick": "43"}).content.decode()
    assert 'id="pick-error"' not in good and good.count('class="race-line picked"') == 1


@given(
    st.lists(
        st.lists(st.one_of(st.none(), st.integers(0, 300)), min_size=6, max_size=6),
        min_size=1,
        max_size=10,
    )
)
def test_any_lines_end_at_the_sum_of_their_games(players):
    game_slots = [(1, g) for g in range(1, 7)]
    lines = [
        RaceLine(
            number,
            f"P{number} <&>",
            str(number),
            {slot: p for slot, p in zip(game_slots, points, strict=True) if p is not None},
        )
        for number, points in enumerate(players, start=1)
    ]
    drawn = chart_lines(race_chart_svg(game_slots, lines, 'A "title" & <more>'))
    for number, points in enumerate(players, start=1):
        assert drawn[number][-1] == sum(p for p in points if p is not None)


# --- a player's page --------------------------------------------------------------------------


def test_the_player_page_tells_the_players_event_game_by_game(client, demo_tournament):
    set_public_pages(demo_tournament, True)
    result = standings(fresh(demo_tournament))
    row = result.rows[4]
    story = player_story(result, row.record.player_number)
    games = [g for day in story.days for g in day.games]
    assert len(games) == 12 and games[-1].total == row.total
    assert games[-1].rank == rank_label(row)
    assert sum(day.total for day in story.days) == row.total
    assert all(day.table is not None for day in story.days)
    assert all(g.engine is not None and g.went_out for g in games)
    url = reverse("public:player", args=[demo_tournament.slug, row.record.player_number])
    page = client.get(url)
    body = page.content.decode()
    assert page.status_code == 200 and row.record.name in body
    assert f'<strong id="player-total">{row.total}</strong>' in body
    assert (
        chart_lines(re.search(r"<svg.*?</svg>", body, re.S).group(0))[row.record.player_number][-1]
        == row.total
    )


def test_the_player_page_is_404_for_no_such_player_or_when_public_pages_are_off(
    client, demo_tournament
):
    set_public_pages(demo_tournament, True)
    assert client.get(reverse("public:player", args=[demo_tournament.slug, 999])).status_code == 404
    set_public_pages(demo_tournament, False)
    assert client.get(reverse("public:player", args=[demo_tournament.slug, 1])).status_code == 404
    assert client.post(reverse("public:player", args=[demo_tournament.slug, 1])).status_code in (
        404,
        405,
    )


def test_standings_names_link_to_the_player_pages(organiser_client, demo_tournament):
    page = organiser_client.get(reverse("organiser:standings", args=[demo_tournament.slug]))
    assert f'href="/t/{demo_tournament.slug}/player/' in page.content.decode()


def test_the_pdf_ends_with_the_race_drawn_by_reportlab(demo_tournament):
    result = standings(fresh(demo_tournament))
    pages = PdfReader(io.BytesIO(render_standings_pdf(result))).pages
    last = pages[-1].extract_text()
    assert "The race: total after each game, top 10" in last
    leader = result.rows[0]
    assert f"{leader.record.name} {leader.total}" in re.sub(r"\s+", " ", last)
    assert "Clubs" in pages[-2].extract_text()


# --- the organiser's day board ---------------------------------------------------------------


def test_the_day_board_colours_each_table_by_its_progress(
    organiser_client, small_two_days, django_assert_num_queries
):
    tournament = fresh(small_two_days)
    day = tournament.days.get(number=2)
    _first, second = day.tables.order_by("number")
    p = small_two_days.players
    stored_sheet(
        second,
        day.games.get(number=2),
        {p["di"]: 0, p["ed"]: 9},
        out=p["di"],
        state=SheetState.ENTERED,
    )
    with django_assert_num_queries(5):  # tables, sheets, not played, first entries, calls
        board = day_board(day)
    assert [(t.number, t.state, t.confirmed, t.waiting) for t in board.tiles] == [
        (1, "playing", 2, 0),
        (2, "waiting", 1, 1),
    ]
    url = reverse("organiser:day_board", args=["small", 2])
    page = organiser_client.get(url).content.decode()
    assert 'class="tile tile-playing" id="tile-1"' in page
    assert 'class="tile tile-waiting" id="tile-2"' in page
    assert "2/6 confirmed" in page and "1/6 confirmed · 1 to confirm" in page
    assert page.count("pip-confirmed") == 3 and page.count("pip-entered") == 1
    assert "js/live-refresh.js" in page and "<script>" not in page
    # Day 1: one table, two games confirmed and one waiting.
    day_1 = organiser_client.get(reverse("organiser:day_board", args=["small", 1])).content.decode()
    assert 'class="tile tile-waiting" id="tile-1"' in day_1
    assert (
        organiser_client.get(reverse("organiser:day_board", args=["small", 9])).status_code == 404
    )
    assert Client().get(url).status_code == 302  # staff only: the login page


def test_a_day_every_table_has_confirmed_is_all_green(organiser_client, demo_tournament):
    board = day_board(demo_tournament.days.get(number=1))
    assert board.tiles and {t.state for t in board.tiles} == {"done"}
    assert board.count("done") == len(board.tiles)


def club_event(make_tournament, players: int):
    """``players`` in five clubs at tables of six, one confirmed game each."""
    tournament = make_tournament(slug=f"clubs-{players}")
    entries = add_entries(tournament, [(f"Player {i}", f"Club {i % 5}") for i in range(players)])
    groups = [entries[i : i + 6] for i in range(0, players, 6)]
    games, tables = seat_tables(tournament.days.get(number=1), groups)
    for table, group in zip(tables, groups, strict=True):
        stored_sheet(table, games[1], dict.fromkeys(group[1:], 5) | {group[0]: 0}, out=group[0])
    return fresh(tournament)


def test_the_clubs_heading_is_never_left_alone_at_the_foot_of_a_page(make_tournament):
    # Fields from 40 to 70 players end the players' table at every height of the second page.
    seen_apart = 0
    for players in range(40, 71, 2):
        pages = PdfReader(
            io.BytesIO(render_standings_pdf(standings(club_event(make_tournament, players))))
        ).pages
        texts = [f"\n{page.extract_text()}" for page in pages]
        heading = next(i for i, t in enumerate(texts) if "\nClubs\n" in t)
        # The heading's page carries the clubs' table header and its first club too.
        after = texts[heading].split("\nClubs\n", 1)[1]
        assert "Average" in after and "Club " in after, players
        seen_apart += "Player " not in texts[heading]
    assert seen_apart  # at least one field pushed the clubs onto a page of their own
