"""The table phone's totals (scoring.card_totals): each player's running total from the games
stored, and the card's written totals compared with them by the desk card's own rule, storing
nothing."""

import pytest
from scoring_factories import (
    club_session_with_a_late_player_and_a_substitute,
    link,
    seated_day,
    snapshot,
    stored_sheet,
    text_of,
)

from scoring.card_totals import (
    CardTotalsForm,
    card_totals_check,
    compare_written_totals,
    running_totals,
)
from scoring.models import SheetState
from scoring.selectors import TABLE_WITH_RULES, table_sheets
from tournaments.models import Table

pytestmark = pytest.mark.django_db

# Table 1's four players over the tournament's six games: Ann goes out in each.
GAMES = {
    "Ann Lee": [0, 0, 0, 0, 0, 0],
    "Bob Roe": [12, 5, 9, 30, 1, 2],
    "Cy Doe": [40, 22, 17, 8, 33, 22],
    "Di Fox": [7, 11, 3, 6, 14, 1],
}
SUMS = {name: sum(points) for name, points in GAMES.items()}  # Bob 59, Cy 142, Di 42


def store_games(w, numbers, *, state=SheetState.CONFIRMED):
    table = w.tables[0]
    for n in numbers:
        points = {w.entries[name]: scores[n - 1] for name, scores in GAMES.items()}
        stored_sheet(table, w.games[n], points, out=w.entries["Ann Lee"], state=state)


def read_table(w, number=1):
    table = Table.objects.select_related(*TABLE_WITH_RULES).get(day=w.day, number=number)
    return table_sheets(table)


def typed_totals(w, totals):
    return {w.entries[name].pk: str(value) for name, value in totals.items()}


@pytest.fixture
def world():
    return seated_day()


# ---------------------------------------------------------------------------
# Running totals
# ---------------------------------------------------------------------------


def test_the_running_totals_are_the_stored_games_and_say_which_wait_for_the_desk(world):
    store_games(world, [1, 2, 3])
    store_games(world, [4], state=SheetState.ENTERED)
    shown = running_totals(read_table(world))
    assert shown["rows"] == [
        {"name": "Ann Lee", "total": 0},
        {"name": "Bob Roe", "total": 12 + 5 + 9 + 30},
        {"name": "Cy Doe", "total": 40 + 22 + 17 + 8},
        {"name": "Di Fox", "total": 7 + 11 + 3 + 6},
    ]
    assert shown["after"] == "Totals after game 4."
    assert shown["waiting"] == "Game 4: saved, for the desk to confirm."
    assert shown["fixable"] == [4]


def test_running_totals_before_any_game_and_once_the_desk_confirmed_every_one(world):
    assert running_totals(read_table(world))["after"] == "No game is saved yet: every total is 0."
    store_games(world, [1, 2])
    shown = running_totals(read_table(world))
    assert shown["waiting"] == "The desk has confirmed every game in these totals."
    assert shown["fixable"] == []


def test_a_game_the_desk_marked_wrong_is_not_counted_and_says_so(world):
    store_games(world, [1, 3])
    table = world.tables[0]
    points = {world.entries[name]: scores[1] for name, scores in GAMES.items()}
    stored_sheet(table, world.games[2], points, out=world.entries["Ann Lee"], state="rejected")
    shown = running_totals(read_table(world))
    assert shown["rows"][2] == {"name": "Cy Doe", "total": 40 + 17}
    assert shown["after"] == "Totals after games 1 and 3 (game 2 not in them)."
    assert shown["wrong"] == "Not counted: game 2, marked wrong: enter it again."


def test_after_a_substitution_the_players_now_playing_are_listed():
    w, *_ = club_session_with_a_late_player_and_a_substitute()
    table = Table.objects.select_related(*TABLE_WITH_RULES).get(pk=w.tables[0].pk)
    totals = {row["name"]: row["total"] for row in running_totals(table_sheets(table))["rows"]}
    assert "Bob Roe" not in totals and next(iter(totals)) == "Ann Lee"
    sam_total = totals["Sam Sub"]
    assert sam_total == 10  # game 5 only: Sam joined there


@pytest.mark.parametrize("games", [[1], [1, 2, 3, 4, 5, 6]])
def test_the_running_totals_read_a_fixed_number_of_queries(world, games, django_assert_num_queries):
    store_games(world, games[:-1])
    store_games(world, games[-1:], state=SheetState.ENTERED)
    table = Table.objects.select_related(*TABLE_WITH_RULES).get(pk=world.tables[0].pk)
    # Seats, games, sheets, games marked not played, the live sheets' scores.
    with django_assert_num_queries(5):
        sheets = table_sheets(table)
        running_totals(sheets)
        card_totals_check({"total-1": "0"}, sheets)


# ---------------------------------------------------------------------------
# The card's written totals
# ---------------------------------------------------------------------------


def test_matching_totals_are_reported_as_matching(world):
    store_games(world, range(1, 7))
    compared = compare_written_totals(read_table(world), typed_totals(world, SUMS))
    assert [(c.name, c.matches) for c in compared] == [(name, True) for name in GAMES]


def test_a_differing_total_names_the_player_and_both_numbers(world):
    store_games(world, range(1, 7))
    sheets = read_table(world)
    compared = compare_written_totals(sheets, typed_totals(world, {"Cy Doe": 152, "Di Fox": 42}))
    cy, di = compared
    assert cy.problem == "Cy Doe's total says 152, but Cy Doe's games add up to 142."
    assert not cy.refused and cy.games_total == 142
    assert di.matches


def test_blank_totals_are_skipped(world):
    store_games(world, range(1, 7))
    written = typed_totals(world, {"Bob Roe": 59}) | {world.entries["Cy Doe"].pk: "  "}
    compared = compare_written_totals(read_table(world), written)
    assert [c.name for c in compared] == ["Bob Roe"]


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("abc", "Cy Doe's total must be a whole number, like 0 or 123."),
        ("-142", "Cy Doe's total cannot be negative."),
        ("14.2", "Cy Doe's total must be a whole number, like 0 or 123."),
    ],
)
def test_a_typed_total_that_is_no_total_is_refused_in_plain_words(world, typed, message):
    store_games(world, range(1, 7))
    before = snapshot()
    check = card_totals_check({f"total-{world.entries['Cy Doe'].pk}": typed}, read_table(world))
    assert [c.problem for c in check["refused"]] == [message]
    assert check["differ"] == []
    assert check["form"].errors[f"total-{world.entries['Cy Doe'].pk}"] == [message]
    assert snapshot() == before


def test_a_letter_for_a_digit_is_named(world):
    store_games(world, range(1, 7))
    check = card_totals_check({f"total-{world.entries['Cy Doe'].pk}": "14O"}, read_table(world))
    assert check["refused"] and "14O" in check["refused"][0].problem


def test_a_total_too_long_is_refused_before_any_comparison(world):
    store_games(world, range(1, 7))
    field = f"total-{world.entries['Cy Doe'].pk}"
    check = card_totals_check({field: "1234567"}, read_table(world))
    assert check["compared"] == []
    assert check["form"].errors[field] == [
        "Cy Doe's total is too long: type the number written at the bottom of the card, like 142."
    ]


def test_nothing_typed_asks_for_a_total(world):
    store_games(world, range(1, 7))
    check = card_totals_check({f"total-{world.entries['Cy Doe'].pk}": ""}, read_table(world))
    assert check["form"].non_field_errors() == [
        "Type at least one total from the bottom of the card."
    ]


def test_the_card_is_compared_only_once_every_game_is_entered(world):
    store_games(world, range(1, 6))
    assert card_totals_check({}, read_table(world)) is None
    store_games(world, [6], state=SheetState.ENTERED)
    check = card_totals_check({}, read_table(world))
    assert check is not None and not check["form"].is_bound


def test_the_form_has_a_box_per_player_on_the_card(world):
    sheets = read_table(world)
    form = CardTotalsForm(sheets=sheets)
    assert [row["field"].label for row in form.field_rows()] == [
        f"{name}'s total on the card" for name in GAMES
    ]


# ---------------------------------------------------------------------------
# On the table's page
# ---------------------------------------------------------------------------


def test_the_table_page_lists_each_players_total_and_what_waits_for_the_desk(world, client):
    store_games(world, [1, 2, 3])
    store_games(world, [4], state=SheetState.ENTERED)
    page = text_of(client.get(link(world.tables[0])))
    assert "Totals so far Totals after game 4." in page
    assert "Ann Lee 0 Bob Roe 56 Cy Doe 87 Di Fox 27" in page
    assert "Game 4: saved, for the desk to confirm. Fix game 4" in page
    assert "Check the card's totals" not in page  # games 5 and 6 are still to enter


def test_the_all_games_entered_page_compares_the_card_and_stores_nothing(world, client):
    store_games(world, range(1, 7))
    url = link(world.tables[0])
    assert "Check the card's totals" in text_of(client.get(url))
    before = snapshot()
    ids = {name: world.entries[name].pk for name in GAMES}
    query = {f"total-{ids['Cy Doe']}": "152", f"total-{ids['Bob Roe']}": "59"}
    response = client.get(url, query)
    page = text_of(response)
    assert response.status_code == 200
    assert "Nothing was changed. These totals on the card differ from the games:" in page
    assert "Cy Doe's total says 152, but Cy Doe's games add up to 142." in page
    assert "Bob Roe 59: matches" in page
    assert f'id="id_total-{ids["Cy Doe"]}_error"' in response.content.decode()
    assert snapshot() == before


def test_every_total_matching_says_so(world, client):
    store_games(world, range(1, 7))
    query = {f"total-{world.entries[name].pk}": str(total) for name, total in SUMS.items()}
    page = text_of(client.get(link(world.tables[0]), query))
    assert "Every total you typed matches the games." in page


def test_the_table_page_reads_as_many_queries_with_one_game_as_with_six(world, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    store_games(world, [1])
    url = link(world.tables[0])
    client.get(url)
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    store_games(world, range(2, 7))
    query = {f"total-{world.entries['Cy Doe'].pk}": "142"}
    client.get(url, query)
    with CaptureQueriesContext(connection) as six:
        client.get(url, query)
    assert len(six) <= len(one)
