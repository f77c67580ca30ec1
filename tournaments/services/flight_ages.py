"""Setting the players' flights from when they were born: the age each reaches on a date the
organiser chooses (senior games: 31 December of the event's year)."""

import datetime
from dataclasses import dataclass, field

from django.db import transaction

from core.errors import ServiceError
from domain.flights import age_range, flight_by_birth
from tournaments.models import Entry, Seat, Table, Tournament
from tournaments.services.registration import lock_tournament


@dataclass
class FlightsByAge:
    """What setting the flights by age did: who moved to which flight, how many already held
    theirs, and who was left as they were, with why."""

    on: datetime.date
    moved: list[tuple[Entry, str]] = field(default_factory=list)  # (entry, its new flight)
    already: int = 0
    left: list[tuple[Entry, str]] = field(default_factory=list)  # (entry, why)

    def lines(self) -> list[str]:
        """The outcome in plain words, as the page and the command say it."""
        said = [
            f"Flights by age on {self.on.isoformat()}: {len(self.moved)} set, "
            f"{self.already} already right, {len(self.left)} left as they were."
        ]
        said += [f"#{e.number} {e.player.name}: {flight}" for e, flight in self.moved]
        said += [f"Left: #{e.number} {e.player.name} ({why})" for e, why in self.left]
        return said


@transaction.atomic
def set_flights_by_age(tournament: Tournament, *, on: datetime.date) -> FlightsByAge:
    """Give every player still in the event the flight of their age on ``on``, from the birth
    year or date the directory holds. A player with no birth on file, an age no flight holds,
    a year that leaves two flights possible, or a flight fixed by play (seated on a day with
    scores) keeps their flight and is listed with the reason. Refused, with nothing changed,
    when the event has no flights by age."""
    tournament = lock_tournament(tournament)
    flights = tournament.rules.flights
    if not any(age_range(name) for name in flights):
        raise ServiceError(
            "This event has no flights by age (such as 60-69 or 80+) to place players in: "
            "list them on the Rules page first.",
            field="flights",
        )
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.WITHDRAWN)
        .select_related("player")
        .order_by("number")
    )
    played = set(
        Seat.objects.filter(
            entry__tournament=tournament, day__tables__in=Table.objects.with_scores()
        ).values_list("entry_id", flat=True)
    )
    outcome = FlightsByAge(on=on)
    for entry in entries:
        placed = flight_by_birth(flights, entry.player.birth, on)
        if placed.flight is None:
            why = placed.why + ("; give the birth date" if placed.needs_date else "")
            outcome.left.append((entry, why))
        elif placed.flight == entry.flight:
            outcome.already += 1
        elif entry.pk in played:
            held = f"flight {entry.flight}" if entry.flight else "no flight"
            outcome.left.append((entry, f"has played in {held}, which is fixed"))
        else:
            entry.flight = placed.flight
            outcome.moved.append((entry, placed.flight))
    Entry.objects.bulk_update([e for e, _ in outcome.moved], ["flight"])
    return outcome
