"""The prize table: who wins what, from the final standings alone.

Prizes are given in order of importance: the places first (1st, 2nd, ...), then the lowest
single game, the most games gone out and the booby prize (the highest total). Each goes to one
person; with "one prize each" a winner is passed over for the prizes after theirs. Players
level on what a prize measures (for a place: on the total and every tie-break the event uses)
are a tie the organiser decides; until they do, that prize waits, with the tie-breaks the event
does not use that would split them. The announcement calls the prizes the other way round:
the booby prize and the specials first, then the places from the last to 1st.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from domain.tie_breaks import TIE_BREAKS

PLACE, LOWEST_GAME, MOST_OUTS, HIGHEST_TOTAL = "place", "lowest_game", "most_outs", "highest_total"
KINDS = (
    (PLACE, "A place"),
    (LOWEST_GAME, "Lowest single game"),
    (MOST_OUTS, "Most games gone out"),
    (HIGHEST_TOTAL, "Highest total (booby prize)"),
)
KIND_KEYS = tuple(key for key, _ in KINDS)
KIND_LABELS = dict(KINDS)
MOST_PLACES = 50


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class PrizeSpec:
    key: int  # the stored prize's id
    kind: str
    place: int | None = None  # for a place prize
    name: str = ""  # the organiser's own name for it, if any

    @property
    def title(self) -> str:
        if self.name:
            return self.name
        if self.kind == PLACE:
            return f"{ordinal(self.place or 0)} place"
        return KIND_LABELS[self.kind]

    @property
    def order(self) -> tuple[int, int]:
        """Order of importance: places by place, then the specials in KINDS order."""
        return (0, self.place or 0) if self.kind == PLACE else (1, KIND_KEYS.index(self.kind))


@dataclass(frozen=True)
class Contender:
    """A ranked player as the prizes see them."""

    entry_id: int
    number: int
    name: str
    rank: int
    total: int
    games_out: int
    worst_game: int | None
    lowest_game: int | None  # their best single game; None without a game


@dataclass
class Award:
    prize: PrizeSpec
    winner: Contender | None = None
    tied: list[Contender] = field(default_factory=list)  # waiting for the organiser
    decided: bool = False  # the organiser chose the winner among the tied
    splitters: list[str] = field(default_factory=list)  # unused tie-breaks that would split
    nobody: str = ""  # why nobody wins it

    @property
    def what(self) -> str:
        """What the winner won it with, in words."""
        if self.winner is None:
            return ""
        kind = self.prize.kind
        if kind == LOWEST_GAME:
            return f"a game of {self.winner.lowest_game}"
        if kind == MOST_OUTS:
            outs = self.winner.games_out
            return f"went out {outs} time{'s' if outs != 1 else ''}"
        return f"total {self.winner.total}"


def prize_problem(kind: str, place: int | None, taken_places: set[int]) -> tuple[str, str] | None:
    """(field, reason) when a prize cannot be added, else None."""
    if kind not in KIND_KEYS:
        return "kind", "Choose a place or one of the special prizes."
    if kind == PLACE:
        if place is None or not 1 <= place <= MOST_PLACES:
            return "place", f"Give a place from 1 to {MOST_PLACES}."
        if place in taken_places:
            return "place", f"There is a prize for {ordinal(place)} place already."
    return None


def _measure(kind: str, c: Contender) -> tuple[int, ...] | None:
    """Smaller is better; None: this player cannot win it."""
    if kind == LOWEST_GAME:
        return None if c.lowest_game is None else (c.lowest_game,)
    if kind == MOST_OUTS:
        return None if c.games_out == 0 else (-c.games_out,)
    return (-c.rank,)  # the booby prize: the last rank


def _splitters(tied: Sequence[Contender], used: Sequence[str]) -> list[str]:
    return [
        t.label for t in TIE_BREAKS if t.key not in used and len({t.sort_key(c) for c in tied}) > 1
    ]


def assign_prizes(
    prizes: Sequence[PrizeSpec],
    contenders: Sequence[Contender],
    *,
    one_each: bool,
    decisions: Mapping[int, int],
    tie_breaks: Sequence[str] = (),
) -> list[Award]:
    """An award per prize, in order of importance. ``contenders``: the ranked players in
    standings order. ``decisions``: prize key -> the entry the organiser chose among those
    tied for it."""
    awards = []
    won: set[int] = set()  # every winner so far
    placed: set[int] = set()  # winners of a place
    for prize in sorted(prizes, key=lambda p: p.order):
        award = Award(prize)
        awards.append(award)
        # A position goes to one person; a special skips earlier winners with one prize each.
        passed = placed if prize.kind == PLACE else (won if one_each else set())
        level = _level(prize, contenders, passed)
        if isinstance(level, str):
            award.nobody = level
            continue
        chosen = decisions.get(prize.key)
        if len(level) == 1:
            award.winner = level[0]
        elif chosen in {c.entry_id for c in level}:
            award.winner = next(c for c in level if c.entry_id == chosen)
            award.decided = True
        else:
            award.tied = level
            award.splitters = _splitters(level, tie_breaks) if prize.kind == PLACE else []
            continue
        won.add(award.winner.entry_id)
        if prize.kind == PLACE:
            placed.add(award.winner.entry_id)
    return awards


def _level(
    prize: PrizeSpec, contenders: Sequence[Contender], passed_over: set[int]
) -> list[Contender] | str:
    """Those level for the prize (one when nobody ties), or why nobody can win it. A place is
    a position in the standings: players sharing the rank there share a claim to it."""
    if prize.kind == PLACE:
        place = prize.place or 1
        if place > len(contenders):
            return "Fewer ranked players than places."
        rank = contenders[place - 1].rank
        return [c for c in contenders if c.rank == rank and c.entry_id not in passed_over]
    measured = [
        (m, c)
        for c in contenders
        if c.entry_id not in passed_over and (m := _measure(prize.kind, c)) is not None
    ]
    if not measured:
        return _nobody(prize.kind)
    best = min(m for m, _ in measured)
    return [c for m, c in measured if m == best]


def _nobody(kind: str) -> str:
    if kind == MOST_OUTS:
        return "Nobody left to win it went out in a game."
    if kind == LOWEST_GAME:
        return "Nobody left to win it has a confirmed game."
    return "Nobody left to win it."


def call_order(awards: Sequence[Award]) -> list[Award]:
    """The announcement's order: the specials (booby prize first), then the places from the
    last to 1st."""
    specials = [a for a in awards if a.prize.kind != PLACE]
    places = [a for a in awards if a.prize.kind == PLACE]
    specials.sort(key=lambda a: -KIND_KEYS.index(a.prize.kind))
    places.sort(key=lambda a: -(a.prize.place or 0))
    return specials + places
