"""A hidden finish: public pages and the projector stop showing standings after a chosen game,
as card and bridge clubs keep the last rounds secret until the prizes are announced.

The organiser and the desk still see everything. Positions are (day, game) pairs compared in
play order; "after day 2" is the same place as "after the last game of day 2".
"""

from __future__ import annotations

from dataclasses import dataclass

SETTING = "hidden_finish"
LABEL = "Hidden finish"
SHOWN_TO_THE_END = "Nothing hidden"


@dataclass(frozen=True)
class HiddenFinish:
    """Public standings count games up to game ``game`` of day ``day`` (``None``: the whole
    day) and nothing after it."""

    day: int
    game: int | None = None

    def position(self, games_per_day: int) -> tuple[int, int]:
        game = self.game if self.game is not None else games_per_day
        return self.day, min(game, games_per_day)

    def as_value(self) -> list[int | None]:
        """How the settings history stores it."""
        return [self.day, self.game]

    @classmethod
    def from_value(cls, value: object) -> HiddenFinish | None:
        if not isinstance(value, list) or len(value) != 2 or not isinstance(value[0], int):
            return None
        game = value[1] if isinstance(value[1], int) else None
        return cls(value[0], game)


def stored_value(finish: HiddenFinish | None) -> list[int | None]:
    """The settings history's value: [day, game], or [] for nothing hidden."""
    return finish.as_value() if finish else []


def finish_problem(
    day: int, game: int | None, days: int, games_per_day: int
) -> tuple[str, str] | None:
    """(field, reason) when the public standings cannot stop there, else None."""
    if not 1 <= day <= days:
        return "day", f"Choose a day from 1 to {days}."
    if game is not None and not 1 <= game <= games_per_day:
        return "game", f"Choose a game from 1 to {games_per_day}, or the end of the day."
    if games_hidden(HiddenFinish(day, game), days, games_per_day) == 0:
        return "day", "That is the end of the event: it hides nothing. Choose an earlier game."
    return None


def games_hidden(finish: HiddenFinish, days: int, games_per_day: int) -> int:
    """How many games of the schedule the public does not see (0 when the rules were
    shortened under the chosen game)."""
    day, game = finish.position(games_per_day)
    if day > days:
        return 0
    return (days - day) * games_per_day + (games_per_day - game)


def first_hidden(finish: HiddenFinish, games_per_day: int) -> tuple[int, int]:
    """(day, game) of the first game the public does not see."""
    day, game = finish.position(games_per_day)
    return (day + 1, 1) if game >= games_per_day else (day, game + 1)


def public_cut(
    day: int | None,
    game: int | None,
    finish: HiddenFinish | None,
    days: int,
    games_per_day: int,
) -> tuple[int | None, int | None]:
    """The cut (day, game) the public may see when it asks for (day, game); ``None`` for a
    day is every day and for a game the whole day, as the standings read them. The earlier of
    what was asked and where the finish is hidden."""
    if finish is None or games_hidden(finish, days, games_per_day) == 0:
        return day, game
    asked_day = day if day is not None else days
    asked = (asked_day, min(game, games_per_day) if game is not None else games_per_day)
    hidden_at = finish.position(games_per_day)
    if asked <= hidden_at:
        return day, game
    hidden_day, hidden_game = hidden_at
    return hidden_day, None if hidden_game >= games_per_day else hidden_game


def day_shown_whole(finish: HiddenFinish | None, day: int, games_per_day: int) -> bool:
    """Whether the public may see every game of ``day`` (a season counts whole days only)."""
    if finish is None:
        return True
    return first_hidden(finish, games_per_day) > (day, games_per_day)


def _last_games(count: int) -> str:
    return "the last game" if count == 1 else f"the last {count} games"


def _where(day: int, game: int | None) -> str:
    return f"after day {day}" if game is None else f"after game {game} of day {day}"


def staff_note(finish: HiddenFinish | None, days: int, games_per_day: int) -> str:
    """What staff pages say while a finish is hidden; "" when none is chosen."""
    if finish is None:
        return ""
    day, game = finish.position(games_per_day)
    where = _where(day, None if game >= games_per_day else game)
    hidden = games_hidden(finish, days, games_per_day)
    if hidden == 0:
        return f"The hidden finish ({where}) is past the end of the schedule: nothing is hidden."
    return (
        f"Public pages and the projector stop {where}: {_last_games(hidden)} "
        f"{'is' if hidden == 1 else 'are'} hidden until the standings are revealed."
    )


def public_note(finish: HiddenFinish | None, days: int, games_per_day: int) -> str:
    """What public pages say while the finish is hidden; "" when nothing is."""
    if finish is None:
        return ""
    hidden = games_hidden(finish, days, games_per_day)
    if hidden == 0:
        return ""
    day, game = first_hidden(finish, games_per_day)
    start = f"day {day}" if game == 1 else f"game {game} of day {day}"
    return (
        f"The standings are hidden for {_last_games(hidden)} (from {start}) "
        "until the prizes are announced."
    )


def history_label(value: object) -> str:
    """A stored value of the settings history, in words: "Hidden after game 11 of day 2"."""
    finish = HiddenFinish.from_value(value)
    if finish is None:
        return SHOWN_TO_THE_END
    return f"Hidden {_where(finish.day, finish.game)}"
