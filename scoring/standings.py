"""The one standings read: every output (page, projector, PDF, Excel, command line) comes from here.

``standings(tournament, cut)`` runs three queries whatever the size of the event (four when
the caller did not select the rule set): tables and confirmed sheets per day in scope, one
GROUP BY entry over the confirmed scores in scope, and the entries with their players. The ranking itself is the pure ``scoring.ranking`` module; this file only adapts
rows to it.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Mapping

from django.db import connections, transaction
from django.db.models import Count, F, Max, Q, Sum

from tournaments.models import Entry, Seat, Table, Tournament

from .models import LIVE_STATES, Score, SheetState
from .ranking import ClubRow, PlayerRecord, RankedRow, rank_clubs, rank_players

# Shared ranks print as "=2" everywhere a rank is text (page, projector, PDF, command line), so
# one legend explains them all.
TIE_MARK = "="
TIE_LEGEND = "=2 means a shared rank: the players tied and share 2nd place."
WITHDRAWN_MARK = "W"


class CutError(ValueError):
    """An "after day / after game" choice the event does not have; the message says why."""


@dataclass(frozen=True)
class Cut:
    """Which confirmed games count: all days up to ``day``, and on that day games up to ``game``.

    ``day=None`` means every day; ``game=None`` means every game of the last day in scope.
    """

    day: int | None = None
    game: int | None = None

    @property
    def is_everything(self) -> bool:
        return self.day is None and self.game is None

    def last_day(self, days: int) -> int:
        return self.day if self.day is not None else days

    def label(self, days: int) -> str:
        if self.game is not None:
            return f"after game {self.game} of day {self.last_day(days)}"
        if self.day is not None:
            return f"after day {self.day}"
        return ""

    def games_q(self, days: int, prefix: str) -> Q:
        """The games in scope, as a filter on a relation ending in a Game (``prefix``)."""
        if self.is_everything:
            return Q()
        last = self.last_day(days)
        if self.game is None:
            return Q(**{f"{prefix}day__number__lte": last})
        return Q(**{f"{prefix}day__number__lt": last}) | Q(
            **{f"{prefix}day__number": last, f"{prefix}number__lte": self.game}
        )

    def as_params(self) -> dict[str, int]:
        params = {}
        if self.day is not None:
            params["after_day"] = self.day
        if self.game is not None:
            params["after_game"] = self.game
        return params


def parse_cut(rules, params: Mapping[str, object]) -> Cut:
    """Read ``after_day`` and ``after_game`` (query string or command line) against the rules.

    ``after_game`` alone means that game of the last day. Blank values mean "no cut".
    """

    def number(name: str, highest: int, what: str) -> int | None:
        raw = params.get(name)
        if raw is None or str(raw).strip() == "":
            return None
        try:
            value = int(str(raw).strip())
        except ValueError:
            raise CutError(f'"{raw}" is not a {what} number.') from None
        if not 1 <= value <= highest:
            raise CutError(f"There is no {what} {value}: this event has {what}s 1 to {highest}.")
        return value

    day = number("after_day", rules.days, "day")
    game = number("after_game", rules.games_per_day, "game")
    return Cut(day=day, game=game)


@dataclass(frozen=True)
class Standings:
    tournament: Tournament
    cut: Cut
    day_numbers: tuple[int, ...]  # one column each
    rows: list[RankedRow]
    clubs: list[ClubRow]
    expected_games: int  # (table, game) pairs the seated tables of the days in scope must play
    confirmed_games: int
    unseated_days: tuple[int, ...] = field(default=())  # days in scope with no tables yet

    @property
    def to_confirm(self) -> int:
        return max(0, self.expected_games - self.confirmed_games)

    @property
    def is_final(self) -> bool:
        return self.to_confirm == 0 and not self.unseated_days

    @property
    def cut_label(self) -> str:
        return self.cut.label(self.tournament.rules.days)

    @property
    def status_line(self) -> str:
        if self.is_final:
            return "Final"
        parts = []
        if self.to_confirm:
            games = "game" if self.to_confirm == 1 else "games"
            parts.append(f"{self.to_confirm} {games} still to confirm")
        if self.unseated_days:
            days = ", ".join(str(d) for d in self.unseated_days)
            word = "day" if len(self.unseated_days) == 1 else "days"
            parts.append(f"{word} {days} not seated yet")
        return "Provisional: " + "; ".join(parts)

    @property
    def title(self) -> str:
        label = self.cut_label
        return f"Standings {label}" if label else "Standings"


def rank_label(row: RankedRow) -> str:
    """Rank as printed: "3", "=2" for a shared rank, "" for a withdrawn player."""
    if row.rank is None:
        return ""
    return f"{TIE_MARK}{row.rank}" if row.tied else str(row.rank)


def club_rank_labels(clubs: list[ClubRow]) -> list[str]:
    """Club ranks as printed, "=2" where clubs share a rank (same averages)."""
    shared = Counter(club.rank for club in clubs)
    return [f"{TIE_MARK}{c.rank}" if shared[c.rank] > 1 else str(c.rank) for c in clubs]


def standings(tournament: Tournament, cut: Cut = Cut()) -> Standings:
    rules = tournament.rules
    progress = _progress_by_day(tournament, cut, rules)
    # Every day the rules have up to the cut is a column, and so is any seated day beyond them
    # (rules shortened after play), so no counted point is ever missing from the day columns.
    day_numbers = tuple(sorted(set(range(1, cut.last_day(rules.days) + 1)) | set(progress)))

    # One row per entry, days pivoted into columns: half the rows of GROUP BY (entry, day).
    # Scores are found through the seated days' ids, so the day table is joined only for a
    # cut part-way through the event: on 24,000 rows every join shows.
    day_ids = {number: day_id for number, (_, _, day_id) in progress.items()}
    day_columns = {
        f"day_{day}": Sum("points", filter=Q(sheet__game__day_id=day_ids.get(day)), default=0)
        for day in day_numbers
    }
    per_entry = (
        Score.objects.filter(
            cut.games_q(rules.days, "sheet__game__"),
            sheet__state=SheetState.CONFIRMED,
            sheet__game__day_id__in=list(day_ids.values()),
        )
        .values("entry_id")
        .annotate(
            **day_columns,
            played=Count("pk"),
            worst=Max("points"),
            outs=Count("pk", filter=Q(sheet__went_out=F("entry"))),
        )
        .order_by()
        .values_list("entry_id", *day_columns, "played", "worst", "outs")
    )
    days = len(day_numbers)
    # With no day seated there is nothing to add up (and SQL cannot say "IN ()").
    stats = {row[0]: row[1:] for row in _fetch(per_entry)} if day_ids else {}
    nothing = (0,) * days + (0, None, 0)

    entries = _fetch(
        Entry.objects.filter(tournament=tournament).order_by()  # ranking sets the order
        .values_list("pk", "number", "status", "player__name", "player__club")
    )
    # Registered but never at a table (a no-show): a total of 0 is not a score. Only players
    # without a counted game can be one, so the seats are read only when there are such players.
    seated = None  # None: nobody needs checking
    if any(pk not in stats for pk, *_ in entries) and any(t for t, _, _ in progress.values()):
        seated = {entry_id for (entry_id,) in _fetch(
            Seat.objects.filter(day__tournament=tournament,
                                day__number__lte=cut.last_day(rules.days))
            .order_by().values_list("entry_id").distinct()
        )}
    records = []
    for pk, number, status, name, club in entries:
        if seated is not None and pk not in stats and pk not in seated:
            continue
        row = stats.get(pk, nothing)
        # (entry, number, name, club, day totals, played, outs, worst game, withdrawn)
        records.append(PlayerRecord(pk, number, name, club, row[:days], row[days],
                                    row[days + 2], row[days + 1], status == Entry.WITHDRAWN))
    rows = rank_players(records, rules.tie_breaks or ())

    expected = confirmed = 0
    for number, (tables, confirmed_here, _) in progress.items():
        games = rules.games_per_day
        if number == cut.last_day(rules.days) and cut.game is not None:
            games = min(games, cut.game)
        expected += tables * games
        confirmed += confirmed_here
    return Standings(
        tournament=tournament,
        cut=cut,
        day_numbers=day_numbers,
        rows=rows,
        clubs=rank_clubs(rows),
        expected_games=expected,
        confirmed_games=confirmed,
        unseated_days=tuple(d for d in day_numbers if not progress.get(d, (0, 0, None))[0]),
    )


def _progress_by_day(tournament, cut: Cut, rules) -> dict[int, tuple[int, int, int]]:
    """{day number: (tables seated, (table, game) sheets confirmed, day id)} for seated days
    in scope."""
    tables = Table.objects.filter(day__tournament=tournament)
    if not cut.is_everything:
        tables = tables.filter(day__number__lte=cut.last_day(rules.days))
    per_day = (
        tables.values("day__number", "day_id")
        .annotate(
            tables=Count("pk", distinct=True),
            confirmed=Count(
                "sheets",
                filter=Q(sheets__state=SheetState.CONFIRMED)
                & cut.games_q(rules.days, "sheets__game__"),
            ),
        )
        .order_by()
        .values_list("day__number", "day_id", "tables", "confirmed")
    )
    return {number: (seated, confirmed, day_id)
            for number, day_id, seated, confirmed in _fetch(per_day)}


def _fetch(queryset) -> list[tuple]:
    """The rows of an ORM-built query of plain integers and text, straight from the cursor.

    Django's row iterator runs a converter on every aggregate of every row; on thousands of
    rows that costs more than the query itself, and these values need no converting.
    """
    sql, params = queryset.query.sql_with_params()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# --- Reads for the extra Excel sheets: one query each, whatever the size of the event. ---

def score_rows(tournament: Tournament) -> list[tuple]:
    """Every player's score on every live sheet (entered or confirmed), in play order.

    (day, table, game, engine used, player number, name, points, went out, state label).
    """
    states = dict(SheetState.choices)
    rows = (
        Score.objects.filter(sheet__state__in=LIVE_STATES, sheet__table__day__tournament=tournament)
        .order_by("sheet__table__day__number", "sheet__table__number", "sheet__game__number",
                  "entry__number")
        .values_list(
            "sheet__table__day__number", "sheet__table__number", "sheet__game__number",
            "sheet__engine_used", "entry__number", "entry__player__name", "points",
            "sheet__went_out_id", "entry_id", "sheet__state",
        )
    )
    return [
        (day, table, game, engine, number, name, points, went_out == entry, states[state])
        for day, table, game, engine, number, name, points, went_out, entry, state in rows
    ]


def seating_rows(tournament: Tournament) -> list[tuple]:
    """(day, table, player number, name) for every seat of every day."""
    return list(
        Seat.objects.filter(day__tournament=tournament)
        .order_by("day__number", "table__number", "position")
        .values_list("day__number", "table__number", "entry__number", "entry__player__name")
    )


@transaction.atomic
def set_public_pages(tournament: Tournament, on: bool) -> None:
    """Open or close the public standings, projector and "find your table" pages."""
    Tournament.objects.filter(pk=tournament.pk).update(public_pages=on)
    tournament.public_pages = on
