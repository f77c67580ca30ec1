"""The standings of an event with a final: the one place that puts the final first.

The standings read (``standings.read``) ranks every player as usual, then hands the rows here
once the final is seated and in the view: finalists first, by the final's own total or by the
final added to the qualifying total (the rule ``final_counts``), then everyone else by their
qualifying rank (``domain.finals.final_order``). Every output (page, projector, PDF, workbook,
command) prints the rows in this order and says so in its status line.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace

from domain.finals import NO_FINAL, ORDER_WORDS, Line, final_order
from domain.ranking import PlayerRecord, RankedRow, mark_short_totals, rank_players
from domain.tie_breaks import resolve_tie_breaks
from tournaments.models import Seat


def qualifying_record(record: PlayerRecord, column: int) -> PlayerRecord:
    """``record`` without the final's day: what the qualifying sessions gave the player."""
    days = record.day_totals
    return replace(record, day_totals=days[:column] + days[column + 1 :])


def tie_key(record: PlayerRecord, tie_breaks: Sequence[str]) -> tuple[tuple[int, ...], ...]:
    return tuple(t.sort_key(record) for t in resolve_tie_breaks(tie_breaks))


def with_final(
    records: Sequence[PlayerRecord],
    finalists: Collection[int],
    column: int,
    rules,
    credited: Mapping[int, int],
) -> list[RankedRow]:
    """Rows of ``records`` in the final's order: ``finalists`` (entry ids seated at the final)
    first, then everyone else by their qualifying rank; ``column`` is the final's day column.

    A total is marked short only against its own part: a finalist against the other finalists,
    everyone else against the others (the final's games would mark every non-finalist short)."""
    tie_breaks = rules.tie_breaks or ()
    qualifying = rank_players((qualifying_record(r, column) for r in records), tie_breaks)
    by_id = {r.entry_id: r for r in records}
    lines = [
        Line(
            entry_id=row.record.entry_id,
            qualifying_total=row.total,
            qualifying_rank=row.rank,
            final_total=by_id[row.record.entry_id].day_totals[column],
            tie_key=tie_key(by_id[row.record.entry_id], tie_breaks),
            finalist=row.record.entry_id in finalists,
        )
        for row in qualifying
    ]
    rows = [
        RankedRow(rank=p.rank, tied=p.tied, record=by_id[p.entry_id], total=p.total)
        for p in final_order(lines, rules.final_counts)
    ]
    ahead = [row for row in rows if row.record.entry_id in finalists]
    mark_short_totals(ahead, credited)
    mark_short_totals([row for row in rows if row.record.entry_id not in finalists], credited)
    return rows


def final_seats(rules, progress: Mapping[int, tuple]) -> frozenset[int]:
    """Entry ids seated at the final, when the event has one and it is seated within the
    view (``progress``: the standings read's seated days in scope); else none. One query, only
    then."""
    if rules.final_qualify == NO_FINAL or rules.days not in progress:
        return frozenset()
    day_id = progress[rules.days][2]
    return frozenset(Seat.objects.filter(day_id=day_id).values_list("entry_id", flat=True))


def order_note(rules) -> str:
    """What every output says of the order once the final leads it."""
    return ORDER_WORDS[rules.final_counts]
