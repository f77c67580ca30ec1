"""Entering a whole spreadsheet of players: every row or none.

The file is read and every row checked before the transaction opens, so a big or broken file
never holds the database's write lock (on SQLite every table's save waits for it); under the
lock the rows are checked again only if the event's names changed meanwhile, then written in a
handful of bulk inserts.
"""

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models.functions import Lower

from core.errors import ServiceError
from tournaments.models import Entry, KeepApart, Player, RuleSet
from tournaments.player_import import (
    ImportFileError,
    ImportProblem,
    ImportRow,
    ParsedImport,
    check_rows,
    name_key,
    read_cells,
)
from tournaments.selectors import directory_for, entered_names
from tournaments.services.registration import lock_tournament, next_number, refuse_if_play_started

# Names looked up in the directory per query: well under every database's limit on parameters.
LOOKUP_CHUNK = 500


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


@dataclass(frozen=True)
class _EventState:
    """What the rows are checked against: the names entered and how many are still playing."""

    names: dict[str, int]
    playing: int


def _event_state(tournament) -> tuple[_EventState, dict]:
    existing = entered_names(tournament)
    playing = Entry.objects.filter(tournament=tournament).exclude(status=Entry.WITHDRAWN).count()
    return _EventState({key: e.number for key, e in existing.items()}, playing), existing


def _check(cells, tournament, state: _EventState) -> ParsedImport:
    rules = RuleSet.objects.get(tournament=tournament)
    return check_rows(
        cells,
        max_table_size=rules.max_table_size,
        existing_names=state.names,
        existing_players=state.playing,
    )


def import_players(tournament, data: bytes, filename: str = "", *, user) -> ImportOutcome:
    """Enter every player in a spreadsheet, or none if any row has a problem.

    Returning members are matched in the directory ``user`` may reuse (tournaments.selectors.
    directory_for): players of events they organise.
    """
    refuse_if_play_started(tournament, "no one new can be entered")
    try:
        cells = read_cells(data, filename, max_bytes=settings.UPLOAD_MAX_BYTES)
    except ImportFileError as error:
        raise ImportRefused([ImportProblem(1, str(error))]) from None
    state, _ = _event_state(tournament)
    parsed = _check(cells, tournament, state)
    if not parsed.ok:
        raise ImportRefused(parsed.problems)
    directory = _directory_lookup([row.name for row in parsed.rows], user)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        refuse_if_play_started(tournament, "no one new can be entered")
        now, existing = _event_state(tournament)
        if now != state:
            # Someone entered or withdrew a player while the file was read: check it again.
            parsed = _check(cells, tournament, now)
            if not parsed.ok:
                raise ImportRefused(parsed.problems)
        return _write(tournament, parsed, directory, existing)


def _write(tournament, parsed: ParsedImport, directory, existing) -> ImportOutcome:
    matches = [_directory_match(directory, row) for row in parsed.rows]
    reused = sum(1 for p in matches if p is not None)
    new = [
        Player(name=row.name, club=row.club)
        for row, player in zip(parsed.rows, matches, strict=True)
        if player is None
    ]
    created = iter(Player.objects.bulk_create(new))
    players = [player if player is not None else next(created) for player in matches]
    _clubs_from_the_list(parsed.rows, players)
    first = next_number(tournament)
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            player=player,
            club=player.club,
            number=first + i,
            pinned_table=row.table,
        )
        for i, (row, player) in enumerate(zip(parsed.rows, players, strict=True))
    )
    entry_pk_by_key = {key: e.pk for key, e in existing.items()}
    entry_pk_by_key.update({name_key(e.player.name): e.pk for e in entries})
    pairs = set()
    for _, name, partner in parsed.keep_apart:
        pairs.add(
            tuple(sorted((entry_pk_by_key[name_key(name)], entry_pk_by_key[name_key(partner)])))
        )
    already = set(
        KeepApart.objects.filter(tournament=tournament).values_list("first_id", "second_id")
    )
    new_pairs = sorted(pairs - already)
    KeepApart.objects.bulk_create(
        KeepApart(tournament=tournament, first_id=a, second_id=b) for a, b in new_pairs
    )
    return ImportOutcome(entries=entries, from_directory=reused, keep_apart_pairs=len(new_pairs))


def _clubs_from_the_list(rows: list[ImportRow], players: list[Player]) -> None:
    """A club on the list is the player's current one; a blank cell keeps the one on file."""
    changed = []
    for row, player in zip(rows, players, strict=True):
        if row.club and row.club != player.club:
            player.club = row.club
            changed.append(player)
    Player.objects.bulk_update(changed, ["club"])


def _directory_lookup(names: list[str], user) -> dict[str, list[Player]]:
    keys = {name_key(n) for n in names}
    lowered = sorted({" ".join(n.split()).lower() for n in names})
    found: dict[str, list[Player]] = {}
    reusable = directory_for(user).annotate(lname=Lower("name"))
    for start in range(0, len(lowered), LOOKUP_CHUNK):
        chunk = lowered[start : start + LOOKUP_CHUNK]
        for player in reusable.filter(lname__in=chunk).order_by("pk"):
            key = name_key(player.name)
            if key in keys:
                found.setdefault(key, []).append(player)
    for players in found.values():
        players.sort(key=lambda p: p.pk)
    return found


def _directory_match(directory, row: ImportRow) -> Player | None:
    """A returning member: same name, and the same club unless one of the two leaves it blank."""
    club = row.club.casefold()
    for player in directory.get(name_key(row.name), []):
        if not club or not player.club or player.club.casefold() == club:
            return player
    return None
