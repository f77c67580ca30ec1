"""The one standings read: every output (page, projector, PDF, Excel, command line) comes from here.

``standings(tournament, cut)`` runs three queries whatever the size of the event (four when
the caller did not select the rule set): tables and confirmed sheets per day in scope, one
GROUP BY entry over the confirmed scores in scope, and the entries with their players and
whether they sat at a table. The ranking itself is the pure ``domain.ranking`` module; this
file only adapts rows to it. The columns every output shows are in ``standings.columns``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from django.db import connections
from django.db.models import Max

from core.sql import table_names
from domain import hidden_finish
from domain.flights import flight_named, no_such_flight
from domain.hidden_finish import first_hidden, public_cut, public_note
from domain.late_arrival import LateCredit
from domain.ranking import (
    ClubRow,
    PlayerRecord,
    RankedRow,
    apply_substitute_rule,
    mark_short_totals,
    rank_clubs,
    rank_players,
    unplayed_credit,
    with_credit,
)
from domain.rules import LATE_NOTHING, UNPLAYED_AVERAGE
from scoring.models import Game, GameSheet, Score, SheetState, UnplayedGame
from scoring.progress import finished_games, game_states, latest_day_in_play
from standings.final_order import final_seats, order_note, with_final
from standings.late import late_legend, late_seat_credit
from tournaments.models import Day, Entry, Player, Seat, Table, Tournament

# Shared ranks print as "=2" everywhere a rank is text (page, projector, PDF, command line), so
# one legend explains them all.
TIE_MARK = "="
TIE_LEGEND = "=2 means a shared rank: the players tied and share 2nd place."
TIE_LEGEND_BRIEF = f"{TIE_MARK}2: a shared rank, the players tied."
WITHDRAWN_MARK = "W"
SUBSTITUTE_MARK = "S"
WITHDRAWN_LEGEND = f"{WITHDRAWN_MARK}: withdrawn, not ranked."
SUBSTITUTE_LEGEND = f"{SUBSTITUTE_MARK}: a substitute, not ranked."
SHORT_MARK = "*"
SHORT_LEGEND = (
    f"{SHORT_MARK}: the total counts fewer games than the others' (the Games column says how many)."
)
SHORT_LEGEND_BRIEF = f"{SHORT_MARK}: fewer games counted."
# What a mid-day default view says it shows; the page adds its link to every game entered.
DEFAULT_VIEW_NOTE = (
    "Showing the standings {cut}: the last game every table has finished, so every total "
    "counts the same games."
)
# The banner's three states; pages colour them by these names.
FINAL, COMPLETE, PROVISIONAL = "final", "complete", "provisional"


class CutError(ValueError):
    """An "after day / after game" choice the event does not have; the message says why."""


class FlightError(CutError):
    """A flight the event does not have; the message names those it has."""


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


def parse_flight(rules, params: Mapping[str, object]) -> str:
    """The event's spelling of the flight ``params`` asks for ("" for every player), or
    FlightError naming the event's flights."""
    typed = str(params.get("flight") or "").strip()
    flight = flight_named(rules.flights, typed) if typed else ""
    if flight is None:
        raise FlightError(no_such_flight(typed, rules.flights))
    return flight


@dataclass(frozen=True)
class Standings:
    tournament: Tournament
    cut: Cut
    day_numbers: tuple[int, ...]  # one column each
    rows: list[RankedRow]
    clubs: list[ClubRow]
    expected_games: int  # (table, game) pairs the seated tables of the days in scope must play
    confirmed_games: int  # those settled: confirmed, or marked not played
    entered_games: int = 0  # those entered at a table and not confirmed by the desk yet
    unseated_days: tuple[int, ...] = field(default=())  # days in scope with no tables yet
    # The cut is the mid-day default (``default_cut``), not one the viewer asked for.
    default_view: bool = False
    # Public pages only, while a finish is hidden: the first game they may not see, and what
    # they say about it.
    hidden_from: tuple[int, int] | None = None
    hidden_note: str = ""
    # The flight the rows are ranked within ("" for every player), and what ranking within a
    # flight starts from: every player's record, and the games not played credited to each.
    flight: str = ""
    records: tuple[PlayerRecord, ...] = field(default=(), repr=False, compare=False)
    credited: Mapping[int, int] = field(default_factory=dict, repr=False, compare=False)
    # Entry ids seated at the final, once it is seated and in the view: they lead the rows.
    finalists: frozenset[int] = frozenset()

    @property
    def to_confirm(self) -> int:
        return max(0, self.expected_games - self.confirmed_games)

    @property
    def covers_the_event(self) -> bool:
        """The view reaches the last game of the last day: nothing of the event is cut off."""
        rules = self.tournament.rules
        return (self.cut.day is None or self.cut.day >= rules.days) and (
            self.cut.game is None or self.cut.game >= rules.games_per_day
        )

    @property
    def state(self) -> str:
        """FINAL: the whole event is over and confirmed. COMPLETE: every game this (partial)
        view counts is confirmed. PROVISIONAL: games in the view are still waiting."""
        if self.to_confirm:
            return PROVISIONAL
        seated = [day for day in self.day_numbers if day not in self.unseated_days]
        if not seated:
            return PROVISIONAL
        if self.covers_the_event and not self.unseated_days:
            return FINAL
        return COMPLETE

    @property
    def is_final(self) -> bool:
        return self.state == FINAL

    @property
    def complete_label(self) -> str:
        """ "after day 2, game 2": the last game a complete view counts."""
        seated = [day for day in self.day_numbers if day not in self.unseated_days]
        last = seated[-1] if seated else self.cut.last_day(self.tournament.rules.days)
        if self.cut.game is not None and last == self.cut.last_day(self.tournament.rules.days):
            return f"after day {last}, game {self.cut.game}"
        return f"after day {last}"

    @property
    def status_line(self) -> str:
        state = self.state
        note = f". {self.order_note}" if self.order_note else ""
        if state == FINAL:
            return "Final" + note
        if state == COMPLETE:
            return f"Complete {self.complete_label}{note}"
        return "Provisional: " + "; ".join(self.unsettled_parts) + note

    @property
    def unsettled_parts(self) -> list[str]:
        """What keeps the view provisional, in words that keep apart a game not played yet
        from one entered and not confirmed (the Scores pages' "waiting for the desk")."""
        parts = []
        entered = min(self.entered_games, self.to_confirm)
        to_play = self.to_confirm - entered
        if to_play or not (entered or self.unseated_days):
            parts.append(f"{_games(to_play)} still to play")
        if entered:
            parts.append(f"{_games(entered)} to confirm")
        if self.unseated_days:
            days = ", ".join(str(d) for d in self.unseated_days)
            word = "day" if len(self.unseated_days) == 1 else "days"
            parts.append(f"{word} {days} not seated yet")
        return parts

    @property
    def order_note(self) -> str:
        """What the order is once the final leads it; "" otherwise."""
        return order_note(self.tournament.rules) if self.finalists else ""

    @property
    def cut_label(self) -> str:
        return self.cut.label(self.tournament.rules.days)

    @property
    def flight_label(self) -> str:
        return f"Flight {self.flight}" if self.flight else ""

    @property
    def title(self) -> str:
        label = self.cut_label
        title = f"Standings {label}" if label else "Standings"
        return f"{title} \u00b7 {self.flight_label}" if self.flight else title

    @property
    def params(self) -> dict[str, object]:
        """The query that asks for this view again: the cut and the flight."""
        return {**self.cut.as_params(), **({"flight": self.flight} if self.flight else {})}

    def for_flight(self, flight: str) -> Standings:
        """The same standings with only ``flight``'s players, ranked 1..n among themselves by
        the same rules, ties and tie-breaks. No query: the records are already read."""
        records = [record for record in self.records if record.flight == flight]
        rows = _ranked(
            records, self.tournament.rules, self.credited, self.finalists, self.day_numbers
        )
        return replace(self, flight=flight, rows=rows, clubs=rank_clubs(rows))


def _games(count: int) -> str:
    return f"{count} game" if count == 1 else f"{count} games"


def marks_legend(result: Standings, *, brief: bool = False) -> str:
    """What the rank marks mean: shared ranks and withdrawals always, substitutes when the
    standings show one, short totals when one is marked (the projector has no room for words
    it does not need: ``brief`` keeps its footer on one line)."""
    legend = f"{TIE_LEGEND_BRIEF if brief else TIE_LEGEND} {WITHDRAWN_LEGEND}"
    if any(row.record.substitute for row in result.rows):
        legend += f" {SUBSTITUTE_LEGEND}"
    return legend + short_legend(result, brief=brief) + late_legend(result, brief=brief)


def short_legend(result: Standings, *, brief: bool = False) -> str:
    """What the short-total mark means, with a space before it, when a total carries it;
    ``brief`` for the projector's one-line footer."""
    if not any(row.short_of for row in result.rows):
        return ""
    return f" {SHORT_LEGEND_BRIEF if brief else SHORT_LEGEND}"


def total_label(row: RankedRow) -> str:
    """Total as printed: "65*" for a total that counts fewer games than the others'."""
    return f"{row.total}{SHORT_MARK}" if row.short_of else str(row.total)


def short_note(row: RankedRow) -> str:
    """ "5 of 6 games" for a short total, "" otherwise: the workbook's note and the player page."""
    return f"{row.record.games_played} of {row.short_of} games" if row.short_of else ""


def rank_label(row: RankedRow) -> str:
    """Rank as printed: "3", "=2" for a shared rank, "" for a withdrawn player."""
    if row.rank is None:
        return SUBSTITUTE_MARK if row.record.substitute else ""
    return f"{TIE_MARK}{row.rank}" if row.tied else str(row.rank)


def requested_standings(
    tournament: Tournament, params: Mapping[str, object], *, public: bool = False
) -> Standings:
    """The standings at the cut asked for; with none asked for (neither parameter given, not
    even blank), the mid-day default view. Raises CutError for a cut the event does not have.
    ``public``: as public pages and the projector show them, never past a hidden finish.
    A ``flight`` asked for ranks that flight's players only (FlightError for one the event
    does not have)."""
    flight = parse_flight(tournament.rules, params)
    result = _requested(tournament, params, public=public)
    return result.for_flight(flight) if flight else result


def _requested(tournament: Tournament, params: Mapping[str, object], *, public: bool) -> Standings:
    if "after_day" in params or "after_game" in params:
        cut, default_view = parse_cut(tournament.rules, params), False
    else:
        default = default_cut(tournament)
        cut, default_view = default or Cut(), default is not None
    if not public:
        return replace(standings(tournament, cut), default_view=default_view)
    return public_standings(tournament, cut, default_view=default_view)


def public_standings(tournament: Tournament, cut: Cut = Cut(), *, default_view=False) -> Standings:
    """The standings at ``cut``, or at the hidden finish when that comes first: what anyone
    without a staff login may see (``domain.hidden_finish``)."""
    rules, finish = tournament.rules, tournament.hidden_finish
    day, game = public_cut(cut.day, cut.game, finish, rules.days, rules.games_per_day)
    shown = Cut(day=day, game=game)
    note = public_note(finish, rules.days, rules.games_per_day)
    return replace(
        standings(tournament, shown),
        default_view=default_view and shown == cut,
        hidden_from=first_hidden(finish, rules.games_per_day) if finish and note else None,
        hidden_note=note,
    )


def staff_note(tournament: Tournament) -> str:
    """What staff see while the public standings stop at a hidden finish; "" when none."""
    rules = tournament.rules
    return hidden_finish.staff_note(tournament.hidden_finish, rules.days, rules.games_per_day)


def standings(tournament: Tournament, cut: Cut = Cut()) -> Standings:
    rules = tournament.rules
    progress = _progress_by_day(tournament, cut, rules)
    # Every day the rules have up to the cut is a column, and so is any seated day beyond them
    # (rules shortened after play), so no counted point is ever missing from the day columns.
    day_numbers = tuple(sorted(set(range(1, cut.last_day(rules.days) + 1)) | set(progress)))
    days = len(day_numbers)
    # Counts per day only feed the average a game not played counts under that rule.
    averaging = rules.unplayed_counts == UNPLAYED_AVERAGE and any(p[3] for p in progress.values())
    # With no day seated there is nothing to add up (and SQL cannot say "IN ()").
    totals = totals_by_entry(progress, day_numbers, cut, rules, averaging) if progress else []
    day_ids = [day_id for _, _, day_id, *_ in progress.values()]
    entries = {row[0]: row for row in _entries(tournament, day_ids, rules.substitutes)}
    credit, credited, late = _credits(progress, day_numbers, cut, rules, totals, averaging)
    replaced_by = {row[0]: row[6] for row in entries.values() if row[6] is not None}
    records = apply_substitute_rule(
        _records(totals, entries, credit, days, late, rules.late_missed_games),
        replaced_by,
        rules.substitute_ranking,
    )
    finalists = final_seats(rules, progress)
    rows = _ranked(records, rules, credited, finalists, day_numbers)
    # Only flights need the records again; an event without them keeps none.
    kept = tuple(records) if rules.flights else ()
    expected, confirmed = _games_to_settle(progress, cut, rules)
    entered = sum(p[4] for p in progress.values())
    return Standings(
        tournament=tournament,
        cut=cut,
        day_numbers=day_numbers,
        rows=rows,
        clubs=rank_clubs(rows),
        expected_games=expected,
        confirmed_games=confirmed,
        entered_games=entered,
        unseated_days=tuple(d for d in day_numbers if d not in progress),
        records=kept,
        credited=credited,
        finalists=finalists,
    )


def _ranked(records, rules, credited, finalists, day_numbers) -> list[RankedRow]:
    """The rows in order: the final first once it is seated and in the view (standings.
    final_order), else by total and the tie-breaks."""
    if finalists:
        return with_final(records, finalists, day_numbers.index(rules.days), rules, credited)
    rows = rank_players(records, rules.tie_breaks or ())
    mark_short_totals(rows, credited)
    return rows


def _credits(progress, day_numbers, cut: Cut, rules, totals, averaging: bool):
    """({entry id: points per day} that games not played and a late player's missed games add,
    {entry id: games so credited}, {entry id: the late player's credit})."""
    days = len(day_numbers)
    credit: dict[int, tuple[int, ...]] = {}
    credited: Counter[int] = Counter()
    if averaging:
        sat_down = unplayed_seats(progress, day_numbers, cut, rules)
        credit = unplayed_credit(sat_down, played_by_day(totals, days), days)
        credited.update(entry_id for entry_id, _ in sat_down)
    late: dict[int, LateCredit] = {}
    if rules.late_missed_games != LATE_NOTHING:
        columns = {p[2]: day_numbers.index(n) for n, p in progress.items()}
        last = progress.get(cut.last_day(rules.days))
        cut_game = (last[2], cut.game) if cut.game is not None and last else None
        got_late = late_seat_credit(columns, rules.late_missed_games, days, cut_game)
        for entry_id, got in got_late.items():
            credit[entry_id] = tuple(
                a + b for a, b in zip(credit.get(entry_id, (0,) * days), got.points, strict=True)
            )
            # A missed game credited with a score counts as a game for the short mark, as a
            # game not played under "average" does: the total then holds a score for every game
            # the table played, so it stands level with the others' totals. Under "nothing"
            # nothing is credited and the total stays marked short.
            credited[entry_id] += sum(got.games)
            late[entry_id] = got
    return credit, credited, late


def _records(
    totals, entries: dict[int, tuple], credit, days: int, late, rules_late: str = ""
) -> list[PlayerRecord]:
    """A record for every entry with a counted game (``totals``), with the credit for games not
    played and a late player's missed games, then for every entry without one who sat at a
    table (a late player's missed games may be credited before their first game is)."""
    records = []
    remaining = dict(entries)
    nothing = (0,) * days
    for row in totals:  # (entry, points per day..., played, worst game, outs, played per day...)
        entry = remaining.pop(row[0], None)
        if entry is not None:
            day_totals = with_credit(row[1 : days + 1], credit.get(entry[0], nothing))
            played, worst, outs = row[days + 1 : days + 4]
            records.append(_record(entry, day_totals, played, outs, worst))
    # Left: players without a counted game. Registered but never at a table (a no-show): a
    # total of 0 is not a score, so once tables are seated those without a seat are left out.
    no_game = (None,) * days
    records += [
        _record(entry, with_credit(no_game, credit.get(entry[0], nothing)), 0, 0, None)
        for entry in remaining.values()
        if entry[5]
    ]
    for record in records:
        got = late.get(record.entry_id)
        if got is not None:
            record.late, record.late_rule, record.late_by_game = got.games, rules_late, got.by_game
    return records


def _record(entry: tuple, day_totals, played: int, outs: int, worst) -> PlayerRecord:
    entry_id, number, status, name, club, _, _, flight = entry
    withdrawn = status == Entry.WITHDRAWN
    return PlayerRecord(
        entry_id, number, name, club, day_totals, played, outs, worst, withdrawn, flight=flight
    )


def _games_to_settle(progress, cut: Cut, rules) -> tuple[int, int]:
    """((table, game) pairs the seated tables in scope must play, those settled)."""
    expected = settled = 0
    for number, (tables, confirmed_here, _, unplayed_here, _) in progress.items():
        games = rules.games_per_day
        if number == cut.last_day(rules.days) and cut.game is not None:
            games = min(games, cut.game)
        expected += tables * games
        # A game marked not played is settled: the standings need not wait for it.
        settled += confirmed_here + unplayed_here
    return expected, settled


def default_cut(tournament: Tournament) -> Cut | None:
    """The view mid-day: after the last game every table of the latest day in play has
    finished, so nobody's total counts a game another table has not played yet.

    A game is finished when confirmed or marked not played (``scoring.progress.FINISHED``,
    what the day board reads too): a table whose last game ran out of time holds nobody back.
    None when the tables stand level (every view is comparable) or nothing is finished.
    Four queries: the latest day in play, then its tables, live sheets and marks.
    """
    latest = latest_day_in_play(tournament)
    if latest is None:
        return None
    day, day_id = latest
    states = game_states([day_id])
    return level_cut(day, [finished_games(games) for games in states.values()])


def level_cut(day: int, confirmed: list[set[int]]) -> Cut | None:
    """The cut after the last game every table has finished (games 1 to K all finished), or
    None when every table has finished the same games (no cut needed)."""

    def finished(games: set[int]) -> int:
        count = 0
        while count + 1 in games:
            count += 1
        return count

    common = min(finished(games) for games in confirmed)
    if all(games == set(range(1, common + 1)) for games in confirmed):
        return None
    if common:
        return Cut(day=day, game=common)
    return Cut(day=day - 1) if day > 1 else None


def last_changed(tournament: Tournament):
    """When a score of the event was last entered or confirmed (None before the first)."""
    latest = GameSheet.objects.filter(table__day__tournament=tournament).aggregate(
        entered=Max("entered_at"), confirmed=Max("confirmed_at")
    )
    stamps = [stamp for stamp in latest.values() if stamp is not None]
    return max(stamps) if stamps else None


# The three reads of every standings request are written in SQL rather than built with the
# ORM: building and compiling the querysets (mostly the two with aggregates) cost a large share
# of the request next to running them (bench/standings.py compares against a bare GROUP BY).
# They are plain SQL that PostgreSQL and SQLite (3.30 or later, for FILTER) run alike. Table
# names come from the models (core.sql); every value, and every list of them, is a parameter,
# which is why ruff's S608 (SQL built as a string) is silenced on each.


def _progress_by_day(tournament, cut: Cut, rules) -> dict[int, tuple[int, int, int, int, int]]:
    """{day number: (tables seated, (table, game) sheets confirmed, day id, (table, game)
    marked not played, (table, game) sheets entered and not confirmed yet)} for seated days
    in scope."""
    # Two counts per day rather than one join of every table with every sheet: counting the
    # distinct tables of that join meant sorting all of its rows. Sheets are counted by the
    # day of their game, as the scores are (a table plays only the games of its own day).
    last = cut.last_day(rules.days)
    game_cut, game_params = "", []
    if cut.game is not None:
        game_cut, game_params = "AND (d.number < %s OR gm.number <= %s)", [last, cut.game]
    day_cut, day_params = "", []
    if not cut.is_everything:
        day_cut, day_params = "AND d.number <= %s", [last]
    table, sheet, game, unplayed, day = table_names(Table, GameSheet, Game, UnplayedGame, Day)
    rows = sql_rows(
        f"""
        SELECT d.number, d.id,
               (SELECT COUNT(*) FROM {table} t WHERE t.day_id = d.id),
               (SELECT COUNT(*) FROM {sheet} g
                JOIN {game} gm ON gm.id = g.game_id
                WHERE gm.day_id = d.id AND g.state = %s {game_cut}),
               (SELECT COUNT(*) FROM {unplayed} u
                JOIN {game} gm ON gm.id = u.game_id
                WHERE gm.day_id = d.id {game_cut}),
               (SELECT COUNT(*) FROM {sheet} g
                JOIN {game} gm ON gm.id = g.game_id
                WHERE gm.day_id = d.id AND g.state = %s {game_cut})
        FROM {day} d
        WHERE d.tournament_id = %s {day_cut}
        """,  # noqa: S608 (table names from the models, values as parameters)
        [
            SheetState.CONFIRMED,
            *game_params,
            *game_params,
            SheetState.ENTERED,
            *game_params,
            tournament.pk,
            *day_params,
        ],
    )
    return {
        number: (tables, confirmed, day_id, unplayed, entered)
        for number, day_id, tables, confirmed, unplayed, entered in rows
        if tables
    }


def totals_by_entry(progress, day_numbers, cut: Cut, rules, day_counts: bool) -> list[tuple]:
    """(entry id, points per day..., games played, worst game, games gone out, and with
    ``day_counts`` games played per day...) for every entry with a confirmed score in scope,
    lowest total first.

    One row per entry with the days pivoted into columns: half the rows of GROUP BY (entry,
    day). Scores are found through the seated days' ids (``progress`` holds only days up to
    the cut), so the day table is never joined: on 24,000 rows every join shows.

    The order costs the database less than it saves the ranking: Python's sort is adaptive,
    and records that arrive in order (ties by entry id, which mostly follows the player
    number) sort in about one pass.
    """
    day_ids = {number: day_id for number, (_, _, day_id, *_) in progress.items()}
    columns, counts, params, count_params = [], [], [], []
    for number in day_numbers:
        if number in day_ids:
            # NULL, not 0, for a player with no counted game that day: an unplayed day prints
            # as a dash, because where the lowest score wins a 0 reads as a perfect day.
            columns.append("SUM(s.points) FILTER (WHERE gm.day_id = %s)")
            params.append(day_ids[number])
            counts.append("COUNT(*) FILTER (WHERE gm.day_id = %s)")
            count_params.append(day_ids[number])
        else:
            columns.append("NULL")  # a day with no tables yet has no scores
            counts.append("0")
    if not day_counts:
        counts, count_params = [], []
    params += count_params
    params += [SheetState.CONFIRMED, *day_ids.values()]
    game_cut = ""
    last_day_id = day_ids.get(cut.last_day(rules.days))
    if cut.game is not None and last_day_id is not None:
        game_cut = "AND (gm.day_id <> %s OR gm.number <= %s)"
        params += [last_day_id, cut.game]
    score, sheet, game = table_names(Score, GameSheet, Game)
    return sql_rows(
        f"""
        SELECT s.entry_id, {", ".join(columns)}, COUNT(*), MAX(s.points),
               COUNT(*) FILTER (WHERE g.went_out_id = s.entry_id){"".join(", " + c for c in counts)}
        FROM {score} s
        JOIN {sheet} g ON g.id = s.sheet_id
        JOIN {game} gm ON gm.id = g.game_id
        WHERE g.state = %s AND gm.day_id IN ({", ".join(["%s"] * len(day_ids))}) {game_cut}
        GROUP BY s.entry_id
        ORDER BY SUM(s.points), s.entry_id
        """,  # noqa: S608 (table names from the models, values as parameters)
        params,
    )


def unplayed_seats(progress, day_numbers, cut: Cut, rules) -> list[tuple[int, int]]:
    """(entry id, day column) once for every game marked not played in scope that the entry sat
    down for: at that table, not yet gone, already joined. One query. What each counts is the
    rule's arithmetic, ``domain.ranking.unplayed_credit``."""
    column = {day_id: day_numbers.index(number) for number, (_, _, day_id, *_) in progress.items()}
    game_cut, params = "", [*column]
    last_day_id = next((p[2] for n, p in progress.items() if n == cut.last_day(rules.days)), None)
    if cut.game is not None and last_day_id is not None:
        game_cut, params = (
            "AND (gm.day_id <> %s OR gm.number <= %s)",
            [*params, last_day_id, cut.game],
        )
    unplayed, game, seat = table_names(UnplayedGame, Game, Seat)
    rows = sql_rows(
        f"""
        SELECT st.entry_id, gm.day_id
        FROM {unplayed} u
        JOIN {game} gm ON gm.id = u.game_id
        JOIN {seat} st ON st.table_id = u.table_id
        WHERE gm.day_id IN ({", ".join(["%s"] * len(column))}) {game_cut}
          AND (st.left_after_game IS NULL OR st.left_after_game >= gm.number)
          AND (st.joined_at_game IS NULL OR st.joined_at_game <= gm.number)
        """,  # noqa: S608 (table names from the models, values as parameters)
        params,
    )
    return [(entry_id, column[day_id]) for entry_id, day_id in rows]


def played_by_day(totals, days: int) -> dict[int, tuple[tuple, tuple]]:
    """{entry id: (points per day, games per day)} from ``totals_by_entry`` rows read with
    ``day_counts``: what a player's average for a game not played is taken over."""
    return {row[0]: (row[1 : days + 1], row[days + 4 : 2 * days + 4]) for row in totals}


def _entries(tournament, day_ids: list[int], substitutes: bool) -> list[tuple]:
    """(entry id, player number, status, name, club, seated, entry replaced as a substitute or
    None, flight) of every entry, in no particular order (the ranking sets it). ``seated``: at a
    table on one of ``day_ids``, the seated days in scope; with none seated yet, everyone counts
    as seated. Substitutes are looked up only under rules that allow them (the rules are fixed
    before anyone can be one)."""
    # As in every query here: table names from the models, values as parameters (S608).
    entry, player, seat = table_names(Entry, Player, Seat)
    seated, params = "1", []
    if day_ids:
        in_days = f"s.day_id IN ({', '.join(['%s'] * len(day_ids))})"
        seated = f"EXISTS (SELECT 1 FROM {seat} s WHERE s.entry_id = e.id AND {in_days})"  # noqa: S608
        params = list(day_ids)
    replaced = "NULL"
    if substitutes:
        replaced = f"(SELECT MAX(r.replaces_id) FROM {seat} r WHERE r.entry_id = e.id)"  # noqa: S608
    return sql_rows(
        f"""
        SELECT e.id, e.number, e.status, p.name, e.club, {seated}, {replaced}, e.flight
        FROM {entry} e JOIN {player} p ON p.id = e.player_id
        WHERE e.tournament_id = %s
        """,  # noqa: S608
        [*params, tournament.pk],
    )


def sql_rows(sql: str, params) -> list[tuple]:
    with connections[Score.objects.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


# --- Reads for the extra Excel sheets: one query each, whatever the size of the event. ---
