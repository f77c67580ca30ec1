"""What a late player's missed games count under the event's rule: the arithmetic alone."""

from hypothesis import given, strategies as st

from domain.late_arrival import LateCredit, LateSeat, late_credit, missed_game_credit, seat_credit
from domain.ranking import unplayed_average
from domain.rules import (
    LATE_AVERAGE,
    LATE_CHOICES,
    LATE_HIGHEST,
    LATE_NOTHING,
    RULE_FIELDS,
    format_rule,
    parse_rule,
    rule_problems,
)
from tournaments.presets import preset_rows

TABLE = {1: [0, 12, 30], 2: [7, 0, 41], 3: [5, 5, 0]}


def test_highest_takes_the_highest_score_at_the_table_in_each_missed_game():
    assert seat_credit(3, TABLE, LATE_HIGHEST) == {1: 30, 2: 41}


def test_average_takes_the_tables_average_rounded_as_a_game_not_played_is():
    # 48 / 3 = 16 and 47 / 3 = 15.67: rounded half up, as unplayed_average rounds.
    assert seat_credit(3, TABLE, LATE_AVERAGE) == {1: 14, 2: 16}
    assert missed_game_credit(LATE_AVERAGE, [1, 2]) == unplayed_average(3, 2) == 2


def test_nothing_credits_nothing_and_games_not_confirmed_yet_count_nothing_yet():
    assert seat_credit(3, TABLE, LATE_NOTHING) == {}
    # Game 2 is not confirmed at the table yet: only game 1 is credited, for now.
    assert seat_credit(3, {1: [0, 12, 30]}, LATE_HIGHEST) == {1: 30}
    assert missed_game_credit(LATE_HIGHEST, []) is None


def test_games_from_the_one_joined_at_on_are_the_players_own():
    assert seat_credit(1, TABLE, LATE_HIGHEST) == {}
    assert seat_credit(2, TABLE, LATE_HIGHEST) == {1: 30}


def test_the_credit_goes_to_the_day_the_player_joined_on():
    seats = [LateSeat(7, day=1, joined_at_game=3), LateSeat(8, day=0, joined_at_game=2)]
    confirmed = {(7, 1): TABLE, (8, 0): {1: [3, 0]}}
    assert late_credit(seats, confirmed, LATE_HIGHEST, 2) == {
        7: LateCredit(points=(0, 71), games=(0, 2), by_game=((1, 1, 30), (1, 2, 41))),
        8: LateCredit(points=(3, 0), games=(1, 0), by_game=((0, 1, 3),)),
    }
    assert late_credit(seats, confirmed, LATE_NOTHING, 2) == {}


def test_the_rule_is_typed_shown_and_checked_like_the_others():
    assert parse_rule("late_missed_games", " Highest ") == "highest"
    assert format_rule("late_missed_games", "highest") == LATE_CHOICES["highest"]
    problems = rule_problems({**good_rules(), "late_missed_games": "most"})
    assert problems == {"late_missed_games": ['Choose "nothing", "highest" or "average".']}


def good_rules() -> dict:
    row = next(r for r in preset_rows() if r["key"] == "good-sam")
    return {name: row[name] for name in RULE_FIELDS}


scores = st.lists(st.integers(min_value=0, max_value=300), min_size=1, max_size=7)
table = st.dictionaries(st.integers(min_value=1, max_value=13), scores, max_size=13)


@given(table, st.integers(min_value=1, max_value=14))
def test_highest_is_at_least_every_score_and_average_lies_between_the_lowest_and_highest(
    confirmed, joined_at
):
    highest = seat_credit(joined_at, confirmed, LATE_HIGHEST)
    average = seat_credit(joined_at, confirmed, LATE_AVERAGE)
    missed = {game for game in confirmed if game < joined_at}
    assert set(highest) == set(average) == missed
    for game in missed:
        others = confirmed[game]
        assert all(highest[game] >= points for points in others)
        assert highest[game] in others
        assert min(others) <= average[game] <= max(others)
    assert seat_credit(joined_at, confirmed, LATE_NOTHING) == {}
