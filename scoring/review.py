"""The desk's decisions on what a table entered: confirm one game as it stands, confirm the games
of a card at once, or mark one wrong so the table enters it again; and the desk's paper card.

Like scoring.submit (whose lock and facts these share), each opens one transaction, locks the
table row, reads what it decides on once, writes, and returns :class:`scoring.submit.Saved`.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from scoring.models import AuditEvent, Game, GameSheet, SheetState, Source
from scoring.selectors import TableSeats, read_scores, table_seats, table_sheets
from scoring.sheet_values import CARD_IS_RIGHT, disputed_changes
from scoring.submit import (
    GameInput,
    Outcome,
    Refusal,
    Saved,
    closed_day_refusal,
    confirm_sheet,
    do_save_games,
    game_now,
    lock_tables,
    own_entry_refusal,
)
from tournaments.access import account_of, role_in
from tournaments.models import Table

_NOT_STAFF = "Only the tournament's organisers and desk staff can {what}."


def _refusal(table: Table, game: int | None, message: str) -> Refusal:
    return Refusal(table.day.number, table.number, game, "", message)


def _closed(table: Table) -> str:
    return closed_day_refusal(table.day.number)


def _live_for_review(table: Table, game: Game, base_version: int):
    """The locked table and the game's live sheet, or the conflict when the page was drawn from
    another version: 2 queries, and the table's read for a conflict."""
    locked = lock_tables([table])[0]
    if locked.day.closed_at is not None:
        return locked, None, Saved(refusals=[_refusal(locked, game.number, _closed(locked))])
    live = (
        GameSheet.objects.select_for_update()
        .filter(table=locked, game=game, state__in=[SheetState.ENTERED, SheetState.CONFIRMED])
        .first()
    )
    if live is None or live.version != base_version:
        sheets = table_sheets(locked, scores_for={game.number})
        return locked, None, Saved(conflicts=[game_now(sheets, game.number, base_version)])
    return locked, live, None


def confirm_game(table: Table, game: Game, base_version: int, user, device: str = "") -> Saved:
    """The desk confirms what a table entered, as it stands. Nobody confirms their own entry,
    whether they typed it logged in or, from this browser, on the table's link."""
    if role_in(user, table.day.tournament) is None:
        return Saved(denied=_NOT_STAFF.format(what="confirm scores"))
    with transaction.atomic():
        table, live, conflict = _live_for_review(table, game, base_version)
        if live is None:
            return conflict or Saved()
        problem = (
            f"Game {game.number} is already confirmed."
            if live.state == SheetState.CONFIRMED
            else own_entry_refusal(live, user, device)
        )
        if problem:
            return Saved(refusals=[_refusal(table, game.number, problem)])
        confirm_sheet(live, table, game, user, Source.DESK, timezone.now(), how=AuditEvent.PRESSED)
    return Saved(outcomes=[Outcome(table.number, game.number, "confirmed", live)])


def confirm_card(table: Table, shown: dict[int, int], user, device: str = "") -> Saved:
    """The desk compared a table's card with what the table entered and confirms those games at
    once. ``shown``: game number -> the version the page showed. All or nothing: a game changed
    since the page was drawn is a conflict, and nothing is confirmed. Nobody confirms their own
    entry (``device`` as for confirm_game)."""
    if role_in(user, table.day.tournament) is None:
        return Saved(denied=_NOT_STAFF.format(what="confirm scores"))
    if not shown:
        return Saved(refusals=[_refusal(table, None, "Tick at least one game to confirm.")])
    with transaction.atomic():
        table = lock_tables([table])[0]
        if table.day.closed_at is not None:
            return Saved(refusals=[_refusal(table, None, _closed(table))])
        sheets = table_sheets(table, scores_for=())
        stale = [n for n, v in shown.items() if n not in sheets.live or sheets.live[n].version != v]
        if stale:
            read_scores(sheets, stale)
            return Saved(conflicts=[game_now(sheets, n, shown[n]) for n in stale])
        refusals = []
        for n in sorted(shown):
            live = sheets.live[n]
            problem = (
                f"Game {n} is already confirmed."
                if live.state == SheetState.CONFIRMED
                else own_entry_refusal(live, user, device)
            )
            if problem:
                refusals.append(_refusal(table, n, problem))
        if refusals:
            return Saved(refusals=refusals)
        now, outcomes = timezone.now(), []
        for n in sorted(shown):
            live = sheets.live[n]
            confirm_sheet(live, table, live.game, user, Source.DESK, now, how=AuditEvent.PRESSED)
            outcomes.append(Outcome(table.number, n, "confirmed", live))
    return Saved(outcomes=outcomes)


def reject_game(
    table: Table, game: Game, base_version: int, user, reason: str = "", disputed=()
) -> Saved:
    """The desk marks a table's entry wrong: it stops counting and the table can enter it again.

    ``disputed``: the numbers that differ from the card (entry ids as text, "engine",
    "outcome"); the table's page marks them, so the scorekeeper fixes those and not the rest."""
    if role_in(user, table.day.tournament) is None:
        return Saved(denied=_NOT_STAFF.format(what="do that"))
    with transaction.atomic():
        table, live, conflict = _live_for_review(table, game, base_version)
        if live is None:
            return conflict or Saved()
        if live.state != SheetState.ENTERED:
            return Saved(
                refusals=[
                    _refusal(
                        table,
                        game.number,
                        f"Game {game.number} is already confirmed: an organiser can correct it "
                        "instead.",
                    )
                ]
            )
        live.state = SheetState.REJECTED
        live.save(update_fields=["state"])
        AuditEvent.objects.create(
            sheet=live,
            table=table,
            game=game,
            action=AuditEvent.REJECTED,
            source=Source.DESK,
            actor=account_of(user),
            actor_label=user.get_username(),
            at=timezone.now(),
            reason=reason.strip(),
            changes=disputed_changes(table_seats(table).names, live, set(disputed)),
        )
    return Saved(outcomes=[Outcome(table.number, game.number, "rejected", live)])


def save_card(
    table: Table,
    inputs: list[GameInput],
    written_totals: dict,
    user,
    device: str = "",
    *,
    rechecked: bool = False,
    seated: TableSeats | None = None,
    card_right: frozenset[int] = frozenset(),
) -> Saved:
    """The desk keys in a paper card: every filled game row at once, and the written totals; a
    game unlike the table's entry waits (``differs``) unless ``card_right`` keeps the card."""
    return do_save_games(
        [(table, inputs)],
        source=Source.DESK,
        user=user,
        written_totals={table.pk: written_totals},
        device=device,
        rechecked=rechecked,
        seated=seated,
        card_right=card_right,
        reason=CARD_IS_RIGHT if card_right else "",
    )
