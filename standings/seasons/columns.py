"""The season standings columns, defined once for the page, the PDF, the workbook and the
command line (the ``Column`` machinery of ``standings.columns``)."""

from __future__ import annotations

from core.formats import AVERAGE_CELL_FORMAT
from domain.season_ranking import SeasonRow
from standings.columns import NOT_PLAYED, Column, ColumnSet, Output
from standings.seasons.read import SeasonSession, SeasonStandings, season_rank_label

# Averages per game differ in the second decimal where a season is decided.
SEASON_AVERAGE_FORMAT = AVERAGE_CELL_FORMAT + "0"
_NOT_PLAYED = {Output.PAGE: NOT_PLAYED, Output.PDF: NOT_PLAYED, Output.COMMAND: "-"}
# The figure the season is ranked by is the one a phone shows beside the name.
_RANKED = {Output.PAGE: "ranked"}
# The person's id in the directory, the same at every event: not an event's "Player ID" (its
# entry number, which differs from event to event), so the heading says so. The workbook alone
# has it, for joining the season's rows to other sheets; the page and the PDF have the names.
PLAYER_ID_HEADING = "Player ID (all events)"


def _average(row: SeasonRow) -> float | None:
    return None if row.average is None else round(float(row.average), 2)


def _average_text(row: SeasonRow) -> str:
    return "" if row.average is None else f"{float(row.average):.2f}"


def _session_column(session: SeasonSession) -> Column:
    def points(row: SeasonRow) -> int | None:
        found = next((s for s in row.player.sessions if s.session == session.index), None)
        return None if found is None else found.total

    def printed(row: SeasonRow) -> str:
        value = points(row)
        if value is None:
            return ""
        # A session among the best N is marked, so the sum can be checked by eye.
        return f"{value}*" if session.index in row.best_sessions else str(value)

    return Column(
        f"session_{session.index + 1}",
        session.short_label,
        points,
        text=printed,
        blank=_NOT_PLAYED,
        headings={Output.WORKBOOK: session.label},
        outputs=frozenset({Output.PAGE, Output.PDF, Output.WORKBOOK}),
    )


def season_columns(result: SeasonStandings) -> ColumnSet:
    best_of = result.season.best_of
    by_average = best_of is None
    before = (
        Column(
            "rank",
            "Rank",
            lambda row: row.rank,
            text=season_rank_label,
            css={Output.PAGE: "rank"},
        ),
        Column(
            "player_id",
            PLAYER_ID_HEADING,
            lambda row: row.player.player_id,
            outputs=frozenset({Output.WORKBOOK}),
        ),
        Column("name", "Player", lambda row: row.player.name, numeric=False),
        Column("club", "Club", lambda row: row.player.club, numeric=False),
        Column(
            "sessions",
            "Sessions",
            lambda row: row.attended,
            text=lambda row: row.attendance,
            headings={Output.WORKBOOK: f"Sessions (of {len(result.sessions)})"},
        ),
    )
    sessions = tuple(_session_column(s) for s in result.sessions)
    after = [
        Column("games", "Games", lambda row: row.games),
        Column("total", "Total", lambda row: row.total),
    ]
    if not by_average:
        after.append(
            Column(
                "best",
                f"Best {best_of}",
                lambda row: row.best_total,
                blank=_NOT_PLAYED,
                bold=True,
                css=_RANKED,
            )
        )
    after.append(
        Column(
            "average",
            "Avg/game",
            _average,
            text=_average_text,
            headings={Output.WORKBOOK: "Average per game"},
            bold=by_average,
            css=_RANKED if by_average else {},
            cell_format=SEASON_AVERAGE_FORMAT,
        )
    )
    return ColumnSet((*before, *sessions, *after))
