"""Writes for score entry: submit a game, save a desk card, import a workbook, confirm, mark
wrong, correct, close a day, renew a table link.

Every way a score comes in ends in :func:`save_games`, which checks each game with
:func:`domain.sheet_checks.check_game` (and written totals with ``check_card_totals``) and writes
append-only versions. Each action runs in one transaction that first locks the table rows
(``select_for_update``; on SQLite the IMMEDIATE transaction serialises writers), then reads the
live sheets and compares the versions the caller's form was based on. The partial unique
constraints on GameSheet are the backstop: an IntegrityError becomes the same conflict.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.errors import ServiceError
from domain.sheet_checks import CleanGame, Problem, TypedSheet, check_card_totals, check_game
from scoring.models import AuditEvent, Game, GameSheet, Score, SheetState, Source, TableSubmission
from scoring.selectors import TableSheets, local_time, table_sheets, who_label
from tournaments.access import account_of, role_in
from tournaments.models import Day, StaffRole, Table, new_table_code, new_table_token

__all__ = [
    "CurrentSheet",
    "GameInput",
    "Outcome",
    "Refusal",
    "ScoresToCheck",
    "SheetRefused",
    "VersionConflict",
    "already_submitted",
    "close_day",
    "confirm_card",
    "confirm_game",
    "import_games",
    "locked_table",
    "regenerate_table_link",
    "reject_game",
    "reopen_day",
    "save_card",
    "save_games",
    "submit_game",
    "values_of_sheet",
]


# ---------------------------------------------------------------------------
# What goes in and what comes out
# ---------------------------------------------------------------------------


@dataclass
class GameInput:
    """One game as typed, for one table.

    ``base_version`` is the version of the live sheet the form showed (0 for a new game);
    None skips the version check (a workbook has no version column: there the live sheet is
    compared value by value instead).
    """

    game: Game
    typed: TypedSheet
    base_version: int | None = 0


@dataclass(frozen=True)
class Refusal:
    day: int  # day number
    table: int  # table number
    game: int | None  # game number, None for the card as a whole (totals)
    field: str  # a validation field name: "", "engine", "outcome", "score-<id>", "total-<id>"
    message: str


class SheetRefused(ServiceError):
    """Nothing was stored: every problem found, each tied to a field of one game.

    ``warnings`` are the "please check" notes found beside them (see ScoresToCheck), so a page
    can show them at once rather than after the problems are fixed."""

    def __init__(self, refusals: list[Refusal], warnings: list[Refusal] | None = None):
        self.refusals = refusals
        self.warnings = warnings or []
        super().__init__(" ".join(r.message for r in refusals))


class ScoresToCheck(ServiceError):
    """Nothing was stored: every score is possible, but some look like typos (more than the
    best hand anyone is dealt, a three-digit score among two-digit ones). Never a refusal: the
    person confirms them and saves again with ``rechecked=True``."""

    def __init__(self, warnings: list[Refusal]):
        self.warnings = warnings
        super().__init__(" ".join(w.message for w in warnings))


@dataclass(frozen=True)
class Values:
    """What a game's sheet says, for comparing two sheets."""

    engine: int
    went_out: int | None
    blocked: bool
    scores: dict

    @classmethod
    def of_clean(cls, clean: CleanGame) -> Values:
        return cls(clean.engine, clean.went_out, clean.blocked, dict(clean.scores))


def values_of_sheet(sheet: GameSheet) -> Values:
    return Values(
        sheet.engine_used,
        sheet.went_out_id,
        sheet.blocked,
        {s.entry_id: s.points for s in sheet.score_rows()},
    )


@dataclass
class CurrentSheet:
    """What a game says now, shown to someone whose save was based on an older version."""

    table: int
    game: int
    version: int  # 0 when there is no live sheet
    state: str  # "entered", "confirmed" or "empty"
    message: str
    engine: int | None = None
    outcome: str = ""
    scores: list[tuple[str, int]] = field(default_factory=list)
    score_entries: list[int] = field(default_factory=list)  # entry id of each of ``scores``
    went_out: int | None = None


class VersionConflict(ServiceError):
    """Someone else saved first: nothing was stored, here is what each game says now."""

    def __init__(self, current: list[CurrentSheet]):
        self.current = current
        super().__init__(" ".join(c.message for c in current))


@dataclass(frozen=True)
class Outcome:
    table: int
    game: int
    action: str  # "entered", "confirmed", "corrected" or "unchanged"
    sheet: GameSheet


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _actor_label(user, table: Table, source: str) -> str:
    if user is None and source == Source.TABLE_LINK:
        return f"Table {table.number} link"
    return user.get_username()


def _outcome_text(names: dict[int, str], went_out: int | None, blocked: bool) -> str:
    if blocked:
        return "blocked"
    return f"{names.get(went_out, 'player')} went out" if went_out else ""


def _changes(names: dict[int, str], old: Values | None, new: Values | None) -> list[dict]:
    """Audit rows: one per player whose score changed, plus engine and outcome rows."""
    rows = []
    old_scores = old.scores if old else {}
    new_scores = new.scores if new else {}
    for entry_id in list(names) + [e for e in {**old_scores, **new_scores} if e not in names]:
        before, after = old_scores.get(entry_id), new_scores.get(entry_id)
        if before != after:
            rows.append(
                {
                    "entry": entry_id,
                    "name": names.get(entry_id, f"player {entry_id}"),
                    "from": before,
                    "to": after,
                }
            )
    if (old.engine if old else None) != (new.engine if new else None):
        rows.append(
            {
                "field": "engine",
                "name": "Engine",
                "from": old.engine if old else None,
                "to": new.engine if new else None,
            }
        )
    before = _outcome_text(names, old.went_out, old.blocked) if old else None
    after = _outcome_text(names, new.went_out, new.blocked) if new else None
    if before != after:
        rows.append({"field": "outcome", "name": "Went out", "from": before, "to": after})
    return rows


def _difference_problems(names: dict[int, str], entered: Values, typed: Values) -> list[Problem]:
    """Where a blind retype differs from what the table entered, field by field."""
    problems = []
    if entered.engine != typed.engine:
        problems.append(
            Problem(
                "engine",
                f"The table entered double {entered.engine} as the engine; "
                f"you typed double {typed.engine}.",
            )
        )
    if (entered.went_out, entered.blocked) != (typed.went_out, typed.blocked):
        table_said = _outcome_text(names, entered.went_out, entered.blocked) or "nothing"
        you_said = _outcome_text(names, typed.went_out, typed.blocked) or "nothing"
        problems.append(
            Problem("outcome", f"The table entered {table_said}; you typed {you_said}.")
        )
    for entry_id, name in names.items():
        before, after = entered.scores.get(entry_id), typed.scores.get(entry_id)
        if before != after:
            problems.append(
                Problem(
                    f"score-{entry_id}",
                    f"The table entered {before} for {name}; you typed {after}.",
                )
            )
    return problems


def _current(sheets, game: Game, base_version: int | None) -> CurrentSheet:
    live = sheets.live.get(game.number)
    n = game.number
    last_change = sheets.latest.get(n)
    if live is None:
        if last_change is not None and last_change.state == SheetState.REJECTED:
            message = (
                f"Game {n} was marked wrong by the desk at "
                f"{local_time(last_change.confirmed_at or last_change.entered_at)}; "
                "it needs entering again."
            )
        else:
            message = f"Game {n} has no scores now: someone removed them. Enter it again."
        return CurrentSheet(sheets.table.number, n, 0, "empty", message)
    if (
        live.state == SheetState.CONFIRMED
        and live.confirmed_by_id
        and live.confirmed_by_id != live.entered_by_id
    ):
        what, moment = f"confirmed by {who_label(live, confirming=True)}", live.confirmed_at
    elif base_version == 0:
        what, moment = f"entered by {who_label(live)}", live.entered_at
    else:
        what, moment = f"changed by {who_label(live)}", live.entered_at
    return CurrentSheet(
        table=sheets.table.number,
        game=n,
        version=live.version,
        state=live.state,
        message=f"Game {n} was {what} at {local_time(moment)}; here is what it says now.",
        engine=live.engine_used,
        outcome=_outcome_text(sheets.names, live.went_out_id, live.blocked),
        scores=[(sheets.names.get(s.entry_id, "?"), s.points) for s in live.score_rows()],
        score_entries=[s.entry_id for s in live.score_rows()],
        went_out=live.went_out_id,
    )


def _lock_tables(tables: list[Table]) -> list[Table]:
    """Lock the table rows, always in the same order so two writers cannot deadlock.

    Each comes back with its day read fresh (a closed day refuses a save) and with the caller's
    tournament and rules, which no save changes. "of self" keeps PostgreSQL from locking the
    day row that every other table of the day shares.
    """
    given = {t.pk: t for t in tables}
    locked = list(
        Table.objects.select_for_update(of=("self",))
        .select_related("day")
        .filter(pk__in=sorted(given))
        .order_by("pk")
    )
    for table in locked:
        table.day.tournament = given[table.pk].day.tournament
    return locked


def _role(user, tournament) -> str | None:
    return role_in(user, tournament)


# ---------------------------------------------------------------------------
# The one way scores are written
# ---------------------------------------------------------------------------


@dataclass
class _Plan:
    table_sheets: TableSheets
    game: Game
    clean: CleanGame
    action: str  # "entered" (live is None), "confirmed" or "corrected" (of the live sheet)
    live: GameSheet | None


@contextmanager
def locked_table(table: Table, games: list[Game] | None = None):
    """Lock one table and read its sheets once, for a form checked and saved in one go.

    Yields the TableSheets; pass them to save_games (``current=``) inside the ``with`` block and
    it checks against them instead of locking and reading the table again.
    """
    with transaction.atomic():
        sheets = table_sheets(_lock_tables([table])[0], games)
        sheets.locked = True
        try:
            yield sheets
        finally:
            sheets.locked = False  # the lock ends with the block: these may go stale now


def save_games(
    batches: list[tuple[Table, list[GameInput]]],
    *,
    source: str,
    user=None,
    reason: str = "",
    written_totals: dict[int, dict] | None = None,
    current=None,
    device: str = "",
    rechecked: bool = False,
) -> list[Outcome]:
    """Check and save games for one or more tables, all or nothing.

    ``source`` is the way in (Source). From a table link a game is stored as entered
    (provisional). From the desk or a workbook a new game is stored confirmed; a game the
    table already entered must match it exactly and is then confirmed; a confirmed game that
    differs is a correction, which only an organiser may make, with a reason. With
    ``Source.CORRECTION`` (the organiser's correction page) the game must be confirmed already.
    ``written_totals`` maps table pk -> {entry id: total as typed} for a desk card.

    ``current`` is one table's sheets from an open locked_table() block.

    ``device`` marks the browser the save came from (scoring.devices): stored with a table-link
    save, compared when the desk confirms, so nobody confirms what they typed on a table link.

    ``rechecked`` says the person confirmed the "please check" notes of these very scores.

    Raises VersionConflict when a base version is stale, SheetRefused with every problem
    otherwise, and ScoresToCheck when the only findings are likely typos not yet confirmed;
    stores nothing in any of these cases.
    """
    if not batches:
        return []
    if current is not None and not (
        current.locked
        and transaction.get_connection().in_atomic_block
        and [table.pk for table, _ in batches] == [current.table.pk]
    ):
        raise ValueError(
            "current must come from an open locked_table() block, for the one table being saved"
        )
    try:
        with transaction.atomic():
            return _save_games_locked(
                batches,
                _Who(user, device),
                source,
                reason.strip(),
                written_totals or {},
                current,
                rechecked,
            )
    except IntegrityError:
        # Another save got in between our read and our write (the unique constraints on live
        # sheets and versions are the backstop for the row lock): report it as a conflict.
        conflicts = []
        for table, inputs in batches:
            sheets = table_sheets(table)
            for item in inputs:
                conflicts.append(_current(sheets, item.game, item.base_version))
        raise VersionConflict(conflicts) from None


@dataclass(frozen=True)
class _Who:
    """Who saves: the account (None for a table link without a login) and the browser's mark."""

    user: object
    device: str = ""


def _save_games_locked(
    batches, who, source, reason, written_totals, current, rechecked
) -> list[Outcome]:
    user = who.user
    if current is None:
        locked = {t.pk: t for t in _lock_tables([table for table, _ in batches])}
    else:
        locked = {current.table.pk: current.table}
    now = timezone.now()
    refusals: list[Refusal] = []
    warnings: list[Refusal] = []
    conflicts: list[CurrentSheet] = []
    plans: list[_Plan] = []
    role = _role(user, batches[0][0].day.tournament)
    for opened, inputs in batches:
        table = locked[opened.pk]
        # Read after the lock, so the live sheets are current.
        sheets = current if current is not None else table_sheets(table)
        if source == Source.TABLE_LINK and not _link_still_works(opened, table, sheets.day):
            raise ServiceError("This table link no longer works: ask the desk.")
        if source != Source.TABLE_LINK and role is None:
            raise ServiceError(
                "Only the tournament's organisers and desk staff can enter scores here."
            )

        # Version check first: a stale form's values are not worth checking.
        stale = [
            item
            for item in inputs
            if item.base_version is not None
            and item.base_version
            != (sheets.live[item.game.number].version if item.game.number in sheets.live else 0)
        ]
        if stale:
            conflicts += [_current(sheets, i.game, i.base_version) for i in stale]
            continue

        rules = sheets.sheet_rules
        in_batch = {item.game.number for item in inputs}
        used = [s.engine_used for n, s in sheets.live.items() if n not in in_batch]
        cleans: dict[int, CleanGame] = {
            n: _clean_from_sheet(s) for n, s in sheets.live.items() if n not in in_batch
        }
        for item in sorted(inputs, key=lambda i: i.game.number):
            n = item.game.number
            check = check_game(
                rules,
                sheets.names,
                item.typed,
                used_engines=used,
                withdrawn=sheets.withdrawn(n),
                rechecked=rechecked,
            )
            refusals += _refusals(sheets, n, check.problems)
            if check.needs_recheck:
                warnings += _refusals(sheets, n, check.warnings)
            clean = check.clean
            if clean is None:
                continue
            used.append(clean.engine)
            cleans[n] = clean
            plan, problems = _decide(sheets, item.game, clean, source, who, role, reason)
            refusals += _refusals(sheets, n, problems)
            if plan is not None:
                plans.append(plan)

        totals = written_totals.get(table.pk)
        if totals:
            games = [cleans[n] for n in sorted(cleans)]
            refusals += _refusals(sheets, None, check_card_totals(games, totals, sheets.names))

    if conflicts:
        raise VersionConflict(conflicts)
    if refusals:
        raise SheetRefused(refusals, warnings)
    if warnings:
        raise ScoresToCheck(warnings)
    return _write(plans, source, who, reason, now)


def _link_still_works(opened: Table, locked: Table, day: Day) -> bool:
    """A save from a table link waits for the lock; by then the day may have closed or the link
    been renewed. ``opened`` carries the token the phone's page was opened with, ``locked`` the
    one stored now: a renewed link stops a save already queued, as it stops the page."""
    return day.closed_at is None and opened.link_token == locked.link_token


def _refusals(sheets, game_number: int | None, problems: list[Problem]) -> list[Refusal]:
    """Problems (or "please check" notes) of one game at one table, as the caller reports them."""
    day, table = sheets.day.number, sheets.table.number
    return [Refusal(day, table, game_number, p.field, p.message) for p in problems]


def _clean_from_sheet(sheet: GameSheet) -> CleanGame:
    return CleanGame(
        game_number=sheet.game.number,
        engine=sheet.engine_used,
        scores={s.entry_id: s.points for s in sheet.score_rows()},
        went_out=sheet.went_out_id,
        blocked=sheet.blocked,
        tiles={},
    )


def _marked_not_played(sheets, n: int) -> list[Problem]:
    mark = sheets.unplayed.get(n)
    if mark is None:
        return []
    return [
        Problem(
            "",
            f"Game {n} was marked not played ({mark.reason}). Ask the desk to take the mark "
            "back before entering it.",
        )
    ]


def _decide(sheets, game, clean, source, who, role, reason) -> tuple[_Plan | None, list[Problem]]:
    """What saving ``clean`` means given the live sheet: a plan, nothing, or refusals."""
    n = game.number
    refused = _marked_not_played(sheets, n)
    if refused:
        return None, refused
    live = sheets.live.get(n)
    new = Values.of_clean(clean)
    same = live is not None and values_of_sheet(live) == new
    if source == Source.TABLE_LINK:
        if live is None:
            return _Plan(sheets, game, clean, "entered", None), []
        if live.state == SheetState.CONFIRMED:
            return None, [
                Problem(
                    "",
                    f"Game {n} was confirmed by the desk at "
                    f"{local_time(live.confirmed_at)}. Ask the desk if it "
                    "needs changing.",
                )
            ]
        if same:
            return None, []
        return _Plan(sheets, game, clean, "corrected", live), []

    if source == Source.CORRECTION:
        if role != StaffRole.ORGANISER:
            return None, [Problem("", "Only an organiser can change a confirmed score.")]
        if live is None or live.state != SheetState.CONFIRMED:
            return None, [
                Problem(
                    "",
                    f"Game {n} is not confirmed yet: confirm it at the desk "
                    "or mark it wrong instead of correcting it.",
                )
            ]
        if same:
            return None, [Problem("", f"Nothing in game {n} was changed.")]
        if not reason:
            return None, [Problem("reason", "Give a reason for changing a confirmed score.")]
        return _Plan(sheets, game, clean, "corrected", live), []

    # Desk card or workbook, by staff.
    if live is None:
        return _Plan(sheets, game, clean, "entered", None), []
    if live.state == SheetState.ENTERED:
        if not same:
            problems = _difference_problems(sheets.names, values_of_sheet(live), new)
            problems.insert(
                0,
                Problem(
                    "",
                    f"Game {n} does not match what the table entered, so it was not confirmed. "
                    "Check the card, or mark the table's entry wrong.",
                ),
            )
            return None, problems
        refusal = own_entry_refusal(live, who.user, who.device)
        if refusal:
            return None, [Problem("", refusal)]
        return _Plan(sheets, game, clean, "confirmed", live), []
    if same:
        return None, []
    if role != StaffRole.ORGANISER:
        return None, [
            Problem(
                "",
                f"Game {n} is already confirmed. Only an organiser can change "
                "it, and must give a reason.",
            )
        ]
    if not reason:
        return None, [
            Problem("reason", f"Game {n} is already confirmed: give a reason for changing it.")
        ]
    return _Plan(sheets, game, clean, "corrected", live), []


def _write(plans: list[_Plan], source, who: _Who, reason, now) -> list[Outcome]:
    user = who.user
    # Supersede every replaced version first, so a swap of engines between two games of a
    # card does not trip the one-engine-per-table constraint half way.
    replaced = [p.live.pk for p in plans if p.action == "corrected" and p.live is not None]
    if replaced:
        GameSheet.objects.filter(pk__in=replaced).update(state=SheetState.SUPERSEDED)
    outcomes = []
    for plan in plans:
        sheets, game, clean, live = plan.table_sheets, plan.game, plan.clean, plan.live
        table = sheets.table
        label = _actor_label(user, table, source)
        if plan.action == "confirmed" and live is not None:  # _decide confirms a live sheet only
            _confirm(live, table, game, user, source, now, how=AuditEvent.MATCHED)
            outcomes.append(Outcome(table.number, game.number, "confirmed", live))
            continue
        provisional = source == Source.TABLE_LINK
        version = sheets.next_version(game.number)  # read under this save's lock
        sheet = GameSheet.objects.create(
            table=table,
            game=game,
            version=version,
            state=SheetState.ENTERED if provisional else SheetState.CONFIRMED,
            engine_used=clean.engine,
            went_out_id=clean.went_out,
            blocked=clean.blocked,
            source=source,
            entered_by=account_of(user),
            entered_device=who.device,
            entered_at=now,
            confirmed_by=None if provisional else account_of(user),
            confirmed_at=None if provisional else now,
        )
        Score.objects.bulk_create(
            Score(
                sheet=sheet,
                entry_id=entry_id,
                points=points,
                tiles=" ".join(f"{a}-{b}" for a, b in clean.tiles.get(entry_id, ())),
            )
            for entry_id, points in clean.scores.items()
        )
        old = values_of_sheet(live) if live is not None else None
        AuditEvent.objects.create(
            sheet=sheet,
            table=table,
            game=game,
            action=AuditEvent.ENTERED if live is None else AuditEvent.CORRECTED,
            source=source,
            actor=account_of(user),
            actor_label=label,
            at=now,
            reason=reason if live is not None else "",
            changes=_changes(sheets.names, old, Values.of_clean(clean)),
        )
        outcomes.append(Outcome(table.number, game.number, plan.action, sheet))
    return outcomes


# ---------------------------------------------------------------------------
# The ways in
# ---------------------------------------------------------------------------


def submit_game(
    table: Table,
    game: Game,
    typed: TypedSheet,
    base_version: int,
    *,
    source: str,
    user=None,
    reason: str = "",
    current=None,
    device: str = "",
    submission_id: str = "",
    rechecked: bool = False,
) -> Outcome | None:
    """Save one game at one table. Returns None when it was identical to what is stored, or
    when ``submission_id`` names a save from this table that is stored already.

    ``current``: the table's sheets from an open locked_table() block, ``device`` the
    browser's mark, and ``rechecked`` (the "please check" notes were confirmed), as for
    save_games.
    ``submission_id``: the id a table's page gives each save, so one it sends again after a
    lost answer is stored once. It is checked before the version: the first copy already
    moved the version on, and the copy sent again is not a conflict with it.
    """
    batch = [(table, [GameInput(game, typed, base_version)])]
    if not submission_id:
        outcomes = save_games(
            batch,
            source=source,
            user=user,
            reason=reason,
            current=current,
            device=device,
            rechecked=rechecked,
        )
        return outcomes[0] if outcomes else None
    with transaction.atomic():
        if current is None:
            batch = [(_lock_tables([table])[0], batch[0][1])]
        if already_submitted(table, submission_id):
            return None
        outcomes = save_games(
            batch,
            source=source,
            user=user,
            reason=reason,
            current=current,
            device=device,
            rechecked=rechecked,
        )
        TableSubmission.objects.create(
            table=table, key=submission_id, game=game, received_at=timezone.now()
        )
    return outcomes[0] if outcomes else None


def already_submitted(table: Table, submission_id: str) -> bool:
    return TableSubmission.objects.filter(table=table, key=submission_id).exists()


def save_card(
    table: Table,
    inputs: list[GameInput],
    written_totals: dict,
    user,
    device: str = "",
    *,
    rechecked: bool = False,
) -> list[Outcome]:
    """The desk keys in a paper card: every filled game row at once, and the written totals."""
    return save_games(
        [(table, inputs)],
        source=Source.DESK,
        user=user,
        written_totals={table.pk: written_totals},
        device=device,
        rechecked=rechecked,
    )


def import_games(
    batches: list[tuple[Table, list[GameInput]]],
    *,
    user,
    reason: str = "",
    rechecked: bool = False,
) -> list[Outcome]:
    """A filled-in workbook: all of its games or none. ``user`` is the desk user, or
    COMMAND_LINE for the import command; ``rechecked``: the person confirmed the scores the
    last upload of this file asked about."""
    return save_games(
        batches, source=Source.WORKBOOK, user=user, reason=reason, rechecked=rechecked
    )


def _live_for_review(table: Table, game: Game, base_version: int) -> tuple[Table, GameSheet]:
    locked = _lock_tables([table])[0]
    live = (
        GameSheet.objects.select_for_update()
        .filter(table=locked, game=game, state__in=[SheetState.ENTERED, SheetState.CONFIRMED])
        .first()
    )
    if live is None or live.version != base_version:
        raise VersionConflict([_current(table_sheets(locked), game, base_version)])
    return locked, live


@transaction.atomic
def confirm_game(table: Table, game: Game, base_version: int, user, device: str = "") -> GameSheet:
    """The desk confirms what a table entered, as it stands. Nobody confirms their own entry,
    whether they typed it logged in or, from this browser, on the table's link."""
    if _role(user, table.day.tournament) is None:
        raise ServiceError("Only the tournament's organisers and desk staff can confirm scores.")
    table, live = _live_for_review(table, game, base_version)
    if live.state == SheetState.CONFIRMED:
        raise ServiceError(f"Game {game.number} is already confirmed.")
    refusal = own_entry_refusal(live, user, device)
    if refusal:
        raise ServiceError(refusal)
    _confirm(live, table, game, user, Source.DESK, timezone.now(), how=AuditEvent.PRESSED)
    return live


@transaction.atomic
def confirm_card(table: Table, shown: dict[int, int], user, device: str = "") -> list[GameSheet]:
    """The desk compared a table's card with what the table entered and confirms those games at
    once. ``shown``: game number -> the version the page showed. All or nothing: a game changed
    since the page was drawn is a conflict, and nothing is confirmed. Nobody confirms their own
    entry (``device`` as for confirm_game)."""
    if _role(user, table.day.tournament) is None:
        raise ServiceError("Only the tournament's organisers and desk staff can confirm scores.")
    if not shown:
        raise ServiceError("Tick at least one game to confirm.")
    table = _lock_tables([table])[0]
    sheets = table_sheets(table)
    stale = [
        n
        for n, version in shown.items()
        if n not in sheets.live or sheets.live[n].version != version
    ]
    if stale:
        games = {g.number: g for g in sheets.games}
        raise VersionConflict([_current(sheets, games[n], shown[n]) for n in stale])
    problems = []
    for n in sorted(shown):
        live = sheets.live[n]
        if live.state == SheetState.CONFIRMED:
            problems.append(f"Game {n} is already confirmed.")
        elif refusal := own_entry_refusal(live, user, device):
            problems.append(refusal)
    if problems:
        raise ServiceError(" ".join(problems))
    now = timezone.now()
    confirmed = []
    for n in sorted(shown):
        live = sheets.live[n]
        _confirm(live, table, live.game, user, Source.DESK, now, how=AuditEvent.PRESSED)
        confirmed.append(live)
    return confirmed


# Nobody confirms their own entry: a second pair of eyes is the point of the desk.
_OWN_ENTRY = "You entered game {n} yourself, so someone else must confirm it."


def own_entry_refusal(live: GameSheet | None, user, device: str = "") -> str:
    """Why ``user`` (on the browser marked ``device``) may not confirm ``live``, or "" when they
    may: the one place that rule lives, asked by the services before confirming and by the pages
    before offering Confirm. A table-link save made logged out is theirs when it came from this
    browser: the mark stays in the session when they log in."""
    if live is None:
        return ""
    if _entered_by(live, user) or (device and live.entered_device == device):
        return _OWN_ENTRY.format(n=live.game.number)
    return ""


def _entered_by(live: GameSheet, user) -> bool:
    account = account_of(user)
    return account is not None and live.entered_by_id == account.pk


def _confirm(live: GameSheet, table: Table, game: Game, user, source: str, now, *, how) -> None:
    live.state = SheetState.CONFIRMED
    live.confirmed_by = account_of(user)
    live.confirmed_at = now
    live.save(update_fields=["state", "confirmed_by", "confirmed_at"])
    AuditEvent.objects.create(
        sheet=live,
        table=table,
        game=game,
        action=AuditEvent.CONFIRMED,
        source=source,
        actor=account_of(user),
        actor_label=_actor_label(user, table, source),
        at=now,
        how=how,
    )


@transaction.atomic
def reject_game(
    table: Table, game: Game, base_version: int, user, reason: str = "", disputed=()
) -> GameSheet:
    """The desk marks a table's entry wrong: it stops counting and the table can enter it again.

    ``disputed``: the numbers that differ from the card (entry ids as text, "engine",
    "outcome"); the table's page marks them, so the scorekeeper fixes those and not the rest."""
    if _role(user, table.day.tournament) is None:
        raise ServiceError("Only the tournament's organisers and desk staff can do that.")
    table, live = _live_for_review(table, game, base_version)
    if live.state != SheetState.ENTERED:
        raise ServiceError(
            f"Game {game.number} is already confirmed: an organiser can correct it instead."
        )
    now = timezone.now()
    live.state = SheetState.REJECTED
    live.save(update_fields=["state"])
    sheets = table_sheets(table)
    AuditEvent.objects.create(
        sheet=live,
        table=table,
        game=game,
        action=AuditEvent.REJECTED,
        source=Source.DESK,
        actor=account_of(user),
        actor_label=user.get_username(),
        at=now,
        reason=reason.strip(),
        changes=_disputed_changes(sheets.names, live, set(disputed)),
    )
    return live


def _disputed_changes(names: dict[int, str], live: GameSheet, disputed: set[str]) -> list[dict]:
    """What the rejected sheet said, one row per player plus engine and outcome, each with
    ``disputed`` when the desk says it differs from the card."""
    values = values_of_sheet(live)
    rows = [
        {
            "entry": entry_id,
            "name": name,
            "from": values.scores.get(entry_id),
            "to": None,
            "disputed": str(entry_id) in disputed,
        }
        for entry_id, name in names.items()
        if entry_id in values.scores
    ]
    rows.append(
        {
            "field": "engine",
            "name": "Engine",
            "from": values.engine,
            "to": None,
            "disputed": "engine" in disputed,
        }
    )
    rows.append(
        {
            "field": "outcome",
            "name": "Went out",
            "from": _outcome_text(names, values.went_out, values.blocked),
            "to": None,
            "disputed": "outcome" in disputed,
        }
    )
    return rows


# ---------------------------------------------------------------------------
# Days and links
# ---------------------------------------------------------------------------


def _require_organiser(user, tournament) -> None:
    if role_in(user, tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can do that.")


def close_day(day: Day, user) -> Day:
    """Close a day: its table links stop working. Returns the day."""
    return _set_closed(day, user, closed=True)


def reopen_day(day: Day, user) -> Day:
    """Reopen a closed day, with a new link for every table.

    The old links stay dead: once a day closed they were declared finished, and may since have
    been left on score sheets, photographed or written to a log. Reopening is mostly for the
    desk to fix a card; a table that must enter scores again gets its new link from the table
    links page or a reprinted sheet.
    """
    return _set_closed(day, user, closed=False)


@transaction.atomic
def _set_closed(day: Day, user, *, closed: bool) -> Day:
    day = Day.objects.select_for_update().select_related("tournament").get(pk=day.pk)
    _require_organiser(user, day.tournament)
    if (day.closed_at is not None) == closed:
        raise ServiceError(
            f"Day {day.number} is already closed."
            if closed
            else f"Day {day.number} is open already."
        )
    day.closed_at = timezone.now() if closed else None
    day.save(update_fields=["closed_at"])
    if not closed:
        for table in Table.objects.select_for_update().filter(day=day).order_by("pk"):
            table.link_token = new_table_token()
            table.save(update_fields=["link_token"])
    return day


@transaction.atomic
def regenerate_table_link(table: Table, user) -> Table:
    """Give a table a new private link and code; the old ones stop working at once."""
    table = _lock_tables([table])[0]
    _require_organiser(user, table.day.tournament)
    table.link_token = new_table_token()
    table.code = new_table_code()
    table.save(update_fields=["link_token", "code"])
    return table
