"""Standings (domain/ranking.py): the ranking and the rules that feed it. No database needed."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings, strategies as st

from domain.ranking import (
    TIE_BREAKS,
    ClubRow,
    PlayerRecord,
    RankedRow,
    apply_substitute_rule,
    rank_clubs,
    rank_players,
    shared_seat_games,
    unplayed_average,
    unplayed_credit,
    with_credit,
)
from domain.rules import SUB_NOT_RANKED, SUB_OWN, SUB_SHARED
from domain.tie_breaks import TIE_BREAKS as REGISTRY


def rec(number, days, *, outs=0, worst=None, club="", withdrawn=False, name=None, played=None):
    days = tuple(days)
    return PlayerRecord(
        entry_id=100 + number,
        player_number=number,
        name=name or f"P{number}",
        club=club,
        day_totals=days,
        games_played=6 * len(days) if played is None else played,
        games_out=outs,
        worst_game=worst,
        withdrawn=withdrawn,
    )


def summary(rows):
    return [(r.record.player_number, r.rank, r.tied, r.total) for r in rows]


# ---------------------------------------------------------------------------
# Hand-worked examples
# ---------------------------------------------------------------------------


def test_ties_share_rank_1_2_2_4():
    rows = rank_players([rec(4, [80, 20]), rec(1, [50]), rec(3, [60, 40]), rec(2, [100])])
    assert summary(rows) == [
        (1, 1, False, 50),
        (2, 2, True, 100),  # shared rank listed by player number
        (3, 2, True, 100),
        (4, 2, True, 100),
    ]
    rows = rank_players([rec(1, [10]), rec(2, [20]), rec(3, [20]), rec(4, [30])])
    assert [r.rank for r in rows] == [1, 2, 2, 4]


def test_total_is_sum_of_days():
    (row,) = rank_players([rec(1, [12, 30, 0])])
    assert row.total == 42 and row.rank == 1 and not row.tied


# Three tied on 100:
#   A: 3 outs, worst 40    B: 3 outs, worst 30    C: 1 out, worst 20
def _tied_trio():
    return [
        rec(1, [100], outs=3, worst=40, name="A"),
        rec(2, [100], outs=3, worst=30, name="B"),
        rec(3, [100], outs=1, worst=20, name="C"),
        rec(4, [90], outs=0, worst=50, name="D"),
    ]


def test_tie_breaks_outs_then_worst():
    rows = rank_players(_tied_trio(), ["most_outs", "lowest_worst_game"])
    assert summary(rows) == [
        (4, 1, False, 90),
        (2, 2, False, 100),
        (1, 3, False, 100),
        (3, 4, False, 100),
    ]


def test_tie_breaks_worst_then_outs():
    rows = rank_players(_tied_trio(), ["lowest_worst_game", "most_outs"])
    assert summary(rows) == [
        (4, 1, False, 90),
        (3, 2, False, 100),
        (2, 3, False, 100),
        (1, 4, False, 100),
    ]


def test_only_most_outs_leaves_a_shared_rank():
    rows = rank_players(_tied_trio(), ["most_outs"])
    assert summary(rows) == [
        (4, 1, False, 90),
        (1, 2, True, 100),
        (2, 2, True, 100),
        (3, 4, False, 100),
    ]


def test_still_tied_after_tie_breaks():
    recs = [rec(2, [50], outs=2, worst=20), rec(1, [50], outs=2, worst=20), rec(3, [60])]
    rows = rank_players(recs, TIE_BREAKS)
    assert summary(rows) == [(1, 1, True, 50), (2, 1, True, 50), (3, 3, False, 60)]


def test_no_games_counts_as_worse_worst_game():
    recs = [rec(1, [0], worst=None, played=0), rec(2, [0], worst=0, outs=0)]
    rows = rank_players(recs, ["lowest_worst_game"])
    assert summary(rows) == [(2, 1, False, 0), (1, 2, False, 0)]


def test_unknown_tie_break():
    with pytest.raises(ValueError):
        rank_players([rec(1, [1])], ["coin_toss"])
    with pytest.raises(ValueError, match="most_out"):
        rank_players([rec(1, [1])], ["most_out"])
    with pytest.raises(ValueError):
        rank_players([rec(1, [1])], "most_outs")


def test_ranking_and_the_registry_load_no_django():
    import subprocess
    import sys

    code = "import sys, domain.ranking, domain.tie_breaks; print('django' in sys.modules)"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert loaded.stdout.strip() == "False"


def test_tie_breaks_are_the_registry():
    assert tuple(t.key for t in REGISTRY) == TIE_BREAKS


@pytest.mark.parametrize("tie_break", REGISTRY, ids=lambda t: t.key)
def test_each_registered_tie_break_orders_players_level_on_total(tie_break):
    level = [
        rec(1, [100], outs=1, worst=40),
        rec(2, [100], outs=3, worst=None, played=0),
        rec(3, [100], outs=2, worst=10),
        rec(4, [100], outs=0, worst=25),
    ]
    expected = sorted(level, key=lambda r: (tie_break.sort_key(r), r.player_number))
    rows = rank_players(level, [tie_break.key])
    assert [r.record.player_number for r in rows] == [r.player_number for r in expected]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_a_repeated_tie_break_changes_nothing():
    assert rank_players(_tied_trio(), ["most_outs", "most_outs"]) == rank_players(
        _tied_trio(), ["most_outs"]
    )


def test_withdrawn_listed_last_without_rank():
    recs = [
        rec(1, [70]),
        rec(2, [10], withdrawn=True, name="Zed"),
        rec(3, [10], withdrawn=True, name="Amy"),
        rec(4, [5], withdrawn=True, name="Bea"),
        rec(5, [80]),
    ]
    rows = rank_players(recs)
    assert summary(rows) == [
        (1, 1, False, 70),
        (5, 2, False, 80),
        (4, None, False, 5),
        (3, None, False, 10),
        (2, None, False, 10),
    ]


def test_empty_days_everyone_shares_rank_1():
    recs = [rec(n, [0, 0], played=0) for n in (3, 1, 2)]
    rows = rank_players(recs)
    assert summary(rows) == [(1, 1, True, 0), (2, 1, True, 0), (3, 1, True, 0)]


def test_partial_days():
    # Day 2 only partly confirmed: a player with no day-2 games has 0 there.
    recs = [rec(1, [60, 0]), rec(2, [40, 30]), rec(3, [75, 0])]
    rows = rank_players(recs)
    assert summary(rows) == [(1, 1, False, 60), (2, 2, False, 70), (3, 3, False, 75)]


def test_empty_input():
    assert rank_players([]) == []
    assert rank_clubs([]) == []


def test_accepts_any_iterable():
    rows = rank_players(r for r in [rec(2, [5]), rec(1, [3])])
    assert [r.record.player_number for r in rows] == [1, 2]
    assert isinstance(rows[0], RankedRow)


# ---------------------------------------------------------------------------
# Clubs
# ---------------------------------------------------------------------------


def test_club_table():
    recs = [
        rec(1, [100], club="Sun City"),
        rec(2, [200], club="Sun City"),  # total 300, average 150
        rec(3, [120], club="Lakeside"),  # total 120, average 120
        rec(4, [160], club="Palms"),
        rec(5, [140], club="Palms"),  # total 300, average 150
        rec(6, [10], club=""),  # no club: left out
        rec(7, [5], club="   "),  # blank club: left out
        rec(8, [1], club="Lakeside", withdrawn=True),  # withdrawn: left out
        rec(9, [1], club="Ghosts", withdrawn=True),  # only withdrawn: no row
    ]
    clubs = rank_clubs(rank_players(recs))
    assert clubs == [
        ClubRow(rank=1, club="Lakeside", players=1, total=120, average=120.0),
        ClubRow(rank=2, club="Palms", players=2, total=300, average=150.0),
        ClubRow(rank=2, club="Sun City", players=2, total=300, average=150.0),
    ]


def test_club_ranked_by_average_not_total():
    recs = [rec(1, [50], club="Big"), rec(2, [50], club="Big"), rec(3, [60], club="Small")]
    clubs = rank_clubs(rank_players(recs))
    assert [(c.club, c.rank, c.total, c.average) for c in clubs] == [
        ("Big", 1, 100, 50.0),
        ("Small", 2, 60, 60.0),
    ]


def test_club_ranks_skip_after_tie():
    recs = [rec(1, [10], club="A"), rec(2, [10], club="B"), rec(3, [20], club="C")]
    assert [c.rank for c in rank_clubs(rank_players(recs))] == [1, 1, 3]


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

records_strategy = st.lists(
    st.builds(
        lambda number, days, outs, worst, withdrawn, club: rec(
            number, days, outs=outs, worst=worst, withdrawn=withdrawn, club=club
        ),
        number=st.integers(1, 10**6),
        days=st.lists(st.integers(0, 60), min_size=1, max_size=2),
        outs=st.integers(0, 3),
        worst=st.none() | st.integers(0, 30),
        withdrawn=st.booleans() | st.just(False),
        club=st.sampled_from(["", "A", "B", "C"]),
    ),
    max_size=25,
    unique_by=lambda r: r.player_number,
)
tie_breaks_strategy = st.lists(st.sampled_from(TIE_BREAKS), unique=True).flatmap(st.permutations)


def _key(r: PlayerRecord, names):
    k = [r.total]
    for n in names:
        if n == "most_outs":
            k.append(-r.games_out)
        else:
            k.append(float("inf") if r.worst_game is None else r.worst_game)
    return tuple(k)


@settings(max_examples=200, deadline=None)
@given(records_strategy, tie_breaks_strategy)
def test_rank_properties(records, names):
    rows = rank_players(records, names)
    assert sorted(r.record.player_number for r in rows) == sorted(r.player_number for r in records)
    ranked = [r for r in rows if r.rank is not None]
    gone = [r for r in rows if r.rank is None]
    # Ranked first, then withdrawn.
    assert rows == ranked + gone
    assert all(r.record.withdrawn for r in gone) and not any(r.record.withdrawn for r in ranked)
    assert all(not r.tied for r in gone)
    # Non-decreasing ranks.
    assert all(a.rank <= b.rank for a, b in pairwise(ranked))
    for row in ranked:
        assert row.total == sum(row.record.day_totals)
        mine = _key(row.record, names)
        better = sum(1 for o in ranked if _key(o.record, names) < mine)
        same = sum(1 for o in ranked if _key(o.record, names) == mine)
        assert row.rank == 1 + better
        assert row.tied == (same > 1)
    # Within a shared rank, by player number.
    for a, b in pairwise(ranked):
        if a.rank == b.rank:
            assert a.record.player_number < b.record.player_number


@settings(max_examples=100, deadline=None)
@given(records_strategy, tie_breaks_strategy, st.randoms(use_true_random=False))
def test_input_order_does_not_matter(records, names, rnd):
    shuffled = list(records)
    rnd.shuffle(shuffled)
    assert rank_players(shuffled, names) == rank_players(records, names)
    assert rank_clubs(rank_players(shuffled, names)) == rank_clubs(rank_players(records, names))


@settings(max_examples=100, deadline=None)
@given(records_strategy)
def test_club_properties(records):
    clubs = rank_clubs(rank_players(records))
    active = [r for r in records if not r.withdrawn and r.club.strip()]
    assert sum(c.players for c in clubs) == len(active)
    assert sum(c.total for c in clubs) == sum(r.total for r in active)
    for a, b in pairwise(clubs):
        assert a.average <= b.average and a.rank <= b.rank
    for c in clubs:
        assert c.rank == 1 + sum(1 for o in clubs if o.total * c.players < c.total * o.players)


# ---------------------------------------------------------------------------
# Games marked not played, under the "average" rule
# ---------------------------------------------------------------------------


def test_an_unplayed_game_counts_the_average_of_the_day_rounded_half_up():
    assert unplayed_average(30, 3) == 10
    assert unplayed_average(7, 2) == 4  # 3.5
    assert unplayed_average(5, 2) == 3  # 2.5
    assert unplayed_average(13, 3) == 4  # 4.33
    assert unplayed_average(14, 3) == 5  # 4.67
    assert unplayed_average(0, 4) == 0  # four games gone out: a perfect day stays perfect


def test_an_unplayed_game_counts_nothing_for_a_player_with_no_game_that_day():
    assert unplayed_average(None, 0) == 0


def test_credit_is_added_once_per_unplayed_game_sat_down_for_on_its_day():
    played = {
        1: ((30, 9), (3, 2)),  # day 1: 10 a game; day 2: 4.5 a game
        2: ((None, 12), (0, 3)),  # no game on day 1
    }
    sat_down = [(1, 0), (1, 1), (1, 1), (2, 0), (2, 1), (3, 1)]
    assert unplayed_credit(sat_down, played, 2) == {
        1: (10, 10),  # 5 twice on day 2
        2: (0, 4),
        3: (0, 0),  # a player with no counted game at all
    }
    assert unplayed_credit([], played, 2) == {}


def test_credit_fills_a_day_and_a_day_without_either_stays_blank():
    assert with_credit((12, None, None), (3, 5, 0)) == (15, 5, None)
    assert with_credit((0, 7), (0, 0)) == (0, 7)
    with pytest.raises(ValueError):
        with_credit((1, 2), (0,))


# ---------------------------------------------------------------------------
# Substitutes
# ---------------------------------------------------------------------------


def _seat_holders():
    held = rec(1, [40, None], outs=1, worst=20, withdrawn=True, played=3)
    sub = rec(2, [None, 25], outs=2, worst=30, played=3)
    other = rec(3, [50, 50], worst=10)
    return held, sub, other


def test_substitutes_ranked_on_their_own_are_left_as_they_are():
    records = list(_seat_holders())
    assert apply_substitute_rule(records, {102: 101}, SUB_OWN) is records
    assert apply_substitute_rule(records, {}, SUB_SHARED) is records


def test_substitutes_not_ranked_are_shown_without_a_rank():
    held, sub, other = _seat_holders()
    result = apply_substitute_rule(
        [held, sub, other], {sub.entry_id: held.entry_id}, SUB_NOT_RANKED
    )
    assert [r.substitute for r in result] == [False, True, False]
    rows = rank_players(result)
    # Both unranked, listed after the ranked by total: the substitute (25), the withdrawn (40).
    assert [(r.record.player_number, r.rank) for r in rows] == [(3, 1), (2, None), (1, None)]


def test_a_shared_seat_is_one_line_for_the_player_replaced():
    held, sub, other = _seat_holders()
    result = apply_substitute_rule([held, sub, other], {sub.entry_id: held.entry_id}, SUB_SHARED)
    assert [r.entry_id for r in result] == [held.entry_id, other.entry_id]
    seat = result[0]
    assert seat.day_totals == (40, 25) and seat.total == 65
    assert (seat.games_played, seat.games_out, seat.worst_game) == (6, 3, 30)
    assert not seat.withdrawn  # ranked for the seat
    assert [r.record.player_number for r in rank_players(result)] == [1, 3]


def test_a_shared_seat_keeps_a_day_neither_played_blank_and_a_missing_record_changes_nothing():
    held = rec(1, [None, None, 10], worst=None, played=0)
    sub = rec(2, [None, 8, None], worst=None, played=0)
    (seat,) = apply_substitute_rule([held, sub], {sub.entry_id: held.entry_id}, SUB_SHARED)
    assert seat.day_totals == (None, 8, 10) and seat.worst_game is None
    # The substitute has no counted game, or the player replaced has none: nothing to add.
    assert apply_substitute_rule([held], {sub.entry_id: held.entry_id}, SUB_SHARED) == [held]
    assert apply_substitute_rule([sub], {sub.entry_id: held.entry_id}, SUB_SHARED) == []


def test_a_shared_seat_adds_the_substitutes_games_per_session():
    games = {1: [3, 0], 2: [0, 3], 3: [2, 2]}
    assert shared_seat_games(games, {2: 1}) == {1: [3, 3], 2: [0, 3], 3: [2, 2]}
    assert games[1] == [3, 0]  # the counts given are left as they were
    assert shared_seat_games(games, {2: 9, 9: 1}) == games  # no games recorded for entry 9
