"""The ids a table's page gives its saves: a save sent again after a lost answer is stored once,
and an id that comes back with another game or other numbers is refused, not taken for "saved".

static/js/game-entry.js gives every save a new id, and a new one again when the numbers change
while it waits; so the same id with different content is never the phone's retry. It is a page
gone wrong or someone replaying a captured request, and answering "saved" would lose the game.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from enum import Enum

from django.db import IntegrityError, transaction
from django.utils import timezone

from domain.sheet_checks import TypedSheet
from scoring.models import Game, TableSubmission
from tournaments.models import Table


class Seen(Enum):
    NEW = "new"  # remembered now: store the save
    AGAIN = "again"  # the same save sent again: the first copy is stored
    OTHER = "other"  # the id of another save: refuse


def fingerprint(games: Sequence[tuple[int | None, TypedSheet]]) -> str:
    """A digest of what a save carries: each game's base version and its values as typed."""
    rows = [[base, _plain(typed)] for base, typed in games]
    text = json.dumps(rows, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _plain(typed: TypedSheet) -> dict:
    return {
        "game": typed.game_number,
        "engine": str(typed.engine),
        "scores": {str(k): str(v) for k, v in typed.scores.items()},
        "tiles": {str(k): str(v) for k, v in typed.tiles.items()},
        "went_out": _went_out(typed.went_out),
        "blocked": typed.blocked,
    }


def _went_out(value: object) -> str | list[str] | None:
    if value is None:
        return None
    if isinstance(value, Iterable) and not isinstance(value, str):
        return sorted(str(who) for who in value)  # the desk's "Out" column: any order
    return str(value)


def remember_submission(table: Table, submission_id: str, game: Game, digest: str) -> Seen:
    """Remember the id the table's page gave this save; the unique key is the lookup."""
    try:
        with transaction.atomic():
            TableSubmission.objects.create(
                table=table,
                key=submission_id,
                game=game,
                fingerprint=digest,
                received_at=timezone.now(),
            )
    except IntegrityError:
        first = TableSubmission.objects.get(table=table, key=submission_id)
        # Ids remembered before fingerprints were kept have none: their game still has to match.
        same = first.game_id == game.pk and first.fingerprint in ("", digest)
        return Seen.AGAIN if same else Seen.OTHER
    return Seen.NEW


OTHER_SAVES_ID = (
    "This save came with the mark of an earlier, different save, so it was not stored. "
    "Check the numbers and tap Save again."
)
