"""The one season standings read: the page, the player's season page, the PDF, the workbook and
the command line all come from here.

A season's sessions are the seated days of its events, in the season's order. Each player's
total and games in a session are what that event's standings count: confirmed games, a game
not played counted under the event's rule, and substitutes under the event's rule (a shared
seat's games go to the player replaced; an unranked substitute's do not count). An event's
withdrawn players are not ranked there, so that event's sessions do not count for them either:
a day left half-way would otherwise look like a good day where the lowest score wins.

The read runs a fixed number of queries whatever the number of events: the events, their days,
one GROUP BY over the confirmed scores of every session (the event standings' own query,
``standings.read.totals_by_entry``, given the season's days as its columns), the entries with their
players, and when an event needs them, the credit for games not played and the substitutes.
The arithmetic is pure: an event's rules are applied by ``domain.ranking``, as the event's own
standings apply them, and the season's ranking is ``domain.season_ranking``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from core.sql import table_names
from domain.hidden_finish import day_shown_whole
from domain.ranking import (
    PlayerRecord,
    apply_substitute_rule,
    shared_seat_games,
    unplayed_credit,
    with_credit,
)
from domain.rules import LATE_NOTHING, SUB_OWN, SUB_SHARED, UNPLAYED_AVERAGE
from domain.season_ranking import SeasonPlayer, SeasonRow, SessionResult, rank_season, ranking_rule
from scoring.models import Game, GameSheet, SheetState, UnplayedGame
from standings.late import late_seat_credit
from standings.read import Cut, played_by_day, sql_rows, totals_by_entry, unplayed_seats
from tournaments.models import Day, Entry, Season, SeasonEvent, Seat, Table, Tournament

TIED_MARK = "="
NOT_RANKED_MARK = "-"


@dataclass(frozen=True)
class SeasonSession:
    index: int  # place in the season, from 0
    event: Tournament
    day_number: int
    day_id: int
    date: datetime.date | None
    waiting: int = 0  # (table, game) pairs neither confirmed nor marked not played

    @property
    def label(self) -> str:
        """ "Spring open, day 2" (the event's name alone for a one-day event)."""
        if self.event.rules.days == 1 and self.day_number == 1:
            return self.event.name
        return f"{self.event.name}, day {self.day_number}"

    @property
    def short_label(self) -> str:
        return f"S{self.index + 1}"


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    events: list[Tournament]
    sessions: list[SeasonSession]
    rows: list[SeasonRow]
    # player id -> session index -> the entry that played it (for the player's page)
    entries: dict[int, dict[int, int]] = field(default_factory=dict)
    # Public views: sessions an event's hidden finish keeps back ("Spring open, day 2").
    hidden_sessions: tuple[str, ...] = ()

    @property
    def hidden_note(self) -> str:
        if not self.hidden_sessions:
            return ""
        return (
            "Not counted here yet, while their standings are hidden until the prizes are "
            f"announced: {', '.join(self.hidden_sessions)}."
        )

    @property
    def rule(self) -> str:
        return ranking_rule(self.season.best_of, len(self.sessions), self.season.min_sessions)

    @property
    def is_public(self) -> bool:
        """The public page shows only when the season is public and so is every event in it."""
        return self.season.public_pages and all(e.public_pages for e in self.events)

    @property
    def waiting(self) -> int:
        return sum(s.waiting for s in self.sessions)

    @property
    def status_line(self) -> str:
        """ "Provisional: 5 games still to play or confirm (Week 4)", or "Every game so far is
        confirmed", then the sessions a public view leaves out. Not "waiting": on the Scores
        pages that means entered, for the desk."""
        line = self._progress_line
        return f"{line}. {self.hidden_note}" if self.hidden_note else line

    @property
    def _progress_line(self) -> str:
        if not self.sessions and self.hidden_sessions:
            return "No session shown yet"
        if not self.sessions:
            return "No session seated yet"
        if not self.waiting:
            return "Every game so far is confirmed"
        games = "game" if self.waiting == 1 else "games"
        where = ", ".join(s.label for s in self.sessions if s.waiting)
        return f"Provisional: {self.waiting} {games} still to play or confirm ({where})"

    @property
    def legend(self) -> str:
        fewest = self.season.min_sessions
        if self.season.best_of is None and fewest > 1:
            unranked = (
                f"Players with fewer than {fewest} sessions are listed last, without a rank "
                f"({NOT_RANKED_MARK})."
            )
        elif self.season.best_of is None:
            unranked = "Players without a counted game are listed last, without a rank."
        else:
            unranked = (
                f"Players with fewer than {self.season.best_of} sessions are listed last, "
                f"without a rank ({NOT_RANKED_MARK})."
            )
        return (
            f"{self.rule}; ties go to more games played, then share a rank "
            f"({TIED_MARK}2). {unranked} Totals count confirmed games only."
        )

    def row_of(self, player_id: int) -> SeasonRow | None:
        return next((row for row in self.rows if row.player.player_id == player_id), None)


def season_rank_label(row: SeasonRow) -> str:
    if row.rank is None:
        return NOT_RANKED_MARK
    return f"{TIED_MARK}{row.rank}" if row.tied else str(row.rank)


def season_events(season: Season) -> list[Tournament]:
    """The season's events in order, with their rules. One query."""
    places = SeasonEvent.objects.filter(season=season).select_related("tournament__rules")
    return [place.tournament for place in places.order_by("position")]


def season_standings(season: Season, *, public: bool = False) -> SeasonStandings:
    """Four queries; one more when an event allows substitutes, two more when one counts a
    game not played as the player's average, one more for each late rule ("highest",
    "average") some event credits a late player's missed games by. ``public``: without the
    days an event's hidden finish keeps from public pages, in whole or in part (a season
    counts whole days)."""
    events = season_events(season)
    sessions, hidden = _sessions(events, public=public)
    if not sessions:
        return SeasonStandings(season, events, [], [], hidden_sessions=hidden)
    # The event standings' shape, {column: (tables, confirmed, day id, not played)}, with the
    # season's sessions as its columns: the scores query reads only the day ids, and the rules
    # only place a cut within a day, which a season never has.
    progress = {s.index + 1: (1, 0, s.day_id, 0) for s in sessions}
    day_numbers = tuple(progress)
    totals = totals_by_entry(progress, day_numbers, Cut(), events[0].rules, True)
    credit = _credit(events, sessions, progress, totals)
    late = _late_credit(sessions)
    for entry_id, got in late.items():
        before = credit.get(entry_id, (0,) * len(sessions))
        credit[entry_id] = tuple(a + b for a, b in zip(before, got.points, strict=True))
    entries = _entries(events)
    records = _records(events, sessions, totals, credit, entries, late)
    players = _players(records, entries)
    rows = rank_season(
        players.values(),
        best_of=season.best_of,
        sessions_held=len(sessions),
        min_sessions=season.min_sessions,
    )
    by_player: dict[int, dict[int, int]] = {}
    for entry_id, (session_results, _) in records.items():
        player_id = entries[entry_id][2]
        for result in session_results:
            by_player.setdefault(player_id, {})[result.session] = entry_id
    return SeasonStandings(season, events, sessions, rows, by_player, hidden)


def _sessions(events: list[Tournament], *, public: bool) -> tuple[list[SeasonSession], tuple]:
    """Every seated day of the season's events, in date order, and the labels of those left
    out of a public view by a hidden finish. One query."""
    if not events:
        return [], ()
    ids = [e.pk for e in events]
    table, sheet, game, unplayed, day = table_names(Table, GameSheet, Game, UnplayedGame, Day)
    rows = sql_rows(
        f"""
        SELECT d.tournament_id, d.number, d.id, d.date,
               (SELECT COUNT(*) FROM {table} t WHERE t.day_id = d.id),
               (SELECT COUNT(*) FROM {sheet} g JOIN {game} gm ON gm.id = g.game_id
                WHERE gm.day_id = d.id AND g.state = %s)
             + (SELECT COUNT(*) FROM {unplayed} u JOIN {game} gm
                ON gm.id = u.game_id WHERE gm.day_id = d.id)
        FROM {day} d
        WHERE d.tournament_id IN ({", ".join(["%s"] * len(ids))})
        """,  # noqa: S608 (table names from the models, values as parameters)
        [SheetState.CONFIRMED, *ids],
    )
    order = {pk: i for i, pk in enumerate(ids)}
    by_id = {e.pk: e for e in events}

    def in_date_order(row):
        # A session without a date takes its event's start date; an event with neither comes
        # after the dated ones, in its place in the season's list.
        when = _as_date(row[3]) or by_id[row[0]].start_date
        return (when is None, when or datetime.date.min, order[row[0]], row[1])

    seated = sorted((r for r in rows if r[4]), key=in_date_order)
    hidden: tuple[str, ...] = ()
    if public:
        shown = [r for r in seated if _shown_whole(by_id[r[0]], r[1])]
        hidden = tuple(
            SeasonSession(0, by_id[r[0]], r[1], r[2], None).label for r in seated if r not in shown
        )
        seated = shown
    return [
        SeasonSession(
            i,
            by_id[tid],
            number,
            day_id,
            _as_date(date),
            max(0, tables * by_id[tid].rules.games_per_day - settled),
        )
        for i, (tid, number, day_id, date, tables, settled) in enumerate(seated)
    ], hidden


def _shown_whole(event: Tournament, day: int) -> bool:
    return day_shown_whole(event.hidden_finish, day, event.rules.games_per_day)


def _as_date(value) -> datetime.date | None:
    # Raw SQL on SQLite returns dates as text.
    if value is None or isinstance(value, datetime.date):
        return value
    return datetime.date.fromisoformat(str(value))


def _credit(events, sessions, progress, totals) -> dict[int, tuple]:
    """What games not played count, for the events whose rule gives them the player's average:
    the event standings' own reckoning, one query (none when no event needs it)."""
    averaging = {e.pk for e in events if e.rules.unplayed_counts == UNPLAYED_AVERAGE}
    if not averaging:
        return {}
    wanted = [s for s in sessions if s.event.pk in averaging]
    marked = set(
        UnplayedGame.objects.filter(game__day_id__in=[s.day_id for s in wanted]).values_list(
            "game__day_id", flat=True
        )
    )
    if not marked:
        return {}
    some = next(e for e in events if e.pk in averaging)
    scoped = {s.index + 1: (1, 0, s.day_id, 1) for s in wanted if s.day_id in marked}
    sat_down = unplayed_seats(scoped, tuple(progress), Cut(), some.rules)
    return unplayed_credit(sat_down, played_by_day(totals, len(progress)), len(progress))


def _late_credit(sessions) -> dict:
    """What a late player's missed games count, for the events whose rule credits them: the
    event standings' own reckoning (``standings.late``), one query per rule in use."""
    by_rule: dict[str, dict[int, int]] = {}
    for session in sessions:
        rule = session.event.rules.late_missed_games
        if rule != LATE_NOTHING:
            by_rule.setdefault(rule, {})[session.day_id] = session.index
    credit: dict = {}
    for rule, columns in by_rule.items():
        # Each entry plays in one event, under one rule: no entry is credited twice.
        credit.update(late_seat_credit(columns, rule, len(sessions), None))
    return credit


def _entries(events) -> dict[int, tuple]:
    """entry id -> (event id, status, player id, name, club played for, entry replaced or None),
    One query, two when an event allows substitutes."""
    rows = Entry.objects.filter(tournament__in=events).values_list(
        "pk", "tournament_id", "status", "player_id", "player__name", "club"
    )
    entries: dict[int, tuple] = {row[0]: (*row[1:], None) for row in rows}
    if any(e.rules.substitutes for e in events):
        replaced = Seat.objects.filter(
            day__tournament__in=events, replaces__isnull=False
        ).values_list("entry_id", "replaces_id")
        for entry_id, replaces_id in replaced:
            entries[entry_id] = (*entries[entry_id][:5], replaces_id)
    return entries


def _records(events, sessions, totals, credit, entries, late) -> dict[int, tuple]:
    """entry id -> (its session results, its event) for the entries each event ranks, under
    that event's substitute rule. A late player's credited missed games count as games of the
    session, as they count as games for the event's short mark: the session's total holds a
    score for each of them."""
    count = len(sessions)
    by_event: dict[int, list[PlayerRecord]] = {e.pk: [] for e in events}
    games: dict[int, list[int]] = {}
    for row in totals:  # (entry, points per session..., played, worst, outs, games per session...)
        entry_id = row[0]
        event_id, status, _, name, club, _ = entries[entry_id]
        day_totals = with_credit(row[1 : count + 1], credit.get(entry_id, (0,) * count))
        by_event[event_id].append(
            PlayerRecord(
                entry_id,
                0,
                name,
                club,
                day_totals,
                row[count + 1],
                row[count + 3],
                row[count + 2],
                withdrawn=status == Entry.WITHDRAWN,
            )
        )
        games[entry_id] = list(row[count + 4 : 2 * count + 4])
        if entry_id in late:
            games[entry_id] = [
                a + b for a, b in zip(games[entry_id], late[entry_id].games, strict=True)
            ]
    kept: dict[int, tuple] = {}
    for event in events:
        replaced_by = {e: v[5] for e, v in entries.items() if v[0] == event.pk and v[5] is not None}
        rule = event.rules.substitute_ranking if event.rules.substitutes else SUB_OWN
        if rule == SUB_SHARED:
            games = shared_seat_games(games, replaced_by)
        for record in apply_substitute_rule(by_event[event.pk], replaced_by, rule):
            if record.withdrawn or record.substitute:
                continue
            results = tuple(
                SessionResult(i, points, games[record.entry_id][i])
                for i, points in enumerate(record.day_totals)
                if points is not None and games[record.entry_id][i] > 0
            )
            kept[record.entry_id] = (results, event)
    return kept


def _players(records, entries) -> dict[int, SeasonPlayer]:
    """One season player per person, their sessions from every event they played."""
    sessions: dict[int, list[SessionResult]] = {}
    names: dict[int, tuple[str, str]] = {}
    latest: dict[int, int] = {}
    for entry_id, (results, _) in records.items():
        _, _, player_id, name, club, _ = entries[entry_id]
        sessions.setdefault(player_id, []).extend(results)
        last = max((r.session for r in results), default=-1)
        if player_id not in names or last > latest[player_id]:
            # the club of the person's latest session in the season: as it was then
            names[player_id], latest[player_id] = (name, club), last
    return {
        pid: SeasonPlayer(pid, names[pid][0], names[pid][1], tuple(sorted(found, key=_index)))
        for pid, found in sessions.items()
    }


def _index(result: SessionResult) -> int:
    return result.session


@dataclass(frozen=True)
class PlayerSession:
    session: SeasonSession
    table: int | None
    total: int | None
    games: int
    counted_in_best: bool


def player_season(result: SeasonStandings, player_id: int) -> list[PlayerSession] | None:
    """Each session of the season for one player: table, score, games, and whether it is one of
    their best N. None when the player has no session. One query (their tables)."""
    row = result.row_of(player_id)
    if row is None:
        return None
    played = {s.session: s for s in row.player.sessions}
    entry_by_session = result.entries.get(player_id, {})
    tables = dict(
        Seat.objects.filter(
            entry_id__in=set(entry_by_session.values()),
            day_id__in=[s.day_id for s in result.sessions],
        ).values_list("day_id", "table__number")
    )
    best = set(row.best_sessions)
    return [
        PlayerSession(
            session=session,
            table=tables.get(session.day_id) if session.index in entry_by_session else None,
            total=played[session.index].total if session.index in played else None,
            games=played[session.index].games if session.index in played else 0,
            counted_in_best=session.index in best,
        )
        for session in result.sessions
    ]
