"""A card's written totals checked against every game at its table: the desk's card and the
table's phone both compare through here, against a table's sheets already read (no query).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from domain.sheet_checks import CleanGame, Problem, check_card_totals
from scoring.models import GameSheet
from scoring.selectors import TableSheets


def card_total_problems(
    sheets: TableSheets,
    totals: Mapping[int, object],
    cleans: Mapping[int, CleanGame] | None = None,
    replaced: Collection[int] = (),
) -> list[Problem]:
    """A card's written totals checked against every game of it: those being saved now
    (``cleans``; ``replaced`` names every game the save brings, checked or not) and those
    stored. The desk's card and the table's phone both compare through here."""
    every = {n: clean_from_sheet(s) for n, s in sheets.live.items() if n not in replaced}
    every.update(cleans or {})
    games = [every[n] for n in sorted(every)]
    return check_card_totals(games, totals, sheets.names)


def clean_from_sheet(sheet: GameSheet) -> CleanGame:
    """A stored sheet as the checks see a game: its tiles are not stored, so none are checked."""
    return CleanGame(
        game_number=sheet.game.number,
        engine=sheet.engine_used,
        scores={s.entry_id: s.points for s in sheet.score_rows()},
        went_out=sheet.went_out_id,
        blocked=sheet.blocked,
        tiles={},
    )


def engines_kept_by_waiting_games(
    kept: Mapping[int, int], taken: list[tuple[int, int]]
) -> list[tuple[int, Problem]]:
    """A card game that waits keeps the table's entry live, engine and all: another game of the
    same card may not take that engine until the desk says which is right. ``kept``: the
    waiting games' engines by game; ``taken``: (game, engine) of each game the card stores.
    The engine check left it out, as a card's games are usually stored in place of the
    table's."""
    problems = []
    for n, engine in taken:
        for waiting, kept_engine in kept.items():
            if kept_engine == engine and waiting != n:
                message = (
                    f"Double {engine} is the engine the table entered for game {waiting}, "
                    f"which does not match this card. Say which is right for game {waiting} "
                    f"first, or check game {n}'s engine."
                )
                problems.append((n, Problem("engine", message)))
    return problems
