"""Who wins what: places by the standings, the specials by their measure, one prize each when
the organiser says so, and ties left for the organiser to decide."""

from hypothesis import given, strategies as st

from domain.prizes import (
    HIGHEST_TOTAL,
    LOWEST_GAME,
    MOST_OUTS,
    PLACE,
    Contender,
    PrizeSpec,
    assign_prizes,
    call_order,
    ordinal,
    prize_problem,
)


def player(n, rank, total, outs=0, worst=10, lowest=5):
    return Contender(n, n, f"P{n}", rank, total, outs, worst, lowest)


PLACES = [PrizeSpec(i, PLACE, i) for i in (1, 2, 3)]
SPECIALS = [
    PrizeSpec(10, LOWEST_GAME),
    PrizeSpec(11, MOST_OUTS),
    PrizeSpec(12, HIGHEST_TOTAL),
]


def winners(awards):
    return {a.prize.title: a.winner.name if a.winner else None for a in awards}


def test_places_then_specials_one_prize_each():
    field = [
        player(1, 1, 50, outs=4, lowest=0),
        player(2, 2, 60, outs=1, lowest=3),
        player(3, 3, 70, outs=3, lowest=2),
        player(4, 4, 80, outs=2, lowest=1),
        player(5, 5, 90, outs=0, lowest=4),
    ]
    awards = assign_prizes(PLACES + SPECIALS, field, one_each=True, decisions={})
    assert winners(awards) == {
        "1st place": "P1",
        "2nd place": "P2",
        "3rd place": "P3",
        "Lowest single game": "P4",  # P1 has a 0, but has a prize already
        "Most games gone out": None,  # the rest: P5 never went out
        "Highest total (booby prize)": "P5",
    }
    assert next(a for a in awards if a.prize.kind == MOST_OUTS).nobody
    many = assign_prizes(PLACES + SPECIALS, field, one_each=False, decisions={})
    assert winners(many)["Lowest single game"] == "P1"
    assert winners(many)["Most games gone out"] == "P1"


def test_a_tie_for_a_place_waits_for_the_organiser_then_the_next_place_follows():
    field = [player(1, 1, 50), player(2, 2, 60, outs=2), player(3, 2, 60, outs=1), player(4, 4, 70)]
    awards = assign_prizes(PLACES, field, one_each=True, decisions={})
    second, third = awards[1], awards[2]
    assert second.winner is None and [c.name for c in second.tied] == ["P2", "P3"]
    assert second.splitters == ["Most games gone out"]
    assert third.winner is None and [c.name for c in third.tied] == ["P2", "P3"]
    decided = assign_prizes(PLACES, field, one_each=True, decisions={2: 3})
    assert winners(decided) == {"1st place": "P1", "2nd place": "P3", "3rd place": "P2"}
    assert decided[1].decided and not decided[2].decided
    # A decision for someone not in the tie is no decision.
    assert assign_prizes(PLACES, field, one_each=True, decisions={2: 4})[1].winner is None


def test_more_places_than_players():
    awards = assign_prizes(
        PLACES, [player(1, 1, 50), player(2, 2, 60)], one_each=True, decisions={}
    )
    assert awards[2].winner is None and "Fewer ranked players" in awards[2].nobody


def test_the_announcement_calls_the_booby_prize_first_and_1st_place_last():
    awards = assign_prizes(PLACES + SPECIALS, [player(1, 1, 1)], one_each=False, decisions={})
    assert [a.prize.title for a in call_order(awards)] == [
        "Highest total (booby prize)",
        "Most games gone out",
        "Lowest single game",
        "3rd place",
        "2nd place",
        "1st place",
    ]


def test_prizes_that_cannot_be_added():
    assert prize_problem("cup", None, set())[0] == "kind"
    assert prize_problem(PLACE, None, set())[0] == "place"
    assert prize_problem(PLACE, 0, set())[0] == "place"
    assert prize_problem(PLACE, 2, {2}) == ("place", "There is a prize for 2nd place already.")
    assert prize_problem(MOST_OUTS, None, set()) is None
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
        "101st",
        "111th",
    ]


@st.composite
def standings(draw):
    totals = sorted(draw(st.lists(st.integers(0, 40), min_size=1, max_size=12)))
    field = []
    for i, total in enumerate(totals):
        rank = totals.index(total) + 1
        field.append(
            player(i + 1, rank, total, outs=draw(st.integers(0, 3)), lowest=draw(st.integers(0, 9)))
        )
    return field


@given(standings(), st.integers(1, 6), st.booleans())
def test_every_award_is_fair(field, places, one_each):
    prizes = [PrizeSpec(i, PLACE, i) for i in range(1, places + 1)] + SPECIALS
    awards = assign_prizes(prizes, field, one_each=one_each, decisions={})
    given_to = [a.winner.entry_id for a in awards if a.winner]
    place_winners = [a.winner.entry_id for a in awards if a.winner and a.prize.kind == PLACE]
    assert len(set(place_winners)) == len(place_winners)
    if one_each:
        assert len(set(given_to)) == len(given_to)
    by_rank = sorted(field, key=lambda c: c.rank)
    for award in awards:
        assert award.winner is None or not award.tied
        if award.prize.kind == PLACE and award.winner:
            # A place goes to the one player at that position of the standings.
            assert award.winner.rank == by_rank[award.prize.place - 1].rank
        if award.tied:
            assert len(award.tied) > 1
