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
FINAL_TABLE = "final_table"  # the lowest total in the final at one of its tables
KINDS = (
    (PLACE, "A place"),
    (FINAL_TABLE, "Lowest at a table of the final"),
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
    place: int | None = None  # for a place prize; for a final table's, the table's number
    name: str = ""  # the organiser's own name for it, if any
    flight: str = ""  # a flight's prize, among its players only; "" for every player's
    flight_order: int = 0  # the flight's place in the rules' list, from 1 (0: every player)

    @property
    def title(self) -> str:
        if self.name:
            return self.name
        if self.kind == FINAL_TABLE:
            return f"Lowest at table {self.place} of the final"
        what = f"{ordinal(self.place or 0)} place" if self.kind == PLACE else KIND_LABELS[self.kind]
        return f"{what} \u00b7 Flight {self.flight}" if self.flight else what

    @property
    def order(self) -> tuple[int, int, int]:
        """Order of importance: the places overall, then each flight's places (flights in the
        rules' order), then the specials in KINDS order, overall before the flights'."""
        if self.kind == PLACE:
            return (0, self.flight_order, self.place or 0)
        return (1, KIND_KEYS.index(self.kind), self.flight_order or self.place or 0)


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
    flight: str = ""
    flight_rank: int | None = None  # their rank among their flight's players
    final_table: int | None = None  # the table they play the final at, if they do
    final_total: int | None = None  # their total in the final (confirmed games)


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
        if kind == FINAL_TABLE:
            return f"a final total of {self.winner.final_total}"
        return f"total {self.winner.total}"


def prize_problem(
    kind: str,
    place: int | None,
    taken_places: set[int],
    *,
    flight: str = "",
    players: int | None = None,
    final_tables: int = 0,
    taken_tables: set[int] = frozenset(),  # type: ignore[assignment]
) -> tuple[str, str] | None:
    """(field, reason) when a prize cannot be added, else None. ``taken_places``: the places
    with a prize already among the same players (overall, or ``flight``'s); ``players``: how
    many play for it, when known (a place beyond them could never be given)."""
    if kind not in KIND_KEYS:
        return "kind", "Choose a place or one of the special prizes."
    if kind == FINAL_TABLE:
        return _final_table_problem(place, final_tables, taken_tables, flight)
    if kind == PLACE:
        among = f" in flight {flight}" if flight else ""
        if place is None or not 1 <= place <= MOST_PLACES:
            return "place", f"Give a place from 1 to {MOST_PLACES}."
        if place in taken_places:
            return "place", f"There is a prize for {ordinal(place)} place{among} already."
        if players is not None and place > players:
            who = f"flight {flight} has" if flight else "the event has"
            return "place", (
                f"{who[0].upper()}{who[1:]} {players} player{'s' if players != 1 else ''}: "
                f"there is no {ordinal(place)} place{among} to give."
            )
    if players == 0 and flight:
        return "flight", f"Flight {flight} has no players to give a prize to."
    return None


def _final_table_problem(
    table: int | None, final_tables: int, taken: set[int], flight: str
) -> tuple[str, str] | None:
    """A prize for the lowest at a table of the final needs a final, and one of its tables."""
    if not final_tables:
        return "kind", "This event has no final: set one on the Rules page first."
    if flight:
        return "flight", "A final table's prize is among the players at that table, not a flight."
    if table is None or not 1 <= table <= final_tables:
        tables = "table 1" if final_tables == 1 else f"tables 1 to {final_tables}"
        return "place", f"Give the final's table: it has {tables}."
    if table in taken:
        return "place", f"There is a prize for table {table} of the final already."
    return None


def _measure(prize: PrizeSpec, c: Contender) -> tuple[int, ...] | None:
    """Smaller is better; None: this player cannot win it."""
    if prize.kind == FINAL_TABLE:
        if c.final_table != prize.place or c.final_total is None:
            return None
        return (c.final_total,)
    if prize.kind == LOWEST_GAME:
        return None if c.lowest_game is None else (c.lowest_game,)
    if prize.kind == MOST_OUTS:
        return None if c.games_out == 0 else (-c.games_out,)
    rank = c.flight_rank if prize.flight else c.rank
    return None if rank is None else (-rank,)  # the booby prize: the last rank


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
    placed: dict[str, set[int]] = {}  # winners of a place, overall ("") and in each flight
    for prize in sorted(prizes, key=lambda p: p.order):
        award = Award(prize)
        awards.append(award)
        # A position goes to one person; a special skips earlier winners with one prize each.
        if prize.kind == PLACE and prize.flight:
            # Its players who won a place overall are not in the running with one prize each.
            away = placed.get("", set()) if one_each else set()
            level = _flight_place(prize, contenders, away, placed.get(prize.flight, set()))
        else:
            passed = placed.get("", set()) if prize.kind == PLACE else set()
            if prize.kind != PLACE and one_each:
                passed = won
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
            placed.setdefault(prize.flight, set()).add(award.winner.entry_id)
    return awards


def _level(
    prize: PrizeSpec, contenders: Sequence[Contender], passed_over: set[int]
) -> list[Contender] | str:
    """Those level for the prize (one when nobody ties), or why nobody can win it. A place is
    a position in the standings: players sharing the rank there share a claim to it. A flight's
    special of a flight is among its players."""
    if prize.flight:
        contenders = [c for c in contenders if c.flight == prize.flight]
    if prize.kind == PLACE:
        place = prize.place or 1
        if place > len(contenders):
            return "Fewer ranked players than places."
        rank = contenders[place - 1].rank
        return [c for c in contenders if c.rank == rank and c.entry_id not in passed_over]
    measured = [
        (m, c)
        for c in contenders
        if c.entry_id not in passed_over and (m := _measure(prize, c)) is not None
    ]
    if not measured:
        return _nobody(prize.kind)
    best_measure = min(m for m, _ in measured)
    return [c for m, c in measured if m == best_measure]


def _flight_place(
    prize: PrizeSpec, contenders: Sequence[Contender], away: set[int], placed_here: set[int]
) -> list[Contender] | str:
    """Those level for a flight's place: a position among the flight's players still in the
    running (``away``: those out of it), by their rank in the flight; a player who took a place
    of this flight already is passed over."""
    running = [c for c in contenders if c.flight == prize.flight and c.entry_id not in away]
    running.sort(key=lambda c: c.flight_rank or 0)
    place = prize.place or 1
    if place > len(running):
        return f"Fewer ranked players in flight {prize.flight} than places."
    rank = running[place - 1].flight_rank
    return [c for c in running if c.flight_rank == rank and c.entry_id not in placed_here]


def _nobody(kind: str) -> str:
    if kind == FINAL_TABLE:
        return "Nobody left to win it has a confirmed game at that table of the final."
    if kind == MOST_OUTS:
        return "Nobody left to win it went out in a game."
    if kind == LOWEST_GAME:
        return "Nobody left to win it has a confirmed game."
    return "Nobody left to win it."


def call_order(awards: Sequence[Award]) -> list[Award]:
    """The announcement's order: the specials (booby prize first), then each flight's places
    from its last to its 1st, then the places overall from the last to 1st."""
    specials = [a for a in awards if a.prize.kind != PLACE]
    flights = [a for a in awards if a.prize.kind == PLACE and a.prize.flight]
    places = [a for a in awards if a.prize.kind == PLACE and not a.prize.flight]
    # The final's tables from the last to table 1, as the places are called.
    specials.sort(
        key=lambda a: (
            -KIND_KEYS.index(a.prize.kind),
            a.prize.flight_order,
            -(a.prize.place or 0) if a.prize.kind == FINAL_TABLE else 0,
        )
    )
    flights.sort(key=lambda a: (a.prize.flight_order, -(a.prize.place or 0)))
    places.sort(key=lambda a: -(a.prize.place or 0))
    return specials + flights + places
