"""django-tables2 tables over the rows of ``scoring.standings`` (already ranked, in memory)."""
from __future__ import annotations

import django_tables2 as tables
from django.core.paginator import EmptyPage, PageNotAnInteger
from django_tables2 import RequestConfig
from django_tables2.data import TableListData
from django_tables2.utils import OrderBy

from .standings import Standings, club_rank_labels, rank_label

NUMERIC = {"th": {"class": "num"}, "td": {"class": "num"}}


def _text_key(value):
    return (value or "").casefold()


def standings_rows(result: Standings) -> list[dict]:
    """One dict per ranked row; ``position`` keeps the ranking's own order for "sort by rank"."""
    rows = []
    for position, row in enumerate(result.rows):
        record = row.record
        item = {
            "position": position,
            "rank": rank_label(row),
            "tied": row.tied,
            "withdrawn": record.withdrawn,
            "number": record.player_number,
            "name": record.name,
            "club": record.club,
            "total": row.total,
            "outs": record.games_out,
            "games": record.games_played,
        }
        for day, points in zip(result.day_numbers, record.day_totals):
            item[f"day_{day}"] = points
        rows.append(item)
    return rows


def club_rows(result: Standings) -> list[dict]:
    return [
        {"rank": label, "club": club.club, "players": club.players, "total": club.total,
         "average": f"{club.average:.1f}"}
        for label, club in zip(club_rank_labels(result.clubs), result.clubs)
    ]


def search_rows(rows: list[dict], query: str) -> list[dict]:
    """Rows whose name or club contains the words, or whose player number is the query."""
    query = (query or "").strip()
    if not query:
        return rows
    if query.lstrip("#").isdigit():
        number = int(query.lstrip("#"))
        return [r for r in rows if r["number"] == number]
    needle = query.casefold()
    return [
        r for r in rows if needle in r["name"].casefold() or needle in (r["club"] or "").casefold()
    ]


class RankedListData(TableListData):
    """Sorts with plain key functions.

    django-tables2's generic list sort compares rows through accessors pairwise, which is
    slow on 2,000 rows, and would sort the printed ranks ("=2", "withdrawn") as text; the rows
    are already ranked, so "rank" sorts by the ranking's own position.
    """

    KEYS = {"rank": lambda r: r["position"], "name": lambda r: _text_key(r["name"]),
            "club": lambda r: _text_key(r["club"])}

    def order_by(self, aliases):
        # Stable sorts from the least significant key up give the multi-column order.
        for alias in reversed(list(aliases)):
            order = OrderBy(alias)
            name = order.bare
            key = self.KEYS.get(name) or (lambda r, name=name: r[name])
            self.data.sort(key=key, reverse=order.is_descending)


class PlainCellsTable(tables.Table):
    """A table whose cells print the row values as they are, rendered in one pass.

    tables2 works out each cell's attributes and value through its column machinery, which
    made a page of 100 standings rows take three times as long to render (longer than the
    selector itself); the rows are final already, so ``body`` reads them straight from the row
    dicts, with each column's attributes worked out once. Headers, sorting and pagination stay
    tables2's.
    """

    def body(self) -> list[tuple[str, list[tuple[str, object]]]]:
        columns = [(c.name, c.attrs["td"].as_html(), c.default) for c in self.columns]
        rows = self.page.object_list if getattr(self, "page", None) else self.rows
        body = []
        for row in rows:
            record = row.record
            cells = []
            for name, attrs, default in columns:
                value = record.get(name)
                cells.append((attrs, default if value is None or value == "" else value))
            body.append((row.attrs.as_html(), cells))
        return body


class StandingsTable(PlainCellsTable):
    rank = tables.Column("Rank", default="withdrawn",
                         attrs={"th": {"class": "num"}, "td": {"class": "num rank"}})
    number = tables.Column("No.", attrs=NUMERIC)
    name = tables.Column("Player")
    club = tables.Column("Club", default="")
    total = tables.Column("Total", attrs={"th": {"class": "num"}, "td": {"class": "num total"}})
    outs = tables.Column("Outs", attrs=NUMERIC)
    games = tables.Column("Games", attrs=NUMERIC)

    class Meta:
        attrs = {"class": "grid standings", "id": "standings"}
        row_attrs = {
            "class": lambda record: "withdrawn" if record["withdrawn"] else
            ("tied" if record["tied"] else ""),
            "data-number": lambda record: record["number"],
        }
        empty_text = "No players match."
        template_name = "scoring/standings_table.html"

    def __init__(self, rows: list[dict], day_numbers, **kwargs):
        extra = [
            (f"day_{day}", tables.Column(f"Day {day}", attrs=NUMERIC)) for day in day_numbers
        ]
        # Day columns sit between club and total, as on the paper standings.
        sequence = ["rank", "number", "name", "club", *(name for name, _ in extra), "total",
                    "outs", "games"]
        super().__init__(RankedListData(rows), extra_columns=extra, sequence=sequence, **kwargs)


class ClubTable(PlainCellsTable):
    rank = tables.Column("Rank", orderable=False, attrs=NUMERIC)
    club = tables.Column("Club", orderable=False)
    players = tables.Column("Players", orderable=False, attrs=NUMERIC)
    total = tables.Column("Total", orderable=False, attrs=NUMERIC)
    average = tables.Column("Average", orderable=False, attrs=NUMERIC)

    class Meta:
        attrs = {"class": "grid clubs", "id": "clubs"}
        empty_text = "No clubs yet: players have no club, or nobody has a score."
        template_name = "scoring/standings_table.html"


def standings_table(result: Standings, request, query: str, per_page: int | None):
    """The standings table for a request: searched, sorted by ``?sort=``, one page of
    ``per_page`` rows (``?page=``; past the end shows the last) or every row when None."""
    table = StandingsTable(search_rows(standings_rows(result), query), result.day_numbers)
    RequestConfig(request, paginate=False).configure(table)
    if per_page:
        try:
            table.paginate(page=request.GET.get("page", 1), per_page=per_page)
        except PageNotAnInteger:
            table.paginate(page=1, per_page=per_page)
        except EmptyPage:
            table.paginate(page=table.paginator.num_pages, per_page=per_page)
    return table
