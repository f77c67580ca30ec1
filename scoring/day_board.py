"""The organiser's day board: every table of a day as a tile coloured by its progress.

A picture of the room rather than a grid of numbers: which tables are done, which have games
waiting for the desk, which are still playing, which have not started. Two queries whatever the
size of the day (the tables with their player counts, and the live sheets).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max

from scoring.models import LIVE_STATES, GameSheet, SheetState
from tournaments.models import Day, Table

# A tile's state, in the order the legend lists them; the page colours them by these names.
DONE, WAITING, PLAYING, NOT_STARTED = "done", "waiting", "playing", "not-started"
LEGEND = (
    (DONE, "every game confirmed"),
    (WAITING, "games waiting for the desk"),
    (PLAYING, "playing, nothing waiting"),
    (NOT_STARTED, "no game entered yet"),
)
STATE_WORDS = dict(LEGEND)


@dataclass
class Tile:
    number: int
    players: int
    games: list[str]  # per game of the day: "empty", "entered" or "confirmed"
    last_entry: object = None  # when the table's last sheet was entered

    @property
    def confirmed(self) -> int:
        return self.games.count(SheetState.CONFIRMED)

    @property
    def waiting(self) -> int:
        return self.games.count(SheetState.ENTERED)

    @property
    def state(self) -> str:
        if self.games and self.confirmed == len(self.games):
            return DONE
        if self.waiting:
            return WAITING
        return PLAYING if self.confirmed else NOT_STARTED

    @property
    def words(self) -> str:
        return STATE_WORDS[self.state]


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
    def version(self) -> str:
        """Changes whenever a tile does: what the refresh script compares."""
        return ";".join(f"{t.number}:{''.join(g[0] for g in t.games)}" for t in self.tiles)


def day_board(day: Day) -> DayBoard:
    games = day.tournament.rules.games_per_day
    tables = list(
        Table.objects.filter(day=day)
        .annotate(players=Count("seats", distinct=True), last_entry=Max("sheets__entered_at"))
        .order_by("number")
        .values_list("pk", "number", "players", "last_entry")
    )
    live = {
        (table, game): state
        for table, game, state in GameSheet.objects.filter(
            table__day=day, state__in=LIVE_STATES
        ).values_list("table_id", "game__number", "state")
    }
    board = DayBoard(day, games)
    for pk, number, players, last_entry in tables:
        cells = [live.get((pk, game), "empty") for game in range(1, games + 1)]
        board.tiles.append(Tile(number, players, cells, last_entry))
    return board
