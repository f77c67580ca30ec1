"""A championship round (a final): who qualifies from the qualifying sessions, and the order
of the standings once the final is played.

Plain Python with no Django import. The final is the event's last session (its last day):
every session before it qualifies. Who goes through is one of three published practices:
the lowest total at each table of a chosen session (Sun Lakes' afternoon Championship Round),
the best N overall (the Nevada Senior Olympics' winners' final), or the best N of each flight.
The final counts on its own, or added to the qualifying total: the organiser says.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# One key per tie-break of the event, in its order; smaller is better.
TieKey = tuple[tuple[int, ...], ...]

# What the rule ``final_qualify`` may be: no final, or how its players qualify.
NO_FINAL, BY_TABLE, OVERALL, BY_FLIGHT = "none", "tables", "overall", "flight"
QUALIFY_CHOICES = {
    NO_FINAL: "No final",
    BY_TABLE: "The lowest total at each table of a chosen session",
    OVERALL: "The best players overall",
    BY_FLIGHT: "The best players of each flight",
}
# How the final counts (``final_counts``).
OWN_TOTAL, ADDED = "own", "added"
COUNTS_CHOICES = {
    OWN_TOTAL: "The final's own total",
    ADDED: "Added to the qualifying total",
}
# What every standings output says when the final leads it.
ORDER_WORDS = {
    OWN_TOTAL: "The final first, ranked on the final's own total; then everyone else by "
    "their qualifying rank.",
    ADDED: "The final first, ranked on the final added to their qualifying total; then "
    "everyone else by their qualifying rank.",
}
UNDECIDED = "tied: the organiser decides"
FINAL_FIELDS = (
    "final_qualify",
    "final_session",
    "final_qualifiers",
    "final_tables",
    "final_counts",
)


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    if 10 <= number % 100 <= 20:
        return f"{number}th"
    return f"{number}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(number % 10, 'th') }"


# ---------------------------------------------------------------------------
# The rule, checked as a whole
# ---------------------------------------------------------------------------


def has_final(rules: Mapping[str, Any]) -> bool:
    return rules.get("final_qualify", NO_FINAL) not in (NO_FINAL, "", None)


def final_day(rules: Mapping[str, Any]) -> int | None:
    """The session the final is played in (the last day), or None when there is no final."""
    return rules["days"] if has_final(rules) else None


def _number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def final_problems(rules: Mapping[str, Any]) -> dict[str, list[str]]:
    """Every reason, by field, that the final the rules describe cannot be played; empty when
    it can (or when there is no final). Reads ``days``, ``max_table_size`` and ``flights``,
    which the caller has checked already."""
    method = rules.get("final_qualify", NO_FINAL)
    if method not in QUALIFY_CHOICES:
        return {"final_qualify": ['Choose "none", "tables", "overall" or "flight".']}
    found: dict[str, list[str]] = {}
    if rules.get("final_counts", OWN_TOTAL) not in COUNTS_CHOICES:
        found["final_counts"] = ['Choose "own" (the final\'s own total) or "added".']
    if method == NO_FINAL:
        return found
    days, tables = rules["days"], rules.get("final_tables", 1)
    if days < 2:
        found["final_qualify"] = [
            "A final needs at least one qualifying session before it, and the final is the "
            "last day: set Days to 2 or more."
        ]
        return found
    if not _number(tables) or not 1 <= tables <= 50:
        found["final_tables"] = ["The final is played at 1 to 50 tables."]
        return found
    seats = tables * rules["max_table_size"]
    if method == BY_TABLE:
        session = rules.get("final_session", 0)
        if not _number(session) or not 1 <= session <= days - 1:
            found["final_session"] = [
                f"Choose the session whose tables send their lowest total: one of the "
                f"qualifying sessions, 1 to {days - 1} (day {days} is the final)."
            ]
        return found
    found.update(_count_problems(rules, method, tables, seats))
    return found


def _count_problems(
    rules: Mapping[str, Any], method: str, tables: int, seats: int
) -> dict[str, list[str]]:
    """How many go through, for the best overall or of each flight: at least 1 each, no more
    than the final seats and enough to put 2 at each of its tables."""
    qualifiers = rules.get("final_qualifiers", 0)
    groups = len(rules.get("flights") or []) if method == BY_FLIGHT else 1
    if method == BY_FLIGHT and not groups:
        return {
            "final_qualify": [
                "The best of each flight needs flights: list them under Flights first."
            ]
        }
    if not _number(qualifiers) or qualifiers < 1:
        return {"final_qualifiers": ["Say how many players go through to the final: 1 or more."]}
    if qualifiers * groups > seats:
        each = " from each of the " + f"{groups} flights" if method == BY_FLIGHT else ""
        return {
            "final_qualifiers": [
                f"{qualifiers * groups} qualifiers{each} are more than the final's "
                f"{_tables(tables)} can seat ({seats} at most, {rules['max_table_size']} a table)."
            ]
        }
    if qualifiers * groups < 2 * tables:
        return {
            "final_tables": [
                f"{qualifiers * groups} qualifiers cannot fill {_tables(tables)}: each table "
                "needs at least 2 players."
            ]
        }
    return {}


def _tables(count: int) -> str:
    return "1 table" if count == 1 else f"{count} tables"


def final_words(rules: Mapping[str, Any]) -> str:
    """The final as the rules page and the ``rules`` command say it in one line."""
    method = rules.get("final_qualify", NO_FINAL)
    if method == NO_FINAL:
        return "No final"
    who = {
        BY_TABLE: f"the lowest total at each table of session {rules.get('final_session')}",
        OVERALL: f"the best {rules.get('final_qualifiers')} overall",
        BY_FLIGHT: f"the best {rules.get('final_qualifiers')} of each flight",
    }[method]
    counts = COUNTS_CHOICES.get(rules.get("final_counts", OWN_TOTAL), "")
    return (
        f"Day {rules['days']} is the final at {_tables(rules.get('final_tables', 1))}: {who} "
        f"goes through; it counts: {counts.lower()}."
    )


# ---------------------------------------------------------------------------
# Who qualifies
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A player as the qualifying standings leave them.

    ``total`` is the qualifying total; ``tie_key`` the event's tie-breaks over the qualifying
    sessions, smaller is better (empty with no tie-breaks). ``table`` and ``session_total``
    are the player's table and total in the chosen session (None: not seated in it).
    """

    entry_id: int
    name: str
    total: int
    tie_key: TieKey = ()
    table: int | None = None
    session_total: int | None = None
    flight: str = ""
    ranked: bool = True  # False: withdrawn or a substitute the rules leave unranked


@dataclass(frozen=True)
class Qualifier:
    entry_id: int
    name: str
    reason: str  # "lowest at table 4 in session 2 (38)", "8th overall (112)"


@dataclass(frozen=True)
class Tie:
    """A tie for the last place of a group: the players level on total at the edge, and what
    settled it (a tie-break's name, or :data:`UNDECIDED`)."""

    place: str  # "the last place at table 3", "8th overall"
    total: int
    names: tuple[str, ...]
    decided_by: str
    through: tuple[str, ...]  # those of ``names`` who went through

    @property
    def words(self) -> str:
        level = ", ".join(self.names)
        through = ", ".join(self.through) or "nobody"
        if self.decided_by == UNDECIDED:
            return f"{self.place}: {level} tied on {self.total}; {UNDECIDED} (all go through)."
        return (
            f"{self.place}: {level} tied on {self.total}; {self.decided_by} decided it: "
            f"{through} through."
        )


@dataclass(frozen=True)
class Qualifying:
    qualifiers: tuple[Qualifier, ...]
    ties: tuple[Tie, ...] = ()

    @property
    def undecided(self) -> tuple[Tie, ...]:
        return tuple(tie for tie in self.ties if tie.decided_by == UNDECIDED)

    @property
    def entry_ids(self) -> list[int]:
        return [q.entry_id for q in self.qualifiers]


@dataclass
class _Group:
    """Players competing for ``places`` places, with how a reason names a place in it."""

    players: list[Candidate]
    places: int
    reason: Any  # (place number, candidate) -> str
    place: Any  # (place number) -> str, for a tie at the edge
    key: Any = field(default=None)  # what ranks the group: candidate -> tuple


def _tie_break_name(first: TieKey, second: TieKey, labels: Sequence[str]) -> str:
    """The label of the first tie-break that tells ``first`` from ``second``."""
    for label, a, b in zip(labels, first, second, strict=False):
        if a != b:
            return label
    return UNDECIDED


def _settle(group: _Group, tie_breaks: Sequence[str]) -> tuple[list[Candidate], Tie | None]:
    """The players of ``group`` who go through, and the tie at its last place (if one)."""
    key = group.key or (lambda c: (c.total,))
    ranked = sorted(
        (c for c in group.players if c.ranked),
        key=lambda c: (key(c), c.tie_key, c.entry_id),
    )
    if len(ranked) <= group.places:
        return ranked, None
    last, first_out = ranked[group.places - 1], ranked[group.places]
    if key(last) != key(first_out):
        return ranked[: group.places], None
    level = [c for c in ranked if key(c) == key(last)]
    shown_total = key(last)[0]
    if last.tie_key != first_out.tie_key:
        through = ranked[: group.places]
        decided = _tie_break_name(last.tie_key, first_out.tie_key, tie_breaks)
    else:
        # The tie-breaks cannot split them: everyone level with the last place goes through,
        # and the organiser is told (seating refuses if the final then cannot seat them).
        through = [c for c in ranked if (key(c), c.tie_key) <= (key(last), last.tie_key)]
        decided = UNDECIDED
    kept = {c.entry_id for c in through}
    tie = Tie(
        place=group.place(group.places),
        total=shown_total,
        names=tuple(c.name for c in level),
        decided_by=decided,
        through=tuple(c.name for c in level if c.entry_id in kept),
    )
    return through, tie


def _groups(candidates: Sequence[Candidate], rules: Mapping[str, Any]) -> list[_Group]:
    method, count = rules["final_qualify"], rules.get("final_qualifiers", 0)
    if method == BY_TABLE:
        session = rules["final_session"]
        tables: dict[int, list[Candidate]] = {}
        for c in candidates:
            if c.table is not None and c.session_total is not None:
                tables.setdefault(c.table, []).append(c)
        return [
            _Group(
                players,
                1,
                reason=lambda _p, c, t=table: (
                    f"lowest at table {t} in session {session} ({c.session_total})"
                ),
                place=lambda _p, t=table: f"The lowest at table {t} in session {session}",
                key=lambda c: (c.session_total,),
            )
            for table, players in sorted(tables.items())
        ]
    if method == OVERALL:
        return [
            _Group(
                list(candidates),
                count,
                reason=lambda p, c: f"{ordinal(p)} overall ({c.total})",
                place=lambda p: f"{ordinal(p)} place overall",
            )
        ]
    return [
        _Group(
            [c for c in candidates if c.flight == flight],
            count,
            reason=lambda p, c, f=flight: f"{ordinal(p)} in flight {f} ({c.total})",
            place=lambda p, f=flight: f"{ordinal(p)} place in flight {f}",
        )
        for flight in rules.get("flights") or []
    ]


def qualifiers(
    candidates: Iterable[Candidate], rules: Mapping[str, Any], tie_breaks: Sequence[str] = ()
) -> Qualifying:
    """Who goes through to the final under ``rules`` (the rule values: ``final_qualify``,
    ``final_session``, ``final_qualifiers``, ``flights``), each with why, and every tie at a
    last place with what settled it. ``tie_breaks`` labels the keys of each candidate's
    ``tie_key``, in order ("Most games gone out").

    Place numbers in a reason count the players ahead in that group, so a player level with
    another on total and tie-breaks shares their place. Withdrawn players never go through."""
    candidates = list(candidates)
    chosen: list[Qualifier] = []
    ties: list[Tie] = []
    for group in _groups(candidates, rules):
        through, tie = _settle(group, tie_breaks)
        key = group.key or (lambda c: (c.total,))
        for c in through:
            ahead = sum(1 for o in through if (key(o), o.tie_key) < (key(c), c.tie_key))
            chosen.append(Qualifier(c.entry_id, c.name, group.reason(ahead + 1, c)))
        if tie is not None:
            ties.append(tie)
    return Qualifying(tuple(chosen), tuple(ties))


# ---------------------------------------------------------------------------
# The standings once the final is played
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """A player's standing for the final order: the qualifying total and rank, and for a
    finalist the final's total (None before they have a confirmed game in it)."""

    entry_id: int
    qualifying_total: int
    qualifying_rank: int | None  # None: not ranked (withdrawn)
    final_total: int | None = None
    tie_key: TieKey = ()  # the event's tie-breaks over the sessions ranked
    finalist: bool = False


@dataclass(frozen=True)
class Placed:
    entry_id: int
    rank: int | None
    tied: bool
    total: int  # what the standings print: the final's total (own or added) or the qualifying
    finalist: bool


def final_order(lines: Iterable[Line], counts: str) -> list[Placed]:
    """Finalists first, ranked on the final's own total (``counts`` "own") or the final added
    to the qualifying total ("added"), then the tie-breaks; then everyone else in their
    qualifying order, their ranks continuing after the finalists'. Players level on the
    total and every tie-break share a rank. Unranked players come last, in qualifying order."""
    lines = list(lines)
    finalists = [line for line in lines if line.finalist and line.qualifying_rank is not None]

    def final_total(line: Line) -> int:
        own = line.final_total or 0
        return own + line.qualifying_total if counts == ADDED else own

    placed = _ranked(finalists, final_total, start=1, finalist=True)
    others = [line for line in lines if not line.finalist and line.qualifying_rank is not None]
    others.sort(key=lambda line: (line.qualifying_rank, line.entry_id))
    placed += _by_qualifying_rank(others, start=len(finalists) + 1)
    unranked = [line for line in lines if line.qualifying_rank is None]
    unranked.sort(key=lambda line: (line.qualifying_total, line.entry_id))
    placed += [
        Placed(line.entry_id, None, False, line.qualifying_total, line.finalist)
        for line in unranked
    ]
    return placed


def _ranked(
    lines: list[Line], total: Callable[[Line], int], *, start: int, finalist: bool
) -> list[Placed]:
    keyed = sorted(lines, key=lambda line: ((total(line), line.tie_key), line.entry_id))
    return _shared_ranks(keyed, lambda line: (total(line), line.tie_key), total, start, finalist)


def _by_qualifying_rank(lines: list[Line], *, start: int) -> list[Placed]:
    """Everyone else keeps their qualifying order and shared ranks, renumbered after the
    finalists: qualifying ranks 3, 5, 5, 7 become 9, 10, 10, 12 after 8 finalists."""
    return _shared_ranks(
        lines, lambda line: line.qualifying_rank, lambda line: line.qualifying_total, start, False
    )


def _shared_ranks(
    ordered: list[Line],
    key: Callable[[Line], object],
    total: Callable[[Line], int],
    start: int,
    finalist: bool,
) -> list[Placed]:
    """Ranks over ``ordered`` (best first): 1 + the lines ahead, shared while ``key`` is level."""
    out: list[Placed] = []
    i = 0
    while i < len(ordered):
        j = i + 1
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        for line in ordered[i:j]:
            out.append(Placed(line.entry_id, start + i, j - i > 1, total(line), finalist))
        i = j
    return out


# ---------------------------------------------------------------------------
# The final's tables
# ---------------------------------------------------------------------------


def deal_tables(
    ordered: Sequence[int], count: int, apart: Iterable[tuple[int, int]] = ()
) -> list[list[int]]:
    """The qualifiers (``ordered``: in the order they qualified) dealt to ``count`` tables
    back and forth (1, 2, 3, 3, 2, 1, ...), so each table gets a share of the strongest; then
    each pair that must sit apart (``apart``) and shares a table is parted by swapping one of
    them with a player at another table where neither swap makes a new such pair. Tables differ
    by at most one player. A pair that no swap can part stays (the seating page names it)."""
    tables: list[list[int]] = [[] for _ in range(count)]
    for index, entry_id in enumerate(ordered):
        lap, place = divmod(index, count)
        tables[place if lap % 2 == 0 else count - 1 - place].append(entry_id)
    pairs = {frozenset(pair) for pair in apart if pair[0] != pair[1]}

    def clashes(table: list[int]) -> int:
        return sum(1 for i, a in enumerate(table) for b in table[i + 1 :] if {a, b} in pairs)

    for here in tables:
        for player in list(here):
            if not clashes(here) or not any({player, o} in pairs for o in here if o != player):
                continue
            _swap_away(tables, here, player, clashes)
    return [table for table in tables if table]


def _swap_away(
    tables: list[list[int]], here: list[int], player: int, clashes: Callable[[list[int]], int]
) -> None:
    """Swap ``player`` with someone at another table when that lowers the clashes of both."""
    for there in tables:
        if there is here:
            continue
        for other in list(there):
            before = clashes(here) + clashes(there)
            i, j = here.index(player), there.index(other)
            here[i], there[j] = other, player
            if clashes(here) + clashes(there) < before:
                return
            here[i], there[j] = player, other
