"""The pure part of seating a planned day: numbering tables as planned, counting who moved,
checking today's pins and keep-apart pairs, a part-seated schedule's repeats and its line."""

from hypothesis import given, strategies as st

from domain.seating.pairs import count_repeat_pairs
from domain.seating.plan_following import (
    align_to_plan,
    breaks_rules,
    moved_from_plan,
    plan_changes,
    running_repeats,
    schedule_line,
    seats_everyone_evenly,
)

PLAN = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]


def test_an_unchanged_plan_keeps_every_number():
    shuffled = [PLAN[2], PLAN[0], PLAN[1]]
    assert align_to_plan(shuffled, PLAN) == PLAN
    assert moved_from_plan(PLAN, PLAN) == 0


def test_a_table_that_lost_a_player_keeps_its_number():
    # The seating lists the smaller table last; the players of table 1 still sit at table 1.
    seated = [[5, 6, 7, 8], [9, 10, 11, 12], [2, 3, 4]]
    assert align_to_plan(seated, PLAN) == [[2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert moved_from_plan(align_to_plan(seated, PLAN), PLAN) == 0
    assert moved_from_plan(seated, PLAN) == 11


def test_fewer_tables_take_the_numbers_they_share_most():
    seated = [[1, 2, 3, 9, 10], [5, 6, 7, 8, 11]]
    assert align_to_plan(seated, PLAN) == [[1, 2, 3, 9, 10], [5, 6, 7, 8, 11]]
    assert moved_from_plan(seated, PLAN) == 3  # 9 and 10 from table 3 to 1, 11 to 2


def test_renumbering_never_moves_a_pinned_player():
    seated = [[5, 6, 7, 8], [1, 2, 3, 4], [9, 10, 11, 12]]
    # Player 5 is pinned to table 1, where this seating puts them: the order given stands.
    assert align_to_plan(seated, PLAN, {5: 1}) == seated
    assert align_to_plan(seated, PLAN, {1: 1}) == PLAN


def test_rules_set_after_the_plan():
    assert not breaks_rules(PLAN, {1: 1}, [(1, 5)])
    assert breaks_rules(PLAN, {1: 2}, [])
    assert breaks_rules(PLAN, {}, [(3, 2)])
    assert not breaks_rules(PLAN, {99: 3}, [])  # a pinned player not seated today


def test_seats_everyone_evenly():
    assert seats_everyone_evenly(PLAN, range(1, 13), 4)
    assert not seats_everyone_evenly(PLAN, range(1, 14), 4)  # player 13 has no seat
    assert not seats_everyone_evenly([[1, 2, 3, 4, 5], [6, 7, 8]], range(1, 9), 5)  # 5 and 3
    assert not seats_everyone_evenly([[1, 2, 3, 4, 5, 6]], range(1, 7), 4)  # above the most
    assert not seats_everyone_evenly([[1, 2, 3], [3, 4, 5]], range(1, 6), 3)  # 3 twice


def test_plan_changes():
    changes = plan_changes([1, 2, 3, 4], [2, 3, 4, 5, 6])
    assert (changes.gone, changes.new, changes.count) == ([1], [5, 6], 3)


def test_running_repeats_count_each_day_against_the_days_before():
    day2 = [[1, 5, 9, 2], [3, 6, 10, 7], [4, 8, 11, 12]]
    assert running_repeats([PLAN], [day2, None, day2]) == [
        count_repeat_pairs(day2, [PLAN]),
        0,
        count_repeat_pairs(day2, [PLAN, day2]),
    ]
    assert running_repeats([PLAN], [day2])[0] == 1 + 1 + 1


def test_schedule_line_says_pairs_meeting_again_in_plain_words():
    assert schedule_line(0, 0) == "pairs who have sat together before: 0 (fewest possible: 0)"
    assert schedule_line(1, 1) == "pairs who have sat together before: 1 (fewest possible: 1)"
    assert schedule_line(12, 8, "at least 4 repeats a session after the first") == (
        "pairs who have sat together before: 12 (fewest possible: 8, since at least 4 repeats "
        "a session after the first)"
    )
    assert schedule_line(2, 0, "ignored at 0") == schedule_line(2, 0)


@st.composite
def plans_and_seatings(draw):
    players = draw(st.integers(min_value=4, max_value=30))
    tables = draw(st.integers(min_value=1, max_value=max(1, players // 2)))
    ids = list(range(1, players + 1))
    planned_order = draw(st.permutations(ids))
    seated_order = draw(st.permutations(ids))
    left = draw(st.sets(st.sampled_from(ids), max_size=players // 3))
    seated_ids = [p for p in seated_order if p not in left]

    def deal(order, count):
        return [sorted(order[i::count]) for i in range(count)]

    seated_tables = draw(st.integers(min_value=1, max_value=max(1, len(seated_ids) // 2)))
    return deal(planned_order, tables), deal(seated_ids, seated_tables)


@given(plans_and_seatings())
def test_alignment_only_renumbers(case):
    planned, seated = case
    aligned = align_to_plan(seated, planned)
    assert sorted(map(tuple, aligned)) == sorted(tuple(sorted(t)) for t in seated)
    # A table seated exactly as planned keeps its planned number.
    for number, table in enumerate(planned, start=1):
        if number <= len(seated) and sorted(table) in [sorted(t) for t in seated]:
            assert aligned[number - 1] == sorted(table)


@given(plans_and_seatings())
def test_an_unchanged_plan_is_kept_whatever_the_order(case):
    planned, _ = case
    assert moved_from_plan(align_to_plan(list(reversed(planned)), planned), planned) == 0
