"""Typing "130" for 13 among two-digit scores asks "did you mean 13?", never refuses.

Tried by hand on one table, then on games the simulator plays (tests/game_simulator.py):
a few thousand true games never ask, and the same games with an extra 0 typed after a
two-digit score ask whenever the number left is two-digit like its neighbours' and the
whole is at least five times every one of them.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from game_simulator import load_presets, play_day
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from domain.sheet_checks import (
    Problem,
    SheetRules,
    TypedSheet,
    check_game,
    hand_limits,
    tile_pips,
)

TOURNAMENT = SheetRules(12, 50, 12, 7, hand_sizes=[[2, 7, 12]])
NAMES = ["Ann Lee", "Bob Roe", "Cy Doe", "Di Poe", "Ed Moe", "Flo Ng", "Gus Orr", "Hal Ito"]
PRESETS = load_presets()


def table(size: int) -> dict[int, str]:
    return {i + 1: NAMES[i] for i in range(size)}


def game(scores, *, out=1, number=3) -> TypedSheet:
    return TypedSheet(number, 12, scores, {}, went_out=out, blocked=out is None)


def did_you_mean(result) -> list[Problem]:
    return [w for w in result.warnings if "did you mean" in w.message]


def test_130_among_two_digit_scores_asks_did_you_mean_13():
    scores = {1: 0, 2: 12, 3: 130, 4: 25, 5: 8}
    result = check_game(TOURNAMENT, table(5), game(scores))
    assert result.problems == [] and result.clean is not None
    assert result.warnings == [
        Problem(
            "score-3",
            "Please check Cy Doe's score of 130: did you mean 13? "
            "The other scores in game 3 are no more than 25.",
        )
    ]
    assert result.needs_recheck and not result.saveable
    # "Yes, it is right" keeps 130 as typed; fixing it to 13 asks nothing.
    kept = check_game(TOURNAMENT, table(5), game(scores), rechecked=True)
    assert kept.saveable and kept.clean.scores[3] == 130
    fixed = check_game(TOURNAMENT, table(5), game(scores | {3: 13}))
    assert fixed.warnings == [] and fixed.saveable and fixed.clean.scores[3] == 13


def test_a_blocked_game_asks_too():
    result = check_game(TOURNAMENT, table(4), game({1: 11, 2: 20, 3: 9, 4: 100}, out=None))
    assert [w.field for w in did_you_mean(result)] == ["score-4"]
    assert "did you mean 10?" in result.warnings[0].message


@pytest.mark.parametrize(
    ("highest", "asks"),
    [(25, True), (26, True), (27, False), (40, False)],
)
def test_it_asks_only_at_five_times_the_highest_neighbour(highest, asks):
    result = check_game(TOURNAMENT, table(5), game({1: 0, 2: 12, 3: 130, 4: highest, 5: 8}))
    assert bool(did_you_mean(result)) is asks
    assert result.problems == []


@pytest.mark.parametrize(
    "scores",
    [
        {1: 0, 2: 12, 3: 135, 4: 25, 5: 8},  # no 0 at the end
        {1: 0, 2: 12, 3: 130, 4: 25},  # only two neighbours to compare with
        {1: 0, 2: 12, 3: 130, 4: 101, 5: 8},  # a neighbour has three digits too
        {1: 0, 2: 12, 3: 90, 4: 15, 5: 8},  # "90" is two digits already
    ],
)
def test_true_looking_scores_do_not_ask(scores):
    result = check_game(TOURNAMENT, table(len(scores)), game(scores))
    assert result.problems == [] and result.warnings == [] and result.saveable


def test_single_digit_neighbours_still_ask_about_a_trailing_zero():
    # 100 for 10 among 1, 2 and 3: the number left (10) is as plausible as theirs.
    result = check_game(TOURNAMENT, table(5), game({1: 0, 2: 1, 3: 100, 4: 2, 5: 3}))
    assert [w.message.split("?")[0] for w in result.warnings] == [
        "Please check Cy Doe's score of 100: did you mean 10"
    ]


def test_the_best_starting_hand_question_comes_first_and_the_jump_after():
    # 400 is more than anyone can be dealt: that is the question, once.
    result = check_game(TOURNAMENT, table(5), game({1: 0, 2: 12, 3: 400, 4: 25, 5: 8}))
    assert len(result.warnings) == 1
    assert "more than the best hand anyone can be dealt" in result.warnings[0].message
    # 260 among 12, 25 and 8 is both a jump and an extra 0: the extra 0 is the better question.
    result = check_game(TOURNAMENT, table(5), game({1: 0, 2: 12, 3: 260, 4: 25, 5: 8}))
    assert [w.message for w in result.warnings] == [
        "Please check Cy Doe's score of 260: did you mean 26? "
        "The other scores in game 3 are no more than 25."
    ]


def test_a_score_over_the_hand_ceiling_is_refused_not_asked():
    limits = hand_limits(TOURNAMENT, 5, 12)
    too_many = (limits.hand_pips // 10 + 1) * 10
    result = check_game(TOURNAMENT, table(5), game({1: 0, 2: 12, 3: too_many, 4: 25, 5: 8}))
    assert [p.field for p in result.problems] == ["score-3"] and result.warnings == []


# ---------------------------------------------------------------------------
# Simulated games
# ---------------------------------------------------------------------------


def simulated_games(count: int, seed: int):
    """(rules, seated, sheet, game played, used engines, withdrawn) for ``count`` true games
    of every preset and table size, drawn as bench/validation.py draws them."""
    rng = random.Random(seed)
    out: list[tuple] = []
    while len(out) < count:
        preset = rng.choice(PRESETS)
        set_aside = rng.random() < 0.5
        rules = replace(
            preset.rules,
            double_blank_value=rng.choice([0, 50]),
            engine_set_aside=set_aside and rng.random() < 0.5,
        )
        size = rng.choice(preset.table_sizes)
        day = play_day(rules, size, rng, set_aside=set_aside)
        out += [(rules, day.seated, *row) for row in day.games]
    return out[:count]


def test_a_few_thousand_true_games_never_ask_did_you_mean():
    games = simulated_games(5000, seed=2024)
    asked = [
        (sheet.scores, w.message)
        for rules, seated, sheet, _game, used, gone in games
        for w in did_you_mean(check_game(rules, seated, sheet, used, gone))
    ]
    assert asked == []
    # The games are varied enough to matter: plenty of three-digit hands among them.
    big = sum(
        any(v >= 100 for p, v in check_game(r, s, sh, u, g).clean.scores.items())
        for r, s, sh, _game, u, g in games
    )
    assert big > 100


@st.composite
def typo_in_a_true_game(draw: st.DrawFn):
    """A true game of four or more players still holding tiles, every hand two-digit or
    less, with a 0 typed after one player's score so that it is five times the rest."""
    preset = draw(st.sampled_from([p for p in PRESETS if p.table_sizes[-1] >= 4]))
    size = draw(st.sampled_from([n for n in preset.table_sizes if n >= 4]))
    rules = replace(preset.rules, double_blank_value=draw(st.sampled_from([0, 50])))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    day = play_day(rules, size, rng, set_aside=rules.engine_set_aside)
    sheet, played, used, gone = day.games[draw(st.integers(0, len(day.games) - 1))]
    scores = {p: tile_pips(h, rules.double_blank_value) for p, h in played.hands.items()}
    holders = [p for p in scores if p != played.went_out]
    assume(len(holders) >= 4 and max(scores.values()) < 100)
    pid = draw(st.sampled_from(holders))
    highest = max(scores[p] for p in holders if p != pid)
    limits = hand_limits(rules, len(played.hands), played.engine)
    meant = draw(st.integers(max(10, (highest + 1) // 2), 99))
    assume(10 * meant <= limits.hand_pips)
    assume(sum(scores.values()) - scores[pid] + 10 * meant <= limits.table_pips)
    tiles = {p: t for p, t in sheet.tiles.items() if p != pid}
    typo = replace(sheet, scores=dict(sheet.scores) | {pid: 10 * meant}, tiles=tiles)
    return day, typo, used, gone, pid, meant


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(typo_in_a_true_game())
def test_an_extra_zero_in_a_true_game_asks_and_never_refuses(case):
    day, typo, used, gone, pid, meant = case
    result = check_game(day.rules, day.seated, typo, used, gone)
    assert result.problems == [] and result.clean is not None
    asked = did_you_mean(result)
    assert [w.field for w in asked] == [f"score-{pid}"] or any(
        "more than the best hand" in w.message and w.field == f"score-{pid}"
        for w in result.warnings
    )
    if asked:
        assert f"did you mean {meant}?" in asked[0].message
    confirmed = check_game(day.rules, day.seated, typo, used, gone, rechecked=True)
    assert confirmed.saveable and confirmed.clean.scores[pid] == 10 * meant
    fixed = replace(typo, scores=dict(typo.scores) | {pid: meant})
    assert did_you_mean(check_game(day.rules, day.seated, fixed, used, gone)) == []
