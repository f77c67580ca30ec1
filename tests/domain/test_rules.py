"""A rule set as a whole: every preset playable and sourced, an impossible rule named with its
reason, and the hand chart's text form (domain.rules, no database)."""

import pytest
from hypothesis import given, strategies as st

from domain.rules import (
    RULE_FIELDS,
    format_hand_chart,
    format_rule,
    parse_hand_chart,
    parse_rule,
    rule_problems,
    tile_count,
)
from tournaments.presets import preset_rows


def preset_values(key: str) -> dict:
    row = next(r for r in preset_rows() if r["key"] == key)
    return {name: row[name] for name in RULE_FIELDS}


@pytest.mark.parametrize("key", [row["key"] for row in preset_rows()])
def test_every_preset_can_be_played_and_says_where_each_value_comes_from(key):
    row = next(r for r in preset_rows() if r["key"] == key)
    assert rule_problems(preset_values(key)) == {}
    assert set(row["sources"]) == set(RULE_FIELDS)
    assert set(row["sources"].values()) <= {"seed", "published", "assumed"}


def test_the_double_nine_preset_deals_from_55_tiles_by_a_named_chart():
    row = next(r for r in preset_rows() if r["key"] == "puremco-d9")
    assert row["top_double"] == 9 and tile_count(9) == 55
    assert row["sources"]["hand_sizes"] == "published"
    assert "Double 9, 12, or 15 Set" in row["source"]
    # 4 players x 10 tiles + the engine leaves 14 in the boneyard.
    assert 4 * 10 + 1 < 55


@pytest.mark.parametrize(
    "changes, field, words",
    [
        (
            {"top_double": 9, "first_engine": 9, "hand_sizes": [[2, 4, 15]], "max_table_size": 4},
            "hand_sizes",
            "4 players drawing 15 tiles take 60 of the 55 tiles",
        ),
        ({"hand_sizes": [[2, 4, 12]]}, "hand_sizes", "Tables of 5 have no hand size"),
        ({"engine_order": [9, 9, 8], "games_per_day": 3}, "engine_order", "repeated: 9"),
        ({"engine_order": [9, 8], "games_per_day": 3}, "engine_order", "one engine per game"),
        ({"engine_order": [13, 8, 7]}, "engine_order", "0 to 12"),
        ({"games_per_day": 14}, "games_per_day", "at most 13 games"),
        ({"days": 0}, "days", "at least 1 day"),
        ({"double_blank_value": -1}, "double_blank_value", "from 0 to 100 points"),
        ({"double_blank_value": 40000}, "double_blank_value", "from 0 to 100 points"),
        (
            {"hand_sizes": [[n, n, 9] for n in range(1, 40001)]},
            "hand_sizes",
            "at most 10 rows, one per table size; this one has 40000",
        ),
        ({"top_double": 10}, "top_double", "double-6, 9, 12, 15 or 18"),
        ({"first_engine": 13}, "first_engine", "0 to 12"),
    ],
)
def test_an_impossible_rule_is_named_with_its_reason(changes, field, words):
    problems = rule_problems({**preset_values("tournament"), **changes})
    assert field in problems, problems
    assert words in " ".join(problems[field])


@given(
    top=st.sampled_from([6, 9, 12, 15, 18]),
    table=st.integers(2, 10),
    tiles=st.integers(1, 30),
    games=st.integers(1, 19),
)
def test_rules_that_pass_always_leave_a_boneyard_and_distinct_engines(top, table, tiles, games):
    rules = {
        **preset_values("tournament"),
        "top_double": top,
        "first_engine": top,
        "games_per_day": games,
        "max_table_size": table,
        "hand_sizes": [[2, table, tiles]],
    }
    if rule_problems(rules):
        return
    assert table * tiles + 2 <= tile_count(top)
    assert games <= top + 1


@given(st.lists(st.tuples(st.integers(1, 9), st.integers(0, 3), st.integers(1, 20)), max_size=4))
def test_a_hand_chart_reads_back_as_it_was_written(rows):
    chart = [[low, low + extra, tiles] for low, extra, tiles in rows]
    if chart:
        assert parse_hand_chart(format_hand_chart(chart)) == chart


def test_a_typed_hand_chart_longer_than_a_row_per_table_size_is_refused_before_it_is_read():
    typed = ", ".join(f"{n}: 9" for n in range(1, 40001))
    with pytest.raises(ValueError, match="at most 10 rows, one per table size; this one has 40000"):
        parse_hand_chart(typed)
    assert len(parse_hand_chart(", ".join(f"{n}: 9" for n in range(1, 11)))) == 10


# --- the engine set aside before the deal ----------------------------------------------------


def test_the_engine_is_set_aside_where_the_rule_sheet_says_so():
    aside = {
        r["key"]: (r["engine_set_aside"], r["sources"]["engine_set_aside"]) for r in preset_rows()
    }
    assert aside == {
        "tournament": (False, "seed"),  # 002: the player holding the double 12 starts with it
        "club-session": (False, "assumed"),
        "good-sam": (True, "seed"),  # 000: the double is "located and placed face up"
        "jib-room": (False, "seed"),  # 003: "if a player has the double 12 ... puts it"
        "puremco": (True, "seed"),  # 004: "find and set aside the double-12 or double-9"
        "puremco-d9": (True, "seed"),
    }
    assert parse_rule("engine_set_aside", "yes") is True
    assert format_rule("engine_set_aside", False) == "no"


def test_with_the_engine_set_aside_the_deal_fits_in_the_other_tiles():
    d9 = preset_values("puremco-d9")
    # 2 players x 26 = 52 of the 54 tiles left once the engine is out: a boneyard of 2.
    assert rule_problems({**d9, "hand_sizes": [[2, 2, 26], [3, 3, 11], [4, 4, 10]]}) == {}
    too_many = [[2, 2, 27], [3, 3, 11], [4, 4, 10]]
    assert rule_problems({**d9, "hand_sizes": too_many}) == {
        "hand_sizes": [
            "2 players drawing 27 tiles take 54 of the 54 tiles left once the engine is set "
            "aside: at least one tile must be left for the boneyard."
        ]
    }
    dealt_whole = rule_problems({**d9, "engine_set_aside": False, "hand_sizes": too_many})
    assert dealt_whole["hand_sizes"] == [
        "2 players drawing 27 tiles take 54 of the 55 tiles: the engine and at least one tile "
        "for the boneyard must be left."
    ]
    assert rule_problems({**d9, "engine_set_aside": "perhaps"}) == {
        "engine_set_aside": ['Say "yes" or "no": is the engine set aside before the deal?']
    }
