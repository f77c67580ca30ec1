"""The demo event, played once per test process and copied into each test that asks for it.

``scoring.demo.load_demo`` plays 43 players through every day with the real services, about a
second of work on a busy machine, where a test only needs the rows it leaves. ``capture_demo``
plays it once inside a transaction it rolls back, keeping every row it wrote in memory;
``copy_demo`` inserts those rows again in the test's own transaction, so each test still gets a
demo of its own and its changes roll back with it.

The rows keep the ids they were played with, because ids are written inside values as well
(an audit event's ``changes`` names entries by id): the demo is played with every id counter
started at ``FIRST_ID``, far above what any test creates, so a copy meets no row a test made
before asking for it. What changes from one copy to the next is what the test supplies: the
organiser (their id and username wherever the demo wrote them), the clock (every stored time
moves by the time since the demo was played, as if it had just been played), and the rows the
demo links to but did not write, such as its rule preset, found again by their unique field
(a transactional test's flush makes them anew under other ids).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.db import connection, models, transaction
from django.db.models import Max
from django.utils import timezone

FIRST_ID = 1_000_000
BUILD_USERNAME = "organiser1"  # the ``organiser`` fixture's: most copies have nothing to rename

# How a column's stored value is adapted to the copy's organiser, clock and database.
PLAIN, ORGANISER_ID, MOMENT, TEXT, LINK = "plain", "organiser id", "moment", "text", "link"


@dataclass(frozen=True)
class Rows:
    """One model's rows as the demo wrote them: column attnames, and one tuple per row."""

    model: type[models.Model]
    columns: tuple[str, ...]
    kinds: tuple[str, ...]
    targets: tuple[type[models.Model] | None, ...]  # the model a LINK column points to
    values: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class DemoSnapshot:
    tables: tuple[Rows, ...]
    tournament_id: int
    organiser_id: int
    played_at: datetime.datetime
    # A row the demo links to but did not write: (model, id then) -> (unique field, its value).
    outside: dict[tuple[type[models.Model], int], tuple[str, Any]]


def _counted_models() -> list[type[models.Model]]:
    """Every table with an integer id counter; the demo writes only to these (checked)."""
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed
        and not model._meta.proxy
        and isinstance(model._meta.pk, models.AutoField)
    ]


def _last_ids(model_list) -> dict[type[models.Model], int]:
    return {
        model: model._base_manager.aggregate(last=Max("pk"))["last"] or 0 for model in model_list
    }


def _start_ids_at(model_list, first_id: int) -> None:
    """The next row of each table gets at least ``first_id``. SQLite's counters are rows of a
    table (rolled back with the transaction); PostgreSQL's sequences are not rolled back, which
    is harmless: ids only have to be unique."""
    with connection.cursor() as cursor:
        for model in model_list:
            table, column = model._meta.db_table, model._meta.pk.column
            if connection.vendor == "sqlite":
                cursor.execute("DELETE FROM sqlite_sequence WHERE name = %s", [table])
                cursor.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, first_id - 1]
                )
            elif connection.vendor == "postgresql":
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence(%s, %s), %s)",
                    [connection.ops.quote_name(table), column, first_id - 1],
                )
            else:
                raise NotImplementedError(f"no id counter for {connection.vendor}")


def _column_kind(field: models.Field, user_model) -> str:
    if field.is_relation and field.related_model is user_model:
        return ORGANISER_ID
    if field.is_relation:
        return LINK
    if isinstance(field, models.DateTimeField):
        return MOMENT
    if isinstance(field, models.CharField | models.TextField):
        return TEXT
    return PLAIN


def _rows_written(model, after_id: int, user_model) -> Rows:
    fields = model._meta.concrete_fields
    columns = tuple(field.attname for field in fields)
    values = tuple(model._base_manager.filter(pk__gt=after_id).order_by("pk").values_list(*columns))
    kinds = tuple(_column_kind(field, user_model) for field in fields)
    targets = tuple(field.related_model if field.is_relation else None for field in fields)
    return Rows(model, columns, kinds, targets, values)


def _outside_rows(tables: tuple[Rows, ...]) -> dict[tuple[type[models.Model], int], tuple]:
    """Each row below FIRST_ID that a demo row links to, with the unique field that finds it."""
    outside: dict[tuple[type[models.Model], int], tuple] = {}
    for rows in tables:
        for index, (kind, target) in enumerate(zip(rows.kinds, rows.targets, strict=True)):
            if kind != LINK or target is None:
                continue
            for old_id in {values[index] for values in rows.values} - {None}:
                if old_id < FIRST_ID and (target, old_id) not in outside:
                    field = next(
                        (
                            f.name
                            for f in target._meta.concrete_fields
                            if f.unique and not f.primary_key
                        ),
                        None,
                    )
                    assert field, f"a copy cannot find the {target.__name__} the demo links to"
                    value = getattr(target._base_manager.get(pk=old_id), field)
                    outside[target, old_id] = (field, value)
    return outside


def _all_rows(model_list) -> dict[type[models.Model], list[tuple]]:
    return {model: list(model._base_manager.order_by("pk").values_list()) for model in model_list}


def capture_demo(play: Callable[[Any], Any]) -> DemoSnapshot:
    """Play the demo with ``play(organiser)`` and keep what it wrote; the database is left as
    it was (ids aside on PostgreSQL)."""
    user_model = get_user_model()
    counted = _counted_models()
    uncounted = [
        m
        for m in apps.get_models(include_auto_created=True)
        if m._meta.managed and not m._meta.proxy and m not in counted
    ]
    with transaction.atomic():
        before = _last_ids(counted)
        assert max(before.values()) < FIRST_ID, "a table's ids already reach FIRST_ID"
        existing = _all_rows(counted)
        uncounted_before = _all_rows(uncounted)
        _start_ids_at(counted, FIRST_ID)
        organiser = user_model.objects.create_superuser(BUILD_USERNAME, "", None)
        played_at = timezone.now()
        tournament = play(organiser)
        # A copy can only repeat rows the demo added: it must not have changed any other.
        assert _all_rows(uncounted) == uncounted_before, "the demo wrote a table with no id"
        after = _all_rows(counted)
        assert all(after[m][: len(rows)] == rows for m, rows in existing.items()), (
            "the demo changed rows it did not create"
        )
        written = tuple(
            rows
            for model in counted
            if model is not user_model
            and (rows := _rows_written(model, before[model], user_model)).values
        )
        assert user_model._base_manager.filter(pk__gt=before[user_model]).count() == 1
        outside = _outside_rows(written)
        transaction.set_rollback(True)
    return DemoSnapshot(written, tournament.pk, organiser.pk, played_at, outside)


def _adapt(rows: Rows, snapshot: DemoSnapshot, organiser, shift, found: dict):
    def adapted(kind: str, target, value: Any) -> Any:
        if value is None or kind == PLAIN:
            return value
        if kind == LINK:
            return value if value >= FIRST_ID else found[target, value]
        if kind == ORGANISER_ID:
            assert value == snapshot.organiser_id, "the demo names a user other than its organiser"
            return organiser.pk
        if kind == MOMENT:
            return value + shift
        return organiser.get_username() if value == BUILD_USERNAME else value

    for values in rows.values:
        yield rows.model(
            **{
                column: adapted(kind, target, value)
                for column, kind, target, value in zip(
                    rows.columns, rows.kinds, rows.targets, values, strict=True
                )
            }
        )


def copy_demo(snapshot: DemoSnapshot, organiser):
    """The demo event, organised by ``organiser``, as ``load_demo(organiser)`` leaves it."""
    from tournaments.models import Tournament

    shift = timezone.now() - snapshot.played_at
    found = {
        (model, old_id): model._base_manager.values_list("pk", flat=True).get(**{field: value})
        for (model, old_id), (field, value) in snapshot.outside.items()
    }
    with transaction.atomic():
        # Links between the rows are checked at commit, so the tables may come in any order.
        for rows in snapshot.tables:
            rows.model._base_manager.bulk_create(_adapt(rows, snapshot, organiser, shift, found))
        # PostgreSQL: the next row gets an id after the copy's, as after a real load_demo.
        reset = connection.ops.sequence_reset_sql(no_style(), [r.model for r in snapshot.tables])
        if reset:
            with connection.cursor() as cursor:
                for statement in reset:
                    cursor.execute(statement)
    return Tournament.objects.get(pk=snapshot.tournament_id)
