"""The hands left once a player went out: that player's whole deal was played, so the others
hold at most the set less the engine less that deal. Proven on the tightest end there is: the
player out was dealt the lowest tiles and played them, everyone else kept every tile they held
or drew. That end is accepted, and one point more anywhere is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings, strategies as st

from domain.sheet_checks import SheetRules, Tile, TypedSheet, check_game, hand_limits


@dataclass(frozen=True)
class TightEnd:
    rules: SheetRules
    engine: int
    hands: dict[int, list[Tile]]  # player 1 went out: an empty hand

    def scores(self) -> dict[int, int]:
        return {
            pid: sum(self.rules.tile_value(t) for t in hand) for pid, hand in self.hands.items()
        }


@st.composite
def tight_ends(draw: st.DrawFn) -> TightEnd:
    top = draw(st.sampled_from([6, 9, 12]))
    blank = draw(st.sampled_from([0, 50]))
    aside = draw(st.booleans())
    count = (top + 1) * (top + 2) // 2
    in_play = count - 1 if aside else count
    players = draw(st.integers(2, 8))
    drew = draw(st.integers(2, max(2, in_play // players)))
    rules = SheetRules(top, blank, top, 0, hand_sizes=[[2, 8, drew]], engine_set_aside=aside)
    engine = draw(st.integers(0, top))
    if players * drew > in_play:
        players = in_play // drew
    tiles = sorted((t for t in rules.all_tiles() if t != (engine, engine)), key=rules.tile_value)
    # Player 1 was dealt the lowest tiles (and the engine, when it was not set aside).
    dealt = drew if aside else drew - 1
    rest = draw(st.permutations(tiles[dealt:]))
    hands: dict[int, list[Tile]] = {1: []}
    boneyard = in_play - players * drew
    start = 0
    for pid in range(2, players + 1):
        size = drew + (boneyard if pid == 2 else 0)  # player 2 drew the whole boneyard
        hands[pid] = list(rest[start : start + size])
        start += size
    assert start == len(rest)
    return TightEnd(rules, engine, hands)


def sheet(end: TightEnd, scores: dict[int, int], with_tiles: bool) -> TypedSheet:
    tiles = {pid: " ".join(f"{a}-{b}" for a, b in hand) for pid, hand in end.hands.items() if hand}
    return TypedSheet(3, end.engine, scores, tiles if with_tiles else {}, went_out=1)


def seated(end: TightEnd) -> dict[int, str]:
    return {pid: f"Player {pid}" for pid in end.hands}


@settings(max_examples=150, deadline=None)
@given(tight_ends(), st.booleans())
def test_the_tightest_real_end_is_accepted_and_reaches_the_limit(end, with_tiles):
    scores = end.scores()
    limits = hand_limits(end.rules, len(end.hands), end.engine)
    assert sum(scores.values()) == limits.table_pips_after_out
    result = check_game(end.rules, seated(end), sheet(end, scores, with_tiles))
    assert result.problems == []


@settings(max_examples=150, deadline=None)
@given(tight_ends(), st.data())
def test_one_point_more_for_anyone_still_holding_tiles_is_refused(end, data):
    scores = end.scores()
    pid = data.draw(st.sampled_from(sorted(p for p in scores if p != 1)))
    scores[pid] += 1
    problems = check_game(end.rules, seated(end), sheet(end, scores, False)).problems
    assert problems, scores
    assert all(
        "Please check the scores" in p.message or p.field == f"score-{pid}" for p in problems
    )
