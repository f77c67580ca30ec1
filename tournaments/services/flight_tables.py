"""Seating within flights, for the seating and planning services: the groups an event's players
are seated in when its rules seat each flight at tables of its own (:mod:`domain.seating.by_flight`
holds the rule itself)."""

from domain.seating.by_flight import FlightGroup, flight_groups, mixed_flights
from domain.seating.pairs import table_sizes
from domain.seating.plan_following import seats_everyone_evenly
from tournaments.models import Entry


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


def seats_by_the_rules(tables, ids: list[int], groups, max_size: int) -> bool:
    """Everyone once at tables as even as the rules allow: within each flight when the rules
    seat each flight at tables of its own."""
    if groups is None:
        return seats_everyone_evenly(tables, ids, max_size)
    seated = sorted(p for table in tables for p in table)
    return seated == sorted(ids) and fits_the_flights(tables, groups, max_size)


def flights_mixed(day, before: dict, after: dict) -> list[str]:
    """A table a hand change makes mix the flights, when the rules seat each flight apart."""
    rules = day.tournament.rules
    if not rules.seat_within_flights or not rules.flights:
        return []
    flight_of = dict(Entry.objects.filter(seats__day=day).values_list("pk", "flight"))

    def flights_at(members) -> list[str]:
        return sorted({flight_of.get(p, "") for p in members}, key=_flight_order(rules.flights))

    warnings = []
    for number, members in sorted(after.items()):
        flights = flights_at(members)
        if len(flights) > 1 and len(flights) > len(flights_at(before.get(number, []))):
            shown = " and ".join(f or "no flight" for f in flights)
            warnings.append(
                f"Table {number} would seat flights {shown} together: the rules seat each "
                "flight at tables of its own."
            )
    return warnings


def _flight_order(flights: list[str]):
    order = {name: i for i, name in enumerate(flights)}
    return lambda flight: order.get(flight, len(order))
