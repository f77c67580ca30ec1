"""Seating within flights, for the seating and planning services: the groups an event's players
are seated in when its rules seat each flight at tables of its own (:mod:`domain.seating.by_flight`
holds the rule itself)."""

from domain.seating.by_flight import FlightGroup, flight_groups, mixed_flights
from domain.seating.pairs import table_sizes


def groups_to_seat(rules, players) -> list[FlightGroup] | None:
    """The groups ``players`` (entries) are seated in, or None when the tables mix the flights
    (the rule is off, or every player ends up in one group)."""
    if not rules.seat_within_flights or not rules.flights:
        return None
    groups, _ = flight_groups([e.pk for e in players], _flights_of(players), rules.flights)
    return groups if len(groups) > 1 else None


def _flights_of(players) -> dict[int, str]:
    return {e.pk: e.flight for e in players}


def flights_sizes(groups: list[FlightGroup], max_table_size: int) -> list[int]:
    """The table sizes of a seating within flights, larger first (each group as even as the
    rules allow on its own)."""
    sizes = [s for group in groups for s in table_sizes(len(group.ids), max_table_size)]
    return sorted(sizes, reverse=True)


def fits_the_flights(tables, groups: list[FlightGroup] | None, max_table_size: int) -> bool:
    """``tables`` (of ids) keep the flights apart with each group's tables as even as they can
    be; always true when the tables mix the flights."""
    if groups is None:
        return True
    sizes = sorted((len(t) for t in tables), reverse=True)
    return not mixed_flights(tables, groups) and sizes == flights_sizes(groups, max_table_size)
