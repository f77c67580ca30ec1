"""Seating the final: who qualified and why, read from the qualifying standings, and the one
write that seats them (``seat_final``), which the ``final`` command and the Final page share.

The qualifying standings are the standings read (``standings.read``) after the last session
before the final, so the qualifiers are ranked by exactly the totals and tie-breaks every
output prints. The rule is pure (``domain.finals``); this module only adapts rows to it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from core.errors import ServiceError
from domain.finals import BY_TABLE, NO_FINAL, Candidate, Qualifying, deal_tables, qualifiers
from domain.tie_breaks import resolve_tie_breaks
from scoring.progress import finished_games, game_states
from standings.final_order import tie_key
from standings.read import Cut, standings
from tournaments.models import Day, Entry, Seat, Table
from tournaments.selectors import keep_apart_ids
from tournaments.services.seating import SeatingOutcome, seat_final_day

NO_FINAL_REASON = (
    "This event has no final in its rules: set one on the Rules page (\u201cA final "
    "(championship round)\u201d) or with rules SLUG --set final_qualify=overall ..."
)


@dataclass
class FinalDraw:
    """What seating the final would do now: the qualifiers with their reasons and ties, the
    tables they would sit at, and why it cannot be done yet ("" when it can)."""

    qualifying: Qualifying | None = None
    tables: list[list[Entry]] = field(default_factory=list)
    refusal: str = ""
    seated: bool = False  # the final already has tables

    @property
    def qualifier_lines(self) -> list[str]:
        """ "#5 Ed Poe: 2nd overall (12)", for each qualifier in the order they qualified."""
        if self.qualifying is None:
            return []
        named = {e.pk: e for table in self.tables for e in table}
        out = []
        for q in self.qualifying.qualifiers:
            entry = named.get(q.entry_id)
            number = f"#{entry.number} " if entry is not None else ""
            out.append(f"{number}{q.name}: {q.reason}")
        return out

    @property
    def lines(self) -> list[str]:
        """Who qualified and why, then each tie, as the command prints them."""
        ties = [tie.words for tie in self.qualifying.ties] if self.qualifying else []
        return self.qualifier_lines + ties


def missing_games(tournament, sessions: list[int]) -> list[str]:
    """Per qualifying session, what keeps it unfinished: "session 2 is not seated yet", or
    "session 1: table 3 games 5, 6; table 4 game 6". Four queries."""
    days = {d.number: d.pk for d in Day.objects.filter(tournament=tournament, number__in=sessions)}
    tables = list(
        Table.objects.filter(day_id__in=days.values()).values_list("pk", "day_id", "number")
    )
    states = game_states(list(days.values()), [pk for pk, _, _ in tables])
    games = tournament.rules.games_per_day
    out = []
    for number in sessions:
        here = sorted((n, pk) for pk, day_id, n in tables if day_id == days.get(number))
        if not here:
            out.append(f"session {number} is not seated yet")
            continue
        parts = []
        for table_number, pk in here:
            left = [g for g in range(1, games + 1) if g not in finished_games(states[pk])]
            if left:
                word = "game" if len(left) == 1 else "games"
                parts.append(f"table {table_number} {word} {', '.join(map(str, left))}")
        if parts:
            out.append(f"session {number}: " + "; ".join(parts))
    return out


def draw_final(tournament) -> FinalDraw:
    """Who would go to the final now, at which tables, or why not (no final in the rules,
    already seated, qualifying not finished, more qualifiers than the tables seat). Reads
    only; :func:`seat_final` writes."""
    rules = tournament.rules
    if rules.final_qualify == NO_FINAL:
        return FinalDraw(refusal=NO_FINAL_REASON)
    final = Day.objects.filter(tournament=tournament, number=rules.days).first()
    if final is not None and Table.objects.filter(day=final).exists():
        return FinalDraw(
            refusal=f"The final (day {rules.days}) is already seated: its tables are on the "
            f"Seating page, day {rules.days}.",
            seated=True,
        )
    missing = missing_games(tournament, list(range(1, rules.days)))
    if missing:
        return FinalDraw(
            refusal="Qualifying is not finished: " + "; ".join(missing) + ". Each game must be "
            "confirmed or marked not played first."
        )
    qualifying = qualifiers(_candidates(tournament), rules.rule_values(), _tie_labels(rules))
    draw = FinalDraw(qualifying=qualifying)
    seats = rules.final_tables * rules.max_table_size
    count = len(qualifying.qualifiers)
    if count > seats:
        draw.refusal = _too_many(count, seats, rules, qualifying)
    elif count < 2 * rules.final_tables:
        draw.refusal = (
            f"Only {count} qualified: the final's {rules.final_tables} tables need at least 2 "
            "players each. Lower the tables at the final on the Rules page."
        )
    draw.tables = _final_tables(tournament, qualifying, rules.final_tables)
    return draw


def _too_many(count: int, seats: int, rules, qualifying: Qualifying) -> str:
    tables = "1 table" if rules.final_tables == 1 else f"{rules.final_tables} tables"
    reason = (
        f"{count} qualified, more than the final's {tables} can seat "
        f"({seats}, {rules.max_table_size} a table)"
    )
    undecided = qualifying.undecided
    if undecided:
        reason += ", because of a tie: " + " ".join(tie.words for tie in undecided)
        return reason + " Add a tie-break on the Rules page (Tie-breaks) that settles it."
    return reason + "."


def _tie_labels(rules) -> list[str]:
    return [t.label for t in resolve_tie_breaks(rules.tie_breaks or ())]


def _candidates(tournament) -> list[Candidate]:
    """Every player as the standings after the last qualifying session rank them, with their
    table and total in the session the rule names (lowest at each table)."""
    rules = tournament.rules
    result = standings(tournament, Cut(day=rules.days - 1))
    tables: dict[int, int] = {}
    session = rules.final_session if rules.final_qualify == BY_TABLE else 0
    if session:
        tables = dict(
            Seat.objects.filter(day__tournament=tournament, day__number=session).values_list(
                "entry_id", "table__number"
            )
        )
    column = result.day_numbers.index(session) if session in result.day_numbers else None
    tie_breaks = rules.tie_breaks or ()
    return [
        Candidate(
            entry_id=row.record.entry_id,
            name=row.record.name,
            total=row.total,
            tie_key=tie_key(row.record, tie_breaks),
            table=tables.get(row.record.entry_id),
            session_total=row.record.day_totals[column] if column is not None else None,
            flight=row.record.flight,
            ranked=row.rank is not None,
        )
        for row in result.rows
    ]


def _final_tables(tournament, qualifying: Qualifying, count: int) -> list[list[Entry]]:
    """The qualifiers at the final's tables (``domain.finals.deal_tables``): dealt in the
    order they qualified, pairs who must sit apart parted."""
    ids = qualifying.entry_ids
    entries = Entry.objects.select_related("player").in_bulk(ids)
    tables = deal_tables(ids, count, keep_apart_ids(tournament))
    return [[entries[entry_id] for entry_id in table] for table in tables]


@transaction.atomic
def seat_final(tournament, *, organiser=None) -> tuple[FinalDraw, SeatingOutcome]:
    """Seat the final with the qualifiers, or refuse (ServiceError with the reason) and change
    nothing."""
    draw = draw_final(tournament)
    if draw.refusal:
        raise ServiceError(draw.refusal)
    day = Day.objects.get(tournament=tournament, number=tournament.rules.days)
    return draw, seat_final_day(day, draw.tables, organiser=organiser)
