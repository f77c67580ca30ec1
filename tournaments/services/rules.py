"""Changing an event's rules: checked as a whole, applied in one transaction, carried through.

Days are added or removed with the rule; every seated day without scores takes the new
schedule (scoring rebuilds its games when the rule set is saved); a seated day whose tables no
longer fit the table maximum is named so the organiser reseats it.
"""

import datetime
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count

from core.errors import ServiceError
from domain.flights import removed_in_use
from domain.rules import (
    RULE_FIELDS,
    RULE_LABELS,
    SEATING_MOVEMENT,
    STANDINGS_SETTINGS,
    rule_problems,
)
from domain.seating.pairs import table_sizes
from domain.session_days import session_date
from tournaments.access import account_of, role_in
from tournaments.models import (
    Day,
    Entry,
    Prize,
    RuleSet,
    StaffRole,
    StandingsSettingChange,
    Table,
    Tournament,
)
from tournaments.selectors import first_started_day


class RuleProblems(ServiceError):
    """A refusal with every reason, by field; ``field`` and the message are the first one."""

    def __init__(self, problems: dict[str, list[str]]):
        name, messages = next(iter(problems.items()))
        super().__init__(f"{RULE_LABELS.get(name, name)}: {messages[0]}", field=name)
        self.problems = problems


@dataclass
class RuleChange:
    changed: list[str]
    days_added: list[int] = field(default_factory=list)
    days_removed: list[int] = field(default_factory=list)
    reseat: list[str] = field(default_factory=list)  # what to tell the organiser about seating


def play_started_reason(tournament) -> str | None:
    """Why the rules can no longer change, or None while they can. One query."""
    day = first_started_day(tournament)
    if day is None:
        return None
    return (
        f"Play has started (day {day} has scores), so the rules are fixed: the scores already "
        "entered were checked under them. The tie-breaks may still change."
    )


def proposed_rules(rules, changes: dict) -> dict:
    """The rule values ``changes`` would give, with an explicit engine order setting the
    first engine (counting down is what an empty order means)."""
    unknown = [name for name in changes if name not in RULE_FIELDS]
    if unknown:
        raise ServiceError(f'There is no rule called "{unknown[0]}".', field=None)
    current = rules.rule_values()
    values = {**current, **changes}
    order = values.get("engine_order") or []
    if order and isinstance(order[0], int) and not isinstance(order[0], bool):
        values["first_engine"] = order[0]
        # A new order with the games left as they were: one game per listed engine.
        if changes.get("engine_order") and values["games_per_day"] == current["games_per_day"]:
            values["games_per_day"] = len(order)
    return values


def _refuse_if_not_organiser(tournament, by) -> None:
    if role_in(by, tournament) != StaffRole.ORGANISER:
        raise ServiceError("Only an organiser can change the rules.")


def _adjust_days(
    tournament: Tournament, old: int, new: int, per_day: int
) -> tuple[list[int], list[int]]:
    if new > old:
        start = tournament.start_date
        added = list(range(old + 1, new + 1))
        for number in added:
            date = session_date(start, number, per_day)
            Day.objects.get_or_create(tournament=tournament, number=number, defaults={"date": date})
        return added, []
    if new < old:
        going = Day.objects.filter(tournament=tournament, number__gt=new)
        seated = sorted(
            set(Table.objects.filter(day__in=going).values_list("day__number", flat=True))
        )
        if seated:
            listed = " and ".join(f"day {n}" for n in seated)
            raise RuleProblems(
                {
                    "days": [
                        f"{listed.capitalize()} is seated: clear its seating first (Seating, "
                        f'day {seated[0]}, "Clear") to remove it.'
                    ]
                }
            )
        removed = sorted(going.values_list("number", flat=True))
        going.delete()
        return [], removed
    return [], []


def date_sessions(tournament: Tournament, start_date: datetime.date | None) -> None:
    """Give each day (session) its date: the rules' sessions a day fill each date in turn."""
    per_day = RuleSet.objects.get(tournament=tournament).sessions_per_day
    for day in Day.objects.filter(tournament=tournament):
        date = session_date(start_date, day.number, per_day)
        if day.date != date:
            Day.objects.filter(pk=day.pk).update(date=date)


def _reseat_notes(tournament: Tournament, max_table_size: int) -> list[str]:
    """Seated days whose tables are not what seating would now make for the new maximum."""
    by_day: dict[int, list[int]] = {}
    tables = Table.objects.filter(day__tournament=tournament).annotate(players=Count("seats"))
    for day_number, players in tables.values_list("day__number", "players"):
        by_day.setdefault(day_number, []).append(players)
    return [
        f"Day {number} is seated for another table size: reseat it so tables hold at most "
        f"{max_table_size}."
        for number, sizes in sorted(by_day.items())
        if sorted(sizes, reverse=True) != table_sizes(sum(sizes), max_table_size)
    ]


def _refuse_fixed_rules(tournament, changed: list[str]) -> None:
    """Once play has started only the standings settings may change."""
    fixed = [name for name in changed if name not in STANDINGS_SETTINGS]
    started = play_started_reason(tournament) if fixed else None
    if started:
        names = ", ".join(RULE_LABELS[name].lower() for name in fixed)
        raise ServiceError(f"{started} Not changed: {names}.", field=fixed[0])


def _record_settings(tournament: Tournament, before: dict, values: dict, changed, by) -> None:
    StandingsSettingChange.objects.bulk_create(
        StandingsSettingChange(
            tournament=tournament,
            setting=name,
            before=before[name],
            after=values[name],
            changed_by=account_of(by),
            changed_by_label=by.get_username(),
        )
        for name in changed
        if name in STANDINGS_SETTINGS
    )


def _refuse_movement_at_one_table(tournament: Tournament, max_table_size: int) -> None:
    """A movement moves players between tables: once players are entered, they must fill two.
    (Before anyone is entered the seating checks it, when it seats a session by movement.)"""
    entered = Entry.objects.filter(tournament=tournament).exclude(status=Entry.WITHDRAWN).count()
    if 0 < entered <= max_table_size:
        raise RuleProblems(
            {
                "session_seating": [
                    f"A movement needs at least two tables: the {entered} players entered fill "
                    f"one table (at most {max_table_size} a table)."
                ]
            }
        )


def _refuse_flights_in_use(tournament: Tournament, old: list[str], new: list[str]) -> None:
    """A flight taken away while players hold it would leave them in a flight the event does
    not have: refused, naming them."""
    held: dict[str, list[str]] = {}
    entries = Entry.objects.filter(tournament=tournament, flight__in=old).order_by("number")
    for flight, number, name in entries.values_list("flight", "number", "player__name"):
        held.setdefault(flight, []).append(f"#{number} {name}")
    refusal = removed_in_use(old, new, held)
    if refusal:
        raise RuleProblems({"flights": [refusal]})
    kept = {name.casefold() for name in new}
    prized = Prize.objects.filter(tournament=tournament, flight__in=old).order_by("pk")
    gone = sorted({p.flight for p in prized if p.flight.casefold() not in kept})
    if gone:
        raise RuleProblems(
            {
                "flights": [
                    f"The prize table has prizes for flight {', '.join(gone)}: remove them on "
                    "the Prizes page first."
                ]
            }
        )


def _respell_flights(tournament: Tournament, old: list[str], new: list[str]) -> None:
    # A flight whose name only changes case keeps its players and prizes, under the new spelling.
    spelling = {name.casefold(): name for name in new}
    for name in old:
        respelt = spelling.get(name.casefold())
        if respelt is not None and respelt != name:
            Entry.objects.filter(tournament=tournament, flight=name).update(flight=respelt)
            Prize.objects.filter(tournament=tournament, flight=name).update(flight=respelt)


@transaction.atomic
def change_rules(tournament: Tournament, changes: dict, *, by) -> RuleChange:
    """Apply ``changes`` (rule field -> value) to the event's rules, or change nothing and
    raise :class:`RuleProblems` naming each field that cannot be played, or
    :class:`ServiceError` for a rule other than a standings setting once play has started.
    Each standings setting changed goes in the event's history."""
    _refuse_if_not_organiser(tournament, by)
    rules = RuleSet.objects.select_for_update().get(tournament=tournament)
    values = proposed_rules(rules, changes)
    before = rules.rule_values()
    changed = [name for name in RULE_FIELDS if values[name] != before[name]]
    _refuse_fixed_rules(tournament, changed)
    problems = rule_problems(values)
    if problems:
        raise RuleProblems(problems)
    if values["session_seating"] == SEATING_MOVEMENT and {
        "session_seating",
        "max_table_size",
    } & set(changed):
        _refuse_movement_at_one_table(tournament, values["max_table_size"])
    if "flights" in changed:
        _refuse_flights_in_use(tournament, before["flights"], values["flights"])
        _respell_flights(tournament, before["flights"], values["flights"])
    outcome = RuleChange(changed=changed)
    if not changed:
        return outcome
    outcome.days_added, outcome.days_removed = _adjust_days(
        tournament, before["days"], values["days"], values["sessions_per_day"]
    )
    for name in RULE_FIELDS:
        setattr(rules, name, values[name])
    rules.save()  # scoring rebuilds the schedules of seated days without scores
    _record_settings(tournament, before, values, changed, by)
    tournament.rules = rules
    if "sessions_per_day" in changed:
        date_sessions(tournament, tournament.start_date)
    if "max_table_size" in changed:
        outcome.reseat = _reseat_notes(tournament, values["max_table_size"])
    return outcome
