"""Where tournaments hands over to the app that records play, without importing it.

Tournaments sits below scoring and never imports it. What it must announce (a day was seated)
is a signal; the questions it must ask (how far has a table got, whose scores each game holds)
are answered by functions that scoring registers when it starts (``ScoringConfig.ready``).
"""

from collections.abc import Callable

from django.core.exceptions import ImproperlyConfigured
from django.dispatch import Signal

# Sent with ``day=`` after a day's tables are stored (inside the seating transaction), so the
# day's games exist from the moment it is seated and no page has to create them.
day_seated = Signal()

_last_game_entered: Callable[[object], int] | None = None


def answer_last_game_entered(function: Callable[[object], int]) -> None:
    """Register how to find the highest game number a table has entered and not had rejected
    (0 when none)."""
    global _last_game_entered
    _last_game_entered = function


def last_game_entered(table) -> int:
    if _last_game_entered is None:
        raise ImproperlyConfigured("No app records play: add scoring to INSTALLED_APPS.")
    return _last_game_entered(table)


_scores_by_game: Callable[[object], dict[int, set[int]]] | None = None


def answer_scores_by_game(function: Callable[[object], dict[int, set[int]]]) -> None:
    """Register how to find, for a table, each game with a live sheet and the entries it holds a
    score for (a withdrawal checks the game chosen against them)."""
    global _scores_by_game
    _scores_by_game = function


def scores_by_game(table) -> dict[int, set[int]]:
    if _scores_by_game is None:
        raise ImproperlyConfigured("No app records play: add scoring to INSTALLED_APPS.")
    return _scores_by_game(table)


_entry_games: Callable[[object], dict[int, list[dict]]] | None = None


def answer_entry_games(function: Callable[[object], dict[int, list[dict]]]) -> None:
    """Register how to list a player's games: day number -> [{"game", "points", "state",
    "out"}] in game order, for the player's page."""
    global _entry_games
    _entry_games = function


def entry_games(entry) -> dict[int, list[dict]]:
    if _entry_games is None:
        raise ImproperlyConfigured("No app records play: add scoring to INSTALLED_APPS.")
    return _entry_games(entry)
