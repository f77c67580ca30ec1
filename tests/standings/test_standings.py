"""Standings selector, pages, projector and command, against hand-worked events."""

import html.parser
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from scoring_factories import add_entries, fresh, seat_tables, stored_sheet

from scoring.models import GameSheet, Score, SheetState
from standings.read import (
    Cut,
    CutError,
    parse_cut,
    rank_label,
    standings,
)
from standings.workbook_rows import score_rows, seating_rows
from tournaments.models import Entry, Player, StaffRole, Table, Tournament
from tournaments.services.events import set_public_pages

pytestmark = pytest.mark.django_db


# --- building events -------------------------------------------------------------------------


@pytest.fixture
def small(make_tournament):
    """Five players, hand-worked below.

    Day 1, one table. Game 1: Ann out 0, Bob 10, Cy 5, Di 20, Ed 7 (an earlier superseded
    version said Ann 99). Game 2: Ann 15, Bob out 0, Cy 10, Di 5, Ed 3. Game 3 entered but not
    confirmed (Bob 100), game 4 rejected (Ann 90): neither counts.
        totals after day 1: Ann 15 (1 out, worst 15), Bob 10 (1 out, worst 10),
        Cy 15 (0 out, worst 10), Di 25, Ed 10 (0 out, worst 7).
    Day 2, tables [Ann, Bob, Cy] and [Di, Ed]. Game 1: Ann 5, Bob 30, Cy out; Di out, Ed 40.
    Game 2 (first table only): Ann out, Bob 9, Cy 12.
        after game 1 of day 2: Ann 20, Bob 40, Cy 15, Di 25, Ed 50.
        after game 2 of day 2: Ann 20, Bob 49, Cy 27, Di 25, Ed 50.
    """
    # New events start with their public pages off; these tests read the public pages too.
    tournament = make_tournament(slug="small", public_pages=True)
    ann, bob, cy, di, ed = add_entries(
        tournament,
        [
            ("Ann", "Xville"),
            ("Bob", "Xville"),
            ("Cy", "Yton"),
            ("Di", "Yton"),
            ("Ed", ""),
        ],
    )
    games, (table,) = seat_tables(tournament.days.get(number=1), [[ann, bob, cy, di, ed]])
    stored_sheet(
        table,
        games[1],
        {ann: 99, bob: 10, cy: 5, di: 20, ed: 7},
        out=None,
        state=SheetState.SUPERSEDED,
    )
    stored_sheet(table, games[1], {ann: 0, bob: 10, cy: 5, di: 20, ed: 7}, out=ann, version=2)
    stored_sheet(table, games[2], {ann: 15, bob: 0, cy: 10, di: 5, ed: 3}, out=bob)
    stored_sheet(
        table, games[3], {ann: 1, bob: 100, cy: 1, di: 1, ed: 0}, out=ed, state=SheetState.ENTERED
    )
    stored_sheet(
        table, games[4], {ann: 90, bob: 1, cy: 1, di: 0, ed: 1}, out=di, state=SheetState.REJECTED
    )
    tournament.players = {"ann": ann, "bob": bob, "cy": cy, "di": di, "ed": ed}
    return tournament


@pytest.fixture
def small_two_days(small):
    p = small.players
    games, (first, second) = seat_tables(
        small.days.get(number=2), [[p["ann"], p["bob"], p["cy"]], [p["di"], p["ed"]]]
    )
    stored_sheet(first, games[1], {p["ann"]: 5, p["bob"]: 30, p["cy"]: 0}, out=p["cy"])
    stored_sheet(second, games[1], {p["di"]: 0, p["ed"]: 40}, out=p["di"])
    stored_sheet(first, games[2], {p["ann"]: 0, p["bob"]: 9, p["cy"]: 12}, out=p["ann"])
    return small


# Every game entered, as the "all days, all games" choice asks: not the mid-day default view.
EVERY_GAME = {"after_day": "", "after_game": ""}


def table_of(result):
    """(rank as printed, name, day totals, total) per row, in order."""
    return [(rank_label(r), r.record.name, r.record.day_totals, r.total) for r in result.rows]


def set_tie_breaks(tournament, tie_breaks):
    tournament.rules.tie_breaks = tie_breaks
    tournament.rules.save()
    return fresh(tournament)


# --- the selector ----------------------------------------------------------------------------


def test_ties_share_a_rank_and_only_confirmed_games_count(small):
    result = standings(fresh(small), Cut(day=1))
    assert table_of(result) == [
        ("=1", "Bob", (10,), 10),
        ("=1", "Ed", (10,), 10),
        ("=3", "Ann", (15,), 15),
        ("=3", "Cy", (15,), 15),
        ("5", "Di", (25,), 25),
    ]
    by_name = {r.record.name: r.record for r in result.rows}
    assert (by_name["Ann"].games_out, by_name["Ann"].worst_game, by_name["Ann"].games_played) == (
        1,
        15,
        2,
    )
    assert (by_name["Ed"].games_out, by_name["Ed"].worst_game) == (0, 7)


@pytest.mark.parametrize(
    "tie_breaks, order",
    [
        (["most_outs"], [("1", "Bob"), ("2", "Ed"), ("3", "Ann"), ("4", "Cy"), ("5", "Di")]),
        (
            ["lowest_worst_game"],
            [("1", "Ed"), ("2", "Bob"), ("3", "Cy"), ("4", "Ann"), ("5", "Di")],
        ),
        (
            ["lowest_worst_game", "most_outs"],
            [("1", "Ed"), ("2", "Bob"), ("3", "Cy"), ("4", "Ann"), ("5", "Di")],
        ),
        (
            ["most_outs", "lowest_worst_game"],
            [("1", "Bob"), ("2", "Ed"), ("3", "Ann"), ("4", "Cy"), ("5", "Di")],
        ),
    ],
)
def test_tie_breaks_follow_the_rules_in_the_order_chosen(small, tie_breaks, order):
    result = standings(set_tie_breaks(small, tie_breaks), Cut(day=1))
    assert [(rank_label(r), r.record.name) for r in result.rows] == order


def test_tie_breaks_that_still_tie_share_the_rank(small):
    # Cy, not Ann, goes out in game 1: Cy 0 + 10 = 10 with one out, level with Bob on total
    # and outs, so "most outs" alone cannot split them; Ed (10, no out) comes third.
    p = small.players
    Score.objects.filter(entry=p["cy"], sheet__game__number=1, sheet__state="confirmed").update(
        points=0
    )
    GameSheet.objects.filter(game__number=1, state="confirmed").update(went_out=p["cy"])
    result = standings(set_tie_breaks(small, ["most_outs"]), Cut(day=1))
    assert [(rank_label(r), r.record.name) for r in result.rows][:3] == [
        ("=1", "Bob"),
        ("=1", "Cy"),
        ("3", "Ed"),
    ]


def test_withdrawn_players_are_listed_last_without_a_rank(small):
    Entry.objects.filter(pk=small.players["bob"].pk).update(status=Entry.WITHDRAWN)
    result = standings(fresh(small), Cut(day=1))
    assert [(r.rank, r.record.name) for r in result.rows] == [
        (1, "Ed"),
        (2, "Ann"),
        (2, "Cy"),
        (4, "Di"),
        (None, "Bob"),
    ]
    assert result.rows[-1].record.withdrawn and result.rows[-1].total == 10
    assert rank_label(result.rows[-1]) == ""


def test_a_no_show_is_not_ranked_at_zero_once_tables_are_seated(small, make_tournament):
    Entry.objects.create(tournament=small, number=6, player=Player.objects.create(name="Zed"))
    names = [r.record.name for r in standings(fresh(small), Cut(day=1)).rows]
    assert "Zed" not in names and len(names) == 5
    # Before any table is seated, everyone registered is listed (all at 0).
    before = make_tournament(slug="before")
    add_entries(before, [("Yan", ""), ("Xia", "")])
    assert [r.rank for r in standings(fresh(before)).rows] == [1, 1]


def test_cuts_after_a_day_and_after_a_game(small_two_days):
    tournament = fresh(small_two_days)
    after_game_1 = standings(tournament, Cut(day=2, game=1))
    assert table_of(after_game_1) == [
        ("1", "Cy", (15, 0), 15),
        ("2", "Ann", (15, 5), 20),
        ("3", "Di", (25, 0), 25),
        ("4", "Bob", (10, 30), 40),
        ("5", "Ed", (10, 40), 50),
    ]
    everything = standings(tournament)
    assert table_of(everything) == [
        ("1", "Ann", (15, 5), 20),
        ("2", "Di", (25, 0), 25),
        ("3", "Cy", (15, 12), 27),
        ("4", "Bob", (10, 39), 49),
        ("5", "Ed", (10, 40), 50),
    ]
    assert standings(tournament, Cut(game=1)).rows == after_game_1.rows  # game 1 of the last day
    assert standings(tournament, Cut(day=1)).day_numbers == (1,)
    assert everything.day_numbers == (1, 2)
    assert {r.record.name: r.record.games_played for r in everything.rows} == {
        "Ann": 4,
        "Bob": 4,
        "Cy": 4,
        "Di": 3,
        "Ed": 3,
    }


def test_a_day_not_played_is_none_not_zero(small):
    result = standings(fresh(small))
    assert result.day_numbers == (1, 2)
    assert table_of(result)[0] == ("=1", "Bob", (10, None), 10)


def test_provisional_count_is_table_games_still_to_confirm(small_two_days):
    tournament = fresh(small_two_days)
    # Day 1: one table x 6 games, 2 confirmed (entered and rejected ones are still owed).
    # Day 2: two tables x 6 games, 3 confirmed.
    everything = standings(tournament)
    assert (everything.expected_games, everything.confirmed_games, everything.to_confirm) == (
        18,
        5,
        13,
    )
    assert everything.status_line == "Provisional: 12 games still to play; 1 game to confirm"
    assert not everything.is_final
    after_game_1 = standings(tournament, Cut(day=2, game=1))
    assert (after_game_1.expected_games, after_game_1.to_confirm) == (6 + 2, 4)
    assert standings(tournament, Cut(day=1)).to_confirm == 4


def test_unseated_day_keeps_standings_provisional(small):
    result = standings(fresh(small))
    assert result.unseated_days == (2,)
    assert (
        result.status_line
        == "Provisional: 3 games still to play; 1 game to confirm; day 2 not seated yet"
    )
    assert standings(fresh(small), Cut(day=1)).unseated_days == ()


def test_every_game_confirmed_is_final(demo_tournament):
    result = standings(fresh(demo_tournament))
    assert result.is_final and result.status_line == "Final"
    assert result.expected_games == result.confirmed_games > 0
    GameSheet.objects.filter(pk__in=GameSheet.objects.order_by("pk").values("pk")[:3]).update(
        state=SheetState.ENTERED, confirmed_at=None
    )
    again = standings(fresh(demo_tournament))
    assert again.to_confirm == 3 and again.status_line == "Provisional: 3 games to confirm"


def test_demo_totals_equal_a_plain_sum_of_confirmed_scores(demo_tournament):
    result = standings(fresh(demo_tournament))
    assert len(result.rows) == 43
    for row in result.rows:
        scores = Score.objects.filter(entry_id=row.record.entry_id, sheet__state="confirmed")
        assert row.total == sum(s.points for s in scores)
        assert row.record.games_played == scores.count() == 12
        assert (
            row.record.games_out
            == GameSheet.objects.filter(went_out_id=row.record.entry_id, state="confirmed").count()
        )
    totals = [r.total for r in result.rows]
    assert totals == sorted(totals)


def test_clubs_sum_and_average_their_players(small_two_days):
    result = standings(fresh(small_two_days))
    # Yton: Cy 27 + Di 25 = 52 (26.0 each); Xville: Ann 20 + Bob 49 = 69 (34.5); Ed has no club.
    assert [(c.rank, c.club, c.players, c.total, c.average) for c in result.clubs] == [
        (1, "Yton", 2, 52, 26.0),
        (2, "Xville", 2, 69, 34.5),
    ]


def test_parse_cut_reads_query_values_and_refuses_what_the_event_lacks(small):
    rules = small.rules
    assert parse_cut(rules, {}) == Cut()
    assert parse_cut(rules, {"after_day": "1", "after_game": ""}) == Cut(day=1)
    assert parse_cut(rules, {"after_day": "2", "after_game": "3"}) == Cut(day=2, game=3)
    with pytest.raises(CutError, match="There is no day 3: this event has days 1 to 2"):
        parse_cut(rules, {"after_day": "3"})
    with pytest.raises(CutError, match='"two" is not a game number'):
        parse_cut(rules, {"after_game": "two"})
    with pytest.raises(CutError, match="no game 0"):
        parse_cut(rules, {"after_game": "0"})


def build_event(make_tournament, slug, players, tables_of=5, games=3):
    """`players` entries seated five a table on day 1, `games` confirmed games each."""
    tournament = make_tournament(slug=slug)
    entries = add_entries(tournament, [(f"P{i}", f"Club {i % 4}") for i in range(players)])
    groups = [entries[i : i + tables_of] for i in range(0, players, tables_of)]
    game_rows, tables = seat_tables(tournament.days.get(number=1), groups)
    for table, group in zip(tables, groups, strict=True):
        for number in range(1, games + 1):
            stored_sheet(
                table,
                game_rows[number],
                {e: (e.number * number) % 17 + (e != group[0]) for e in group},
                out=group[0],
            )
    return fresh(tournament)


def test_selector_query_count_does_not_grow_with_the_event(
    make_tournament, django_assert_num_queries
):
    small_event = build_event(make_tournament, "few", 10)
    large_event = build_event(make_tournament, "many", 60)
    for event in (small_event, large_event):
        with django_assert_num_queries(3):
            result = standings(event, Cut(day=1, game=2))
        tables = Table.objects.filter(day__tournament=event).count()
        assert result.expected_games == result.confirmed_games == tables * 2
        with django_assert_num_queries(1):
            score_rows(event)
        with django_assert_num_queries(1):
            seating_rows(event)
    assert len(standings(large_event).rows) == 60
    # A registered player with no counted game (here a no-show) costs no extra query.
    Entry.objects.create(
        tournament=large_event, number=61, player=Player.objects.create(name="Late Larry")
    )
    large_event = fresh(large_event)
    with django_assert_num_queries(3):
        result = standings(large_event)
    assert len(result.rows) == 60 and "Late Larry" not in {row.record.name for row in result.rows}


def test_export_rows_list_every_live_score_and_seat(small):
    rows = score_rows(small)
    # Two confirmed games and one entered game of five players; superseded/rejected left out.
    assert len(rows) == 15
    assert {r[-1] for r in rows} == {"Confirmed", "Entered"}
    assert rows[0] == (1, 1, 1, 12, 1, "Ann", 0, True, "Confirmed")
    assert seating_rows(small) == [
        (1, 1, n, name) for n, name in enumerate(["Ann", "Bob", "Cy", "Di", "Ed"], start=1)
    ]


# --- pages -----------------------------------------------------------------------------------


class RowsParser(html.parser.HTMLParser):
    """Cell texts of the rows in <table id=...> bodies."""

    def __init__(self, table_id):
        super().__init__()
        self.table_id, self.rows, self.cell = table_id, [], None
        self.inside = self.in_body = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table" and attrs.get("id") == self.table_id:
            self.inside = True
        elif self.inside and tag == "tbody":
            self.in_body = True
        elif self.in_body and tag == "tr":
            self.rows.append([])
        elif self.in_body and tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.rows[-1].append(" ".join(self.cell.split()))
            self.cell = None
        elif tag == "table" and self.inside:
            self.inside = self.in_body = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def page_rows(response, table_id="standings"):
    parser = RowsParser(table_id)
    parser.feed(response.content.decode())
    return parser.rows


def test_organiser_page_lists_ranked_rows_with_every_column(organiser_client, small_two_days):
    url = reverse("organiser:standings", args=["small"])
    response = organiser_client.get(url, EVERY_GAME)
    assert response.status_code == 200
    assert page_rows(response) == [
        ["1", "1", "Ann", "Xville", "15", "5", "20", "2", "4"],
        # Di's and Ed's totals count 3 games, the others' 4: marked short.
        ["2", "4", "Di", "Yton", "25", "0", "25*", "1", "3"],
        ["3", "3", "Cy", "Yton", "15", "12", "27", "1", "4"],
        ["4", "2", "Bob", "Xville", "10", "39", "49", "1", "4"],
        ["5", "5", "Ed", "", "10", "40", "50*", "0", "3"],
    ]
    assert page_rows(response, "clubs") == [
        ["1", "Yton", "2", "52", "26.0"],
        ["2", "Xville", "2", "69", "34.5"],
    ]
    assert "Provisional: 12 games still to play; 1 game to confirm" in response.content.decode()
    cut = organiser_client.get(url, {"after_day": "2", "after_game": "1"})
    assert [r[2] for r in page_rows(cut)] == ["Cy", "Ann", "Di", "Bob", "Ed"]
    assert "Standings after game 1 of day 2" in cut.content.decode()
    assert "standings.pdf?after_day=2&amp;after_game=1" in cut.content.decode()


def test_sorting_by_a_column_keeps_the_ranks_and_search_filters(organiser_client, small_two_days):
    url = reverse("organiser:standings", args=["small"])
    by_name = page_rows(organiser_client.get(url, {"sort": "name", **EVERY_GAME}))
    assert [(r[0], r[2]) for r in by_name] == [
        ("1", "Ann"),
        ("4", "Bob"),
        ("3", "Cy"),
        ("2", "Di"),
        ("5", "Ed"),
    ]
    by_rank_down = page_rows(organiser_client.get(url, {"sort": "-rank", **EVERY_GAME}))
    assert [r[0] for r in by_rank_down] == ["5", "4", "3", "2", "1"]
    by_day2 = page_rows(organiser_client.get(url, {"sort": "-day_2", **EVERY_GAME}))
    assert [r[2] for r in by_day2] == ["Ed", "Bob", "Cy", "Ann", "Di"]
    assert [r[2] for r in page_rows(organiser_client.get(url, {"q": "yton", **EVERY_GAME}))] == [
        "Di",
        "Cy",
    ]
    assert [r[2] for r in page_rows(organiser_client.get(url, {"q": "#2", **EVERY_GAME}))] == [
        "Bob"
    ]
    assert page_rows(organiser_client.get(url, {"q": "zz", **EVERY_GAME})) == [
        ["No players match “zz”."]
    ]


def test_an_event_nobody_is_ranked_in_yet_says_so_and_not_that_nobody_matched(
    organiser_client, make_tournament
):
    make_tournament(slug="empty")
    url = reverse("organiser:standings", args=["empty"])
    assert page_rows(organiser_client.get(url)) == [["Nobody is ranked yet."]]
    assert page_rows(organiser_client.get(url, {"q": "ann"})) == [["Nobody is ranked yet."]]
    public = reverse("public:standings", args=["empty"])
    assert page_rows(organiser_client.get(public)) == [["Nobody is ranked yet."]]


def test_withdrawn_row_says_withdrawn_instead_of_a_rank(organiser_client, small):
    Entry.objects.filter(pk=small.players["bob"].pk).update(status=Entry.WITHDRAWN)
    rows = page_rows(
        organiser_client.get(reverse("organiser:standings", args=["small"]), {"after_day": 1})
    )
    assert rows[-1][:3] == ["withdrawn", "2", "Bob"]


def test_pages_show_100_rows_and_all_on_request(organiser_client, make_tournament):
    tournament = make_tournament(slug="big")
    add_entries(tournament, [(f"Player {i:03}", "") for i in range(1, 131)])
    url = reverse("organiser:standings", args=["big"])
    assert len(page_rows(organiser_client.get(url))) == 100
    assert len(page_rows(organiser_client.get(url, {"page": 2}))) == 30
    assert len(page_rows(organiser_client.get(url, {"page": 99}))) == 30
    assert len(page_rows(organiser_client.get(url, {"per_page": "all"}))) == 130
    assert len(page_rows(organiser_client.get(url, {"page": "x"}))) == 100


def test_bad_cut_is_a_clear_400(organiser_client, small):
    response = organiser_client.get(
        reverse("organiser:standings", args=["small"]), {"after_day": "9"}
    )
    assert response.status_code == 400
    assert "There is no day 9" in response.content.decode()


def test_public_pages_are_read_only_and_404_when_off(client, small):
    names = ["standings", "standings_pdf", "standings_xlsx", "projector"]
    for name in names:
        url = reverse(f"public:{name}", args=["small"])
        assert client.get(url).status_code == 200, name
        assert client.post(url).status_code == 405, name
    set_public_pages(small, False)
    for name in names:
        assert client.get(reverse(f"public:{name}", args=["small"])).status_code == 404, name


def test_public_page_has_no_organiser_controls(client, small):
    body = client.get(reverse("public:standings", args=["small"])).content.decode()
    assert "Turn public pages" not in body and "csrfmiddlewaretoken" not in body
    assert reverse("public:standings_pdf", args=["small"]) in body


def test_organiser_turns_public_pages_off_and_on(organiser_client, small):
    stranger = Client()
    toggle = reverse("organiser:standings_public_pages", args=["small"])
    assert organiser_client.get(toggle).status_code == 405
    response = organiser_client.post(toggle, {"public_pages": "off"})
    assert response.status_code == 302
    assert Tournament.objects.get(pk=small.pk).public_pages is False
    assert stranger.get(reverse("public:standings", args=["small"])).status_code == 404
    page = organiser_client.get(reverse("organiser:standings", args=["small"])).content.decode()
    assert "Turn public pages on" in page
    organiser_client.post(toggle, {"public_pages": "on"})
    assert Tournament.objects.get(pk=small.pk).public_pages is True
    assert stranger.get(reverse("public:standings", args=["small"])).status_code == 200


def test_desk_staff_see_standings_but_cannot_publish(client, small):
    desk = get_user_model().objects.create_user("desk1", "", "a-long-test-password-9")
    StaffRole.objects.create(tournament=small, user=desk, role=StaffRole.DESK)
    client.force_login(desk)
    page = client.get(reverse("organiser:standings", args=["small"]))
    assert page.status_code == 200 and "Turn public pages" not in page.content.decode()
    toggle = reverse("organiser:standings_public_pages", args=["small"])
    assert client.post(toggle, {"public_pages": "off"}).status_code == 403
    assert Tournament.objects.get(pk=small.pk).public_pages is True


def test_strangers_are_sent_to_log_in(client, small):
    response = client.get(reverse("organiser:standings", args=["small"]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.post(
        reverse("organiser:standings_public_pages", args=["small"]), {"public_pages": "off"}
    )
    assert Tournament.objects.get(pk=small.pk).public_pages is True


def test_projector_pages_through_the_standings_then_clubs_then_the_race(client, demo_tournament):
    url = reverse("public:projector", args=[demo_tournament.slug])
    first = client.get(url)
    body = first.content.decode()
    ranks = [r[0] for r in page_rows(first, "board-players")]
    assert ranks == [str(n) for n in range(1, 16)]
    assert "Page 1 of 5" in body and "Final" in body and "Provisional" not in body
    assert f'data-next="{url}?page=2"' in body and 'data-seconds="30"' in body
    assert "js/projector.js" in body and 'http-equiv="refresh"' in body
    third = page_rows(client.get(url, {"page": 3}), "board-players")
    assert [r[0] for r in third] == [str(n) for n in range(31, 44)]
    clubs = client.get(url, {"page": 4})
    assert [r[1] for r in page_rows(clubs, "board-clubs")] == [
        c.club for c in standings(fresh(demo_tournament)).clubs
    ]
    assert f'data-next="{url}?page=5"' in clubs.content.decode()
    race = client.get(url, {"page": 5}).content.decode()
    assert 'id="board-chart"' in race and race.count('class="race-line"') == 10
    assert f'data-next="{url}?page=1"' in race
    assert "Page 1 of 5" in client.get(url, {"page": 6}).content.decode()
    assert "Page 1 of 11" in client.get(url, {"rows": 5}).content.decode()


def test_projector_says_provisional_until_every_game_is_confirmed(client, demo_tournament):
    sheet = GameSheet.objects.order_by("pk").first()
    GameSheet.objects.filter(pk=sheet.pk).update(state=SheetState.ENTERED, confirmed_at=None)
    body = client.get(reverse("public:projector", args=[demo_tournament.slug])).content.decode()
    assert "Provisional: 1 game to confirm" in body


# --- command line ----------------------------------------------------------------------------


def test_command_prints_the_standings_and_writes_files(small_two_days, tmp_path):
    out = io.StringIO()
    pdf, xlsx = tmp_path / "s.pdf", tmp_path / "s.xlsx"
    call_command(
        "standings",
        "small",
        "--after-day",
        "2",
        "--after-game",
        "1",
        "--pdf",
        str(pdf),
        "--xlsx",
        str(xlsx),
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    assert lines[0] == "Small: Standings after game 1 of day 2"
    assert lines[1] == "Provisional: 3 games still to play; 1 game to confirm"
    assert lines[2].split() == [
        "Rank",
        "Player",
        "ID",
        "Player",
        "Club",
        "Day",
        "1",
        "Day",
        "2",
        "Total",
        "Outs",
        "Games",
    ]
    assert [line.split() for line in lines[3:8]] == [
        ["1", "3", "Cy", "Yton", "15", "0", "15", "1", "3"],
        ["2", "1", "Ann", "Xville", "15", "5", "20", "1", "3"],
        ["3", "4", "Di", "Yton", "25", "0", "25", "1", "3"],
        ["4", "2", "Bob", "Xville", "10", "30", "40", "1", "3"],
        ["5", "5", "Ed", "10", "40", "50", "0", "3"],
    ]
    assert pdf.read_bytes().startswith(b"%PDF") and xlsx.read_bytes().startswith(b"PK")
    assert lines[-2:] == [f"Wrote {pdf}", f"Wrote {xlsx}"]


def test_command_marks_ties_and_withdrawals(small):
    Entry.objects.filter(pk=small.players["di"].pk).update(status=Entry.WITHDRAWN)
    out = io.StringIO()
    call_command("standings", "small", "--after-day", "1", stdout=out)
    rows = [line.split()[:3] for line in out.getvalue().splitlines()[3:8]]
    assert rows == [
        ["=1", "2", "Bob"],
        ["=1", "5", "Ed"],
        ["=3", "1", "Ann"],
        ["=3", "3", "Cy"],
        ["W", "4", "Di"],
    ]


@pytest.mark.parametrize(
    "args, message",
    [
        (["nope"], 'no tournament with the slug "nope"'),
        (["small", "--after-day", "3"], "There is no day 3"),
        (["small", "--pdf", "/no/such/folder/s.pdf"], "Could not write /no/such/folder/s.pdf"),
    ],
)
def test_command_refuses_bad_input(small, args, message):
    with pytest.raises(CommandError, match=message):
        call_command("standings", *args, stdout=io.StringIO())


def test_projector_of_an_event_with_nobody_yet(client, make_tournament):
    make_tournament(slug="empty", public_pages=True)
    body = client.get(reverse("public:projector", args=["empty"])).content.decode()
    assert "Nobody is ranked yet." in body and "Page 1 of 1" in body
    assert "Provisional: days 1, 2 not seated yet" in body


def test_navigation_links_lead_to_the_standings(organiser_client, small):
    overview = organiser_client.get(reverse("organiser:tournament", args=["small"]))
    assert f'href="{reverse("organiser:standings", args=["small"])}"' in overview.content.decode()
    public = Client().get(reverse("public:tournament", args=["small"])).content.decode()
    assert f'href="{reverse("public:standings", args=["small"])}"' in public
    assert f'href="{reverse("public:projector", args=["small"])}"' in public
