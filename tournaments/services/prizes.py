"""Writes for the prize table: the organiser adds and removes prizes, allows more than one prize
each or not, and decides a tie. Who wins is read, never stored (standings.prizes)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from domain import prizes
from domain.finals import has_final
from domain.flights import flight_named, not_a_flight
from tournaments.access import role_in
from tournaments.models import Entry, Prize, PrizeDecision, StaffRole, Tournament


def _refuse_if_not_organiser(tournament: Tournament, by) -> None:
    if role_in(by, tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can change the prizes.")


@transaction.atomic
def add_prize(
    tournament: Tournament, kind: str, place: int | None, name: str, *, by, flight: str = ""
) -> Prize:
    """A prize for every player, or for ``flight``'s players (one of the event's flights);
    refused, with the field and the reason, when it could never be given."""
    _refuse_if_not_organiser(tournament, by)
    Tournament.objects.select_for_update().filter(pk=tournament.pk).exists()
    flight = _checked_flight(tournament, flight)
    places = Prize.objects.filter(tournament=tournament, kind=prizes.PLACE, flight=flight)
    taken = {place for place in places.values_list("place", flat=True) if place is not None}
    players = Entry.objects.filter(tournament=tournament).exclude(status=Entry.WITHDRAWN)
    if flight:
        players = players.filter(flight=flight)
    rules = tournament.rules
    final_tables = rules.final_tables if has_final(rules.rule_values()) else 0
    tables = Prize.objects.filter(tournament=tournament, kind=prizes.FINAL_TABLE)
    problem = prizes.prize_problem(
        kind,
        place,
        taken if kind == prizes.PLACE else set(),
        flight=flight,
        players=players.count(),
        final_tables=final_tables,
        taken_tables={t for t in tables.values_list("place", flat=True) if t is not None},
    )
    if problem:
        raise ServiceError(problem[1], field=problem[0])
    name = " ".join(name.split())[:100]
    return Prize.objects.create(
        tournament=tournament,
        kind=kind,
        place=place if kind in (prizes.PLACE, prizes.FINAL_TABLE) else None,
        name=name,
        flight=flight,
    )


def _checked_flight(tournament: Tournament, typed: str) -> str:
    """The event's spelling of the flight ``typed`` names ("" for every player's prize)."""
    if not typed.strip():
        return ""
    flight = flight_named(tournament.rules.flights, typed)
    if flight is None:
        reason = not_a_flight(typed.strip(), tournament.rules.flights)
        raise ServiceError(reason[0].upper() + reason[1:], field="flight")
    return flight


@transaction.atomic
def remove_prize(tournament: Tournament, prize_id: int, *, by) -> Prize:
    _refuse_if_not_organiser(tournament, by)
    prize = Prize.objects.filter(tournament=tournament, pk=prize_id).first()
    if prize is None:
        raise ServiceError("There is no such prize in this event.")
    prize.delete()
    return prize


@transaction.atomic
def set_one_each(tournament: Tournament, one_each: bool, *, by) -> None:
    _refuse_if_not_organiser(tournament, by)
    Tournament.objects.filter(pk=tournament.pk).update(prizes_one_each=one_each)
    tournament.prizes_one_each = one_each


@transaction.atomic
def decide_tie(tournament: Tournament, prize_id: int, entry_number: int, *, by) -> PrizeDecision:
    """The organiser's winner among those tied for a prize (the read checks the tie; a choice
    outside it decides nothing)."""
    _refuse_if_not_organiser(tournament, by)
    prize = Prize.objects.filter(tournament=tournament, pk=prize_id).first()
    entry = Entry.objects.filter(tournament=tournament, number=entry_number).first()
    if prize is None or entry is None:
        raise ServiceError("There is no such prize or player in this event.")
    decision, _ = PrizeDecision.objects.update_or_create(
        prize=prize, defaults={"entry": entry, "decided_by_label": by.get_username()}
    )
    return decision


def mark_printed(tournament: Tournament) -> None:
    """The announcement sheet was printed now: a later score change makes it out of date."""
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(prizes_printed_at=now)
    tournament.prizes_printed_at = now
