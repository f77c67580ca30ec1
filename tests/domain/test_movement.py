"""Progressive tables: the pure movement (domain.movement) and its rule checks."""

import pytest
from hypothesis import given, settings, strategies as st

from domain.movement import MovementError, MovementRule, SessionScore, move_tables
from domain.rules import movement_problems, rule_problems
from domain.seating.pairs import table_sizes
from domain.session_days import calendar_day, session_date, session_label

THREE_TABLES = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]


def scores_of(totals):
    return {p: SessionScore(total) for p, total in totals.items()}


def by_total(players):
    # Each player's total is ten times their id: lower ids are lower at every table.
    return scores_of({p: 10 * p for p in players})


def test_lowest_up_highest_down_ends_stay():
    moved = move_tables(
        THREE_TABLES, by_total(range(1, 13)), range(1, 13), MovementRule(1, 1, False), 4
    )
    assert [sorted(t) for t in moved.tables] == [[1, 2, 3, 5], [4, 6, 7, 9], [8, 10, 11, 12]]
    assert not moved.evened
    assert moved.moves[9].words == "lowest at table 3 (90): moves up to table 2"
    assert moved.moves[4].words == "highest at table 1 (40): moves down to table 2"
    assert moved.moves[1].words == "lowest at table 1 (10): stays at table 1, the top table"
    assert moved.moves[12].words == "highest at table 3 (120): stays at table 3, the last table"
    assert moved.moves[7].words == "stays at table 2"
    assert (moved.moves[9].from_table, moved.moves[9].to_table) == (3, 2)


def test_wrap_sends_the_ends_round():
    moved = move_tables(
        THREE_TABLES, by_total(range(1, 13)), range(1, 13), MovementRule(2, 0, True), 4
    )
    assert [sorted(t) for t in moved.tables] == [[3, 4, 5, 6], [7, 8, 9, 10], [1, 2, 11, 12]]
    assert (
        moved.moves[1].words
        == "among the 2 lowest at table 1 (10): moves round to table 3, the last table"
    )
    assert moved.moves[1].to_table == 3


def test_highest_down_wraps_to_table_one():
    moved = move_tables(
        THREE_TABLES, by_total(range(1, 13)), range(1, 13), MovementRule(0, 1, True), 4
    )
    assert moved.moves[12].words == "highest at table 3 (120): moves round to table 1"
    assert moved.moves[12].to_table == 1


def test_a_tie_is_decided_by_the_tie_breaks_then_the_seat():
    scores = by_total(range(1, 13))
    # 9 and 10 level on 90 at table 3; 10 went out more often, so 10 is the lower.
    scores[9] = SessionScore(90, games_out=0, worst_game=40)
    scores[10] = SessionScore(90, games_out=2, worst_game=40)
    names = {9: "Ann", 10: "Bob"}
    rule = MovementRule(1, 1, False)
    moved = move_tables(
        THREE_TABLES, scores, range(1, 13), rule, 4, tie_breaks=["most_outs"], names=names
    )
    assert moved.moves[10].to_table == 2
    assert moved.moves[10].words == (
        "lowest at table 3 (90; level with Ann: most games gone out decided): moves up to table 2"
    )
    assert (
        moved.moves[9].words == "stays at table 3 (90; level with Bob: most games gone out decided)"
    )
    # Without tie-breaks the earlier seat (9's) counts as lower.
    moved = move_tables(THREE_TABLES, scores, range(1, 13), rule, 4, names=names)
    assert moved.moves[9].to_table == 2
    assert "the earlier seat decided" in moved.moves[9].words


def test_no_score_ranks_highest():
    scores = by_total(range(1, 13))
    scores[9] = SessionScore(None)
    moved = move_tables(THREE_TABLES, scores, range(1, 13), MovementRule(1, 1, False), 4)
    assert moved.moves[10].to_table == 2
    assert moved.moves[9].words == "highest at table 3 (no score): stays at table 3, the last table"


def test_withdrawals_and_a_newcomer_even_the_tables():
    players = [p for p in range(1, 14) if p not in (2, 3)]  # 2 and 3 left, 13 arrived
    moved = move_tables(THREE_TABLES, by_total(range(1, 13)), players, MovementRule(1, 1, False), 4)
    assert moved.evened
    assert sorted(map(len, moved.tables), reverse=True) == table_sizes(11, 4)
    assert moved.moves[13].words.startswith("new this session: seated at table 3")
    shifted = [m for m in moved.moves.values() if m.from_table and "evened out" in m.words]
    assert shifted and all("players left or arrived" in m.words for m in shifted)


def test_one_table_of_players_is_refused():
    with pytest.raises(MovementError, match="at least two tables: 5 players fill one table"):
        move_tables(
            [[1, 2, 3], [4, 5]], by_total(range(1, 6)), range(1, 6), MovementRule(1, 0, False), 7
        )


def test_rule_checks_name_the_field():
    base = {
        "session_seating": "movement",
        "move_up": 0,
        "move_down": 0,
        "max_table_size": 4,
        "days": 3,
    }
    assert "move_up" in movement_problems(base)
    too_many = movement_problems({**base, "move_up": 3, "move_down": 2})
    assert too_many == {
        "move_up": "The movement moves 3 up and 2 down from each table, 5 players, but a table "
        "seats at most 4."
    }
    assert "session_seating" in movement_problems({**base, "move_up": 1, "days": 1})
    assert movement_problems({**base, "move_up": 2, "move_down": 2}) == {}
    assert "end_tables" in movement_problems({**base, "move_up": 1, "end_tables": "bounce"})
    assert "sessions_per_day" in movement_problems({**base, "move_up": 1, "sessions_per_day": 0})
    # A reshuffle does not look at the movement numbers.
    assert movement_problems({**base, "session_seating": "reshuffle"}) == {}


def test_rule_problems_includes_the_movement():
    rules = {
        "top_double": 12,
        "days": 2,
        "games_per_day": 3,
        "first_engine": 12,
        "engine_order": [],
        "max_table_size": 4,
        "hand_sizes": [[2, 4, 15]],
        "double_blank_value": 50,
        "tie_breaks": [],
        "session_seating": "movement",
        "move_up": 5,
        "move_down": 0,
    }
    assert "move_up" in rule_problems(rules)


def test_sessions_share_dates():
    import datetime

    start = datetime.date(2026, 3, 1)
    assert [calendar_day(n, 3) for n in (1, 3, 4)] == [(1, 1), (1, 3), (2, 1)]
    assert session_date(start, 4, 3) == datetime.date(2026, 3, 2)
    assert session_date(start, 2, 1) == datetime.date(2026, 3, 2)
    assert session_label(2) == "Day 2"
    assert session_label(4, 3) == "Day 2, session 1"


@st.composite
def sessions(draw):
    size = draw(st.integers(2, 8))
    count = draw(st.integers(size + 1, 40))
    players = list(range(1, count + 1))
    tables, start = [], 0
    for seats in table_sizes(count, size):
        tables.append(players[start : start + seats])
        start += seats
    totals = {p: draw(st.one_of(st.none(), st.integers(0, 300))) for p in players}
    up = draw(st.integers(0, size))
    down = draw(st.integers(0, size - up))
    rule = MovementRule(up, down, draw(st.booleans()))
    left = draw(st.sets(st.sampled_from(players), max_size=count // 3))
    arrived = list(range(count + 1, count + 1 + draw(st.integers(0, 4))))
    return tables, totals, rule, size, left, arrived


@settings(max_examples=300, deadline=None)
@given(sessions(), st.lists(st.sampled_from(["most_outs", "lowest_worst_game"]), unique=True))
def test_everyone_seated_once_evenly(session, tie_breaks):
    tables, totals, rule, size, left, arrived = session
    players = [p for t in tables for p in t if p not in left] + arrived
    if len(table_sizes(len(players), size)) < 2:
        with pytest.raises(MovementError):
            move_tables(tables, scores_of(totals), players, rule, size, tie_breaks=tie_breaks)
        return
    moved = move_tables(tables, scores_of(totals), players, rule, size, tie_breaks=tie_breaks)
    seated = [p for t in moved.tables for p in t]
    assert sorted(seated) == sorted(players)  # everyone once, nobody lost, nobody who left
    assert sorted(map(len, moved.tables), reverse=True) == table_sizes(len(players), size)
    assert set(moved.moves) == set(players)
    for number, table in enumerate(moved.tables, start=1):
        assert all(moved.moves[p].to_table == number for p in table)


@settings(max_examples=300, deadline=None)
@given(sessions())
def test_moves_as_the_rule_says(session):
    tables, totals, rule, size, _, _ = session
    players = [p for t in tables for p in t]
    moved = move_tables(tables, scores_of(totals), players, rule, size)
    if moved.evened:
        # Only uneven ends (more up than down, or the reverse, without wrapping) or a table
        # smaller than the movers leave the tables uneven.
        small = any(len(t) < rule.up + rule.down for t in tables)
        assert small or (not rule.wrap and rule.up != rule.down)
        return
    last = len(tables)
    for number, table in enumerate(tables, start=1):
        ranked = sorted(
            table, key=lambda p, t=table: (totals[p] is None, totals[p] or 0, t.index(p))
        )
        up, rest = ranked[: rule.up], ranked[rule.up :]
        down = rest[max(0, len(rest) - rule.down) :]
        for p in table:
            if p in up:
                want = number - 1 if number > 1 else (last if rule.wrap else 1)
            elif p in down:
                want = number + 1 if number < last else (1 if rule.wrap else last)
            else:
                want = number
            assert moved.moves[p].to_table == want
            assert f"table {want}" in moved.moves[p].words  # the words say where they go
