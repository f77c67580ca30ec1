"""Writes for events, players and seating. Each action is one function in one transaction."""
import datetime
import logging
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.db.models.functions import Lower
from django.utils import timezone

from .models import (
    Day, Entry, KeepApart, Player, RulePreset, RuleSet, Seat, StaffRole, Table, Tournament,
)
from .player_import import CLUB_MAX, NAME_MAX, ImportProblem, ImportRow, name_key, parse_player_file
from .seating import (
    SeatingError, count_repeat_pairs, meeting_conflicts, repeat_lower_bound, seat, table_sizes,
)
from .selectors import (
    entered_names, first_started_day, keep_apart_ids, seating_history, seatings_by_day,
)

logger = logging.getLogger(__name__)


class ServiceError(Exception):
    """A refusal with a message for the person who asked; ``field`` names the form field it is
    about, when there is one, so a page can show it beside that field."""

    def __init__(self, message: str = "", field: str | None = None):
        super().__init__(message)
        self.field = field


@transaction.atomic
def create_tournament(
    *, slug: str, name: str, preset_key: str, start_date: datetime.date | None = None,
    organiser=None, venue: str = "",
) -> Tournament:
    preset = RulePreset.objects.filter(key=preset_key).first()
    if preset is None:
        known = ", ".join(RulePreset.objects.values_list("key", flat=True))
        raise ServiceError(f'There is no rule preset called "{preset_key}". Choose one of: {known}.')
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(f'The slug "{slug}" is already taken by another tournament.')
    tournament = Tournament.objects.create(
        slug=slug, name=name, start_date=start_date, preset=preset, venue=venue
    )
    RuleSet.objects.create(tournament=tournament, **preset.rule_values())
    for number in range(1, preset.days + 1):
        date = start_date + datetime.timedelta(days=number - 1) if start_date else None
        Day.objects.create(tournament=tournament, number=number, date=date)
    if organiser is not None:
        StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.ORGANISER)
    return tournament


# ---------------------------------------------------------------------------
# Registration and check-in
# ---------------------------------------------------------------------------


def _lock_tournament(tournament) -> Tournament:
    # Player numbers are max+1; locking the tournament row makes two desks adding players at
    # once take turns instead of both picking the same number.
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _refuse_if_play_started(tournament, action: str) -> None:
    started = first_started_day(tournament)
    if started is not None:
        raise ServiceError(
            f"Day {started} already has scores, so {action}: "
            "nobody joins once play has started and there are no substitutes."
        )


def _next_number(tournament) -> int:
    highest = Entry.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"]
    return (highest or 0) + 1


def _refuse_duplicate_name(tournament, name: str, *, exclude_entry=None) -> None:
    other = entered_names(tournament, exclude_entry=exclude_entry).get(name_key(name))
    if other is None:
        return
    if other.withdrawn:
        raise ServiceError(
            f"{other.name} is already entered as player #{other.number} and has withdrawn. "
            'To bring them back, open their player page and choose "Undo the withdrawal". If '
            "this is a different person, add something to tell them apart, such as a middle "
            "initial.",
            field="name",
        )
    raise ServiceError(
        f"{other.name} is already entered as player #{other.number}. If this is a different "
        "person, add something to tell them apart, such as a middle initial.",
        field="name",
    )


def _clean_text(value: str, label: str, limit: int) -> str:
    value = " ".join((value or "").split())
    if len(value) > limit:
        raise ServiceError(f"The {label} is longer than {limit} letters.", field=label)
    return value


@transaction.atomic
def register_player(
    tournament, *, player: Player | None = None, name: str = "", club: str = "",
    contact: str = "", pinned_table: int | None = None,
) -> Entry:
    """Enter a player: an existing directory ``player``, or a new one called ``name``."""
    tournament = _lock_tournament(tournament)
    _refuse_if_play_started(tournament, "no one new can be entered")
    if player is not None:
        existing = Entry.objects.filter(tournament=tournament, player=player).first()
        if existing is not None:
            raise ServiceError(f"{player.name} is already entered as player #{existing.number}.")
        _refuse_duplicate_name(tournament, player.name)
    else:
        name = _clean_text(name, "name", NAME_MAX)
        if not name:
            raise ServiceError("Type the player's name.", field="name")
        _refuse_duplicate_name(tournament, name)
        player = Player.objects.create(
            name=name, club=_clean_text(club, "club", CLUB_MAX), contact=contact.strip()
        )
    if pinned_table is not None and pinned_table < 1:
        raise ServiceError("Table numbers start at 1.", field="pinned_table")
    return Entry.objects.create(
        tournament=tournament, player=player, number=_next_number(tournament),
        pinned_table=pinned_table,
    )


@transaction.atomic
def update_entry(entry, *, name: str, club: str, contact: str, pinned_table: int | None) -> Entry:
    """Correct a player's details. The name and club belong to the club directory, so the
    correction shows in every event the player entered."""
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    name = _clean_text(name, "name", NAME_MAX)
    if not name:
        raise ServiceError("Type the player's name.", field="name")
    _refuse_duplicate_name(entry.tournament, name, exclude_entry=entry)
    if pinned_table is not None and pinned_table < 1:
        raise ServiceError("Table numbers start at 1.", field="pinned_table")
    player = entry.player
    player.name = name
    player.club = _clean_text(club, "club", CLUB_MAX)
    player.contact = (contact or "").strip()
    player.save(update_fields=["name", "club", "contact"])
    if entry.pinned_table != pinned_table:
        entry.pinned_table = pinned_table
        entry.save(update_fields=["pinned_table"])
        _refresh_open_days(entry.tournament)
    return entry


def _refresh_open_days(tournament) -> None:
    """After a pin changes: the lower bound respects pins, so recompute it for the days whose
    seating can still change. A day already played keeps the figures of the tables it was played
    at; a bound from a pin set later could exceed the repeats those tables actually had."""
    seated = Day.objects.filter(tournament=tournament, seated_at__isnull=False).order_by("number")
    for day in seated:
        if not _is_fixed(day):
            refresh_repeat_counts(tournament, day.number)
            return


@dataclass
class WithdrawOutcome:
    entry: Entry
    # (day number, last game played) for a day in progress
    left_during: list[tuple[int, int]]
    # days seated but not started: the player's seat was taken out, so reseat for even tables
    unseated_days: list[int]


@transaction.atomic
def withdraw_entry(entry) -> WithdrawOutcome:
    """Mark a player withdrawn. On a day in progress the player's table plays on without them
    after the last game it has entered; on a seated day not yet started the seat is removed."""
    from scoring.models import LIVE_STATES, GameSheet

    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has already withdrawn.")
    entry.status = Entry.WITHDRAWN
    entry.save(update_fields=["status"])
    left_during, unseated = [], []
    seats = Seat.objects.filter(entry=entry, day__closed_at__isnull=True).select_related("day", "table")
    for held in seats:
        if held.table.sheets.exists():
            last = (
                GameSheet.objects.filter(table=held.table, state__in=LIVE_STATES)
                .aggregate(n=Max("game__number"))["n"]
            ) or 0
            if held.left_after_game is None:
                held.left_after_game = last
                held.save(update_fields=["left_after_game"])
            left_during.append((held.day.number, held.left_after_game))
        elif not held.day.scores_started():
            unseated.append(held.day.number)
            held.delete()
        else:
            # Other tables have started but this one has not entered a game yet.
            held.left_after_game = 0
            held.save(update_fields=["left_after_game"])
            left_during.append((held.day.number, 0))
    if unseated:
        refresh_repeat_counts(entry.tournament, min(unseated))
    return WithdrawOutcome(entry=entry, left_during=left_during, unseated_days=sorted(unseated))


@transaction.atomic
def reinstate_entry(entry) -> Entry:
    """Undo a withdrawal made by mistake, while play has not started."""
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status != Entry.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has not withdrawn.")
    _refuse_if_play_started(entry.tournament, f"{entry.player.name} cannot come back")
    _refuse_duplicate_name(entry.tournament, entry.player.name, exclude_entry=entry)
    entry.status = Entry.REGISTERED
    entry.save(update_fields=["status"])
    return entry


@transaction.atomic
def set_checked_in(entry, here: bool) -> Entry:
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has withdrawn and cannot be checked in.")
    wanted = Entry.CHECKED_IN if here else Entry.REGISTERED
    if entry.status == wanted:
        return entry
    if here:
        _refuse_if_play_started(entry.tournament, f"{entry.player.name} cannot be checked in now")
    else:
        _refuse_if_play_started(
            entry.tournament,
            f"{entry.player.name} cannot be checked out; mark them withdrawn if they have left",
        )
    entry.status = wanted
    entry.save(update_fields=["status"])
    return entry


@transaction.atomic
def add_keep_apart(first: Entry, second: Entry) -> KeepApart:
    if first.pk == second.pk:
        raise ServiceError("A player cannot be kept apart from themself.")
    if first.tournament_id != second.tournament_id:
        raise ServiceError("Both players must be entered in the same event.")
    low, high = sorted((first, second), key=lambda e: e.pk)
    pair, created = KeepApart.objects.get_or_create(
        tournament_id=first.tournament_id, first=low, second=high
    )
    if not created:
        raise ServiceError(f"{low.player.name} and {high.player.name} are already kept apart.")
    return pair


@transaction.atomic
def remove_keep_apart(first: Entry, second: Entry) -> None:
    low, high = sorted((first, second), key=lambda e: e.pk)
    deleted, _ = KeepApart.objects.filter(first=low, second=high).delete()
    if not deleted:
        raise ServiceError(f"{low.player.name} and {high.player.name} were not kept apart.")


# ---------------------------------------------------------------------------
# Spreadsheet import
# ---------------------------------------------------------------------------


class ImportRefused(ServiceError):
    """The file has problems; nothing was imported. ``problems`` lists them by row."""

    def __init__(self, problems: list[ImportProblem]):
        self.problems = problems
        count = "1 problem" if len(problems) == 1 else f"{len(problems)} problems"
        super().__init__(f"Nothing was imported: the file has {count}.")


@dataclass
class ImportOutcome:
    entries: list[Entry]
    from_directory: int  # players already in the club directory, reused rather than retyped
    keep_apart_pairs: int


@transaction.atomic
def import_players(tournament, data: bytes, filename: str = "") -> ImportOutcome:
    """Enter every player in a spreadsheet, or none if any row has a problem."""
    tournament = _lock_tournament(tournament)
    _refuse_if_play_started(tournament, "no one new can be entered")
    rules = RuleSet.objects.get(tournament=tournament)
    existing = entered_names(tournament)
    parsed = parse_player_file(
        data, filename, max_table_size=rules.max_table_size,
        existing_names={key: e.number for key, e in existing.items()},
        existing_players=Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.WITHDRAWN).count(),
        max_bytes=settings.UPLOAD_MAX_BYTES,
    )
    if not parsed.ok:
        raise ImportRefused(parsed.problems)

    directory = _directory_lookup([row.name for row in parsed.rows])
    entries_by_key = {}
    reused = 0
    number = _next_number(tournament)
    for row in parsed.rows:
        player = _directory_match(directory, row)
        if player is None:
            player = Player.objects.create(name=row.name, club=row.club)
        else:
            reused += 1
        entries_by_key[name_key(row.name)] = Entry.objects.create(
            tournament=tournament, player=player, number=number, pinned_table=row.table
        )
        number += 1
    entry_pk_by_key = {key: e.pk for key, e in existing.items()}
    entry_pk_by_key.update({key: e.pk for key, e in entries_by_key.items()})
    pairs = set()
    for _, name, partner in parsed.keep_apart:
        pairs.add(tuple(sorted((entry_pk_by_key[name_key(name)], entry_pk_by_key[name_key(partner)]))))
    already = set(KeepApart.objects.filter(tournament=tournament).values_list("first_id", "second_id"))
    new_pairs = sorted(pairs - already)
    KeepApart.objects.bulk_create(
        KeepApart(tournament=tournament, first_id=a, second_id=b) for a, b in new_pairs
    )
    return ImportOutcome(
        entries=list(entries_by_key.values()), from_directory=reused, keep_apart_pairs=len(new_pairs)
    )


def _directory_lookup(names: list[str]) -> dict[str, list[Player]]:
    keys = {name_key(n) for n in names}
    lowered = {" ".join(n.split()).lower() for n in names}
    found: dict[str, list[Player]] = {}
    candidates = Player.objects.annotate(lname=Lower("name")).filter(lname__in=lowered).order_by("pk")
    for player in candidates:
        key = name_key(player.name)
        if key in keys:
            found.setdefault(key, []).append(player)
    return found


def _directory_match(directory, row: ImportRow) -> Player | None:
    """A returning member: same name, and the same club unless one of the two leaves it blank."""
    club = row.club.casefold()
    for player in directory.get(name_key(row.name), []):
        if not club or not player.club or player.club.casefold() == club:
            return player
    return None


# ---------------------------------------------------------------------------
# Seating
# ---------------------------------------------------------------------------


@dataclass
class SeatingOutcome:
    day: Day
    tables: list[list[Entry]]
    repeat_pairs: int
    lower_bound: int
    seed: int
    kept_tables: bool = False  # reshuffle is off and yesterday's tables were kept


def players_to_seat(tournament) -> list[Entry]:
    """Checked-in players; when nobody has been checked in, every player still entered."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.WITHDRAWN)
        .select_related("player")
        .order_by("number")
    )
    here = [e for e in entries if e.status == Entry.CHECKED_IN]
    return here or entries


def _lock_day(day) -> Day:
    # Lock the day row alone: PostgreSQL refuses FOR UPDATE across the outer join to the rules.
    day = Day.objects.select_for_update().get(pk=day.pk)
    day.tournament = Tournament.objects.select_related("rules").get(pk=day.tournament_id)
    _refuse_if_fixed(day)
    return day


def _is_fixed(day) -> bool:
    """Closed, or scores entered: the day's tables are what was played and never change."""
    return day.is_closed or day.scores_started()


def _refuse_if_fixed(day) -> None:
    if day.is_closed:
        raise ServiceError(f"Day {day.number} is closed; its seating can no longer change.")
    if day.scores_started():
        raise ServiceError(
            f"Day {day.number} already has scores, so its tables are fixed: nobody joins, moves "
            "or is substituted once play has started."
        )


def _seating_limits() -> dict:
    return {
        "time_limit": getattr(settings, "SEATING_TIME_LIMIT", 5.0),
        "max_evals": getattr(settings, "SEATING_MAX_EVALS", None),
    }


def _kept_tables(previous, players, sizes, pins, apart) -> list[list[int]] | None:
    """Yesterday's tables for today's players, if they still make a legal seating."""
    ids = {e.pk for e in players}
    tables = [[p for p in table if p in ids] for table in previous]
    tables = [t for t in tables if t]
    if sum(len(t) for t in tables) != len(ids):
        return None  # someone new: the tables cannot simply be kept
    if sorted((len(t) for t in tables), reverse=True) != sizes:
        return None
    tables.sort(key=len, reverse=True)  # table_sizes order: larger tables first
    where = {p: i + 1 for i, t in enumerate(tables) for p in t}
    if any(where[p] != t for p, t in pins.items()):
        return None
    if any(where.get(a) == where.get(b) for a, b in apart if a in where and b in where):
        return None
    return [sorted(t) for t in tables]


@transaction.atomic
def seat_day(day, *, seed: int | None = None, organiser=None) -> SeatingOutcome:
    """Seat (or reseat) one day and store the tables, the seed and the repeat count.

    From day 2 on, with reshuffle on, the seating avoids pairs who already shared a table on any
    earlier day and stops at the proven lower bound when it reaches it. With reshuffle off the
    previous day's tables are kept when they still fit today's players; otherwise (a withdrawal
    unbalanced them) a fresh random seating is drawn.
    """
    from scoring.schedule import ensure_schedule

    day = _lock_day(day)
    tournament = day.tournament
    rules = tournament.rules
    if seed is None:
        seed = secrets.randbits(31)
    players = players_to_seat(tournament)
    if not players:
        raise ServiceError("There is nobody to seat: enter players first.")
    ids = [e.pk for e in players]
    by_id = {e.pk: e for e in players}
    history = seating_history(tournament, day.number)
    apart = keep_apart_ids(tournament)
    pins = {e.pk: e.pinned_table for e in players if e.pinned_table is not None}
    names = {e.pk: f"{e.player.name} (#{e.number})" for e in players}
    sizes = table_sizes(len(ids), rules.max_table_size)

    kept = None
    if history and not rules.reshuffle_each_day:
        kept = _kept_tables(history[-1], players, sizes, pins, apart)
    if kept is not None:
        tables = kept
    else:
        try:
            result = seat(
                ids, rules.max_table_size, seed=seed,
                history=history if rules.reshuffle_each_day else (),
                keep_apart=apart, pinned=pins, names=names, **_seating_limits(),
            )
        except SeatingError as error:
            raise ServiceError(str(error)) from error
        tables = result.tables

    _store_tables(day, [[by_id[p] for p in table] for table in tables])
    day.seed = seed
    day.seated_at = timezone.now()
    day.save(update_fields=["seed", "seated_at"])
    # Later days already seated are measured against this one, so their counts change too.
    repeats, bound = refresh_repeat_counts(tournament, day.number)[day.number]
    day.repeat_pairs, day.repeat_lower_bound = repeats, bound
    ensure_schedule(day)
    logger.info("Day %s of %s seated by %s with seed %s", day.number, tournament.slug,
                organiser or "a command", seed)
    return SeatingOutcome(
        day=day, tables=[[by_id[p] for p in table] for table in tables], repeat_pairs=repeats,
        lower_bound=bound, seed=seed, kept_tables=kept is not None,
    )


def _store_tables(day, tables: list[list[Entry]]) -> None:
    """Replace the day's seats. Table rows 1..k are kept (their printed links stay valid)."""
    Seat.objects.filter(day=day).delete()
    Table.objects.filter(day=day, number__gt=len(tables)).delete()
    existing = {t.number: t for t in Table.objects.filter(day=day)}
    for number in range(1, len(tables) + 1):
        if number not in existing:
            existing[number] = Table.objects.create(day=day, number=number)
    Seat.objects.bulk_create(
        Seat(day=day, table=existing[number], entry=entry, position=position)
        for number, members in enumerate(tables, start=1)
        for position, entry in enumerate(sorted(members, key=lambda e: e.number), start=1)
    )


def _current_tables(day) -> dict[int, list[int]]:
    tables: dict[int, list[int]] = {t.number: [] for t in Table.objects.filter(day=day)}
    for number, entry_id in Seat.objects.filter(day=day).values_list("table__number", "entry_id"):
        tables[number].append(entry_id)
    return tables


@transaction.atomic
def refresh_repeat_counts(tournament, from_day_number: int) -> dict[int, tuple[int, int]]:
    """Recompute the stored repeat pairs and lower bound of day ``from_day_number`` and of every
    later seated day, from the seats as stored; returns day number -> (pairs, bound).

    A day's repeats are counted against every earlier day, so changing one day's tables changes
    the figures of the days after it; the bound also respects pins. Every change to seats or pins
    goes through here so no stored figure is left measured against tables that no longer exist.
    """
    # Lock the days before reading their seats, so a reseat of a later day running at the same
    # time cannot slip in between the read and the write; always in day order, so no deadlock.
    days = list(
        Day.objects.select_for_update().filter(
            tournament=tournament, number__gte=from_day_number, seated_at__isnull=False
        ).order_by("number")
    )
    if not days:
        return {}
    seatings = seatings_by_day(tournament)
    pins = dict(
        Entry.objects.filter(tournament=tournament, pinned_table__isnull=False)
        .values_list("pk", "pinned_table")
    )
    figures = {}
    for day in days:
        tables = seatings.get(day.number, [])
        history = [earlier for number, earlier in seatings.items() if number < day.number]
        ids = [p for table in tables for p in table]
        sizes = sorted((len(t) for t in tables), reverse=True)
        day.repeat_pairs = count_repeat_pairs(tables, history)
        # Everyone may have withdrawn from a day; with nobody seated there is nothing to bound.
        day.repeat_lower_bound = (
            repeat_lower_bound(ids, sizes, history, {p: pins[p] for p in ids if p in pins})
            if ids else 0
        )
        day.save(update_fields=["repeat_pairs", "repeat_lower_bound"])
        figures[day.number] = (day.repeat_pairs, day.repeat_lower_bound)
    return figures


def _seat_of(day, entry) -> Seat:
    seat = Seat.objects.filter(day=day, entry=entry).select_related("table", "entry__player").first()
    if seat is None:
        raise ServiceError(f"{entry.player.name} has no seat on day {day.number}.")
    return seat


def _plan_move(day, entry, table_number: int) -> tuple[dict[int, list[int]], Seat]:
    tables = _current_tables(day)
    seat = _seat_of(day, entry)
    name = entry.player.name
    if table_number not in tables:
        raise ServiceError(f"Day {day.number} has no table {table_number}.")
    if seat.table.number == table_number:
        raise ServiceError(f"{name} is already at table {table_number}.")
    limit = day.tournament.rules.max_table_size
    if len(tables[table_number]) >= limit:
        raise ServiceError(
            f"Table {table_number} already has {len(tables[table_number])} players, the most a "
            f"table may seat. Swap {name} with one of them instead."
        )
    if len(tables[seat.table.number]) <= 2:
        raise ServiceError(
            f"Moving {name} would leave table {seat.table.number} with one player."
        )
    tables[seat.table.number].remove(entry.pk)
    tables[table_number].append(entry.pk)
    return tables, seat


def _plan_swap(day, first, second) -> tuple[dict[int, list[int]], Seat, Seat]:
    if first.pk == second.pk:
        raise ServiceError("Choose two different players to swap.")
    tables = _current_tables(day)
    seat_a, seat_b = _seat_of(day, first), _seat_of(day, second)
    if seat_a.table_id == seat_b.table_id:
        raise ServiceError(
            f"{first.player.name} and {second.player.name} are both at table "
            f"{seat_a.table.number}; swapping them changes nothing."
        )
    tables[seat_a.table.number].remove(first.pk)
    tables[seat_b.table.number].remove(second.pk)
    tables[seat_a.table.number].append(second.pk)
    tables[seat_b.table.number].append(first.pk)
    return tables, seat_a, seat_b


def _new_problems(day, before: dict, after: dict, moved: list[Entry]) -> list[str]:
    """Plain-words warnings for repeat meetings, keep-apart pairs and pins the change creates."""
    history = seating_history(day.tournament, day.number)
    apart = keep_apart_ids(day.tournament)
    old = set(meeting_conflicts(list(before.values()), history, apart))
    new = [c for c in meeting_conflicts(list(after.values()), history, apart) if c not in old]
    moved_ids = {e.pk for e in moved}
    ids = {p for c in new for p in c[:2]}
    names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))
    warnings = []
    for a, b, kind in new:
        if a not in moved_ids and b not in moved_ids:
            continue
        if kind == "keep-apart":
            warnings.append(f"{names[a]} and {names[b]} must sit apart, but would share a table.")
        else:
            warnings.append(f"{names[a]} and {names[b]} already met on an earlier day.")
    table_of = {p: number for number, members in after.items() for p in members}
    for entry in moved:
        pin = entry.pinned_table
        if pin is not None and table_of[entry.pk] != pin:
            warnings.append(f"{entry.player.name} is pinned to table {pin}.")
    return warnings


def check_move(day, entry, table_number: int) -> list[str]:
    """Refuse an impossible move (ServiceError); otherwise list what the organiser should know."""
    _refuse_if_fixed(day)
    before = _current_tables(day)
    after, _ = _plan_move(day, entry, table_number)
    return _new_problems(day, before, after, [entry])


def check_swap(day, first, second) -> list[str]:
    _refuse_if_fixed(day)
    before = _current_tables(day)
    after, _, _ = _plan_swap(day, first, second)
    return _new_problems(day, before, after, [first, second])


@transaction.atomic
def move_player(day, entry, table_number: int) -> Seat:
    day = _lock_day(day)
    _, seat = _plan_move(day, entry, table_number)
    target = Table.objects.get(day=day, number=table_number)
    last = Seat.objects.filter(table=target).aggregate(n=Max("position"))["n"] or 0
    seat.table = target
    seat.position = last + 1
    seat.save(update_fields=["table", "position"])
    refresh_repeat_counts(day.tournament, day.number)
    return seat


@transaction.atomic
def swap_players(day, first, second) -> None:
    day = _lock_day(day)
    _, seat_a, seat_b = _plan_swap(day, first, second)
    table_a, position_a = seat_a.table, seat_a.position
    table_b, position_b = seat_b.table, seat_b.position
    # Park one seat outside both tables so the one-player-per-seat rule holds at every step.
    seat_a.position = 0
    seat_a.table = table_b
    seat_a.save(update_fields=["table", "position"])
    seat_b.table, seat_b.position = table_a, position_a
    seat_b.save(update_fields=["table", "position"])
    seat_a.position = position_b
    seat_a.save(update_fields=["position"])
    refresh_repeat_counts(day.tournament, day.number)


def set_public_pages(tournament: Tournament, on: bool) -> None:
    """Open or close the public standings, projector and "find your table" pages."""
    Tournament.objects.filter(pk=tournament.pk).update(public_pages=on)
    tournament.public_pages = on
