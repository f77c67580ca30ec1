"""The organiser's day board: every table of a day as a tile coloured by its progress.

A picture of the room rather than a grid of numbers: which tables are done, which have games
waiting for the desk, which are still playing, which have not started, and which have gone quiet
(scoring.table_pace). Four queries whatever the size of the day (the tables with their player
counts, the live sheets, the games marked not played, the event's first entries).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max

from scoring.desk_calls import OpenCall, calls_by_table, open_calls
from scoring.models import SheetState
from scoring.progress import FINISHED, NOT_PLAYED, game_states
from scoring.table_pace import QuietTable, quiet_tables
from tournaments.models import Day, Table

# A tile's state, in the order the legend lists them; the page colours them by these names.
DONE, WAITING, PLAYING, NOT_STARTED = "done", "waiting", "playing", "not-started"
LEGEND = (
    (DONE, "every game confirmed or marked not played"),
    (WAITING, "games for the desk to confirm"),
    (PLAYING, "playing, nothing to confirm"),
    (NOT_STARTED, "no game entered yet"),
)
STATE_WORDS = dict(LEGEND)
# One letter per game state in the board's version ("empty" and "entered" share a first letter).
PIP = {"empty": "-", SheetState.ENTERED: "e", SheetState.CONFIRMED: "c", NOT_PLAYED: "n"}


@dataclass
class Tile:
    number: int
    players: int
    games: list[str]  # per game of the day: "empty", "entered", "confirmed" or NOT_PLAYED
    last_entry: object = None  # when the table's last sheet was entered
    quiet: QuietTable | None = None  # its next game is overdue: the desk walks over
    calls: list[OpenCall] = field(default_factory=list)  # it called the desk, not answered yet

    @property
    def confirmed(self) -> int:
        return self.games.count(SheetState.CONFIRMED)

    @property
    def not_played(self) -> int:
        return self.games.count(NOT_PLAYED)

    @property
    def waiting(self) -> int:
        return self.games.count(SheetState.ENTERED)

    @property
    def state(self) -> str:
        # Finished as the standings count it (scoring.progress.FINISHED): a game marked not
        # played leaves nothing to wait for.
        if self.games and all(state in FINISHED for state in self.games):
            return DONE
        if self.waiting:
            return WAITING
        return PLAYING if self.confirmed or self.not_played else NOT_STARTED

    @property
    def words(self) -> str:
        return STATE_WORDS[self.state]

    @property
    def css_class(self) -> str:
        marks = (" tile-quiet" if self.quiet else "") + (" tile-calling" if self.calls else "")
        return f"tile tile-{self.state}{marks}"

    @property
    def counts(self) -> str:
        """ "5/6 confirmed · 1 not played · 1 to confirm": the tile's games in figures. Never
        "waiting": in the standings that means a game not played yet."""
        parts = [f"{self.confirmed}/{len(self.games)} confirmed"]
        if self.not_played:
            parts.append(f"{self.not_played} not played")
        if self.waiting:
            parts.append(f"{self.waiting} to confirm")
        return " · ".join(parts)

    @property
    def spoken_counts(self) -> str:
        """The counts as a screen reader says them."""
        parts = [f"{self.confirmed} of {len(self.games)} confirmed"]
        if self.not_played:
            parts.append(f"{self.not_played} not played")
        parts.append(f"{self.waiting} for the desk to confirm")
        return ", ".join(parts)


@dataclass
class DayBoard:
    day: Day
    games: int
    tiles: list[Tile] = field(default_factory=list)

    def count(self, state: str) -> int:
        return sum(1 for tile in self.tiles if tile.state == state)

    @property
    def summary(self) -> list[tuple[str, str, int]]:
        return [(state, words, self.count(state)) for state, words in LEGEND]

    @property
    def quiet(self) -> list[Tile]:
        return [tile for tile in self.tiles if tile.quiet is not None]

    @property
    def calls(self) -> list[OpenCall]:
        """Every call waiting for the desk, oldest first."""
        return sorted((c for tile in self.tiles for c in tile.calls), key=lambda c: c.called_at)

    @property
    def version(self) -> str:
        """Changes whenever a tile does, when a table goes quiet, and when a call comes, is
        answered or grows a minute older: what the refresh script compares."""
        return ";".join(
            f"{t.number}:{''.join(PIP[g] for g in t.games)}{'q' if t.quiet else ''}"
            + "".join(f"c{call.pk}.{call.minutes}" for call in t.calls)
            for t in self.tiles
        )


def day_board(day: Day) -> DayBoard:
    games = day.tournament.rules.games_per_day
    tables = list(
        Table.objects.filter(day=day)
        .annotate(players=Count("seats", distinct=True), last_entry=Max("sheets__entered_at"))
        .order_by("number")
        .values_list("pk", "number", "players", "last_entry")
    )
    states = game_states([day.pk], [pk for pk, *_ in tables])
    cells = {
        pk: [states[pk].get(game, "empty") for game in range(1, games + 1)] for pk, *_ in tables
    }
    quiet = quiet_tables(day, {pk: row.count("empty") for pk, row in cells.items()})
    calls = calls_by_table(open_calls(day))
    board = DayBoard(day, games)
    for pk, number, players, last_entry in tables:
        tile = Tile(number, players, cells[pk], last_entry, quiet.get(pk), calls.get(pk, []))
        board.tiles.append(tile)
    return board
