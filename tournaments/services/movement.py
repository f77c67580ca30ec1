"""Seating a session by the movement rule (domain.movement) from the session before's results.

The seating service asks here for the tables and stores them with its usual checks; the moves
are kept on the day (``Day.moves``) so the seating page says who moved where and why for as
long as those tables stand.
"""

from core.errors import ServiceError
from domain.movement import MovementError, MovementRule, SessionScore, move_tables
from domain.rules import ENDS_WRAP, SEATING_MOVEMENT
from domain.session_days import session_label
from tournaments import hooks
from tournaments.models import Day, Entry, Seat


def seats_by_movement(day) -> bool:
    """Whether ``day`` (a session after the first) is seated by the event's movement."""
    return day.number > 1 and day.tournament.rules.session_seating == SEATING_MOVEMENT


def _games(games: list[int]) -> str:
    if len(games) == 1:
        return f"game {games[0]}"
    return "games " + ", ".join(str(g) for g in games[:-1]) + f" and {games[-1]}"


def waiting_words(not_entered: dict[int, list[int]], to_confirm: dict[int, list[int]]) -> str:
    """ "Table 2: game 6 not entered; table 3: games 5 and 6 waiting for the desk to confirm"."""
    parts = []
    for table in sorted(set(not_entered) | set(to_confirm)):
        what = []
        if table in not_entered:
            what.append(f"{_games(not_entered[table])} not entered")
        if table in to_confirm:
            what.append(f"{_games(to_confirm[table])} waiting for the desk to confirm")
        parts.append(f"table {table}: " + ", ".join(what))
    text = "; ".join(parts)
    return text[:1].upper() + text[1:]


def _previous_session(day) -> Day:
    rules = day.tournament.rules
    label = session_label(day.number, rules.sessions_per_day)
    before = session_label(day.number - 1, rules.sessions_per_day)
    previous = Day.objects.filter(tournament_id=day.tournament_id, number=day.number - 1).first()
    if previous is None or previous.seated_at is None:
        raise ServiceError(
            f"{label} is seated by a movement from {before}'s results, and {before} is not "
            "seated yet."
        )
    previous.tournament = day.tournament
    return previous


def _previous_tables(previous) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    seats = Seat.objects.filter(day=previous).order_by("table__number", "position")
    for number, entry_id in seats.values_list("table__number", "entry_id"):
        tables.setdefault(number, []).append(entry_id)
    return [tables[n] for n in sorted(tables)]


def movement_tables(day, players: list[Entry]) -> tuple[list[list[int]], list[dict]]:
    """The session's tables (entry ids, table 1 first) and each player's move, for the
    seating service to store; ServiceError, naming what is missing, when the session before
    is neither closed nor confirmed at every table, or the players cannot fill two tables."""
    rules = day.tournament.rules
    previous = _previous_session(day)
    results = hooks.session_totals().session_results(previous)
    if not previous.is_closed and (results.not_entered or results.to_confirm):
        before = session_label(previous.number, rules.sessions_per_day)
        raise ServiceError(
            f"A movement seats {session_label(day.number, rules.sessions_per_day)} from "
            f"{before}'s results, so every game of {before} must be confirmed (or {before} "
            f"closed) first. Waiting: {waiting_words(results.not_entered, results.to_confirm)}."
        )
    tables = _previous_tables(previous)
    # A seat the standings rank under someone else (a substitute sharing a seat) has no row.
    scores = {p: SessionScore(None) for table in tables for p in table} | results.scores
    rule = MovementRule(rules.move_up, rules.move_down, rules.end_tables == ENDS_WRAP)
    try:
        moved = move_tables(
            tables,
            scores,
            [e.pk for e in players],
            rule,
            rules.max_table_size,
            tie_breaks=rules.tie_breaks or (),
            names={e.pk: e.player.name for e in players},
        )
    except MovementError as error:
        raise ServiceError(str(error), field="session_seating") from error
    moves = [
        {"entry": m.player, "from_table": m.from_table, "to_table": m.to_table, "words": m.words}
        for m in moved.moves.values()
    ]
    return moved.tables, moves


def note_hand_changes(day, placed: dict[int, int]) -> None:
    """After a move or swap by hand on a day a movement seated: each player moved says so, so
    the moves shown stay true. ``placed``: entry id -> the table they sit at now."""
    if not day.moves:
        return
    for move in day.moves:
        table = placed.get(move["entry"])
        if table is not None and table != move["to_table"]:
            move["words"] += f"; then moved to table {table} by the organiser"
            move["to_table"] = table
    Day.objects.filter(pk=day.pk).update(moves=day.moves)
