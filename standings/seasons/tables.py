"""The season page's django-tables2 table: the event standings' search and ``?sort=`` over the
season's rows, with the columns of ``season_columns``.

The rows are ranked already; sorting by another column only reorders them and each row keeps
the rank it prints, so "sort by rank" restores the ranking.
"""

from __future__ import annotations

from django_tables2 import RequestConfig
from django_tables2.utils import OrderBy

from core.search import matches
from domain.season_ranking import SeasonRow
from standings.columns import Column, Output
from standings.seasons.columns import season_columns
from standings.seasons.read import SeasonStandings
from standings.tables import PageRow, PlainCellsTable, RankedListData


def search_season_rows(rows: list[PageRow[SeasonRow]], query: str) -> list[PageRow[SeasonRow]]:
    """Rows whose name or club holds the words, as every search compares them (accents and
    case do not matter)."""
    query = (query or "").strip()
    if not query:
        return rows
    return [r for r in rows if matches(query, r.row.player.name, r.row.player.club or "")]


class SeasonListData(RankedListData):
    """A season's cells may be empty (a session not played, no best N yet, no rank): those rows
    go after the others in either direction, as an empty cell says least about the column."""

    def order_by(self, aliases):
        for alias in reversed(list(aliases)):
            order = OrderBy(alias)
            key = self.keys[order.bare]
            present = [r for r in self.data if key(r) is not None]
            present.sort(key=key, reverse=order.is_descending)
            self.data[:] = present + [r for r in self.data if key(r) is None]


def _row_class(record: PageRow[SeasonRow]) -> str:
    return "unranked" if record.row.rank is None else ""


class SeasonTable(PlainCellsTable):
    class Meta:
        attrs = {"class": "grid season", "id": "season-standings"}
        row_attrs = {"class": _row_class}
        template_name = "standings/standings_table.html"

    def __init__(self, rows: list[PageRow[SeasonRow]], columns: list[Column], player_url, **kwargs):
        super().__init__(
            SeasonListData(rows, columns), columns, orderable=True, heading_css=True, **kwargs
        )
        self.player_url = player_url
        self.link_column = "name"

    def link(self, record: SeasonRow) -> str:
        return self.player_url(record.player.player_id)

    @staticmethod
    def source(record: PageRow[SeasonRow]) -> SeasonRow:
        return record.row


def season_table(result: SeasonStandings, request, query: str, player_url) -> SeasonTable:
    """The season's table for a request: searched by ``query``, sorted by ``?sort=``, every
    row on one page (a season lists its club's players, not an open event's thousands)."""
    rows = [PageRow(position, row) for position, row in enumerate(result.rows)]
    columns = season_columns(result).for_output(Output.PAGE)
    empty = f"No players match “{query}”." if query else "No confirmed games yet."
    table = SeasonTable(search_season_rows(rows, query), columns, player_url, empty_text=empty)
    RequestConfig(request, paginate=False).configure(table)
    return table
