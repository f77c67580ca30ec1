"""The race chart: each chosen player's cumulative total after every game, as inline SVG.

Pure (no Django): it takes the games of the event in play order and each player's points per
game, and draws one line per player. Lowest total wins, so the leader's line is the lowest.
Every line ends at the player's total in the standings (the tests check it through the
``data-values`` each line carries).
"""

from __future__ import annotations

from dataclasses import dataclass

from standings.svg import element, points, text

WIDTH, HEIGHT = 960, 420
LEFT, RIGHT, TOP, BOTTOM = 56, 230, 30, 44
# Ten colours that read on the white page and the dark projector alike; picked players are dashed.
COLOURS = (
    "#3b82f6",
    "#f59e0b",
    "#10b981",
    "#ec4899",
    "#ef4444",
    "#06b6d4",
    "#a855f7",
    "#84cc16",
    "#f97316",
    "#94a3b8",
)


@dataclass(frozen=True)
class RaceLine:
    number: int  # player number
    name: str
    rank_label: str  # rank as printed in the standings ("=2")
    games: dict[tuple[int, int], int]  # (day, game) -> points, confirmed games in the view
    picked: bool = False  # chosen by the viewer rather than in the top ten

    def cumulative(self, slots: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """(slot index, total so far) after each game this player played, from (0, 0)."""
        total, made = 0, [(0, 0)]
        for index, slot in enumerate(slots, start=1):
            if slot in self.games:
                total += self.games[slot]
                made.append((index, total))
        return made


def _nice_top(highest: int) -> tuple[int, int]:
    """A round top for the axis and the step between its gridlines."""
    top = max(highest, 10)
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10000):
        if top / step <= 6:
            break
    else:
        step = 10 ** len(str(top))
    return -(-top // step) * step, step


def race_chart_svg(slots: list[tuple[int, int]], lines: list[RaceLine], title: str) -> str:
    """The chart as one ``<svg>`` element; ``slots`` are the (day, game) pairs in play order."""
    series = [(line, line.cumulative(slots)) for line in lines]
    highest = max((made[-1][1] for _, made in series), default=0)
    top, step = _nice_top(highest)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(index: int) -> float:
        return LEFT + plot_w * index / max(len(slots), 1)

    def y(value: int) -> float:
        return TOP + plot_h * (1 - value / top)

    parts = [element("title", text(title))]
    parts += _grid(top, step, x, y, len(slots))
    parts += _day_marks(slots, x)
    parts += _lines(series, x, y)
    return element(
        "svg",
        parts,
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {WIDTH} {HEIGHT}",
        class_="race-chart",
        role="img",
        aria_label=title,
        font_size=13,
        font_family="system-ui, sans-serif",
    )


def _grid(top, step, x, y, slot_count) -> list[str]:
    parts = []
    for value in range(0, top + 1, step):
        parts.append(
            element("line", x1=LEFT, x2=x(slot_count), y1=y(value), y2=y(value), class_="grid")
        )
        parts.append(
            element(
                "text",
                text(value),
                x=LEFT - 6,
                y=y(value) + 4,
                text_anchor="end",
                fill="currentColor",
            )
        )
    parts.append(
        element(
            "text",
            text("points (lower is better)"),
            x=4,
            y=TOP - 12,
            fill="currentColor",
            class_="axis-title",
        )
    )
    return parts


def _day_marks(slots: list[tuple[int, int]], x) -> list[str]:
    """A line where each day starts, labelled with the day; game numbers under the axis."""
    parts = []
    bottom = HEIGHT - BOTTOM
    for index, (day, game) in enumerate(slots, start=1):
        parts.append(
            element(
                "text",
                text(game),
                x=x(index),
                y=bottom + 16,
                text_anchor="middle",
                fill="currentColor",
            )
        )
        if game == 1 or index == 1:
            parts.append(
                element("line", x1=x(index - 1), x2=x(index - 1), y1=TOP, y2=bottom, class_="day")
            )
            parts.append(
                element(
                    "text",
                    text(f"Day {day}"),
                    x=x(index - 1) + 4,
                    y=bottom + 34,
                    fill="currentColor",
                )
            )
    return parts


def _label_heights(wanted: list[float], gap: float = 15) -> list[float]:
    """Label positions near ``wanted`` but at least ``gap`` apart, in the same order."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = list(wanted)
    previous = None
    for i in order:
        if previous is not None and placed[i] < previous + gap:
            placed[i] = previous + gap
        previous = placed[i]
    return placed


def _lines(series, x, y) -> list[str]:
    parts = []
    label_x = WIDTH - RIGHT + 10
    heights = _label_heights([y(made[-1][1]) + 4 for _, made in series])
    for position, (line, made) in enumerate(series):
        colour = COLOURS[position % len(COLOURS)]
        last_x, last_y = made[-1]
        parts.append(
            element(
                "g",
                [
                    element("title", text(f"{line.name}: {last_y}")),
                    element(
                        "polyline",
                        points=points((x(i), y(v)) for i, v in made),
                        fill="none",
                        stroke=colour,
                        stroke_width=4 if line.picked else 2.5,
                        stroke_dasharray="7 4" if line.picked else None,
                        stroke_linejoin="round",
                    ),
                    element("circle", cx=x(last_x), cy=y(last_y), r=4, fill=colour),
                    element(
                        "text",
                        text(f"{line.rank_label} {line.name} {last_y}"),
                        x=label_x,
                        y=heights[position],
                        fill=colour,
                        class_="line-label",
                    ),
                ],
                class_="race-line picked" if line.picked else "race-line",
                data_player=line.number,
                data_total=last_y,
                data_values=" ".join(str(v) for _, v in made),
            )
        )
    return parts
