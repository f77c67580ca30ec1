"""Score checks that know the table: hand limits, zeros, likely typos, letters, the engine.

Plain Python, no database. Each limit is tried both ways: the most a real game allows
is accepted, one more is refused.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_simulator import load_presets

from domain.sheet_checks import (
    GameCheck,
    HandLimits,
    Problem,
    SheetRules,
    Tile,
    TypedSheet,
    check_card_totals,
    check_game,
    engine_choices,
    expected_engine,
    hand_limits,
)

TOURNAMENT = SheetRules(12, 50, 12, 7, hand_sizes=[[2, 7, 12]])
GOOD_SAM = SheetRules(12, 0, 9, 0, hand_sizes=[[2, 6, 12]], engine_set_aside=True)
JIB_ROOM = SheetRules(12, 0, 12, 0, hand_sizes=[[2, 4, 15], [5, 6, 12], [7, 8, 11]])
NO_DEAL = SheetRules(12, 50, 12, 7)
# As fixtures/rule_presets.json has it: double-9, 2 players draw 12, the engine set aside.
PUREMCO_D9 = next(p.rules for p in load_presets() if p.key == "puremco-d9")


def table(size: int) -> dict[int, str]:
    names = ["Ann Lee", "Bob Roe", "Cy Doe", "Di Poe", "Ed Moe", "Flo Ng", "Gus Orr", "Hal Ito"]
    return {i + 1: names[i] for i in range(size)}


def game(scores, *, engine=12, out=1, tiles=None, number=3) -> TypedSheet:
    blocked = out is None
    return TypedSheet(number, engine, scores, tiles or {}, went_out=out, blocked=blocked)


def small(size: int) -> dict[int, int]:
    """Scores for a table of ``size``: player 1 went out, the rest hold a little."""
    return {pid: 0 if pid == 1 else 5 + pid for pid in range(1, size + 1)}


def only(problems: list[Problem]) -> Problem:
    assert len(problems) == 1, problems
    return problems[0]


def top_tiles(rules: SheetRules, engine: int, count: int) -> int:
    values = sorted(
        (rules.tile_value(t) for t in rules.all_tiles() if t != (engine, engine)), reverse=True
    )
    return sum(values[:count])


# ---------------------------------------------------------------------------
# The arithmetic of the set
# ---------------------------------------------------------------------------


def test_six_players_in_the_tournament_hold_at_most_585():
    limits = hand_limits(TOURNAMENT, 6, 12)
    # 91 tiles; the other five players' 60 starting tiles never reach this hand.
    assert limits.tiles_per_hand == 31
    assert limits.hand_pips == 585 == top_tiles(TOURNAMENT, 12, 31)
    assert limits.table_pips == 1142 - 24
    assert limits.starting_hand_pips == top_tiles(TOURNAMENT, 12, 12)


def test_engine_set_aside_before_the_deal_leaves_one_tile_less():
    set_aside = SheetRules(12, 50, 12, 7, hand_sizes=[[2, 7, 12]], engine_set_aside=True)
    limits = hand_limits(set_aside, 6, 12)
    assert limits.tiles_per_hand == 90 - 5 * 12 == 30
    assert limits.hand_pips == top_tiles(set_aside, 12, 30) == 571


@pytest.mark.parametrize(
    ("rules", "players", "reach"),
    [
        (JIB_ROOM, 2, 91 - 15),
        (JIB_ROOM, 4, 91 - 3 * 15),
        (JIB_ROOM, 5, 91 - 4 * 12),
        (JIB_ROOM, 8, 91 - 7 * 11),
        (GOOD_SAM, 6, 90 - 5 * 12),
        (TOURNAMENT, 7, 91 - 6 * 12),
    ],
)
def test_reach_follows_the_table_size_and_its_deal(rules, players, reach):
    assert hand_limits(rules, players, 9).tiles_per_hand == reach


def test_double_blank_value_counts_in_the_ceiling():
    worthless = SheetRules(12, 0, 12, 7, hand_sizes=[[2, 7, 12]])
    reach = 91 - 6 * 12
    assert hand_limits(worthless, 7, 12).hand_pips == top_tiles(worthless, 12, reach)
    # At 50 the double blank is the best tile of all: it takes the place of the last one.
    fifty = hand_limits(TOURNAMENT, 7, 12).hand_pips
    assert fifty == 50 + top_tiles(worthless, 12, reach - 1)


def test_without_a_deal_the_ceiling_is_the_tiles_left_after_the_engine():
    limits = hand_limits(NO_DEAL, 6, 9)
    assert limits.drew is None and limits.starting_hand_pips is None
    assert limits.hand_pips == limits.table_pips == 1142 - 18


def test_a_deal_that_cannot_fit_the_set_is_treated_as_unknown():
    crowded = SheetRules(9, 0, 9, 0, hand_sizes=[[2, 8, 15]])  # 8 x 15 > 55 tiles
    limits = hand_limits(crowded, 8, 9)
    assert limits.drew is None and limits.hand_pips == 495 - 18


def test_limits_are_worked_out_once_per_table_size_and_engine():
    rules = SheetRules(12, 50, 12, 7, hand_sizes=[[2, 7, 11]])
    first = hand_limits(rules, 5, 10)
    before = hand_limits.cache_info().hits
    assert hand_limits(rules, 5, 10) is first
    assert hand_limits.cache_info().hits == before + 1


def test_rules_take_hand_sizes_as_stored_and_stay_hashable():
    rules = SheetRules(12, 0, 12, 0, hand_sizes=[[2, 4, 15], [5, 6, 12]])
    assert rules.hand_sizes == ((2, 4, 15), (5, 6, 12))
    assert rules.hand_size(4) == 15 and rules.hand_size(6) == 12 and rules.hand_size(7) is None
    assert hash(rules) == hash(SheetRules(12, 0, 12, 0, hand_sizes=((2, 4, 15), (5, 6, 12))))
    with pytest.raises(ValueError):
        SheetRules(12, 0, 12, 0, hand_sizes=[[2, 4, -1]])


# ---------------------------------------------------------------------------
# Two players at double-9 with the engine set aside (puremco-d9): the exact limit
# ---------------------------------------------------------------------------


def highest_tiles(rules: SheetRules, engine: int, count: int) -> list[Tile]:
    """The ``count`` most valuable tiles other than the engine, most valuable first."""
    tiles = [t for t in rules.all_tiles() if t != (engine, engine)]
    return sorted(tiles, key=rules.tile_value, reverse=True)[:count]


def tiles_text(tiles: list[Tile]) -> str:
    return " ".join(f"{a}-{b}" for a, b in tiles)


def test_the_double_nine_preset_sets_the_engine_aside_so_one_tile_fewer_is_in_reach():
    assert PUREMCO_D9.engine_set_aside
    assert (PUREMCO_D9.tile_count(), PUREMCO_D9.hand_size(2)) == (55, 12)
    # 54 tiles once the engine is out; the other player's 12 never reach this hand.
    assert hand_limits(PUREMCO_D9, 2, 9).tiles_per_hand == 54 - 12 == 42
    # Read as if every tile were dealt (the slug rule that left puremco-d9 out): one more.
    dealt_whole = replace(PUREMCO_D9, engine_set_aside=False)
    assert hand_limits(dealt_whole, 2, 9).tiles_per_hand == 43


@pytest.mark.parametrize("engine", PUREMCO_D9.engine_order())
def test_two_players_at_double_nine_hold_the_largest_hand_and_not_one_tile_more(engine):
    seated = table(2)
    limits = hand_limits(PUREMCO_D9, 2, engine)
    largest = highest_tiles(PUREMCO_D9, engine, 42)
    sheet = game({1: 0, 2: ""}, engine=engine, tiles={2: tiles_text(largest)})
    check = check_game(PUREMCO_D9, seated, sheet, rechecked=True)
    assert check.problems == [] and check.saveable
    assert check.clean is not None and check.clean.scores[2] == limits.hand_pips
    one_more = highest_tiles(PUREMCO_D9, engine, 43)
    sheet = game({1: 0, 2: ""}, engine=engine, tiles={2: tiles_text(one_more)})
    check = check_game(PUREMCO_D9, seated, sheet, rechecked=True)
    assert check.clean is None
    assert (
        Problem(
            "tiles-2",
            "Bob Roe has 43 tiles listed, but one hand can hold at most 42 tiles at a table "
            "of 2 players in game 3.",
        )
        in check.problems
    )


@pytest.mark.parametrize("engine", PUREMCO_D9.engine_order())
def test_two_players_at_double_nine_score_the_largest_hand_and_not_one_point_more(engine):
    seated = table(2)
    most = hand_limits(PUREMCO_D9, 2, engine).hand_pips
    check = check_game(PUREMCO_D9, seated, game({1: 0, 2: most}, engine=engine), rechecked=True)
    assert check.problems == [] and check.saveable
    # What one tile more would hold: "please check" and then stored, before the rule was the
    # rule set's own.
    dealt_whole = replace(PUREMCO_D9, engine_set_aside=False)
    looser = hand_limits(dealt_whole, 2, engine).hand_pips
    assert looser > most
    for score in (most + 1, looser):
        check = check_game(
            PUREMCO_D9, seated, game({1: 0, 2: score}, engine=engine), rechecked=True
        )
        assert only(check.problems) == Problem(
            "score-2",
            f"Bob Roe's score of {score:,} is more than one hand can hold at a table of 2 "
            f"players: the most is {most:,} in game 3.",
        )


# ---------------------------------------------------------------------------
# A hand's ceiling in a game, both ways
# ---------------------------------------------------------------------------


def test_the_most_one_hand_can_hold_is_accepted_and_one_more_refused():
    seated = table(6)
    clean, problems = check_game(TOURNAMENT, seated, game(small(6) | {2: 585}))
    assert problems == [] and clean.scores[2] == 585
    _, problems = check_game(TOURNAMENT, seated, game(small(6) | {2: 586}))
    assert only(problems) == Problem(
        "score-2",
        "Bob Roe's score of 586 is more than one hand can hold at a table of 6 players: "
        "the most is 585 in game 3.",
    )


def test_the_1000_the_desk_once_stored_is_refused():
    _, problems = check_game(TOURNAMENT, table(6), game(small(6) | {4: 1000}))
    assert only(problems).field == "score-4"


def test_the_ceiling_follows_the_players_still_playing():
    seated = table(7)
    seven = hand_limits(TOURNAMENT, 7, 12).hand_pips
    six = hand_limits(TOURNAMENT, 6, 12).hand_pips
    assert six > seven
    scores = small(7) | {2: six}
    _, problems = check_game(TOURNAMENT, seated, game(scores))
    assert only(problems).field == "score-2"
    del scores[7]
    clean, problems = check_game(TOURNAMENT, seated, game(scores), withdrawn=[7])
    assert problems == [] and clean.scores[2] == six


def test_the_ceiling_depends_on_the_engine():
    seated = table(6)
    at_12 = hand_limits(TOURNAMENT, 6, 12).hand_pips
    at_7 = hand_limits(TOURNAMENT, 6, 7).hand_pips
    assert at_7 > at_12
    _, problems = check_game(TOURNAMENT, seated, game(small(6) | {2: at_7}, engine=7))
    assert problems == []
    _, problems = check_game(TOURNAMENT, seated, game(small(6) | {2: at_7}, engine=12))
    assert only(problems).field == "score-2"


def test_a_hand_of_tiles_beyond_reach_is_refused():
    seated = table(8)  # Jib Room, 8 players: 11 tiles each, 91 - 77 = 14 within reach
    tiles_14 = [(12, b) for b in range(12)] + [(11, 10), (11, 9)]
    text = " ".join(f"{a}-{b}" for a, b in tiles_14)
    scores = small(8) | {2: ""}
    clean, problems = check_game(JIB_ROOM, seated, game(scores, engine=0, tiles={2: text}))
    assert problems == [] and len(clean.tiles[2]) == 14
    _, problems = check_game(JIB_ROOM, seated, game(scores, engine=0, tiles={2: text + " 11-8"}))
    assert (
        Problem(
            "tiles-2",
            "Bob Roe has 15 tiles listed, but one hand can hold at most 14 tiles at a table "
            "of 8 players in game 3.",
        )
        in problems
    )


def test_the_hands_together_hold_at_most_the_set_less_the_engine():
    rules = SheetRules(12, 50, 12, 7, hand_sizes=[[2, 7, 7]])  # a small deal: a big reach
    seated = table(3)
    assert hand_limits(rules, 3, 12).hand_pips >= 600
    # Blocked: nobody went out, so every tile but the engine may still be in a hand.
    _, problems = check_game(rules, seated, game({1: 1, 2: 600, 3: 517}, out=None))
    assert problems == []  # 1,118 = 1,142 - 24
    _, problems = check_game(rules, seated, game({1: 1, 2: 600, 3: 518}, out=None))
    assert only(problems) == Problem(
        "",
        "The scores in game 3 add up to 1,119, but all the tiles left after the engine only "
        "add up to 1,118. Please check the scores.",
    )


def lowest_tiles(rules: SheetRules, engine: int, count: int) -> int:
    values = sorted(rules.tile_value(t) for t in rules.all_tiles() if t != (engine, engine))
    return sum(values[:count])


def test_once_a_player_went_out_the_others_hold_at_most_the_set_less_that_deal():
    rules = SheetRules(12, 50, 12, 7, hand_sizes=[[2, 7, 7]])
    seated = table(3)
    # Ann went out: her 7 tiles were played, one of which may have been the engine.
    ceiling = 1_118 - lowest_tiles(rules, 12, 6)
    assert ceiling == 1_103 and hand_limits(rules, 3, 12).table_pips_after_out == ceiling
    assert check_game(rules, seated, game({1: 0, 2: 600, 3: 503})).problems == []
    _, problems = check_game(rules, seated, game({1: 0, 2: 600, 3: 504}))
    assert only(problems) == Problem(
        "",
        "The scores in game 3 add up to 1,104, but that is too many: Ann Lee went out, so all "
        "7 tiles Ann Lee was dealt were played, and the tiles left for the other players add "
        "up to at most 1,103. Please check the scores.",
    )


def test_with_the_engine_set_aside_the_whole_deal_of_the_player_out_counts():
    rules = SheetRules(12, 0, 9, 0, hand_sizes=[[2, 6, 5]], engine_set_aside=True)
    limits = hand_limits(rules, 2, 9)
    assert limits.table_pips_after_out == limits.table_pips - lowest_tiles(rules, 9, 5)
    # The double blank counts 0 here, so the lowest five are 0-0, 0-1, 0-2, 1-1, 0-3.
    assert limits.table_pips - limits.table_pips_after_out == 0 + 1 + 2 + 2 + 3


def test_without_a_deal_there_is_no_limit_after_going_out():
    assert hand_limits(NO_DEAL, 4, 12).table_pips_after_out is None
    _, problems = check_game(NO_DEAL, table(2), game({1: 0, 2: 1_118}))
    assert problems == []


def test_a_score_over_one_hands_ceiling_is_not_also_refused_as_a_total():
    rules = SheetRules(12, 50, 12, 7, hand_sizes=[[2, 7, 7]])
    limits = hand_limits(rules, 3, 12)
    _, problems = check_game(rules, table(3), game({1: 0, 2: limits.hand_pips + 1, 3: 600}))
    assert [p.field for p in problems] == ["score-2"]


# ---------------------------------------------------------------------------
# Zeros
# ---------------------------------------------------------------------------


def test_double_blank_worth_50_only_the_player_out_scores_zero():
    seated = table(4)
    assert check_game(TOURNAMENT, seated, game(small(4))).problems == []
    _, problems = check_game(TOURNAMENT, seated, game(small(4) | {3: 0}))
    assert only(problems).field == "score-3"
    blocked = {1: 4, 2: 0, 3: 9, 4: 12}
    assert only(check_game(TOURNAMENT, seated, game(blocked, out=None)).problems).field == (
        "score-2"
    )


def test_double_blank_worth_0_one_other_player_may_score_zero():
    seated = table(5)
    assert check_game(GOOD_SAM, seated, game(small(5) | {3: 0}, engine=9)).problems == []
    _, problems = check_game(GOOD_SAM, seated, game(small(5) | {3: 0, 5: 0}, engine=9))
    assert only(problems) == Problem(
        "score-5",
        "Ed Moe's score is 0, but so is Cy Doe's. Apart from the player who went out, only "
        "one player, the one left holding just the double blank, can score 0 in game 3.",
    )


def test_six_zeros_in_a_blocked_game_are_refused():
    seated = table(6)
    zeros = dict.fromkeys(seated, 0)
    problems = check_game(GOOD_SAM, seated, game(zeros, engine=9, out=None)).problems
    assert [p.field for p in problems] == [f"score-{pid}" for pid in range(2, 7)]
    one_zero = {pid: 0 if pid == 1 else 3 * pid for pid in seated}
    assert check_game(GOOD_SAM, seated, game(one_zero, engine=9, out=None)).problems == []


def test_no_zero_but_the_player_out_when_the_double_blank_was_the_engine():
    seated = table(4)
    _, problems = check_game(GOOD_SAM, seated, game(small(4) | {2: 0}, engine=0))
    assert only(problems) == Problem(
        "score-2",
        "Bob Roe's score is 0, but the double blank was the engine in game 3, so only the "
        "player who went out can score 0.",
    )
    assert check_game(GOOD_SAM, seated, game(small(4), engine=0)).problems == []


def test_a_zero_when_the_double_blank_is_listed_in_another_hand():
    seated = table(4)
    tiles = {3: "0-0 5-5"}
    ok = small(4) | {3: ""}
    assert check_game(GOOD_SAM, seated, game(ok, engine=9, tiles=tiles)).problems == []
    _, problems = check_game(GOOD_SAM, seated, game(ok | {2: 0}, engine=9, tiles=tiles))
    assert only(problems) == Problem(
        "score-2",
        "Bob Roe's score is 0, but the double blank is listed in Cy Doe's tiles: only a "
        "player left holding just the double blank can score 0.",
    )
    holder = small(4) | {3: ""}
    alone = check_game(GOOD_SAM, seated, game(holder, engine=9, tiles={3: "0-0"}))
    assert alone.problems == [] and alone.clean.scores[3] == 0


# ---------------------------------------------------------------------------
# "Please check": warnings, never refusals
# ---------------------------------------------------------------------------


def test_a_score_above_the_best_starting_hand_asks_before_it_saves():
    seated = table(6)
    best = hand_limits(TOURNAMENT, 6, 12).starting_hand_pips
    assert best == 276
    others = {1: 0, 3: 95, 4: 90, 5: 80, 6: 70}
    result = check_game(TOURNAMENT, seated, game(others | {2: best}))
    assert result.warnings == [] and result.saveable
    result = check_game(TOURNAMENT, seated, game(others | {2: best + 1}))
    assert result.problems == [] and result.clean is not None
    assert result.warnings == [
        Problem(
            "score-2",
            "Please check Bob Roe's score of 277: that is more than the best hand anyone can be "
            "dealt (276 in 12 tiles), so Bob Roe must have drawn many tiles in game 3.",
        )
    ]
    assert result.needs_recheck and not result.saveable
    confirmed = check_game(TOURNAMENT, seated, game(others | {2: best + 1}), rechecked=True)
    assert confirmed.warnings == result.warnings
    assert not confirmed.needs_recheck and confirmed.saveable


def test_a_jump_among_two_digit_scores_asks_before_it_saves():
    seated = table(5)
    result = check_game(TOURNAMENT, seated, game({1: 0, 2: 40, 3: 260, 4: 38, 5: 61}))
    assert result.problems == [] and not result.saveable
    assert result.warnings == [
        Problem(
            "score-3",
            "Please check Cy Doe's score of 260: the other scores in game 3 are all under 100.",
        )
    ]
    # Above the best starting hand, that is the question asked instead.
    result = check_game(TOURNAMENT, seated, game({1: 0, 2: 40, 3: 400, 4: 38, 5: 61}))
    assert [w.field for w in result.warnings] == ["score-3"]
    assert "more than the best hand anyone can be dealt" in result.warnings[0].message


@pytest.mark.parametrize(
    "scores",
    [
        {1: 0, 2: 95, 3: 140, 4: 70, 5: 61},  # three digits, but not far above the rest
        {1: 0, 2: 40, 3: 149, 4: 38, 5: 11},  # a modest three-digit hand
        {1: 0, 2: 120, 3: 260, 4: 38, 5: 61},  # another three-digit score
        {1: 0, 2: 250},  # nothing to compare with
    ],
)
def test_true_looking_scores_do_not_ask(scores):
    seated = table(len(scores))
    result = check_game(TOURNAMENT, seated, game(scores))
    assert result.problems == [] and result.warnings == [] and result.saveable


def test_without_a_deal_only_the_jump_asks():
    result = check_game(NO_DEAL, table(3), game({1: 0, 2: 700, 3: 20}))
    assert [w.field for w in result.warnings] == ["score-2"]
    assert "the other scores in game 3 are all under 100" in result.warnings[0].message


def test_a_refused_score_does_not_also_ask():
    result = check_game(TOURNAMENT, table(6), game(small(6) | {2: 900}))
    assert [p.field for p in result.problems] == ["score-2"] and result.warnings == []


def test_the_result_still_unpacks_as_before():
    result = check_game(TOURNAMENT, table(3), game({1: 0, 2: 5, 3: 7}))
    assert isinstance(result, GameCheck) and isinstance(result.limits, HandLimits)
    clean, problems = result
    assert problems == [] and clean.scores == {1: 0, 2: 5, 3: 7}


# ---------------------------------------------------------------------------
# Letters typed for digits
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "meant", "letter", "digit"),
    [
        ("1O", 10, "O", 0),
        ("l2", 12, "l", 1),
        ("2o", 20, "o", 0),
        ("lO", 10, "l", 1),
        (" I5 ", 15, "I", 1),
    ],
)
def test_a_letter_for_a_digit_is_answered_with_the_number_meant(typed, meant, letter, digit):
    _, problems = check_game(TOURNAMENT, table(3), game({1: 0, 2: typed, 3: 7}))
    assert only(problems) == Problem(
        "score-2",
        f'Did you mean {meant} for Bob Roe? "{typed.strip()}" has the letter {letter} in it, '
        f"not the number {digit}.",
    )


@pytest.mark.parametrize("typed", ["abc", "1x", "O O", "12a", "ll2l2l2l2l2"])
def test_other_words_get_the_plain_whole_number_message(typed):
    _, problems = check_game(TOURNAMENT, table(3), game({1: 0, 2: typed, 3: 7}))
    assert only(problems) == Problem(
        "score-2", "Bob Roe's score must be a whole number, like 0 or 23."
    )


def test_a_letter_in_a_written_total():
    clean, _ = check_game(TOURNAMENT, table(3), game({1: 0, 2: 10, 3: 7}))
    problems = check_card_totals([clean], {2: "1O"}, table(3))
    assert only(problems) == Problem(
        "total-2",
        'Did you mean 10 for Bob Roe\'s total? "1O" has the letter O in it, not the number 0.',
    )


# ---------------------------------------------------------------------------
# The expected engine
# ---------------------------------------------------------------------------


def test_the_expected_engine_is_the_first_unused_double_of_the_order():
    assert expected_engine(TOURNAMENT, []) == 12
    assert expected_engine(TOURNAMENT, [12, 11]) == 10
    # Game 3 fell back to 9 because nobody held the 10: game 4 expects the 10 again.
    assert expected_engine(TOURNAMENT, [12, 11, 9]) == 10
    assert engine_choices(TOURNAMENT, [12, 11, 9]) == [10, 8, 7]
    assert expected_engine(TOURNAMENT, [12, 11, 10, 9, 8, 7]) is None
    assert engine_choices(TOURNAMENT, range(7, 13)) == []
    assert expected_engine(GOOD_SAM, [9, 8, 7, 6, 5, 4, 3, 2, 1]) == 0


def test_the_engine_entered_is_in_range_and_unused_at_the_table():
    seated, scores = table(3), {1: 0, 2: 5, 3: 7}
    assert check_game(TOURNAMENT, seated, game(scores, engine=9), [12, 11]).problems == []
    assert check_game(TOURNAMENT, seated, game(scores, engine=10), [12, 11, 9]).problems == []
    used = check_game(TOURNAMENT, seated, game(scores, engine=9), [12, 11, 9]).problems
    assert only(used) == Problem(
        "engine", "Double 9 was already the engine in an earlier game at this table today."
    )
    low = check_game(TOURNAMENT, seated, game(scores, engine=6), [12, 11]).problems
    assert only(low) == Problem("engine", "The engine must be a double from 12 down to 7.")
