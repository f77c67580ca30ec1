"""Raw SQL names its tables through the models, never as written-out names.

A model's table is ``Model._meta.db_table``, which an app label or ``Meta.db_table`` decides; a
name typed into a query would go on naming the old table after either changed. Names come back
quoted for the model's database. Only table names are put into SQL text this way: every value
goes in as a query parameter.

:class:`Columns` reads model instances back from such SQL, for the few hot reads (a table's
save) where building and compiling the same ORM query on every request costs more than running
it: the text is written once, and each row is turned into an instance as the ORM turns it.
"""

from collections.abc import Sequence
from typing import Any

from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model


def table_names(*models: type[Model]) -> tuple[str, ...]:
    """The quoted table of each model, in the order given."""
    return tuple(
        connections[model._default_manager.db].ops.quote_name(model._meta.db_table)
        for model in models
    )


class Columns:
    """Every concrete column of ``model``, as a SELECT lists them and as instances read them.

    :meth:`read` builds the instance the ORM would: each value through the converters the
    database and the field apply (SQLite's text datetimes, JSON, booleans), then
    ``Model.from_db``, so it is saved, refreshed and compared like any other.
    """

    def __init__(self, model: type[Model]) -> None:
        self.model = model
        self.fields = tuple(model._meta.concrete_fields)
        self._names = tuple(f.attname for f in self.fields)
        self._converters: dict[str, list[tuple[int, list[Any], Any]]] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def select(self, table: str | None = None) -> str:
        """The column list, each qualified by ``table`` (the model's own table by default)."""
        (own,) = table_names(self.model)
        quote = connections[self.model._default_manager.db].ops.quote_name
        return ", ".join(f"{table or own}.{quote(f.column)}" for f in self.fields)

    def _for(self, connection: BaseDatabaseWrapper) -> list[tuple[int, list[Any], Any]]:
        converters = self._converters.get(connection.alias)
        if converters is None:
            converters = []
            for position, field in enumerate(self.fields):
                column = field.get_col(self.model._meta.db_table)
                found = connection.ops.get_db_converters(column) + column.get_db_converters(
                    connection
                )
                if found:
                    converters.append((position, found, column))
            self._converters[connection.alias] = converters
        return converters

    def read(self, row: Sequence[Any], start: int, connection: BaseDatabaseWrapper) -> Any:
        """The instance made of ``row[start:start + len(self)]``."""
        values = list(row[start : start + len(self.fields)])
        for position, converters, column in self._for(connection):
            value = values[position]
            for convert in converters:
                value = convert(value, column, connection)
            values[position] = value
        return self.model.from_db(connection.alias, self._names, values)
