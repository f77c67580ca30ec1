"""The one route a score sheet is saved by: a table's phone, the desk's card, the organiser's
correction and the workbook all end here (the desk's confirm and "wrong", which save no scores,
are scoring.review's, on the same lock and facts).

After Zulip's ``zerver/actions``: the ``check_*`` functions decide from what was read and read
nothing themselves; the ``do_*`` functions write, under the lock they name. Each save opens one
transaction, locks the table rows (``select_for_update``; on SQLite the IMMEDIATE transaction
serialises writers), reads each table's sheets once, checks every game with
:func:`domain.sheet_checks.check_game` (and written totals with ``check_card_totals``) against
that read, writes append-only versions, and returns :class:`Saved`: what happened, as data.
Nothing here words it for a page; scoring.presenters does. The partial unique constraints on
GameSheet are the backstop: an IntegrityError becomes the same conflict.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.cells import is_blank
from domain.sheet_checks import CleanGame, Problem, TypedSheet, check_game
from scoring import table_reads
from scoring.card_checks import card_total_problems, engines_kept_by_waiting_games
from scoring.models import AuditEvent, Game, GameSheet, Score, SheetState, Source
from scoring.selectors import TableSeats, TableSheets, table_sheets
from scoring.sheet_values import (
    Differs,
    Values,
    audit_changes,
    difference_problems,
    values_of_sheet,
)
from scoring.submissions import OTHER_SAVES_ID, Seen, fingerprint, remember_submission
from tournaments.access import account_of, role_in
from tournaments.models import StaffRole, Table

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


@dataclass(frozen=True)
class Outcome:
    table: int
    game: int
    action: str  # "entered", "confirmed", "corrected" or "rejected"
    sheet: GameSheet


@dataclass(frozen=True)
class GameNow:
    """What a game says now, for a save based on another version of it, or made from a table
    link after the desk confirmed it. scoring.presenters says it in words."""

    table: int
    game: int
    base_version: int | None  # the version the save was based on
    live: GameSheet | None  # scores attached
    last: GameSheet | None  # the newest version in any state (a game marked wrong has no live)
    names: Mapping[int, str]  # entry id -> player name

    @property
    def version(self) -> int:
        return self.live.version if self.live is not None else 0

    @property
    def state(self) -> str:
        return self.live.state if self.live is not None else "empty"


@dataclass
class Saved:
    """What one call did. Nothing is stored unless ``saved`` is true, and then every game is.

    ``denied``: the whole call was refused before any game was looked at (a dead table link,
    someone who is not staff). ``conflicts``: games whose version moved on since the form was
    drawn. ``refusals``: every problem found; ``held``: games the desk confirmed, which a table
    link may no longer change. ``warnings``: "please check" notes, which stop the save only
    while they are not confirmed (``rechecked``). ``sheets``: the read made under the lock
    when one table was saved, to draw the page from (``differs``: see save_card).
    """

    outcomes: list[Outcome] = field(default_factory=list)
    denied: str = ""
    conflicts: list[GameNow] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)
    held: list[GameNow] = field(default_factory=list)
    warnings: list[Refusal] = field(default_factory=list)
    sheets: TableSheets | None = None
    differs: list[Differs] = field(default_factory=list)  # they stop nothing else

    @property
    def refused(self) -> bool:
        return bool(self.refusals or self.held)

    @property
    def to_check(self) -> bool:
        """Nothing else stopped it: only "please check" notes wait for a "Yes, it is right"."""
        return bool(self.warnings) and not (self.denied or self.conflicts or self.refused)

    @property
    def saved(self) -> bool:
        """Stored, or nothing to store (identical to what is there, or a save sent twice)."""
        return not (self.denied or self.conflicts or self.refused or self.warnings)


@dataclass(frozen=True)
class _Who:
    """Who saves: the account (None for a table link without a login) and the browser's mark."""

    user: object
    device: str = ""


@dataclass
class _Plan:
    table_sheets: TableSheets
    game: Game
    clean: CleanGame
    action: str  # "entered" (live is None), "confirmed" or "corrected" (of the live sheet)
    live: GameSheet | None


@dataclass
class _Decision:
    plan: _Plan | None = None
    problems: list[Problem] = field(default_factory=list)
    held: bool = False  # the desk has the game: a table link may not change it
    differs: Differs | None = None  # a desk card that differs from the table's entry


# ---------------------------------------------------------------------------
# The lock and the one read
# ---------------------------------------------------------------------------


def lock_tables(tables: list[Table]) -> list[Table]:
    """Lock the table rows, always in the same order so two writers cannot deadlock.

    Each comes back with its day read fresh (a closed day refuses a change) and with the
    caller's tournament and rules, which no save changes. "of self" keeps PostgreSQL from
    locking the day row that every other table of the day shares.
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


@dataclass(frozen=True)
class _Fresh:
    """What of a table may have changed since the caller read it, as read under the lock."""

    link_token: str
    day_closed_at: datetime | None


def lock_for_save(tables: list[Table]) -> dict[int, _Fresh]:
    """Lock the tables' rows for a save, as lock_tables does, reading only what a save may
    find changed: the link (renewed) and the day (closed). The caller's tables keep the rest,
    which no save changes."""
    rows = table_reads.lock_tables([t.pk for t in tables])
    return {pk: _Fresh(token, day.closed_at) for pk, token, day in rows}


def game_now(sheets: TableSheets, number: int, base_version: int | None) -> GameNow:
    return GameNow(
        table=sheets.table.number,
        game=number,
        base_version=base_version,
        live=sheets.live.get(number),
        last=sheets.latest.get(number),
        names=sheets.names,
    )


def _any_written(totals: Mapping[int, object]) -> bool:
    """A card's totals are checked only when one is written (check_card_totals skips blanks)."""
    return any(not is_blank(value) for value in totals.values())


def _scores_needed(inputs: list[GameInput], totals: Mapping[int, object]) -> set[int] | None:
    """The games whose stored scores the checks compare with: those being saved, or all of
    them (None) when a card's written totals are to be added up."""
    if _any_written(totals):
        return None
    return {item.game.number for item in inputs}


# ---------------------------------------------------------------------------
# check_*: decide from the read, reading nothing
# ---------------------------------------------------------------------------


def check_may_save(opened: Table, fresh: _Fresh, source: str, role: str | None) -> str:
    """Why nobody's games at this table are looked at, or "" when they are.

    A save from a table link waits for the lock; by then the day may have closed or the link
    been renewed. ``opened`` carries the token the phone's page was opened with, ``fresh`` the
    one stored now: a renewed link stops a save already queued, as it stops the page.
    """
    if source == Source.TABLE_LINK:
        if fresh.day_closed_at is not None or opened.link_token != fresh.link_token:
            return "This table link no longer works: ask the desk."
        return ""
    if role is None:
        return "Only the tournament's organisers and desk staff can enter scores here."
    if fresh.day_closed_at is not None:
        return closed_day_refusal(opened.day.number)
    return ""


def closed_day_refusal(day_number: int) -> str:
    """A closed day's scores are final: the desk and the organiser change them only after
    reopening it, so no output shows a finished day changing under it."""
    return f"Day {day_number} is closed: reopen it to change its scores."


def check_versions(sheets: TableSheets, inputs: list[GameInput], device: str = "") -> list[GameNow]:
    """The games whose form was drawn from a version that is no longer the live one.

    A table phone's own entry is not a conflict with itself: when the Wi-Fi lost the answer to
    its save, the page still holds the version it was drawn from, and what the scorekeeper
    typed since is checked against the entry the phone made (stored again only if it differs)."""
    stale = []
    for item in inputs:
        n = item.game.number
        live = sheets.live.get(n)
        now = live.version if live is not None else 0
        if item.base_version is None or item.base_version == now:
            continue
        own = (
            live is not None
            and device
            and live.state == SheetState.ENTERED
            and live.source == Source.TABLE_LINK
            and live.entered_device == device
            and item.base_version < now
        )
        if not own:
            stale.append(game_now(sheets, n, item.base_version))
    return stale


@dataclass(frozen=True)
class _How:
    """How a batch is saved: the same for every game in it."""

    source: str
    who: _Who
    role: str | None
    reason: str
    rechecked: bool
    card_right: frozenset[int] = frozenset()  # games whose paper card the desk says is right


def check_table(
    sheets: TableSheets, inputs: list[GameInput], how: _How, totals: Mapping[int, object]
) -> tuple[list[_Plan], Saved]:
    """Check one table's games against its read: what to write, and what stops it."""
    found = Saved()
    plans: list[_Plan] = []
    in_batch = {item.game.number for item in inputs}
    used = [s.engine_used for n, s in sheets.live.items() if n not in in_batch]
    cleans: dict[int, CleanGame] = {}
    for item in sorted(inputs, key=lambda i: i.game.number):
        n = item.game.number
        check = check_game(
            sheets.sheet_rules,
            sheets.names,
            item.typed,
            used_engines=used,
            withdrawn=sheets.withdrawn(n),
            rechecked=how.rechecked,
        )
        found.refusals += _refusals(sheets, n, check.problems)
        if check.needs_recheck:
            found.warnings += _refusals(sheets, n, check.warnings)
        if check.clean is None:
            continue
        used.append(check.clean.engine)
        cleans[n] = check.clean
        decision = check_decision(sheets, item.game, check.clean, how)
        found.refusals += _refusals(sheets, n, decision.problems)
        if decision.held:
            found.held.append(game_now(sheets, n, item.base_version))
        if decision.differs is not None:
            found.differs.append(decision.differs)
        if decision.plan is not None:
            plans.append(decision.plan)
    kept = {d.game: d.live.engine_used for d in found.differs}
    taken = [(p.game.number, p.clean.engine) for p in plans]
    for n, problem in engines_kept_by_waiting_games(kept, taken):
        found.refusals += _refusals(sheets, n, [problem])
    if _any_written(totals):
        problems = card_total_problems(sheets, totals, cleans, in_batch)
        found.refusals += _refusals(sheets, None, problems)
    return plans, found


def _refusals(sheets, game_number: int | None, problems: list[Problem]) -> list[Refusal]:
    """Problems (or "please check" notes) of one game at one table, as the caller reports them."""
    day, table = sheets.day.number, sheets.table.number
    return [Refusal(day, table, game_number, p.field, p.message) for p in problems]


def check_decision(sheets: TableSheets, game: Game, clean: CleanGame, how: _How) -> _Decision:
    """What saving ``clean`` means given the live sheet: a plan, nothing, or refusals."""
    n = game.number
    mark = sheets.unplayed.get(n)
    if mark is not None:
        return _Decision(
            problems=[
                Problem(
                    "",
                    f"Game {n} was marked not played ({mark.reason}). Ask the desk to take the "
                    "mark back before entering it.",
                )
            ]
        )
    live = sheets.live.get(n)
    same = live is not None and values_of_sheet(live) == Values.of_clean(clean)
    if how.source == Source.TABLE_LINK:
        return _decide_for_table(sheets, game, clean, live, same)
    if how.source == Source.CORRECTION:
        return _decide_correction(sheets, game, clean, live, same, how)
    return _decide_for_staff(sheets, game, clean, live, same, how)


def _decide_for_table(sheets, game, clean, live, same) -> _Decision:
    if live is None:
        return _Decision(_Plan(sheets, game, clean, "entered", None))
    if live.state == SheetState.CONFIRMED:
        return _Decision(held=True)
    if same:
        return _Decision()
    return _Decision(_Plan(sheets, game, clean, "corrected", live))


def _decide_correction(sheets, game, clean, live, same, how: _How) -> _Decision:
    n = game.number
    if how.role != StaffRole.ORGANISER:
        return _refused("", "Only an organiser can change a confirmed score.")
    if live is None or live.state != SheetState.CONFIRMED:
        return _refused(
            "",
            f"Game {n} is not confirmed yet: confirm it at the desk or mark it wrong instead "
            "of correcting it.",
        )
    if same:
        return _refused("", f"Nothing in game {n} was changed.")
    if not how.reason:
        return _refused("reason", "Give a reason for changing a confirmed score.")
    return _Decision(_Plan(sheets, game, clean, "corrected", live))


def _decide_for_staff(sheets, game, clean, live, same, how: _How) -> _Decision:
    """A desk card or a workbook, by staff."""
    n = game.number
    if live is None:
        return _Decision(_Plan(sheets, game, clean, "entered", None))
    if live.state == SheetState.ENTERED:
        if not same:
            problems = difference_problems(
                sheets.names, values_of_sheet(live), Values.of_clean(clean)
            )
            if how.source == Source.DESK and n in how.card_right:  # the table's stays in history
                return _Decision(_Plan(sheets, game, clean, "corrected", live))
            if how.source == Source.DESK:  # waits for the desk to say which is right
                typed = Values.of_clean(clean)
                return _Decision(differs=Differs(sheets.table.number, n, live, typed, problems))
            heading = Problem(
                "",
                f"Game {n} does not match what the table entered, so it was not confirmed. "
                "Check the card, or mark the table's entry wrong.",
            )
            return _Decision(problems=[heading, *problems])
        refusal = own_entry_refusal(live, how.who.user, how.who.device)
        if refusal:
            return _refused("", refusal)
        return _Decision(_Plan(sheets, game, clean, "confirmed", live))
    if same:
        return _Decision()
    if how.role != StaffRole.ORGANISER:
        return _refused(
            "",
            f"Game {n} is already confirmed. Only an organiser can change it, and must give "
            "a reason.",
        )
    if not how.reason:
        return _refused("reason", f"Game {n} is already confirmed: give a reason for changing it.")
    return _Decision(_Plan(sheets, game, clean, "corrected", live))


def _refused(field_name: str, message: str) -> _Decision:
    return _Decision(problems=[Problem(field_name, message)])


# Nobody confirms their own entry: a second pair of eyes is the point of the desk.
_OWN_ENTRY = "You entered game {n} yourself, so someone else must confirm it."


def own_entry_refusal(live: GameSheet | None, user, device: str = "") -> str:
    """Why ``user`` (on the browser marked ``device``) may not confirm ``live``, or "" when they
    may: the one place that rule lives, asked before confirming and by the pages before
    offering Confirm. A table-link save made logged out is theirs when it came from this
    browser: the mark stays in the session when they log in."""
    if live is None:
        return ""
    account = account_of(user)
    if (account is not None and live.entered_by_id == account.pk) or (
        device and live.entered_device == device
    ):
        return _OWN_ENTRY.format(n=live.game.number)
    return ""


# ---------------------------------------------------------------------------
# do_*: write, under the lock
# ---------------------------------------------------------------------------


def do_save_games(
    batches: list[tuple[Table, list[GameInput]]],
    *,
    source: str,
    user=None,
    reason: str = "",
    written_totals: dict[int, dict] | None = None,
    device: str = "",
    rechecked: bool = False,
    submission_id: str = "",
    seated: TableSeats | None = None,
    card_right: frozenset[int] = frozenset(),
) -> Saved:
    """Check and save games for one or more tables, all or nothing, in one transaction that
    locks the tables' rows and reads each table's sheets once.

    ``source`` is the way in (Source). From a table link a game is stored as entered
    (provisional). From the desk or a workbook a new game is stored confirmed; a game the
    table already entered must match it exactly and is then confirmed; a confirmed game that
    differs is a correction, which only an organiser may make, with a reason. With
    ``Source.CORRECTION`` (the organiser's correction page) the game must be confirmed already.
    ``written_totals`` maps table pk -> {entry id: total as typed} for a desk card.

    ``device`` marks the browser the save came from (scoring.devices): stored with a table-link
    save, compared when the desk confirms, so nobody confirms what they typed on a table link.
    ``rechecked`` says the person confirmed the "please check" notes of these very scores.
    ``submission_id``: the id a table's page gives each save, so one it sends again after a
    lost answer is stored once; it is looked up before the version, as the first copy already
    moved the version on.

    ``seated``: one table's seats and games as the caller read them to parse the form. They
    are not read again under the lock: seats change under the day's lock (a late player, a
    substitute, a withdrawal), never under a table's, and the checks then judge the form
    against the players it was typed for.
    """
    if not batches:
        return Saved()
    how = _How(source, _Who(user, device), None, reason.strip(), rechecked, card_right)
    try:
        with transaction.atomic():
            return _save_locked(batches, how, written_totals or {}, submission_id, seated)
    except IntegrityError:
        # Another save got in between our read and our write (the unique constraints on live
        # sheets and versions are the backstop for the row lock): report it as a conflict.
        conflicts = []
        for table, inputs in batches:
            sheets = table_sheets(table)
            conflicts += [game_now(sheets, i.game.number, i.base_version) for i in inputs]
        return Saved(conflicts=conflicts)


def _save_locked(batches, how: _How, written_totals, submission_id: str, seated) -> Saved:
    fresh = lock_for_save([table for table, _ in batches])
    first_table, first_game = batches[0][0], batches[0][1][0].game
    if submission_id:
        digest = fingerprint([(i.base_version, i.typed) for _, inputs in batches for i in inputs])
        seen = remember_submission(first_table, submission_id, first_game, digest)
        if seen is Seen.AGAIN:
            return Saved()  # the first copy is stored
        if seen is Seen.OTHER:
            day = first_table.day.number
            refusal = Refusal(day, first_table.number, first_game.number, "", OTHER_SAVES_ID)
            return Saved(refusals=[refusal])
    if how.source != Source.TABLE_LINK:  # a table link's save needs no role
        how = replace(how, role=role_in(how.who.user, first_table.day.tournament))
    found, plans = Saved(), []
    for table, inputs in batches:
        found.denied = check_may_save(table, fresh[table.pk], how.source, how.role)
        if found.denied:
            break
        totals = written_totals.get(table.pk) or {}
        sheets = table_sheets(
            table,
            seated=seated if len(batches) == 1 else None,
            scores_for=_scores_needed(inputs, totals),
        )
        found.sheets = sheets if len(batches) == 1 else None
        # Version check first: a stale form's values are not worth checking.
        own_device = how.who.device if how.source == Source.TABLE_LINK else ""
        stale = check_versions(sheets, inputs, own_device)
        if stale:
            found.conflicts += stale
            continue
        table_plans, table_found = check_table(sheets, inputs, how, totals)
        plans += table_plans
        found.refusals += table_found.refusals
        found.held += table_found.held
        found.warnings += table_found.warnings
        found.differs += table_found.differs
    if not found.saved:
        transaction.set_rollback(True)  # nothing is stored, not even the submission's id
        return found
    found.outcomes = do_write(plans, how, timezone.now())
    return found


def _actor_label(user, table: Table, source: str) -> str:
    if user is None and source == Source.TABLE_LINK:
        return f"Table {table.number} link"
    return user.get_username()


def do_write(plans: list[_Plan], how: _How, now) -> list[Outcome]:
    """Write the plans; the caller holds the tables' locks and read them under it."""
    # Supersede every replaced version first, so a swap of engines between two games of a
    # card does not trip the one-engine-per-table constraint half way.
    replaced = [p.live.pk for p in plans if p.action == "corrected" and p.live is not None]
    if replaced:
        GameSheet.objects.filter(pk__in=replaced).update(state=SheetState.SUPERSEDED)
    outcomes = []
    for plan in plans:
        table, game, live = plan.table_sheets.table, plan.game, plan.live
        if plan.action == "confirmed" and live is not None:  # a live sheet only
            confirm_sheet(live, table, game, how.who.user, how.source, now, how=AuditEvent.MATCHED)
            outcomes.append(Outcome(table.number, game.number, "confirmed", live))
            continue
        sheet = _write_version(plan, how, now)
        outcomes.append(Outcome(table.number, game.number, plan.action, sheet))
    return outcomes


def _write_version(plan: _Plan, how: _How, now) -> GameSheet:
    sheets, game, clean, live = plan.table_sheets, plan.game, plan.clean, plan.live
    table, user, source = sheets.table, how.who.user, how.source
    provisional = source == Source.TABLE_LINK
    sheet = GameSheet.objects.create(
        table=table,
        game=game,
        version=sheets.next_version(game.number),  # read under this save's lock
        state=SheetState.ENTERED if provisional else SheetState.CONFIRMED,
        engine_used=clean.engine,
        went_out_id=clean.went_out,
        blocked=clean.blocked,
        source=source,
        entered_by=account_of(user),
        entered_device=how.who.device,
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
        actor_label=_actor_label(user, table, source),
        at=now,
        reason=how.reason if live is not None else "",
        changes=audit_changes(sheets.names, old, Values.of_clean(clean)),
    )
    return sheet


def confirm_sheet(
    live: GameSheet, table: Table, game: Game, user, source: str, now, *, how: str
) -> None:
    """Mark ``live`` confirmed and audit it; the caller holds the table's lock."""
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
    device: str = "",
    submission_id: str = "",
    rechecked: bool = False,
    seated: TableSeats | None = None,
) -> Saved:
    """Save one game at one table (see do_save_games). Saved with no outcome when it was
    identical to what is stored, or when ``submission_id`` names a save from this table that
    is stored already."""
    return do_save_games(
        [(table, [GameInput(game, typed, base_version)])],
        source=source,
        user=user,
        reason=reason,
        device=device,
        rechecked=rechecked,
        submission_id=submission_id,
        seated=seated,
    )


def import_games(
    batches: list[tuple[Table, list[GameInput]]],
    *,
    user,
    reason: str = "",
    rechecked: bool = False,
) -> Saved:
    """A filled-in workbook: all of its games or none. ``user`` is the desk user, or
    COMMAND_LINE for the import command; ``rechecked``: the person confirmed the scores the
    last upload of this file asked about."""
    return do_save_games(
        batches, source=Source.WORKBOOK, user=user, reason=reason, rechecked=rechecked
    )
