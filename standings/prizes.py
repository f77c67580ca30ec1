"""The prize table read: the event's prizes given from the final standings (domain.prizes), what
still blocks the announcement, and whether a printed sheet is out of date.

Reads the standings (three queries), the prizes and decisions (two), every player's lowest
confirmed game (one), and, while games are missing, the day's game states (a few per day).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.db.models import Min

from core.errors import ServiceError
from domain.prizes import FINAL_TABLE, Award, Contender, assign_prizes, call_order
from scoring.models import Score, SheetState
from scoring.progress import FINISHED, game_states
from standings.read import Standings, last_changed, standings
from tournaments.models import Day, Prize, PrizeDecision, Seat, Table, Tournament
from tournaments.services.prizes import decide_tie

MISSING_SHOWN = 30


@dataclass
class PrizeTable:
    tournament: Tournament
    result: Standings
    awards: list[Award]
    missing: list[str] = field(default_factory=list)  # the games that keep it from final
    changed_at: datetime.datetime | None = None  # the last score change

    @property
    def blocked(self) -> bool:
        return not self.result.is_final

    @property
    def ties(self) -> list[Award]:
        return [a for a in self.awards if a.tied]

    @property
    def ready(self) -> bool:
        """The announcement can be printed: every game confirmed, every tie decided."""
        return bool(self.awards) and not self.blocked and not self.ties

    @property
    def called(self) -> list[Award]:
        return call_order(self.awards)

    @property
    def out_of_date(self) -> bool:
        printed = self.tournament.prizes_printed_at
        return bool(printed and self.changed_at and self.changed_at > printed)

    @property
    def problems(self) -> list[str]:
        """What keeps the announcement from being printed, in words."""
        found = []
        if not self.awards:
            found.append("No prizes are set yet.")
        if self.blocked:
            found.append("Not every game is confirmed: " + "; ".join(self.result.unsettled_parts))
            found += self.missing
        for award in self.ties:
            names = ", ".join(c.name for c in award.tied)
            found.append(f"{award.prize.title}: a tie to decide between {names}.")
        return found


def prize_table(tournament: Tournament) -> PrizeTable:
    result = standings(tournament)
    flights = tournament.rules.flights
    specs = [prize.spec_for(flights) for prize in Prize.objects.filter(tournament=tournament)]
    decisions = dict(
        PrizeDecision.objects.filter(prize__tournament=tournament).values_list(
            "prize_id", "entry_id"
        )
    )
    lowest = dict(
        Score.objects.filter(
            sheet__state=SheetState.CONFIRMED, sheet__table__day__tournament=tournament
        )
        .values("entry_id")
        .annotate(lowest=Min("points"))
        .values_list("entry_id", "lowest")
    )
    # Each player's rank in their flight, from the records already read (no query).
    flight_ranks = {
        row.record.entry_id: row.rank
        for flight in (flights if any(spec.flight for spec in specs) else ())
        for row in result.for_flight(flight).rows
    }
    final_table, final_total = _at_the_final(tournament, result, specs)
    contenders = [
        Contender(
            row.record.entry_id,
            row.record.player_number,
            row.record.name,
            row.rank,
            row.total,
            row.record.games_out,
            row.record.worst_game,
            lowest.get(row.record.entry_id),
            row.record.flight,
            flight_ranks.get(row.record.entry_id),
            final_table.get(row.record.entry_id),
            final_total.get(row.record.entry_id),
        )
        for row in result.rows
        if row.rank is not None
    ]
    awards = assign_prizes(
        specs,
        contenders,
        one_each=tournament.prizes_one_each,
        decisions=decisions,
        tie_breaks=tournament.rules.tie_breaks or (),
    )
    missing = [] if result.is_final else _missing_games(tournament)
    return PrizeTable(tournament, result, awards, missing, last_changed(tournament))


def _at_the_final(tournament: Tournament, result: Standings, specs) -> tuple[dict, dict]:
    """Each finalist's table at the final and their total in it ({} each without a prize for
    a final table). One query, only then: the totals are the standings' own."""
    rules = tournament.rules
    if not any(spec.kind == FINAL_TABLE for spec in specs) or rules.days not in result.day_numbers:
        return {}, {}
    seats = Seat.objects.filter(day__tournament=tournament, day__number=rules.days)
    tables = dict(seats.values_list("entry_id", "table__number"))
    column = result.day_numbers.index(rules.days)
    totals = {
        record.entry_id: record.day_totals[column]
        for record in (row.record for row in result.rows)
        if record.entry_id in tables and record.day_totals[column] is not None
    }
    return tables, totals


def _missing_games(tournament: Tournament) -> list[str]:
    """ "Day 2, table 3: games 5, 6 to play; game 4 to confirm", for every seated table with a
    game neither confirmed nor marked not played (the first MISSING_SHOWN of them)."""
    games = tournament.rules.games_per_day
    days = dict(Day.objects.filter(tournament=tournament).values_list("pk", "number"))
    tables = list(
        Table.objects.filter(day__tournament=tournament)
        .order_by("day__number", "number")
        .values_list("pk", "day_id", "number")
    )
    states = game_states(list(days), [pk for pk, _, _ in tables])
    lines = []
    for pk, day_id, number in tables:
        row = states.get(pk, {})
        to_play = [g for g in range(1, games + 1) if g not in row]
        to_confirm = [g for g in range(1, games + 1) if g in row and row[g] not in FINISHED]
        parts = [_games(to_play, "to play"), _games(to_confirm, "to confirm")]
        said = "; ".join(p for p in parts if p)
        if said:
            lines.append(f"Day {days[day_id]}, table {number}: {said}")
    if len(lines) > MISSING_SHOWN:
        more = len(lines) - MISSING_SHOWN
        lines = [*lines[:MISSING_SHOWN], f"... and {more} more tables."]
    return lines


def _games(numbers: list[int], what: str) -> str:
    if not numbers:
        return ""
    word = "game" if len(numbers) == 1 else "games"
    return f"{word} {', '.join(str(n) for n in numbers)} {what}"


def decide_prize_tie(tournament: Tournament, prize_id: int, number: int | None, *, by) -> str:
    """The organiser's winner among the players tied for a prize now; refused for anyone else
    (a stale page, a player the tie no longer holds). What to say when it is done."""
    award = next((a for a in prize_table(tournament).awards if a.prize.key == prize_id), None)
    tied = {c.number: c for c in award.tied} if award else {}
    if award is None or number not in tied:
        raise ServiceError("Choose one of the players tied for this prize.")
    decide_tie(tournament, prize_id, number, by=by)
    return f"{award.prize.title}: {tied[number].name}, decided by you."
