"""Raw SQL names its tables through the models, never as written-out names.

A model's table is ``Model._meta.db_table``, which an app label or ``Meta.db_table`` decides; a
name typed into a query would go on naming the old table after either changed. Names come back
quoted for the model's database. Only table names are put into SQL text this way: every value
goes in as a query parameter.
"""

from django.db import connections
from django.db.models import Model


def table_names(*models: type[Model]) -> tuple[str, ...]:
    """The quoted table of each model, in the order given."""
    return tuple(
        connections[model._default_manager.db].ops.quote_name(model._meta.db_table)
        for model in models
    )
