"""Entering a whole spreadsheet of players: every row or none."""

from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models.functions import Lower

from core.errors import ServiceError
from tournaments.models import Entry, KeepApart, Player, RuleSet
from tournaments.player_import import ImportProblem, ImportRow, name_key, parse_player_file
from tournaments.selectors import entered_names

from .registration import lock_tournament, next_number, refuse_if_play_started


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
    tournament = lock_tournament(tournament)
    refuse_if_play_started(tournament, "no one new can be entered")
    rules = RuleSet.objects.get(tournament=tournament)
    existing = entered_names(tournament)
    parsed = parse_player_file(
        data,
        filename,
        max_table_size=rules.max_table_size,
        existing_names={key: e.number for key, e in existing.items()},
        existing_players=Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.WITHDRAWN)
        .count(),
        max_bytes=settings.UPLOAD_MAX_BYTES,
    )
    if not parsed.ok:
        raise ImportRefused(parsed.problems)

    directory = _directory_lookup([row.name for row in parsed.rows])
    entries_by_key = {}
    reused = 0
    number = next_number(tournament)
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
    return ImportOutcome(
        entries=list(entries_by_key.values()),
        from_directory=reused,
        keep_apart_pairs=len(new_pairs),
    )


def _directory_lookup(names: list[str]) -> dict[str, list[Player]]:
    keys = {name_key(n) for n in names}
    lowered = {" ".join(n.split()).lower() for n in names}
    found: dict[str, list[Player]] = {}
    candidates = (
        Player.objects.annotate(lname=Lower("name")).filter(lname__in=lowered).order_by("pk")
    )
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
