"""Entering a whole spreadsheet of players: every row or none.

The file is read and every row checked before the transaction opens, so a big or broken file
never holds the database's write lock (on SQLite every table's save waits for it); under the
lock the rows are checked again only if the event's names changed meanwhile, then written in a
handful of bulk inserts.
"""

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from domain.flights import ages_reached_on
from domain.people import (
    ListedPerson,
    SamePerson,
    Why,
    answers_for_no_question,
    decide,
    match_people,
    unanswered,
)
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
from tournaments.selectors import entered_names, last_events, people_on_file
from tournaments.services.registration import (
    club_is_current,
    lock_tournament,
    next_number,
    refuse_if_play_started,
)


class ImportRefused(ServiceError):
    """The file has problems; nothing was imported. ``problems`` lists them by row."""

    def __init__(self, problems: list[ImportProblem]):
        self.problems = problems
        count = "1 problem" if len(problems) == 1 else f"{len(problems)} problems"
        super().__init__(f"Nothing was imported: the file has {count}.")


@dataclass(frozen=True)
class ImportQuestion:
    """ "Same person?" for one row: the row as the list has it, beside who is on file."""

    row: ImportRow
    person: Player
    why: Why
    last_entry: Entry | None  # where the organiser last saw ``person``, with its event


class ImportNeedsAnswers(ServiceError):
    """Rows that could be people already on file, waiting for "same person?"; nothing was
    imported. ``questions`` lists them in row order."""

    def __init__(self, questions: list[ImportQuestion]):
        self.questions = questions
        rows = "1 row" if len(questions) == 1 else f"{len(questions)} rows"
        could = "could be someone" if len(questions) == 1 else "could be people"
        super().__init__(
            f"Nothing is imported yet: {rows} {could} already on file. Say for each whether it "
            "is the same person."
        )


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
        flights=rules.flights,
        ages_on=ages_reached_on(tournament.start_date, timezone.localdate()),
        today=timezone.localdate(),
    )


def read_player_file(data: bytes, filename: str = "") -> list[list[str]]:
    """The file's cells, or ImportRefused with the reason on row 1."""
    try:
        return read_cells(data, filename, max_bytes=settings.UPLOAD_MAX_BYTES)
    except ImportFileError as error:
        raise ImportRefused([ImportProblem(1, str(error))]) from None


def import_players(
    tournament, data: bytes, filename: str = "", *, user, answers: SamePerson | None = None
) -> ImportOutcome:
    """Enter every player in a spreadsheet, or none if any row has a problem (ImportRefused) or
    could be someone on file without ``answers`` saying whether it is (ImportNeedsAnswers).

    Returning members are matched (domain.people) in the directory ``user`` may reuse
    (tournaments.selectors.directory_for): players of events they organise.
    """
    refuse_if_play_started(tournament, "no one new can be entered")
    return import_cells(tournament, read_player_file(data, filename), user=user, answers=answers)


def import_cells(
    tournament, cells: list[list[str]], *, user, answers: SamePerson | None = None
) -> ImportOutcome:
    """:func:`import_players` for a file already read (the review step sends back its cells)."""
    refuse_if_play_started(tournament, "no one new can be entered")
    state, _ = _event_state(tournament)
    parsed = _check(cells, tournament, state)
    if not parsed.ok:
        raise ImportRefused(parsed.problems)
    matches = _matches(tournament, parsed, user, answers)
    with transaction.atomic():
        tournament = lock_tournament(tournament)
        refuse_if_play_started(tournament, "no one new can be entered")
        now, existing = _event_state(tournament)
        if now != state:
            # Someone entered or withdrew a player while the file was read: check it again.
            parsed = _check(cells, tournament, now)
            if not parsed.ok:
                raise ImportRefused(parsed.problems)
            matches = _matches(tournament, parsed, user, answers)
        return _write(tournament, parsed, matches, existing)


def questions_for(tournament, cells: list[list[str]], *, user) -> list[ImportQuestion]:
    """The "same person?" questions the file asks (none: it can be imported as it is); a file
    with problems is ImportRefused. Nothing is written."""
    state, _ = _event_state(tournament)
    parsed = _check(cells, tournament, state)
    if not parsed.ok:
        raise ImportRefused(parsed.problems)
    try:
        _matches(tournament, parsed, user, None)
    except ImportNeedsAnswers as waiting:
        return waiting.questions
    return []


def _matches(tournament, parsed: ParsedImport, user, answers: SamePerson | None) -> list:
    """Each row's person on file (or None for someone new), every question answered."""
    listed = [
        ListedPerson(row.row, row.name, row.club, row.member_number, row.contact)
        for row in parsed.rows
    ]
    found = match_people(listed, people_on_file(user), name_key)
    _refuse_people_entered_already(tournament, parsed, found)
    if answers is not None:
        _refuse_answers_for_no_question(parsed, found, answers)
    waiting = unanswered(found, answers)
    if waiting:
        raise ImportNeedsAnswers(_questions(parsed, waiting, user))
    return [match.person.id if match.person else None for match in decide(found, answers)]


def _refuse_people_entered_already(tournament, parsed: ParsedImport, found) -> None:
    # A name already entered is a row problem (player_import); a member number can find
    # someone entered under another name.
    matched = {match.person.id: match.row for match in found if match.person is not None}
    entered = Entry.objects.filter(tournament=tournament, player_id__in=list(matched))
    problems = [
        ImportProblem(
            matched[entry.player_id],
            f"This is #{entry.number} {entry.player.name} (the same member number), already "
            "entered in this event.",
        )
        for entry in entered.select_related("player")
    ]
    if problems:
        raise ImportRefused(sorted(problems, key=lambda p: p.row))


def _refuse_answers_for_no_question(parsed: ParsedImport, found, answers: SamePerson) -> None:
    rows = {row.row for row in parsed.rows}
    asked = [match.row for match in found if match.asks]
    listed = ", ".join(str(row) for row in asked) or "none"
    problems = [
        ImportProblem(
            row,
            f"The answers give row {row}, which "
            + ("asks no question" if row in rows else "is not in the file")
            + f" (the rows asking are: {listed}).",
        )
        for row in answers_for_no_question(found, answers)
    ]
    if problems:
        raise ImportRefused(problems)


def _questions(parsed: ParsedImport, waiting, user) -> list[ImportQuestion]:
    rows = {row.row: row for row in parsed.rows}
    ids = [match.person.id for match in waiting]
    players = Player.objects.in_bulk(ids)
    last = last_events(ids, user)
    return [
        ImportQuestion(
            rows[match.row], players[match.person.id], match.why, last.get(match.person.id)
        )
        for match in waiting
    ]


def _write(tournament, parsed: ParsedImport, matches: list[int | None], existing) -> ImportOutcome:
    on_file = Player.objects.in_bulk([pk for pk in matches if pk is not None])
    reused = len(on_file)
    new = [
        Player(
            name=row.name,
            club=row.club,
            member_number=row.member_number,
            birth_year=row.birth.year,
            birth_date=row.birth.date,
        )
        for row, pk in zip(parsed.rows, matches, strict=True)
        if pk is None
    ]
    created = iter(Player.objects.bulk_create(new))
    players = [on_file[pk] if pk is not None else next(created) for pk in matches]
    _details_from_the_list(tournament, parsed.rows, players)
    first = next_number(tournament)
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=tournament,
            player=player,
            club=row.club or player.club,
            contact=row.contact,
            number=first + i,
            pinned_table=row.table,
            flight=row.flight,
        )
        for i, (row, player) in enumerate(zip(parsed.rows, players, strict=True))
    )
    entry_pk_by_key = {key: e.pk for key, e in existing.items()}
    entry_pk_by_key.update(
        {name_key(row.name): e.pk for row, e in zip(parsed.rows, entries, strict=True)}
    )
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


def _details_from_the_list(tournament, rows: list[ImportRow], players: list[Player]) -> None:
    """A club on the list is the player's current one unless they have played a later event
    (registration.club_is_current); a member number or a birth fills one not on file; a blank
    cell keeps what is on file."""
    current = club_is_current(tournament, [p.pk for p in players if p.pk is not None])
    changed = []
    for row, player in zip(rows, players, strict=True):
        club = row.club if row.club and row.club != player.club else None
        if player.pk not in current:
            club = None
        number = row.member_number if row.member_number and not player.member_number else None
        birth = row.birth if row.birth.known and not player.birth.known else None
        if club is None and number is None and birth is None:
            continue
        player.club = club if club is not None else player.club
        player.member_number = number if number is not None else player.member_number
        if birth is not None:
            player.birth_year, player.birth_date = birth.year, birth.date
        changed.append(player)
    Player.objects.bulk_update(changed, ["club", "member_number", "birth_year", "birth_date"])
