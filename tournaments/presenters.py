"""What the organiser pages show, worked out once so templates only display it.

Templates carry no role checks and no status values: they read the booleans, labels and CSS
class names made here. No queries: everything is computed from what the views already read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from django.utils import timezone

from core.formats import date_and_time, long_date, time_of_day, when_left
from core.search import matches, search_key
from domain import hidden_finish
from domain.rules import (
    LATE_CHOICES,
    LATE_NOTHING,
    RULE_FIELDS,
    RULE_LABELS,
    STANDINGS_SETTINGS,
    format_rule,
)
from domain.seating.plan_following import pairs_again
from domain.session_days import session_label
from tournaments.models import Entry, StaffRole


def can_manage(request) -> bool:
    """Only organisers change players, settings, seating and confirmed scores; desk staff
    enter and check scores and help at the door."""
    return getattr(request, "tournament_role", None) == StaffRole.ORGANISER


@dataclass(frozen=True)
class EntryStatus:
    """An entry's status as the pages show it: its badge and what the page may offer."""

    label: str
    css_class: str
    withdrawn: bool
    checked_in: bool


def entry_status(entry: Entry) -> EntryStatus:
    return EntryStatus(
        label=entry.get_status_display(),
        css_class=f"status-{entry.status}",
        withdrawn=entry.status == Entry.WITHDRAWN,
        checked_in=entry.status == Entry.CHECKED_IN,
    )


def with_status(entries):
    """The entries, each given ``shown_status`` (an :class:`EntryStatus`) for the page."""
    for entry in entries:
        entry.shown_status = entry_status(entry)
    return entries


def entries_named(entries, query: str) -> list:
    """The entries whose name contains ``query`` by the search rule (core.search), each with
    ``search_key`` for the page's list filter; all of them for no query."""
    shown = [entry for entry in entries if matches(query, entry.player.name)]
    for entry in shown:
        entry.search_key = search_key(entry.player.name)
    return shown


def chart_tables(tables) -> list[tuple[int, list[tuple[int, str]]]]:
    """(table number, [(player number, name), ...]) for the seating chart, from tables whose
    seats are already loaded."""
    return [
        (table.number, [(s.entry.number, s.entry.player.name) for s in table.seats.all()])
        for table in tables
    ]


def planned_chart_tables(planned) -> list[tuple[int, list[tuple[int, str]]]]:
    """The seating chart's (table number, [(player number, name), ...]) for a planned day
    (selectors.PlanDayView), without the players who no longer play."""
    return [
        (
            table.number,
            [(s.entry.number, s.entry.player.name) for s in table.seats if s.playing and s.entry],
        )
        for table in planned.tables
    ]


def plan_summary(outcome) -> str:
    """The message after every remaining day is planned (planning.plan_remaining_days)."""
    numbers = [s.day.number for s in outcome.sessions]
    days = "Day " if len(numbers) == 1 else "Days "
    days += ", ".join(str(n) for n in numbers[:-1])
    days += (" and " if len(numbers) > 1 else "") + str(numbers[-1])
    text = (
        f"{days} {'is' if len(numbers) == 1 else 'are'} planned (not seated), shuffle number "
        f"{outcome.plan.seed}: "
        f"{outcome.schedule_line}."
    )
    if outcome.note:
        text += " " + outcome.note
    return text


def day_status(day) -> str:
    """A day's state in a few words, for the overview and the seating list.

    "Playing" is shown only for days read with the ``playing`` annotation (scores started);
    a day read without it goes from "Seated" straight to "Closed", as the overview shows it.
    """
    if day.closed_at:
        return "Closed"
    if getattr(day, "playing", False):
        return "Playing: seating fixed"
    if day.seated_at:
        return "Seated"
    if getattr(day, "planned_now", False):
        return "Planned (not seated)"
    return "Not seated"


def with_day_status(days):
    """The days, each given ``status_label`` (see :func:`day_status`) for the page."""
    for day in days:
        day.status_label = day_status(day)
    return days


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def import_summary(outcome) -> str:
    """The message after a player file is imported (importing.import_players' outcome)."""
    count = len(outcome.entries)
    text = f"Imported {_count(count, 'player', 'players')}"
    if outcome.from_directory:
        text += f" ({outcome.from_directory} already in the club directory)"
    pairs = outcome.keep_apart_pairs
    if pairs:
        text += f" and {_count(pairs, 'keep-apart pair', 'keep-apart pairs')}"
    return text + "."


@dataclass(frozen=True)
class SamePersonQuestion:
    """One "same person?" of an import's review, as the page and the command line say it."""

    row: int
    why: str  # "same name, other club"
    listed: str  # the row: "Ann Lee · Sun Lakes · member GS 12"
    on_file: str  # the person: "Ann Lee · Good Sams · member GS 12"
    last_seen: str  # "last in Spring open (14 March 2026) as #12", or "" when never seen


def _joined(*parts: str) -> str:
    return " · ".join(part for part in parts if part)


def same_person_questions(questions) -> list[SamePersonQuestion]:
    """The import's questions (importing.ImportNeedsAnswers.questions) in plain words."""
    shown = []
    for question in questions:
        row, person, entry = question.row, question.person, question.last_entry
        last_seen = ""
        if entry is not None:
            event = entry.tournament
            when = f" ({long_date(event.start_date)})" if event.start_date else ""
            last_seen = f"last in {event.name}{when} as #{entry.number}"
        member = f"member {row.member_number}" if row.member_number else ""
        on_file_member = f"member {person.member_number}" if person.member_number else ""
        shown.append(
            SamePersonQuestion(
                row=row.row,
                why=question.why.value,
                listed=_joined(row.name, row.club or "no club", member, row.contact),
                on_file=_joined(person.name, person.club or "no club", on_file_member),
                last_seen=last_seen,
            )
        )
    return shown


def _printed_when(moment) -> str:
    today = timezone.localtime(moment).date() == timezone.localdate()
    return time_of_day(moment) if today else date_and_time(moment)


def printed_warning(day) -> str:
    """What a reseat or clear makes wrong on paper, from the times the day's printouts were
    made (never a guess: "not printed" when they were not)."""
    printed = []
    if day.charts_printed_at:
        printed.append(f"the seating charts printed at {_printed_when(day.charts_printed_at)}")
    if day.sheets_printed_at:
        printed.append(f"the score sheets printed at {_printed_when(day.sheets_printed_at)}")
    if not printed:
        return (
            f"No seating chart, find-your-table list or score sheet of day {day.number} has "
            "been printed yet, so there is no paper to throw away."
        )
    what = " and ".join(printed)
    return f"{what[:1].upper()}{what[1:]} will be wrong: throw them away and print them again."


def cleared_message(day_number: int, kept_tables: int) -> str:
    """What clearing a day's seating did (seating.clear_seating's count of planned tables)."""
    if kept_tables:
        return (
            f"Day {day_number}'s seating is cleared: nobody is seated, and its "
            f"{_count(kept_tables, 'planned table', 'planned tables')} are kept to seat again."
        )
    return f"Day {day_number}'s seating is cleared: it has no tables now."


CUT_SHORT = (
    "The seating's time limit ran out before its usual amount of work: seating again with the "
    "same shuffle number may give other tables."
)


def seating_summary(day, outcome) -> str:
    """The message after a day is seated (seating.seat_day's outcome)."""
    count = len(outcome.tables)
    label = day_label(day)
    if outcome.moves:
        pairs = pairs_again(outcome.repeat_pairs, outcome.lower_bound)
        return (
            f"{label} is seated at {_count(count, 'table', 'tables')} by the movement: "
            f"{movement_counts(outcome.moves)}. {pairs[:1].upper()}{pairs[1:]}."
        )
    text = (
        f"{label} is seated at {_count(count, 'table', 'tables')} "
        f"(shuffle number {outcome.seed}): "
        f"{pairs_again(outcome.repeat_pairs, outcome.lower_bound)}."
    )
    if outcome.kept_tables:
        text += " Reshuffling is off, so the previous day's tables were kept."
    if outcome.plan is not None:
        text += " " + plan_followed_note(outcome.plan)
    if outcome.cut_short:
        text += " " + CUT_SHORT
    return text


def day_label(day) -> str:
    """ "Day 2", or "Day 1, session 2" when the event plays several sessions a date."""
    return session_label(day.number, day.tournament.rules.sessions_per_day)


def movement_counts(moves: list[dict]) -> str:
    """ "3 moved up, 3 moved down, 6 stayed": a movement's moves (``Day.moves``) counted."""
    up = sum(1 for m in moves if m["from_table"] and m["to_table"] < m["from_table"])
    down = sum(1 for m in moves if m["from_table"] and m["to_table"] > m["from_table"])
    new = sum(1 for m in moves if not m["from_table"])
    parts = [f"{up} moved up", f"{down} moved down", f"{len(moves) - up - down - new} stayed"]
    if new:
        parts.append(f"{new} new this session")
    return ", ".join(parts)


def plan_followed_note(followed) -> str:
    """How a planned day's seating kept its plan (seating.PlanFollowed), in one sentence."""
    if followed.as_planned:
        return "The plan was followed as it was."
    parts = []
    gone, new = len(followed.changes.gone), len(followed.changes.new)
    if gone:
        parts.append(
            f"{_count(gone, 'planned player is', 'planned players are')} no longer playing"
        )
    if new:
        parts.append(f"{_count(new, 'player was', 'players were')} not in the plan")
    if followed.replanned:
        parts.append(
            "the plan broke a pin, keep-apart pair or table size set since, so the day was "
            "seated afresh"
        )
    parts.append(f"{_count(followed.moved, 'player', 'players')} moved from their planned table")
    return "The plan was adjusted: " + "; ".join(parts) + "."


def withdrawal_notes(name: str, outcome) -> list[tuple[str, str]]:
    """(level, message) for what a withdrawal changed on each day (registration's outcome)."""
    notes = []
    for day_number, last_game in outcome.left_during:
        played = when_left(last_game)
        notes.append(
            ("info", f"On day {day_number} {name}'s table plays on without them {played}.")
        )
    for day_number in outcome.unseated_days:
        notes.append(
            (
                "warning",
                f"{name} was taken out of day {day_number}'s tables. Reseat day "
                f"{day_number} so the tables stay even.",
            )
        )
    if outcome.planned_days:
        days = ", ".join(str(n) for n in outcome.planned_days)
        notes.append(
            (
                "warning",
                f"{name} was in the seating plan (day {days}): the plan is out of date, and "
                "seating a planned day adjusts it.",
            )
        )
    return notes


def joining_closed(started_day: int | None, rules=None) -> str:
    """Why adding, importing and checking players in are refused once play has started (the
    services refuse them; the pages show the buttons disabled with this beside them), or "".
    With ``rules`` letting late players or substitutes in, adding one stays open ("")."""
    if started_day is None:
        return ""
    if rules is not None and (rules.late_joins or rules.substitutes):
        return ""
    return (
        f"Day {started_day} already has scores: nobody joins once play has started and there "
        "are no substitutes (Rules: \u201cLate players may join\u201d and \u201cSubstitutes "
        "allowed\u201d are off). Mark a player who leaves as withdrawn on their player page."
    )


@dataclass(frozen=True)
class RuleRow:
    """One rule as the rules page and the ``rules`` command show it."""

    field: str
    label: str
    value: str
    source: str  # "seed", "published", "assumed" or "event"
    source_label: str


SOURCE_WORDS = {
    "seed": "from the organisers' rule sheet",
    "published": "from the published rules or chart the preset names",
    "assumed": "our assumption: the rule sheet does not say",
    "event": "set for this event",
}


def rule_source(rules, preset, field: str) -> str:
    """Where the event's value of ``field`` comes from: the preset's rule sheet, a published
    chart or our assumption while it is the preset's value; "event" once changed (or with no
    preset)."""
    if preset is None or getattr(preset, field) != getattr(rules, field):
        return "event"
    return preset.sources.get(field, "assumed")


def rule_rows(rules, preset) -> list[RuleRow]:
    rows = []
    for field in RULE_FIELDS:
        source = rule_source(rules, preset, field)
        value = getattr(rules, field)
        shown = format_rule(field, value)
        if field == "engine_order":
            shown = rules.engine_order_label() + ("" if value else " (counting down)")
        rows.append(RuleRow(field, RULE_LABELS[field], shown, source, SOURCE_WORDS[source]))
    return rows


class SettingChangeRow(NamedTuple):
    when: str
    who: str
    setting: str
    before: str
    after: str


def setting_history_rows(changes) -> list[SettingChangeRow]:
    """The standings settings' history as the rules page and the ``rules`` command print it."""
    return [
        SettingChangeRow(
            date_and_time(change.changed_at),
            change.changed_by_label,
            {**RULE_LABELS, hidden_finish.SETTING: hidden_finish.LABEL}.get(
                change.setting, change.setting
            ),
            *(_setting_value(change.setting, value) for value in (change.before, change.after)),
        )
        for change in changes
    ]


def _setting_value(setting: str, value) -> str:
    if setting == hidden_finish.SETTING:
        return hidden_finish.history_label(value)
    return format_rule(setting, value)


def rule_change_notes(change) -> list[tuple[str, str]]:
    """(level, message) after the rules change (the rules service's outcome)."""
    if not change.changed:
        return [("info", "Nothing changed.")]
    names = ", ".join(RULE_LABELS[name].lower() for name in change.changed)
    if all(name in STANDINGS_SETTINGS for name in change.changed):
        return [("success", f"Saved: {names}. Every standings output ranks by them now.")]
    notes = [("success", f"Rules saved: {names}. Seated days follow the new schedule.")]
    if change.days_added:
        added = ", ".join(str(n) for n in change.days_added)
        notes.append(("info", f"Day {added} added: seat it when its players are known."))
    if change.days_removed:
        removed = ", ".join(str(n) for n in change.days_removed)
        notes.append(("info", f"Day {removed} removed."))
    notes.extend(("warning", note) for note in change.reseat)
    return notes


def late_plan_notes(plan, rules, name: str) -> list[str]:
    """What seating ``name`` late or as a substitute does (late.LatePlan), in the words the
    seating page shows before the desk confirms and the commands print after: the table, the
    first game, the hand size, and how their games count under the event's rules."""
    first = plan.from_game
    hand = f", each draws {plan.hand_size} tiles" if plan.hand_size else ""
    if plan.replaces:
        notes = [
            f"{name} takes {plan.replaces}'s seat at day {plan.day_number}, table "
            f"{plan.table_number}, from game {first}: {plan.players} players there{hand}."
        ]
        games = "Game 1 is" if first == 2 else f"Games 1 to {first - 1} are"
        counts = SUBSTITUTE_COUNTS[rules.substitute_ranking].format(
            name=name, replaced=plan.replaces
        )
        notes.append(f"{games} {plan.replaces}'s. {counts}" if first > 1 else counts)
        return notes
    notes = [
        f"{name} joins day {plan.day_number}, table {plan.table_number} (a table with a free "
        f"seat, fewest players first) from game {first}: {plan.players} players there{hand}."
    ]
    if first > 1:
        notes.append(_missed_games_note(name, first, plan.games_per_day, rules))
    return notes


def _missed_games_note(name: str, first: int, games_per_day: int, rules) -> str:
    """What the games a late player missed count, under the event's rule."""
    missed = "game 1" if first == 2 else f"games 1 to {first - 1}"
    rule = getattr(rules, "late_missed_games", LATE_NOTHING)
    if rule == LATE_NOTHING:
        return (
            f"{name} was not at a table for {missed}: they count nothing, so their day total "
            f"is over {games_per_day - first + 1} games, not {games_per_day}."
        )
    counts = LATE_CHOICES[rule][0].lower() + LATE_CHOICES[rule][1:]
    return (
        f"{name} was not at a table for {missed}: each counts {counts}, once it is confirmed "
        f"there (Rules: \u201c{RULE_LABELS['late_missed_games']}\u201d)."
    )


# How a substitute's games count, by the event's rule (Rules: "A substitute's games count").
SUBSTITUTE_COUNTS = {
    "not_ranked": "{name}'s games are shown without a rank (the event's rules say so).",
    "own": "{name} is ranked on their own total (the event's rules say so).",
    "shared": "{name}'s games are added to {replaced}'s total (the event's rules say so).",
}


def seating_fixed_note(day, rules, can_manage: bool) -> str:
    """What a started day's seating page says about its tables: fixed for moves and reseating,
    and whether the event's rules let a late player or a substitute in (naming the rule)."""
    allowed = [
        words
        for on, words in (
            (rules.late_joins, "a late player"),
            (rules.substitutes, "a substitute for a withdrawn player"),
        )
        if on
    ]
    if not allowed:
        return (
            f"Day {day.number} has scores, so its tables are fixed: nobody joins, moves or is "
            "substituted once play has started (Rules: \u201cLate players may join\u201d and "
            "\u201cSubstitutes allowed\u201d are off)."
        )
    who = " or ".join(allowed)
    by = "below" if can_manage else "by an organiser"
    return (
        f"Day {day.number} has scores, so nobody moves or swaps tables now; the event's rules "
        f"let {who} be seated ({by})."
    )
