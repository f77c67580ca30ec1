"""The race chart on a page of the standings PDF, drawn with reportlab's own charts.

The same lines as the page's SVG chart (``standings.race``): the top ten and their cumulative
total after every game of the view, each line ending at the player's total.
"""

from __future__ import annotations

from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors

from core.pdf_fonts import printable
from standings.race import race_lines, slots
from standings.race_chart import COLOURS
from standings.read import Standings

CHART_HEIGHT = 330
LEGEND_HEIGHT = 150


def race_drawing(result: Standings, width: float, font: str) -> Drawing | None:
    """The chart as a reportlab Drawing ``width`` points wide, or None with nobody to draw."""
    lines = race_lines(result)
    game_slots = slots(result)
    if not lines or not game_slots:
        return None
    drawing = Drawing(width, CHART_HEIGHT + LEGEND_HEIGHT)
    # The renderer starts every drawing in Helvetica unless told otherwise; the PDF embeds only
    # its own font.
    vars(drawing).update(initialFontName=font, initialFontSize=8)
    plot = LinePlot()
    plot.x, plot.y = 40, LEGEND_HEIGHT + 20
    plot.width, plot.height = int(width) - 50, CHART_HEIGHT - 40
    plot.data = [line.cumulative(game_slots) for line in lines]
    highest = max(points[-1][1] for points in plot.data)
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0, len(game_slots)
    plot.xValueAxis.valueSteps = list(range(0, len(game_slots) + 1))
    plot.xValueAxis.labelTextFormat = lambda index: _game_label(game_slots, index)
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = 0, max(highest, 10)
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName, axis.labels.fontSize = font, 7
    plot.yValueAxis.visibleGrid = True
    plot.yValueAxis.gridStrokeColor = colors.HexColor("#d0d7de")
    for index in range(len(lines)):
        plot.lines[index].strokeColor = colors.HexColor(COLOURS[index % len(COLOURS)])
        plot.lines[index].strokeWidth = 1.6
    drawing.add(plot)
    drawing.add(
        String(
            40,
            LEGEND_HEIGHT + CHART_HEIGHT - 12,
            "Total after each game (lower is better). Under each game: day.game",
            fontName=font,
            fontSize=8,
        )
    )
    legend = Legend()
    legend.x, legend.y = 40, LEGEND_HEIGHT - 10
    legend.fontName, legend.fontSize = font, 8
    legend.columnMaximum = 5
    legend.deltax = int(width // 2) - 20
    legend.alignment = "right"
    legend.colorNamePairs = [
        (
            colors.HexColor(COLOURS[index % len(COLOURS)]),
            printable(f"{line.rank_label}  {line.name}  {points[-1][1]}"),
        )
        for index, (line, points) in enumerate(zip(lines, plot.data, strict=True))
    ]
    drawing.add(legend)
    return drawing


def _game_label(game_slots: list[tuple[int, int]], index: float) -> str:
    position = int(index)
    if position == 0 or position > len(game_slots):
        return ""
    day, game = game_slots[position - 1]
    return f"{day}.{game}"
