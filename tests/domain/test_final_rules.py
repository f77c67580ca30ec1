"""The final's pure rules (domain.finals): the rule checked as a whole, who qualifies and why,
ties at the last place, and the standings' order once the final is played."""

import pytest
from hypothesis import given, strategies as st

from domain.finals import (
    ADDED,
    OWN_TOTAL,
    UNDECIDED,
    Candidate,
    Line,
    deal_tables,
    final_order,
    final_problems,
    ordinal,
    qualifiers,
)
from domain.rules import parse_rule, rule_problems

BASE = {"days": 2, "max_table_size": 7, "flights": []}


def rule(**final):
    return BASE | {"final_qualify": "overall", "final_qualifiers": 4, "final_tables": 1} | final


@pytest.mark.parametrize(
    ("number", "words"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (22, "22nd"),
        (101, "101st"),
        (111, "111th"),
    ],
)
def test_ordinals(number, words):
    assert ordinal(number) == words


def test_no_final_needs_nothing_else():
    assert final_problems(BASE | {"final_qualify": "none", "days": 1}) == {}


@pytest.mark.parametrize(
    ("final", "field", "words"),
    [
        ({"days": 1}, "final_qualify", "at least one qualifying session"),
        (
            {"final_qualifiers": 8},
            "final_qualifiers",
            "8 qualifiers are more than the final's 1 table can seat (7 at most",
        ),
        ({"final_qualifiers": 0}, "final_qualifiers", "1 or more"),
        ({"final_tables": 0}, "final_tables", "1 to 50 tables"),
        ({"final_qualifiers": 3, "final_tables": 2}, "final_tables", "at least 2 players"),
        ({"final_qualify": "tables", "final_session": 2}, "final_session", "1 to 1"),
        ({"final_qualify": "flight"}, "final_qualify", "needs flights"),
        (
            {"final_qualify": "flight", "flights": ["A", "B"]},
            "final_qualifiers",
            "8 qualifiers from each of the 2 flights",
        ),
        ({"final_counts": "half"}, "final_counts", "Choose"),
    ],
)
def test_a_final_that_cannot_be_played_names_the_field(final, field, words):
    problems = final_problems(rule(**final))
    assert field in problems
    assert words in problems[field][0]


def test_the_rule_is_checked_with_the_others_and_typed_as_words():
    rules = {
        "top_double": 12,
        "days": 2,
        "games_per_day": 6,
        "first_engine": 12,
        "engine_order": [],
        "max_table_size": 7,
        "hand_sizes": [[2, 7, 12]],
        "double_blank_value": 50,
        "tie_breaks": [],
        "final_qualify": parse_rule("final_qualify", " Overall "),
        "final_qualifiers": parse_rule("final_qualifiers", "9"),
        "final_tables": 1,
    }
    assert list(rule_problems(rules)) == ["final_qualifiers"]
    assert rule_problems(rules | {"final_tables": 2}) == {}


def people(totals, **extra):
    return [
        Candidate(entry_id=i, name=f"P{i}", total=t, **{k: v[i] for k, v in extra.items()})
        for i, t in enumerate(totals)
    ]


def test_best_n_overall_with_a_tie_the_tie_break_settles():
    field = people([10, 20, 30, 30, 40], tie_key=[((0,),), ((0,),), ((-2,),), ((-1,),), ((0,),)])
    got = qualifiers(field, rule(final_qualifiers=3), ["Most games gone out"])
    assert [(q.name, q.reason) for q in got.qualifiers] == [
        ("P0", "1st overall (10)"),
        ("P1", "2nd overall (20)"),
        ("P2", "3rd overall (30)"),
    ]
    (tie,) = got.ties
    assert (tie.decided_by, tie.names, tie.through) == (
        "Most games gone out",
        ("P2", "P3"),
        ("P2",),
    )


def test_a_tie_no_tie_break_settles_sends_everyone_level_through():
    got = qualifiers(people([10, 30, 30, 40]), rule(final_qualifiers=2))
    assert [q.reason for q in got.qualifiers] == [
        "1st overall (10)",
        "2nd overall (30)",
        "2nd overall (30)",
    ]
    assert got.undecided and got.ties[0].decided_by == UNDECIDED
    assert "tied: the organiser decides" in got.ties[0].words


def test_the_lowest_at_each_table_of_the_session():
    field = people(
        [50, 10, 40, 20, 30],
        table=[1, 1, 2, 2, None],
        session_total=[5, 9, 3, 8, None],
    )
    got = qualifiers(field, rule(final_qualify="tables", final_session=1))
    # The session's total at the table decides, not the qualifying total.
    assert [(q.name, q.reason) for q in got.qualifiers] == [
        ("P0", "lowest at table 1 in session 1 (5)"),
        ("P2", "lowest at table 2 in session 1 (3)"),
    ]


def test_withdrawn_players_never_qualify():
    field = people([5, 10, 20], ranked=[False, True, True])
    assert [q.name for q in qualifiers(field, rule(final_qualifiers=2)).qualifiers] == ["P1", "P2"]


def test_the_final_order_own_and_added():
    lines = [
        Line(1, 10, 1, 30, finalist=True),
        Line(2, 20, 2, 5, finalist=True),
        Line(3, 25, 3),
        Line(4, 25, 3),
        Line(5, 99, None),
    ]
    own = [(p.entry_id, p.rank, p.tied, p.total) for p in final_order(lines, OWN_TOTAL)]
    assert own == [
        (2, 1, False, 5),
        (1, 2, False, 30),
        (3, 3, True, 25),
        (4, 3, True, 25),
        (5, None, False, 99),
    ]
    added = [(p.entry_id, p.rank, p.total) for p in final_order(lines, ADDED)][:2]
    assert added == [(2, 1, 25), (1, 2, 40)]


totals = st.lists(st.integers(min_value=0, max_value=60), min_size=1, max_size=30)


@given(totals, st.integers(min_value=1, max_value=10), st.lists(st.integers(0, 3), max_size=30))
def test_best_n_takes_at_least_n_and_nobody_worse_than_someone_left_out(scores, n, outs):
    keys = [((-(outs[i] if i < len(outs) else 0),),) for i in range(len(scores))]
    field = people(scores, tie_key=keys)
    got = qualifiers(field, rule(final_qualifiers=n), ["Most games gone out"])
    chosen = set(got.entry_ids)
    assert len(chosen) == len(got.qualifiers)
    assert len(chosen) >= min(n, len(scores))
    # Exactly n unless a tie nobody can settle sends more through.
    if not got.undecided:
        assert len(chosen) == min(n, len(scores))
    for inside in field:
        for outside in field:
            if inside.entry_id in chosen and outside.entry_id not in chosen:
                assert (inside.total, inside.tie_key) < (outside.total, outside.tie_key)


@given(
    st.lists(
        st.tuples(st.integers(0, 60), st.integers(0, 40), st.booleans()), min_size=1, max_size=25
    ),
    st.sampled_from([OWN_TOTAL, ADDED]),
)
def test_finalists_always_lead_and_everyone_else_keeps_their_qualifying_order(rows, counts):
    ranks = sorted(range(len(rows)), key=lambda i: rows[i][0])
    qualifying_rank = {}
    for i in ranks:
        earlier = next(p for p, j in enumerate(ranks) if rows[j][0] == rows[i][0])
        qualifying_rank[i] = earlier + 1
    lines = [
        Line(i, total, qualifying_rank[i], final if finalist else None, finalist=finalist)
        for i, (total, final, finalist) in enumerate(rows)
    ]
    placed = final_order(lines, counts)
    assert sorted(p.entry_id for p in placed) == list(range(len(rows)))
    flags = [p.finalist for p in placed]
    assert flags == sorted(flags, reverse=True)  # every finalist before anyone else
    finalists = [p for p in placed if p.finalist]
    assert [p.total for p in finalists] == sorted(p.total for p in finalists)
    others = [p.entry_id for p in placed if not p.finalist]
    assert [qualifying_rank[i] for i in others] == sorted(qualifying_rank[i] for i in others)
    ranks_shown = [p.rank for p in placed]
    assert ranks_shown == sorted(ranks_shown)
    assert ranks_shown[0] == 1


def test_the_final_tables_are_dealt_back_and_forth():
    assert deal_tables(list(range(1, 9)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4]]


def test_a_pair_kept_apart_is_parted_at_the_final():
    # 1 and 6 would share table 1.
    tables = deal_tables(list(range(1, 9)), 3, [(6, 1)])
    assert not any({1, 6} <= set(table) for table in tables)
    assert sorted(len(t) for t in tables) == [2, 3, 3]


@given(
    st.integers(2, 30),
    st.integers(1, 5),
    st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=6),
)
def test_every_qualifier_sits_once_at_even_tables_and_no_swap_adds_a_clash(players, count, apart):
    ordered = list(range(players))
    tables = deal_tables(ordered, count, apart)
    assert sorted(p for t in tables for p in t) == ordered
    sizes = [len(t) for t in tables]
    assert max(sizes) - min(sizes) <= 1
    pairs = {frozenset(p) for p in apart if p[0] != p[1]}

    def clashes(ts):
        return sum(1 for t in ts for i, a in enumerate(t) for b in t[i + 1 :] if {a, b} in pairs)

    assert clashes(tables) <= clashes(deal_tables(ordered, count))


@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 30)), min_size=1, max_size=24))
def test_each_table_sends_its_lowest_and_only_a_tie_sends_more(seats):
    field = [
        Candidate(entry_id=i, name=f"P{i}", total=0, table=table, session_total=points)
        for i, (table, points) in enumerate(seats)
    ]
    got = qualifiers(field, rule(final_qualify="tables", final_session=1))
    chosen = set(got.entry_ids)
    for table in {t for t, _ in seats}:
        here = [c for c in field if c.table == table]
        lowest = min(c.session_total for c in here)
        assert {c.entry_id for c in here if c.entry_id in chosen} == {
            c.entry_id for c in here if c.session_total == lowest
        }
    assert len(got.ties) == sum(
        1
        for table in {t for t, _ in seats}
        if [p for t, p in seats if t == table].count(min(p for t, p in seats if t == table)) > 1
    )
