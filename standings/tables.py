"""The standings page's django-tables2 tables, built from the columns in ``standings_columns``.

The rows are ``standings.read`` rows, already ranked and in memory; tables2 adds the
headers, sorting by ``?sort=`` and pagination.
"""

from __future__ import annotations

from typing import Any, Generic, NamedTuple, TypeVar

import django_tables2 as tables
from django.core.paginator import EmptyPage, PageNotAnInteger
from django_tables2 import RequestConfig
from django_tables2.data import TableListData
from django_tables2.utils import OrderBy

from core.search import matches
from domain.ranking import RankedRow
from standings.columns import CLUB_COLUMNS, Column, Output, club_lines, player_columns
from standings.read import Standings

Row = TypeVar("Row")


class PageRow(NamedTuple, Generic[Row]):
    """A ranked row (the event's or the season's) and its place in the ranking, which "sort by
    rank" restores."""

    position: int
    row: Row


def search_rows(rows: list[PageRow[RankedRow]], query: str) -> list[PageRow[RankedRow]]:
    """Rows whose name or club contains the words, or whose player number is the query."""
    query = (query or "").strip()
    if not query:
        return rows
    if query.lstrip("#").isdigit():
        number = int(query.lstrip("#"))
        return [r for r in rows if r.row.record.player_number == number]
    return [r for r in rows if matches(query, r.row.record.name, r.row.record.club or "")]


class RankedListData(TableListData):
    """Sorts with each column's own sort key.

    django-tables2's generic list sort compares rows through accessors pairwise, which is
    slow on 2,000 rows, and would sort the printed ranks ("=2", "withdrawn") as text; the rows
    are already ranked, so "rank" sorts by the ranking's own position.
    """

    def __init__(self, rows: list[PageRow[Any]], columns: list[Column]):
        super().__init__(rows)
        self.keys: dict[str, Any] = {
            column.key: (lambda r, column=column: column.sort_key(r.row)) for column in columns
        }
        self.keys["rank"] = lambda r: r.position

    def order_by(self, aliases):
        # Stable sorts from the least significant key up give the multi-column order.
        for alias in reversed(list(aliases)):
            order = OrderBy(alias)
            self.data.sort(key=self.keys[order.bare], reverse=order.is_descending)


def _tables2_columns(
    columns: list[Column], orderable: bool, heading_css: bool = False
) -> list[tuple[str, tables.Column]]:
    made = []
    for column in columns:
        # Each cell names its column, so a phone can show rank, player and total only.
        key = f"col-{column.key}"
        heading = f"num {key}" if column.numeric else key
        if heading_css and column.css.get(Output.PAGE):
            heading = f"{heading} {column.css[Output.PAGE]}"
        attrs = {
            "th": {"class": heading},
            "td": {"class": f"{column.cell_class(Output.PAGE)} {key}".strip()},
        }
        made.append(
            (
                column.key,
                tables.Column(column.heading_in(Output.PAGE), orderable=orderable, attrs=attrs),
            )
        )
    return made


class PlainCellsTable(tables.Table):
    """A table whose cells are the columns' printed values, rendered in one pass.

    tables2 works out each cell's attributes and value through its column machinery, which
    costs more than the selector itself on a page of 100 rows; here ``body`` prints each row of
    the current page through the column definitions, with each column's attributes worked out
    once. Headers, sorting and pagination stay tables2's.
    """

    def __init__(
        self, data, columns: list[Column], *, orderable: bool, heading_css: bool = False, **kwargs
    ):
        """``heading_css``: headings carry their column's page class too (the season's phone
        view keeps the column it is ranked by, whichever that is)."""
        self.definitions = columns
        self.link_column = ""  # the key of a column whose cells link to ``link(row)``
        super().__init__(
            data,
            extra_columns=_tables2_columns(columns, orderable, heading_css),
            sequence=[column.key for column in columns],
            **kwargs,
        )

    @staticmethod
    def source(record: Any) -> Any:
        """What the column definitions read for one row of the table's data."""
        return record

    def link(self, record: Any) -> str:
        return ""

    def body(self) -> list[tuple[str, list[tuple[str, str, str]]]]:
        attrs = [self.columns[column.key].attrs["td"].as_html() for column in self.definitions]
        rows = self.page.object_list if getattr(self, "page", None) else self.rows
        body = []
        for row in rows:
            source = self.source(row.record)
            cells = [
                (
                    html,
                    column.printed(source, Output.PAGE),
                    self.link(source) if column.key == self.link_column else "",
                )
                for html, column in zip(attrs, self.definitions, strict=True)
            ]
            body.append((row.attrs.as_html(), cells))
        return body


def _row_class(record: PageRow[RankedRow]) -> str:
    if record.row.record.withdrawn:
        return "withdrawn"
    return "tied" if record.row.tied else ""


# What every standings table and board says while it ranks nobody (no players, or all withdrew
# before play); "No players match" only answers a search.
NOBODY_RANKED = "Nobody is ranked yet."


class StandingsTable(PlainCellsTable):
    class Meta:
        attrs = {"class": "grid standings", "id": "standings"}
        row_attrs = {
            "class": _row_class,
            "data-number": lambda record: record.row.record.player_number,
        }
        template_name = "standings/standings_table.html"

    def __init__(
        self, rows: list[PageRow[RankedRow]], columns: list[Column], player_url=None, **kwargs
    ):
        super().__init__(RankedListData(rows, columns), columns, orderable=True, **kwargs)
        self.player_url = player_url
        self.link_column = "name" if player_url else ""

    def link(self, record: RankedRow) -> str:
        return self.player_url(record.record.player_number) if self.player_url else ""

    @staticmethod
    def source(record: PageRow[RankedRow]) -> RankedRow:
        return record.row


class ClubTable(PlainCellsTable):
    class Meta:
        attrs = {"class": "grid clubs", "id": "clubs"}
        empty_text = "No clubs yet: players have no club, or nobody has a score."
        template_name = "standings/standings_table.html"

    def __init__(self, result: Standings, **kwargs):
        super().__init__(
            club_lines(result), CLUB_COLUMNS.for_output(Output.PAGE), orderable=False, **kwargs
        )


def standings_table(result: Standings, request, query: str, per_page: int | None, player_url=None):
    """The standings table for a request: searched, sorted by ``?sort=``, one page of
    ``per_page`` rows (``?page=``; past the end shows the last) or every row when None."""
    rows = [PageRow(position, row) for position, row in enumerate(result.rows)]
    columns = player_columns(
        result.day_numbers, result.tournament.rules.sessions_per_day
    ).for_output(Output.PAGE)
    empty = f"No players match “{query}”." if query and rows else NOBODY_RANKED
    table = StandingsTable(search_rows(rows, query), columns, player_url, empty_text=empty)
    RequestConfig(request, paginate=False).configure(table)
    if per_page:
        try:
            table.paginate(page=request.GET.get("page", 1), per_page=per_page)
        except PageNotAnInteger:
            table.paginate(page=1, per_page=per_page)
        except EmptyPage:
            table.paginate(page=table.paginator.num_pages, per_page=per_page)
    return table
