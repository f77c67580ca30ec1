"""Writes for seating plans: plan every day not seated yet at once, or clear the plan.

Seating a planned day is :func:`tournaments.services.seating.seat_day`, which follows the plan.
"""

import logging
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.errors import ServiceError
from domain.finals import NO_FINAL
from domain.rules import SEATING_MOVEMENT
from domain.seating.bounds import repeat_lower_bound
from domain.seating.by_flight import group_pins, joined_plans
from domain.seating.feasibility import namer
from domain.seating.meet_everyone import MeetEveryone, meet_everyone
from domain.seating.pairs import SeatingError, table_sizes
from domain.seating.plan_following import schedule_line
from domain.seating.sessions import SessionPlan, plan_sessions, plan_size_refusal
from tournaments.access import account_of
from tournaments.models import Day, Entry, PlannedDay, SeatingPlan, Tournament
from tournaments.selectors import keep_apart_ids, seating_history
from tournaments.services.flight_tables import groups_to_seat
from tournaments.services.seating import clubs_to_spread, players_or_refuse

logger = logging.getLogger(__name__)


@dataclass
class PlannedSession:
    day: Day
    tables: list[list[Entry]]
    repeat_pairs: int
    lower_bound: int  # the fewest this day can have after the days before it, as planned


@dataclass
class PlanOutcome:
    plan: SeatingPlan
    sessions: list[PlannedSession]
    note: str  # anything the organiser should know about this plan, or ""
    bound_reason: str = ""  # why no plan has fewer repeats ("" when the fewest is 0)
    at_most_twice: int = 0  # the fewest with no pair meeting three times, where that is more

    @property
    def schedule_line(self) -> str:
        return schedule_line(
            self.total_repeats, self.lower_bound, self.bound_reason, self.at_most_twice
        )

    @property
    def total_repeats(self) -> int:
        return self.plan.planned_repeats

    @property
    def lower_bound(self) -> int:
        return self.plan.lower_bound

    @property
    def best_possible(self) -> bool:
        return self.total_repeats <= self.lower_bound


def _plan_time_limit() -> float:
    return float(getattr(settings, "SEATING_PLAN_TIME_LIMIT", 10.0))


def days_to_plan(days: list[Day], rules, players: int | None = None) -> tuple[list[Day], str]:
    """(the days a plan would seat, "") or ([], why there is nothing to plan): every day not
    seated yet, which must all come after the seated ones, while reshuffling is on. ``days``
    in order. Given how many ``players`` would be seated, a plan too large to make is refused
    here too, so the page says so before the organiser asks (the planner checks it again, with
    the season's earlier events counted)."""
    if not rules.reshuffle_each_day:
        return [], (
            "Reshuffling is off for this event: every day keeps the day before's tables, so "
            "there is nothing to plan. Seat day 1; the later days keep its tables."
        )
    # The final is seated from the qualifiers alone (standings.finals), never from a plan.
    final = rules.days if rules.final_qualify != NO_FINAL else None
    days = [d for d in days if d.number != final]
    remaining = [d for d in days if d.seated_at is None and not d.is_closed]
    if not remaining:
        if final:
            return [], (
                "Every day before the final is already seated; the final is seated on its "
                'own once qualifying is over (Final, "Seat the final").'
            )
        return [], "Every day is already seated: there is no day left to plan."
    first = remaining[0].number
    seated_after = [d.number for d in days if d.number > first and d.seated_at is not None]
    if seated_after:
        return [], (
            f"Day {seated_after[0]} is seated but day {first} is not. A plan seats the days in "
            f"order: seat day {first} on its own first, or clear day {seated_after[0]}'s seating."
        )
    if players:
        seated = sum(1 for d in days if d.seated_at is not None)
        too_large = plan_size_refusal(players, rules.max_table_size, len(remaining), seated)
        if too_large:
            return [], too_large
    return remaining, ""


@dataclass(frozen=True)
class _PlanInputs:
    """Everything a plan is made from. Read once before planning (outside any transaction, so
    a long search never holds the database's write lock while scorekeepers save) and again,
    locked, before storing: a plan is stored only if they are unchanged."""

    days: tuple[int, ...]
    players: tuple[tuple[int, int | None, str, str], ...]  # (entry id, pinned table, club, flight)
    history: tuple[tuple[tuple[int, ...], ...], ...]
    keep_apart: tuple[tuple[int, int], ...]
    max_table_size: int
    spread_clubs: bool
    seat_within_flights: bool
    spread_clubs_every_day: bool

    @classmethod
    def read(cls, tournament, *, lock: bool) -> tuple["_PlanInputs", list[Day], list[Entry]]:
        tournament = Tournament.objects.select_related("rules").get(pk=tournament.pk)
        days = Day.objects.filter(tournament=tournament).order_by("number")
        # Lock the days in order, as every seating does, so none is seated meanwhile.
        remaining, refusal = days_to_plan(
            list(days.select_for_update() if lock else days), tournament.rules
        )
        if refusal:
            raise ServiceError(refusal)
        players = players_or_refuse(tournament)
        history = seating_history(tournament, remaining[0].number)
        inputs = cls(
            days=tuple(d.number for d in remaining),
            players=tuple((e.pk, e.pinned_table, e.club, e.flight) for e in players),
            history=tuple(tuple(tuple(t) for t in day) for day in history),
            keep_apart=tuple(sorted(keep_apart_ids(tournament))),
            max_table_size=tournament.rules.max_table_size,
            spread_clubs=tournament.rules.spread_clubs,
            seat_within_flights=tournament.rules.seat_within_flights,
            spread_clubs_every_day=tournament.rules.spread_clubs_every_day,
        )
        return inputs, remaining, players

    @property
    def pins(self) -> dict[int, int]:
        return {pk: pin for pk, pin, *_ in self.players if pin is not None}


def _make_plan(inputs: _PlanInputs, players: list[Entry], seed: int, rules) -> SessionPlan:
    history = [list(map(list, day)) for day in inputs.history]
    names = {e.pk: f"{e.player.name} (#{e.number})" for e in players}
    groups = groups_to_seat(rules, players)

    def plan(ids: list[int], pinned: dict[int, int], time_limit: float) -> SessionPlan:
        return plan_sessions(
            ids,
            inputs.max_table_size,
            len(inputs.days),
            seed=seed,
            history=history,
            keep_apart=inputs.keep_apart,
            pinned=pinned,
            clubs=clubs_to_spread(rules, history, players),
            clubs_every_day=rules.spread_clubs and rules.spread_clubs_every_day,
            names=names,
            time_limit=time_limit,
        )

    try:
        if groups is None:
            return plan([e.pk for e in players], inputs.pins, _plan_time_limit())
        # The time limit bounds the whole plan, so each flight gets its share.
        share = _plan_time_limit() / len(groups)
        local = group_pins(groups, inputs.pins, inputs.max_table_size, namer(names))
        plans = [plan(list(g.ids), p, share) for g, p in zip(groups, local, strict=True)]
        return joined_plans(plans, seed, [g.label for g in groups])
    except SeatingError as error:
        raise ServiceError(str(error)) from error


def plan_remaining_days(tournament, *, seed: int | None = None, organiser=None) -> PlanOutcome:
    """Plan the tables of every day not seated yet, together, so that over all of them as few
    pairs as possible meet again (after the days already seated), and store the plan in place
    of any older one. Nothing is seated: each planned day is seated later from its plan.

    The search runs outside the transaction; if a day was seated or the players, pins or
    keep-apart pairs changed meanwhile, nothing is stored and the organiser is asked to plan
    again."""
    if tournament.rules.session_seating == SEATING_MOVEMENT:
        raise ServiceError(
            "This event seats each session after the first by a movement from the results of "
            "the session before, so those sessions cannot be planned ahead: seat each one when "
            "the session before it is confirmed."
        )
    if seed is None:
        seed = secrets.randbits(31)
    inputs, _, players = _PlanInputs.read(tournament, lock=False)
    planned = _make_plan(inputs, players, seed, tournament.rules)
    with transaction.atomic():
        again, days, players = _PlanInputs.read(tournament, lock=True)
        if again != inputs:
            raise ServiceError(
                "The event changed while the plan was being made (a day seated, or a player, "
                "pin or keep-apart pair changed). Nothing was stored: plan again."
            )
        history = [list(map(list, day)) for day in inputs.history]
        outcome = _store_plan(days, players, planned, history, inputs, organiser)
    logger.info(
        "Days %s of %s planned by %s with shuffle number %s: %s repeats (bound %s)%s",
        ", ".join(str(n) for n in inputs.days),
        tournament.slug,
        organiser or "a command",
        seed,
        planned.total_repeats,
        planned.lower_bound,
        ", cut short by the time limit" if planned.cut_short else "",
    )
    return outcome


def _store_plan(days, players, planned: SessionPlan, history, inputs: _PlanInputs, organiser):
    tournament_id = days[0].tournament_id
    SeatingPlan.objects.filter(tournament_id=tournament_id).delete()  # with its planned days
    pins = inputs.pins
    plan = SeatingPlan.objects.create(
        tournament_id=tournament_id,
        planned_at=timezone.now(),
        planned_by=account_of(organiser),
        seed=planned.seed,
        method=planned.method[:200],
        day_numbers=[d.number for d in days],
        players=sorted(e.pk for e in players),
        planned_repeats=planned.total_repeats,
        lower_bound=planned.lower_bound,
    )
    by_id = {e.pk: e for e in players}
    sizes = table_sizes(len(players), inputs.max_table_size)
    earlier = list(history)
    sessions = []
    for day, tables, repeats in zip(days, planned.sessions, planned.repeats, strict=True):
        ids = [p for table in tables for p in table]
        bound = repeat_lower_bound(ids, sizes, earlier, {p: pins[p] for p in ids if p in pins})
        PlannedDay.objects.create(
            plan=plan, day=day, tables=tables, repeat_pairs=repeats, lower_bound=bound
        )
        earlier.append(tables)
        sessions.append(
            PlannedSession(
                day=day,
                tables=[[by_id[p] for p in table] for table in tables],
                repeat_pairs=repeats,
                lower_bound=bound,
            )
        )
    note = " ".join(n for n in (_plan_note(days), _cut_short_note(planned)) if n)
    return PlanOutcome(plan, sessions, note, planned.bound_reason, planned.at_most_twice)


def _cut_short_note(planned: SessionPlan) -> str:
    if not planned.cut_short:
        return ""
    return (
        f"The planner's time limit ({_plan_time_limit():g} seconds) ran out before its usual "
        "amount of work: planning again with the same shuffle number may give other tables."
    )


def _plan_note(days: list[Day]) -> str:
    if len(days) == 1:
        return (
            f"Only day {days[0].number} is left to seat, so its plan is simply its seating, "
            "kept until you seat it."
        )
    return ""


def meet_everyone_schedule(tournament, *, seed: int | None = None) -> tuple[MeetEveryone, dict]:
    """The fewest sessions found in which every pair of the players a seating would seat now
    meets at least once, with the bound on it, and the entries by id: an answer for seasons and
    rallies choosing how many sessions to hold. Nothing is stored."""
    if seed is None:
        seed = secrets.randbits(31)
    players = players_or_refuse(tournament)
    try:
        found = meet_everyone([e.pk for e in players], tournament.rules.max_table_size, seed=seed)
    except SeatingError as error:
        raise ServiceError(str(error)) from error
    return found, {e.pk: e for e in players}


@transaction.atomic
def clear_plan(tournament, *, organiser=None) -> None:
    """Forget the plan: the planned days are neither seated nor planned again."""
    deleted, _ = SeatingPlan.objects.filter(tournament=tournament).delete()
    if not deleted:
        raise ServiceError("There is no plan to clear.")
    logger.info("Plan of %s cleared by %s", tournament.slug, organiser or "a command")
