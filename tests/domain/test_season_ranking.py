"""The season ranking, pure: best N of M, average per game, ties, players short of N."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from domain.season_ranking import (
    MAX_MIN_SESSIONS,
    SeasonPlayer,
    SessionResult,
    min_sessions_problem,
    rank_season,
    ranking_rule,
)


def player(pid, name, *sessions):
    """sessions: (session index, total, games)."""
    return SeasonPlayer(pid, name, "", tuple(SessionResult(*s) for s in sessions))


def test_best_n_adds_the_lowest_sessions_and_lists_the_short_after():
    ann = player(1, "Ann", (0, 40, 12), (1, 10, 12), (2, 30, 12))
    bob = player(2, "Bob", (0, 20, 12), (2, 25, 12))
    cy = player(3, "Cy", (1, 5, 12))  # one great session, not enough to rank
    rows = rank_season([cy, bob, ann], best_of=2, sessions_held=3)
    assert [(r.player.name, r.rank, r.best_total) for r in rows] == [
        ("Ann", 1, 40),
        ("Bob", 2, 45),
        ("Cy", None, None),
    ]
    assert rows[0].best_sessions == (1, 2)
    assert rows[0].attendance == "3 of 3" and rows[2].attendance == "1 of 3"
    assert not rows[2].qualified


def test_average_per_game_does_not_reward_absence():
    # Plain totals would put Cy (one session) first; per game he is the worst.
    ann = player(1, "Ann", (0, 60, 12), (1, 60, 12))
    cy = player(3, "Cy", (1, 90, 12))
    rows = rank_season([ann, cy], best_of=None, sessions_held=2)
    assert [(r.player.name, r.rank, r.average) for r in rows] == [
        ("Ann", 1, Fraction(5)),
        ("Cy", 2, Fraction(15, 2)),
    ]


def test_equal_figures_go_to_more_games_then_share_a_rank_listed_by_name():
    a = player(1, "zed", (0, 10, 2))
    b = player(2, "Amy", (0, 20, 4))  # same average, more games: ahead
    c = player(3, "bea", (0, 10, 2))
    rows = rank_season([a, b, c], best_of=None, sessions_held=1)
    assert [(r.player.name, r.rank, r.tied) for r in rows] == [
        ("Amy", 1, False),
        ("bea", 2, True),
        ("zed", 2, True),
    ]


def test_sessions_without_games_do_not_count_as_attended():
    ann = player(1, "Ann", (0, 0, 0), (1, 7, 3))
    (row,) = rank_season([ann], best_of=1, sessions_held=2)
    assert (row.attended, row.games, row.best_total) == (1, 3, 7)


def test_equal_session_totals_count_the_earlier_one():
    ann = player(1, "Ann", (0, 5, 1), (1, 5, 1), (2, 9, 1))
    (row,) = rank_season([ann], best_of=1, sessions_held=3)
    assert row.best_sessions == (0,)


def test_rule_in_words_and_a_bad_best_of():
    assert ranking_rule(8, 12) == "Ranked by the best 8 of 12 sessions"
    assert ranking_rule(None, 12) == "Ranked by average per game"
    with pytest.raises(ValueError):
        rank_season([], best_of=0, sessions_held=3)


sessions_strategy = st.lists(
    st.tuples(st.integers(0, 200), st.integers(1, 13)), min_size=0, max_size=8
)
players_strategy = st.lists(sessions_strategy, min_size=1, max_size=12)


def build(raw):
    return [
        SeasonPlayer(
            pid,
            f"P{pid % 4}",  # repeated names: the order must still be total
            "",
            tuple(SessionResult(i, total, games) for i, (total, games) in enumerate(sessions)),
        )
        for pid, sessions in enumerate(raw)
    ]


@given(players_strategy, st.one_of(st.none(), st.integers(1, 5)), st.randoms())
def test_order_of_input_does_not_matter(raw, best_of, rnd):
    players = build(raw)
    shuffled = players[:]
    rnd.shuffle(shuffled)
    first = rank_season(players, best_of=best_of, sessions_held=8)
    second = rank_season(shuffled, best_of=best_of, sessions_held=8)
    assert [(r.player.player_id, r.rank) for r in first] == [
        (r.player.player_id, r.rank) for r in second
    ]


@given(players_strategy, st.one_of(st.none(), st.integers(1, 5)))
def test_rank_is_one_plus_those_strictly_better_and_ranked_come_first(raw, best_of):
    rows = rank_season(build(raw), best_of=best_of, sessions_held=8)
    ranked = [r for r in rows if r.rank is not None]
    assert rows[: len(ranked)] == ranked

    def figure(r):
        value = r.average if best_of is None else Fraction(r.best_total)
        return (value, -r.games)

    for row in ranked:
        assert row.rank == 1 + sum(figure(o) < figure(row) for o in ranked)
        assert row.tied == any(o is not row and figure(o) == figure(row) for o in ranked)
    if best_of is not None:
        assert all(r.attended >= best_of for r in ranked)
        assert all(r.attended < best_of for r in rows[len(ranked) :])


@given(sessions_strategy.filter(lambda s: len(s) >= 1), st.integers(1, 5))
def test_best_n_is_the_lowest_n_session_totals(sessions, best_of):
    (row,) = rank_season(build([sessions]), best_of=best_of, sessions_held=8)
    totals = sorted(total for total, _ in sessions)
    if len(sessions) < best_of:
        assert row.best_total is None and row.rank is None
    else:
        assert row.best_total == sum(totals[:best_of])
        assert len(row.best_sessions) == best_of
        # No session left out is lower than one counted.
        counted = {sessions[i][0] for i in row.best_sessions}
        left = [t for i, (t, _) in enumerate(sessions) if i not in row.best_sessions]
        assert all(t >= max(counted) for t in left)
    assert row.total == sum(totals)
    assert row.games == sum(g for _, g in sessions)


@given(sessions_strategy.filter(lambda s: any(g for _, g in s)), st.integers(2, 4))
def test_attending_more_at_the_same_rate_keeps_the_average(sessions, times):
    once = rank_season(build([sessions]), best_of=None, sessions_held=40)[0]
    more = rank_season(build([sessions * times]), best_of=None, sessions_held=40)[0]
    assert once.average == more.average
    assert more.attended == times * once.attended


def test_a_large_season_ranks_quickly_and_completely():
    rnd = random.Random(4)
    raw = [[(rnd.randint(0, 150), 12) for _ in range(rnd.randint(0, 12))] for _ in range(400)]
    rows = rank_season(build(raw), best_of=8, sessions_held=12)
    assert len(rows) == 400
    assert sum(r.rank is not None for r in rows) == sum(len(s) >= 8 for s in raw)


# --- A minimum of sessions for the average per game ------------------------------------------


def test_a_lucky_single_session_is_listed_after_the_ranked_players():
    ann = player(1, "Ann", (0, 60, 12), (1, 60, 12), (2, 48, 12))
    bob = player(2, "Bob", (0, 70, 12), (2, 50, 12))
    cy = player(3, "Cy", (1, 3, 12))  # one lucky day: first by average alone
    di = player(4, "Di", (0, 90, 12))
    rows = rank_season([cy, di, bob, ann], best_of=None, sessions_held=3, min_sessions=2)
    assert [(r.player.name, r.rank) for r in rows] == [
        ("Ann", 1),
        ("Bob", 2),
        ("Cy", None),  # short of the minimum: best average first among them
        ("Di", None),
    ]
    # Without the minimum, the lucky day leads.
    first = rank_season([cy, di, bob, ann], best_of=None, sessions_held=3)[0]
    assert (first.player.name, first.rank) == ("Cy", 1)


def test_the_rule_names_the_minimum_and_a_bad_minimum_is_refused():
    assert ranking_rule(None, 5, 3) == "Ranked by average per game, at least 3 sessions"
    assert ranking_rule(None, 5, 1) == "Ranked by average per game"
    # Best N asks for N sessions already: the minimum is not part of that rule.
    assert ranking_rule(2, 5, 3) == "Ranked by the best 2 of 5 sessions"
    with pytest.raises(ValueError):
        rank_season([], best_of=None, sessions_held=3, min_sessions=0)
    assert min_sessions_problem(1) == "" and min_sessions_problem(MAX_MIN_SESSIONS) == ""
    assert "give 1 or more" in min_sessions_problem(0)
    assert "more than a season holds" in min_sessions_problem(MAX_MIN_SESSIONS + 1)


@given(players_strategy, st.integers(1, 9))
def test_nobody_short_of_the_minimum_is_ranked_above_anyone_at_or_over_it(raw, minimum):
    rows = rank_season(build(raw), best_of=None, sessions_held=8, min_sessions=minimum)
    ranked = [r for r in rows if r.rank is not None]
    assert rows[: len(ranked)] == ranked
    assert all(r.attended >= minimum for r in ranked)
    short = rows[len(ranked) :]
    assert all(r.attended < minimum or r.games == 0 for r in short)
    # The unranked are listed most sessions first.
    assert [r.attended for r in short] == sorted((r.attended for r in short), reverse=True)
    # The ranked are ranked among themselves as if the others were not there.
    alone = rank_season(
        [r.player for r in ranked], best_of=None, sessions_held=8, min_sessions=minimum
    )
    assert [(r.player.player_id, r.rank, r.tied) for r in alone] == [
        (r.player.player_id, r.rank, r.tied) for r in ranked
    ]


@given(players_strategy, st.one_of(st.none(), st.integers(1, 5)), st.integers(1, 9))
def test_a_minimum_of_one_is_todays_ranking_and_best_n_ignores_the_minimum(raw, best_of, minimum):
    players = build(raw)
    today = rank_season(players, best_of=best_of, sessions_held=8)
    assert rank_season(players, best_of=best_of, sessions_held=8, min_sessions=1) == today
    if best_of is not None:
        assert rank_season(players, best_of=best_of, sessions_held=8, min_sessions=minimum) == today
    else:
        # Minimum 1: everyone with a game is ranked, as before the minimum existed.
        assert {r.player.player_id for r in today if r.rank is not None} == {
            r.player.player_id for r in today if r.games > 0
        }
