"""Printed score sheets: one page per table, laid out like the paper card.

Table number large, players' names across, a row per game with its scheduled engine and a blank
for the engine used, a totals row, a signature line, the hand size for the table's player count,
and the table's private link as a QR code (an embedded PNG image).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import segno
from django.urls import reverse
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from core.formats import weekday_date
from core.pdf_fonts import document_canvas, pdf_fonts, printable
from domain.session_days import session_label
from scoring.schedule import day_games
from scoring.selectors import day_engines, day_tables_with_seats

DEFAULT_BASE_URL = "http://127.0.0.1:8000"


def table_link(base_url: str, table) -> str:
    return base_url.rstrip("/") + reverse("scorekeeper:table", args=[table.link_token])


def qr_png(text: str) -> bytes:
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=4, border=2)
    return out.getvalue()


def _fit_lines(name: str, width: float, size: float) -> tuple[list[str], float]:
    """Split a name over at most two lines and shrink it until it fits the column."""
    words = name.split()
    for font_size in (size, size - 1, size - 2, size - 3):
        if stringWidth(name, pdf_fonts().bold, font_size) <= width:
            return [name], font_size
        if len(words) > 1:
            best = None
            for cut in range(1, len(words)):
                lines = [" ".join(words[:cut]), " ".join(words[cut:])]
                widest = max(stringWidth(line, pdf_fonts().bold, font_size) for line in lines)
                if widest <= width and (best is None or widest < best[0]):
                    best = (widest, lines)
            if best:
                return best[1], font_size
    # Still too wide: keep the whole name on two lines at the smallest size; it may run over.
    half = max(1, len(words) // 2)
    lines = [" ".join(words[:half]), " ".join(words[half:])] if len(words) > 1 else [name]
    return lines, size - 3


MARGIN = 36


def hand_size_line(rules, seats, games: int) -> str:
    """How many play at the table and how many tiles each draws, game by game: one phrase per
    run of games with the same players at the table (a withdrawal or a late player changes
    it; a substitute does not)."""
    runs: list[list[int]] = []  # [first game, last game, players]
    for number in range(1, games + 1):
        players = sum(1 for seat in seats if seat.plays_game(number))
        if runs and runs[-1][2] == players:
            runs[-1][1] = number
        else:
            runs.append([number, number, players])

    def phrase(players: int) -> str:
        hand = rules.hand_size(players)
        return f"{players} players: each draws {hand} tiles" if hand else f"{players} players"

    if len(runs) <= 1:
        return phrase(runs[0][2] if runs else len(seats)) + "."
    return " ".join(
        f"Game{'s' if low != high else ''} {low}{f'-{high}' if low != high else ''}: "
        f"{phrase(players)}."
        for low, high, players in runs
    )


def sheet_columns(seats) -> list[tuple]:
    """(seat, replaced seat or None) per column: a substitute takes the column of the player
    they replaced, so the sheet shows who plays now and the earlier games stay in place."""
    substitutes = {seat.replaces_id: seat for seat in seats if seat.replaces_id}
    taken = {seat.pk for seat in substitutes.values()}
    columns = []
    for seat in seats:
        if seat.pk in taken:
            continue
        sub = substitutes.get(seat.entry_id)
        columns.append((sub, seat) if sub is not None else (seat, None))
    return columns


@dataclass(frozen=True)
class _Grid:
    """Where the card's grid sits: column edges ``xs`` (game, engine, engine used, then one
    column per player), its top and bottom, and the header and row heights."""

    xs: list[float]
    top: float
    bottom: float
    header_h: float
    row_h: float
    col_w: float
    rows: int


def _draw_page(canvas: Canvas, day, table, seats, games, engines, base_url: str) -> None:
    rules = day.tournament.rules
    width, height = landscape(letter)
    _draw_heading(canvas, day, table, seats, rules, height, _code_left(table.code, width))
    _draw_qr(canvas, table_link(base_url, table), width, height)
    _draw_code(canvas, table.code, base_url, width, height)
    grid = _grid(width, height, len(sheet_columns(seats)), len(games))
    _draw_grid_lines(canvas, grid)
    _draw_column_heads(canvas, grid, seats)
    _draw_game_rows(canvas, grid, seats, games, engines)
    _draw_signature(canvas, grid)


def _draw_heading(canvas: Canvas, day, table, seats, rules, height: float, right: float) -> None:
    """Table number large, event and day (shrunk to end before ``right``, where the table code
    is), hand size and the double blank's value."""
    tournament = day.tournament
    canvas.setFont(pdf_fonts().bold, 44)
    canvas.drawString(MARGIN, height - MARGIN - 40, f"Table {table.number}")
    which = session_label(day.number, rules.sessions_per_day)
    event = printable(f"{tournament.name} - {which[:1].lower()}{which[1:]}")
    event += f", {weekday_date(day.date)}" if day.date else ""
    size = 13.0
    while size > 7 and stringWidth(event, pdf_fonts().regular, size) > right - 10 - MARGIN:
        size -= 0.5
    canvas.setFont(pdf_fonts().regular, size)
    canvas.drawString(MARGIN, height - MARGIN - 62, event)
    line = hand_size_line(rules, seats, rules.games_per_day)
    size = 13.0
    while size > 7 and stringWidth(line, pdf_fonts().regular, size) > right - 10 - MARGIN:
        size -= 0.5
    canvas.setFont(pdf_fonts().regular, size)
    canvas.drawString(MARGIN, height - MARGIN - 80, line)
    canvas.setFont(pdf_fonts().regular, 10)
    blank = rules.double_blank_value
    canvas.drawString(
        MARGIN,
        height - MARGIN - 95,
        f"Double blank counts {blank}. Write each player's points after every game, "
        'and tick the "out" box of the player who went out.',
    )


def _draw_qr(canvas: Canvas, link: str, width: float, height: float) -> None:
    """The QR code of the table link, top right, with a line under it saying what it is for."""
    qr_size = 110
    qr_x = width - MARGIN - qr_size
    qr_y = height - MARGIN - qr_size
    canvas.drawImage(ImageReader(io.BytesIO(qr_png(link))), qr_x, qr_y, qr_size, qr_size)
    canvas.setFont(pdf_fonts().regular, 8)
    canvas.drawRightString(width - MARGIN, qr_y - 10, "Scorekeeper: scan to enter scores")


CODE_SIZE = 30


def _code_right(width: float) -> float:
    return width - MARGIN - 110 - 14  # left of the QR code


def _code_left(code: str, width: float) -> float:
    return _code_right(width) - stringWidth(code, pdf_fonts().bold, CODE_SIZE)


def _draw_code(canvas: Canvas, code: str, base_url: str, width: float, height: float) -> None:
    """The table code, large, left of the QR code: for a phone that cannot scan."""
    right = _code_right(width)
    canvas.setFont(pdf_fonts().regular, 10)
    canvas.drawRightString(right, height - MARGIN - 10, "No camera? Open")
    canvas.drawRightString(right, height - MARGIN - 22, printable(base_url.rstrip("/") + "/"))
    canvas.drawRightString(right, height - MARGIN - 34, "and type the table code:")
    canvas.setFont(pdf_fonts().bold, CODE_SIZE)
    canvas.drawRightString(right, height - MARGIN - 66, code)


def _grid(width: float, height: float, players: int, games: int) -> _Grid:
    top = height - MARGIN - 135
    label_w, engine_w, used_w = 50, 60, 70
    players_w = width - 2 * MARGIN - label_w - engine_w - used_w
    col_w = players_w / max(players, 1)
    rows = games + 1  # games and totals
    header_h = 34
    # Tall rows for shaky hands, as many as the page holds above the signature line.
    row_h = max(16, min(44, (top - header_h - MARGIN - 50) / rows))
    x0 = MARGIN
    xs: list[float] = [x0, x0 + label_w, x0 + label_w + engine_w, x0 + label_w + engine_w + used_w]
    xs += [xs[3] + col_w * (i + 1) for i in range(players)]
    bottom = top - header_h - rows * row_h
    return _Grid(
        xs=xs, top=top, bottom=bottom, header_h=header_h, row_h=row_h, col_w=col_w, rows=rows
    )


def _draw_grid_lines(canvas: Canvas, grid: _Grid) -> None:
    xs, top, bottom = grid.xs, grid.top, grid.bottom
    canvas.setLineWidth(0.8)
    for x in xs:
        # "Totals" spans the Game and Engine columns: their divider stops above it.
        canvas.line(x, top, x, bottom + grid.row_h if x == xs[1] else bottom)
    canvas.line(xs[0], top, xs[-1], top)
    y = top - grid.header_h
    canvas.line(xs[0], y, xs[-1], y)
    for _ in range(grid.rows):
        y -= grid.row_h
        canvas.line(xs[0], y, xs[-1], y)
    canvas.setLineWidth(2)
    canvas.line(xs[0], bottom + grid.row_h, xs[-1], bottom + grid.row_h)  # above the totals row
    canvas.setLineWidth(0.8)


def _draw_column_heads(canvas: Canvas, grid: _Grid, seats) -> None:
    xs, top, header_h = grid.xs, grid.top, grid.header_h
    canvas.setFont(pdf_fonts().bold, 10)
    for text, left, right in (
        ("Game", xs[0], xs[1]),
        ("Engine", xs[1], xs[2]),
        ("Engine used", xs[2], xs[3]),
    ):
        canvas.drawCentredString((left + right) / 2, top - header_h / 2 - 3, text)
    for i, (seat, _replaced) in enumerate(sheet_columns(seats)):
        lines, size = _fit_lines(printable(seat.entry.player.name), grid.col_w - 6, 11)
        canvas.setFont(pdf_fonts().bold, size)
        centre = (xs[3 + i] + xs[4 + i]) / 2
        first_y = top - header_h / 2 + (size / 2 if len(lines) == 2 else -size / 3)
        for j, line in enumerate(lines):
            canvas.drawCentredString(centre, first_y - j * (size + 1), line)


def _draw_game_rows(canvas: Canvas, grid: _Grid, seats, games, engines: dict) -> None:
    """Each game's number and the engine it is expected to start on (the one it started on,
    when reprinted after it was entered), "left" under a player who has left ("not yet" before
    a late player or substitute joined), and the totals row's label."""
    xs, row_h = grid.xs, grid.row_h
    y = grid.top - grid.header_h
    for game in games:
        size = min(14, row_h * 0.6)
        canvas.setFont(pdf_fonts().bold, size)
        canvas.drawCentredString((xs[0] + xs[1]) / 2, y - row_h / 2 - 5, str(game.number))
        canvas.setFont(pdf_fonts().regular, size)
        engine = engines.get(game.number)
        if engine is not None:
            canvas.drawCentredString((xs[1] + xs[2]) / 2, y - row_h / 2 - 5, f"{engine}-{engine}")
        for i, (seat, replaced) in enumerate(sheet_columns(seats)):
            absent = seat.absent_word(game.number)
            if absent and replaced is not None and replaced.plays_game(game.number):
                absent = printable(replaced.entry.player.name)  # their game, in their column
            if absent:
                canvas.setFont(pdf_fonts().regular, 9)
                canvas.drawCentredString((xs[3 + i] + xs[4 + i]) / 2, y - row_h / 2 - 3, absent)
            else:
                _draw_out_box(canvas, xs[4 + i], y)
        y -= row_h
    canvas.setFont(pdf_fonts().bold, 12)
    canvas.drawCentredString((xs[0] + xs[2]) / 2, grid.bottom + row_h / 2 - 4, "Totals")


OUT_BOX = 7  # the side of a cell's "went out" box, in points


def _draw_out_box(canvas: Canvas, right: float, top: float) -> None:
    """A small "out" box in a cell's top right corner, to tick for the player who went out:
    the card then says who went out without the desk having to guess it from a 0."""
    canvas.setLineWidth(0.6)
    canvas.rect(right - OUT_BOX - 2, top - OUT_BOX - 2, OUT_BOX, OUT_BOX)
    canvas.setFont(pdf_fonts().regular, 6)
    canvas.drawRightString(right - OUT_BOX - 4, top - OUT_BOX - 1, "out")
    canvas.setLineWidth(0.8)


def _draw_signature(canvas: Canvas, grid: _Grid) -> None:
    canvas.setFont(pdf_fonts().regular, 11)
    sig_y = max(grid.bottom - 40, 40)
    canvas.drawString(MARGIN, sig_y, "Scorekeeper's signature:")
    canvas.line(MARGIN + 140, sig_y - 2, MARGIN + 420, sig_y - 2)
    canvas.drawString(MARGIN + 440, sig_y, "Time handed in:")
    canvas.line(MARGIN + 530, sig_y - 2, MARGIN + 620, sig_y - 2)


def score_sheets_pdf(day, base_url: str = DEFAULT_BASE_URL) -> bytes:
    """The day's score sheets, one page per table, as PDF bytes."""
    games = day_games(day)
    items = day_tables_with_seats(day)
    engines = day_engines(day, games, [item["table"] for item in items])
    out = io.BytesIO()
    name = day.tournament.name
    canvas = document_canvas(
        out,
        pagesize=landscape(letter),
        title=f"{name}: day {day.number} score sheets",
        author=name,
    )
    for item in items:
        table = item["table"]
        _draw_page(canvas, day, table, item["seats"], games, engines[table.pk], base_url)
        canvas.showPage()
    canvas.save()
    return out.getvalue()
