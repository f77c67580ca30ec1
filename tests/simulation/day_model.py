"""The simulated days' reference model: what should be true after each step, in plain Python.

It holds the score record as the machine was told it went (every stored version of every
game, which is live, what each live sheet says, which games were marked not played), who sits
where (read from the database after each seating change: seating is the seating tests'
subject, not this one's), who withdrew or substitutes, and the tie-breaks. From that alone it
works out the standings the pages must show: the default cut (the last game every table of the
latest day in play has finished), each player's total, games, short mark and rank. It imports
nothing from the app's ranking or standings code.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

ENTERED, CONFIRMED, SUPERSEDED, REJECTED = "entered", "confirmed", "superseded", "rejected"


@dataclass
class Version:
    """One stored version of one game at one table, as the history must hold it."""

    scores: dict[int, int]
    went_out: int | None
    engine: int
    state: str
    device: str = ""


@dataclass
class SeatM:
    entry: int
    joined: int | None = None
    left: int | None = None
    replaces: int | None = None

    def plays(self, game: int) -> bool:
        return (self.joined is None or self.joined <= game) and (
            self.left is None or self.left >= game
        )


@dataclass
class TableM:
    pk: int
    number: int
    seats: list[SeatM]
    versions: dict[int, list[Version]] = field(default_factory=dict)  # game -> versions 1..
    unplayed: set[int] = field(default_factory=set)
    # Every mark and undo that was done, in order: (game, "marked" or "undone", reason).
    unplayed_history: list[tuple[int, str, str]] = field(default_factory=list)

    def live(self, game: int) -> Version | None:
        for version in self.versions.get(game, []):
            if version.state in (ENTERED, CONFIRMED):
                return version
        return None

    def live_version(self, game: int) -> int:
        """The number of the live version, 0 when the game has none (what a form is based on)."""
        for number, version in enumerate(self.versions.get(game, []), start=1):
            if version.state in (ENTERED, CONFIRMED):
                return number
        return 0

    def playing(self, game: int) -> list[int]:
        return [s.entry for s in self.seats if s.plays(game)]

    def state(self, game: int) -> str:
        live = self.live(game)
        if live is not None:
            return live.state
        return "not played" if game in self.unplayed else "empty"

    def finished(self, games: int) -> set[int]:
        return {n for n in range(1, games + 1) if self.state(n) in (CONFIRMED, "not played")}

    def store(self, game: int, version: Version) -> int:
        """A new version: the live one before it is superseded. Its number."""
        live = self.live(game)
        if live is not None:
            live.state = SUPERSEDED
        self.versions.setdefault(game, []).append(version)
        return len(self.versions[game])


@dataclass
class DayM:
    number: int
    pk: int
    closed: bool = False
    tables: dict[int, TableM] = field(default_factory=dict)  # by table number

    @property
    def started(self) -> bool:
        """Any sheet typed, whatever became of it: the roster is fixed from then on."""
        return any(t.versions for t in self.tables.values())


@dataclass
class EntryM:
    pk: int
    number: int
    name: str
    status: str  # "registered", "checked_in", "withdrawn"
    substitute: bool = False
    flight: str = ""


@dataclass(frozen=True)
class RowM:
    """One standings row as the model expects it."""

    name: str
    total: int
    games: int
    short: bool
    rank: int | None
    tied: bool
    withdrawn: bool
    substitute: bool
    late: int = 0  # missed games the event's late rule credited


@dataclass
class StandingsM:
    title: str
    rows: dict[str, RowM]
    to_confirm: int
    entered: int


@dataclass
class Model:
    games_per_day: int
    days: dict[int, DayM]
    entries: dict[int, EntryM] = field(default_factory=dict)
    tie_breaks: tuple[str, ...] = ()
    # The hidden finish: public standings stop after (day, game), game None for the whole day.
    hidden: tuple[int, int | None] | None = None
    # What a late player's missed games count: "nothing", "highest" or "average".
    late_rule: str = "nothing"
    # A final on the last day: "" for none, else how it counts ("own" or "added"), played by
    # the best ``final_qualifiers`` overall after the days before it, at one table.
    final: str = ""
    final_qualifiers: int = 0

    @property
    def started(self) -> bool:
        return any(day.started for day in self.days.values())

    # --- the default cut -------------------------------------------------------------
    def default_cut(self) -> tuple[int | None, int | None]:
        """(day, game) of the mid-day default view; (None, None) for everything."""
        in_play = [
            d
            for d in self.days.values()
            if any(t.finished(self.games_per_day) for t in d.tables.values())
        ]
        if not in_play:
            return None, None
        day = max(in_play, key=lambda d: d.number)
        finished = [t.finished(self.games_per_day) for t in day.tables.values()]
        runs = []
        for games in finished:
            count = 0
            while count + 1 in games:
                count += 1
            runs.append(count)
        common = min(runs)
        if all(games == set(range(1, common + 1)) for games in finished):
            return None, None
        if common:
            return day.number, common
        return (day.number - 1, None) if day.number > 1 else (None, None)

    # --- the standings ---------------------------------------------------------------
    def public_cut(self, cut_day, cut_game) -> tuple[int | None, int | None]:
        """The earlier of the cut and the hidden finish, in play order."""
        if self.hidden is None:
            return cut_day, cut_game
        days, games = max(self.days), self.games_per_day
        asked = (cut_day or days, cut_game or games)
        hidden = (self.hidden[0], self.hidden[1] or games)
        if asked <= hidden:
            return cut_day, cut_game
        return hidden[0], None if hidden[1] == games else hidden[1]

    def standings(self, *, public: bool = False, flight: str = "") -> StandingsM:
        """Every player's standings, or with ``flight`` that flight's players ranked among
        themselves (their short marks against the most games any of them counted)."""
        cut_day, cut_game = self.default_cut()
        if public:
            cut_day, cut_game = self.public_cut(cut_day, cut_game)
        last = cut_day if cut_day is not None else max(self.days)

        def counts(day: int, game: int) -> bool:
            if day > last:
                return False
            return cut_game is None or day < last or game <= cut_game

        seated_days = [d for d in self.days.values() if d.tables and d.number <= last]
        stats: dict[int, list[int]] = {}  # entry -> [total, games, outs, worst]
        expected = settled = entered = 0
        for day in seated_days:
            games = self.games_per_day if not (cut_game and day.number == last) else cut_game
            expected += len(day.tables) * games
            for table in day.tables.values():
                for n in range(1, self.games_per_day + 1):
                    if not counts(day.number, n):
                        continue
                    live = table.live(n)
                    settled += n in table.unplayed or (live is not None and live.state == CONFIRMED)
                    entered += live is not None and live.state == ENTERED
                    if live is None or live.state != CONFIRMED:
                        continue
                    for entry, points in live.scores.items():
                        s = stats.setdefault(entry, [0, 0, 0, -1])
                        s[0] += points
                        s[1] += 1
                        s[2] += live.went_out == entry
                        s[3] = max(s[3], points)
        late = self.late_credit(seated_days, counts)
        seated = {s.entry for d in seated_days for t in d.tables.values() for s in t.seats}
        shown = set(stats) | (seated if seated_days else set(self.entries))
        if flight:
            shown = {e for e in shown if self.entries[e].flight == flight}

        def counted(entry_id: int) -> int:
            return stats.get(entry_id, [0, 0])[1] + late.get(entry_id, (0, 0))[1]

        most = max((counted(e) for e in shown), default=0)
        rows = {}
        for entry_id in shown:
            entry = self.entries[entry_id]
            total, games, outs, worst = stats.get(entry_id, [0, 0, 0, -1])
            total += late.get(entry_id, (0, 0))[0]
            rows[entry_id] = [entry, total, games, outs, worst]
        ranked = self._rank(rows)
        result = {}
        for entry_id, (entry, total, games, _, _) in rows.items():
            rank, tied = ranked.get(entry_id, (None, False))
            result[entry.name] = RowM(
                entry.name,
                total,
                games,
                counted(entry_id) < most,
                rank,
                tied,
                entry.status == "withdrawn",
                entry.substitute,
                late.get(entry_id, (0, 0))[1],
            )
        if self.final and last == max(self.days) and self.days[last].tables:
            self.final_order(result, rows, shown, counted, counts)
        title = "Standings"
        if cut_game is not None:
            title = f"Standings after game {cut_game} of day {last}"
        elif cut_day is not None:
            title = f"Standings after day {cut_day}"
        if flight:
            title += f" \u00b7 Flight {flight}"
        return StandingsM(title, result, max(0, expected - settled), entered)

    # --- a final ----------------------------------------------------------------------
    def _tie_key(self, total: int, outs: int, worst: int) -> tuple:
        k: tuple = (total,)
        for name in self.tie_breaks:
            if name == "most_outs":
                k += (-outs,)
            elif name == "lowest_worst_game":
                k += ((1, 0) if worst < 0 else (0, worst),)
        return k

    def qualifying_finished(self) -> bool:
        """Every game of every table of every day before the final confirmed or not played."""
        before = [d for n, d in self.days.items() if n < max(self.days)]
        return all(
            d.tables
            and all(
                len(t.finished(self.games_per_day)) == self.games_per_day for t in d.tables.values()
            )
            for d in before
        )

    def qualifiers(self) -> set[int]:
        """Who goes through: the best ``final_qualifiers`` ranked players after the days
        before the final, and everyone level with the last of them on total and every
        tie-break (the organiser decides; all go through)."""
        final_day = max(self.days)
        stats: dict[int, list[int]] = {}
        seated: set[int] = set()
        for day in self.days.values():
            if day.number >= final_day:
                continue
            for table in day.tables.values():
                seated |= {s.entry for s in table.seats}
                for n in range(1, self.games_per_day + 1):
                    live = table.live(n)
                    if live is None or live.state != CONFIRMED:
                        continue
                    for entry, points in live.scores.items():
                        st = stats.setdefault(entry, [0, 0, -1])
                        st[0] += points
                        st[1] += live.went_out == entry
                        st[2] = max(st[2], points)
        late = self.late_credit(
            [d for d in self.days.values() if d.number < final_day and d.tables],
            lambda day, game: day < final_day,
        )
        keys = {}
        for entry_id in set(stats) | seated:
            entry = self.entries[entry_id]
            if entry.status == "withdrawn" or entry.substitute:
                continue
            total, outs, worst = stats.get(entry_id, [0, 0, -1])
            keys[entry_id] = self._tie_key(total + late.get(entry_id, (0, 0))[0], outs, worst)
        ordered = sorted(keys.values())
        if len(ordered) <= self.final_qualifiers:
            return set(keys)
        edge = ordered[self.final_qualifiers - 1]
        return {e for e, k in keys.items() if k <= edge}

    def final_order(self, result, rows, shown, counted, counts) -> None:
        """``result`` (name -> RowM) re-ranked with the final first: finalists by the final's
        own total (or the final added to the rest), then the tie-breaks over every game;
        everyone else after them by total and tie-breaks, ranks counting on from the
        finalists'. A total is short only against its own part. A finalist who withdrew shows
        the total of the days before the final."""
        final_day = max(self.days)
        finalists = {s.entry for t in self.days[final_day].tables.values() for s in t.seats}
        own: dict[int, int] = {}
        for table in self.days[final_day].tables.values():
            for n in range(1, self.games_per_day + 1):
                live = table.live(n)
                if live is None or live.state != CONFIRMED or not counts(final_day, n):
                    continue
                for entry, points in live.scores.items():
                    own[entry] = own.get(entry, 0) + points

        def shown_total(entry_id: int) -> int:
            total = rows[entry_id][1]
            if entry_id not in finalists:
                return total
            return total if self.final == "added" else own.get(entry_id, 0)

        def active(entry_id: int) -> bool:
            entry = self.entries[entry_id]
            return entry.status != "withdrawn" and not entry.substitute

        ahead = [e for e in shown if e in finalists]
        rest = [e for e in shown if e not in finalists]
        ranked_ahead = sum(1 for e in ahead if active(e))
        for part, start in ((ahead, 1), (rest, ranked_ahead + 1)):
            keys = {
                e: self._tie_key(shown_total(e), rows[e][3], rows[e][4]) for e in part if active(e)
            }
            most = max((counted(e) for e in part), default=0)
            for e in part:
                entry = self.entries[e]
                k = keys.get(e)
                rank = start + sum(1 for o in keys.values() if o < k) if k is not None else None
                tied = k is not None and list(keys.values()).count(k) > 1
                total = shown_total(e) if k is not None else rows[e][1] - own.get(e, 0)
                result[entry.name] = replace(
                    result[entry.name], total=total, rank=rank, tied=tied, short=counted(e) < most
                )

    def late_credit(self, seated_days, counts) -> dict[int, tuple[int, int]]:
        """{entry: (points, games)} the late rule credits: for each game of the day a late
        player (joined after game 1, nobody replaced) missed that is confirmed at their table
        and in view, the highest of the others' scores in it, or their average rounded half
        up. Worked out here from the model's own record, not by the app's arithmetic."""
        credit: dict[int, tuple[int, int]] = {}
        if self.late_rule == "nothing":
            return credit
        for day in seated_days:
            for table in day.tables.values():
                for seat in table.seats:
                    if seat.joined is None or seat.replaces is not None:
                        continue
                    for n in range(1, seat.joined):
                        live = table.live(n)
                        if not counts(day.number, n) or live is None or live.state != CONFIRMED:
                            continue
                        others = [p for e, p in live.scores.items() if e != seat.entry]
                        if not others:
                            continue
                        if self.late_rule == "highest":
                            points = max(others)
                        else:
                            points = (2 * sum(others) + len(others)) // (2 * len(others))
                        got = credit.get(seat.entry, (0, 0))
                        credit[seat.entry] = (got[0] + points, got[1] + 1)
        return credit

    def _rank(self, rows) -> dict[int, tuple[int, bool]]:
        """Lowest total first; equal on the total and every tie-break chosen share a rank."""

        def key(item):
            _, total, _, outs, worst = item[1]
            k: tuple = (total,)
            for name in self.tie_breaks:
                if name == "most_outs":
                    k += (-outs,)
                elif name == "lowest_worst_game":
                    k += ((1, 0) if worst < 0 else (0, worst),)
            return k

        active = [
            (pk, row)
            for pk, row in rows.items()
            if row[0].status != "withdrawn" and not row[0].substitute
        ]
        keys = sorted(key(item) for item in active)
        ranked = {}
        for pk, row in active:
            k = key((pk, row))
            ranked[pk] = (keys.index(k) + 1, keys.count(k) > 1)
        return ranked


# --- progressive tables ------------------------------------------------------------------
# A session seated by a movement (issue 27), worked out from the model's own record: each
# table's totals of the session before (confirmed games, and the late rule's credit), ranked
# lowest first, ties by the event's tie-breaks and then by seat.


@dataclass(frozen=True)
class MovementM:
    up: int
    down: int
    wrap: bool


def _even_sizes(players: int, most: int) -> list[int]:
    """The sizes a fresh seating uses: fewest tables, within one of each other, larger first."""
    tables = -(-players // most)
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _session_record(model: Model, day: DayM) -> dict[int, list]:
    """{entry: [total or None, outs, worst or -1]} over the day's confirmed games."""
    record: dict[int, list] = {}
    for table in day.tables.values():
        for n in range(1, model.games_per_day + 1):
            live = table.live(n)
            if live is None or live.state != CONFIRMED:
                continue
            for entry, points in live.scores.items():
                r = record.setdefault(entry, [0, 0, -1])
                r[0] += points
                r[1] += live.went_out == entry
                r[2] = max(r[2], points)
    for entry, (points, _) in model.late_credit([day], lambda d, g: True).items():
        if points:  # credited nothing and no game: still no total, as the standings say
            record.setdefault(entry, [0, 0, -1])[0] += points
    return record


def movement_waits(model: Model, day_number: int) -> bool:
    """The session before is not seated, or neither closed nor settled at every table."""
    before = model.days.get(day_number - 1)
    if before is None or not before.tables:
        return True
    games = model.games_per_day
    return not before.closed and any(
        t.finished(games) != set(range(1, games + 1)) for t in before.tables.values()
    )


def movement_tables(
    model: Model, rule: MovementM, day_number: int, present: set[int], most: int
) -> list[set[int]] | None:
    """The tables the movement must give session ``day_number``; None where it must refuse."""
    if movement_waits(model, day_number) or len(_even_sizes(len(present), most)) < 2:
        return None
    before = model.days[day_number - 1]
    record = _session_record(model, before)
    last = len(before.tables)

    def key(entry: int, seat: int) -> tuple:
        total, outs, worst = record.get(entry, [None, 0, -1])
        k: tuple = (total is None, total or 0)
        for name in model.tie_breaks:
            k += (-outs,) if name == "most_outs" else ((1, 0) if worst < 0 else (0, worst),)
        return (*k, seat)

    due: list[tuple[int, tuple, int]] = []  # (table due at, order, entry)
    for number in sorted(before.tables):
        members = [s.entry for s in before.tables[number].seats if s.entry in present]
        ranked = sorted(members, key=lambda e: key(e, members.index(e)))
        up = ranked[: min(rule.up, len(ranked))]
        down = ranked[max(len(up), len(ranked) - rule.down) :]
        for entry in members:
            if entry in up:
                to = number - 1 if number > 1 else (last if rule.wrap and last > 1 else 1)
            elif entry in down:
                to = number + 1 if number < last else (1 if rule.wrap and last > 1 else last)
            else:
                to = number
            due.append((to, key(entry, members.index(entry)), entry))
    seated_before = {entry for _, _, entry in due}
    due += [(last + 1, (entry,), entry) for entry in sorted(present - seated_before)]
    due.sort(key=lambda d: (d[0], d[1]))
    sizes = _even_sizes(len(present), most)
    groups = [[e for to, _, e in due if to == n] for n in range(1, last + 2)]
    groups = [g for g in groups if g]
    if sorted(map(len, groups), reverse=True) != sizes:
        line = [e for _, _, e in due]
        groups = []
        for size in sizes:
            groups.append(line[:size])
            line = line[size:]
    return [set(g) for g in groups]
