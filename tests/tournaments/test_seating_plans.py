"""Planning every remaining day at once: the stored plan, seating a planned day from it (as
planned, or adjusted after a change), refusals, who may see it, the command and the pages."""

import io
import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from pypdf import PdfReader
from scoring_factories import organiser_url as url, register, snapshot, staff

from core.errors import ServiceError
from domain.seating.bounds import schedule_lower_bound
from domain.seating.pairs import count_repeat_pairs, table_sizes
from domain.seating.plan_following import moved_from_plan, pairs_again
from domain.seating.sessions import schedule_repeats
from tournaments import selectors
from tournaments.access import COMMAND_LINE
from tournaments.management.commands.seat import _sentence
from tournaments.models import (
    Day,
    Entry,
    PlannedDay,
    Seat,
    SeatingPlan,
    StaffRole,
    Table,
)
from tournaments.presenters import seating_summary
from tournaments.services.events import set_public_pages
from tournaments.services.planning import clear_plan, plan_remaining_days
from tournaments.services.registration import (
    add_keep_apart,
    register_player,
    set_checked_in,
    withdraw_entry,
)
from tournaments.services.rules import change_rules
from tournaments.services.seating import clear_seating, seat_day

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating", "quick_planning")]

PLAN_MODELS = (SeatingPlan, PlannedDay, Seat, Table, Day)


@pytest.fixture
def quick_planning(settings):
    settings.SEATING_PLAN_TIME_LIMIT = 2.0


@pytest.fixture
def rally(make_tournament, organiser):
    """16 players, 4 days, tables of at most 4: a small rally to plan."""
    tournament = make_tournament(slug="rally", organiser=organiser)
    change_rules(tournament, {"days": 4, "max_table_size": 4}, by=COMMAND_LINE)
    register(tournament, count=16)
    return tournament


def stored_tables(day) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for number, entry_id in Seat.objects.filter(day=day).values_list("table__number", "entry_id"):
        tables.setdefault(number, []).append(entry_id)
    return [sorted(tables[n]) for n in sorted(tables)]


def day(tournament, number) -> Day:
    return Day.objects.select_related("tournament__rules").get(tournament=tournament, number=number)


def assert_valid(tables, players, max_table_size):
    seated = sorted(p for t in tables for p in t)
    assert seated == sorted(players)  # everyone once, nobody else
    assert sorted((len(t) for t in tables), reverse=True) == table_sizes(
        len(players), max_table_size
    )


# ---------------------------------------------------------------------------
# Planning
# ---------------------------------------------------------------------------


def test_plan_stores_every_remaining_day_and_seats_nothing(rally, organiser):
    players = [e.pk for e in selectors.players_to_seat(rally)]
    outcome = plan_remaining_days(rally, seed=7, organiser=organiser)
    plan = SeatingPlan.objects.get(tournament=rally)
    assert (plan.seed, plan.day_numbers, plan.planned_by) == (7, [1, 2, 3, 4], organiser)
    assert plan.players == sorted(players)
    assert plan.method
    planned = list(PlannedDay.objects.filter(plan=plan).order_by("day__number"))
    assert [p.day.number for p in planned] == [1, 2, 3, 4]
    for row in planned:
        assert_valid(row.tables, players, 4)
    sessions = [row.tables for row in planned]
    assert [row.repeat_pairs for row in planned] == schedule_repeats(sessions)
    assert plan.planned_repeats == sum(schedule_repeats(sessions)) == outcome.total_repeats
    assert plan.lower_bound == schedule_lower_bound(16, 4, 4)
    assert [[[e.pk for e in t] for t in s.tables] for s in outcome.sessions] == sessions
    # A plan, not a seating: no table, no seat, no day marked seated.
    assert not Table.objects.filter(day__tournament=rally).exists()
    assert not Day.objects.filter(tournament=rally, seated_at__isnull=False).exists()
    assert outcome.note == ""


def test_plan_avoids_the_seated_days_and_replaces_an_older_plan(rally):
    seat_day(day(rally, 1), seed=3)
    plan_remaining_days(rally, seed=1)
    outcome = plan_remaining_days(rally, seed=2)
    plan = SeatingPlan.objects.get(tournament=rally)  # one plan: the older one is gone
    assert (plan.seed, plan.day_numbers) == (2, [2, 3, 4])
    assert PlannedDay.objects.filter(day__tournament=rally).count() == 3
    history = [stored_tables(day(rally, 1))]
    sessions = [row.tables for row in PlannedDay.objects.order_by("day__number")]
    assert [s.repeat_pairs for s in outcome.sessions] == schedule_repeats(sessions, history)
    # The first planned day meets day 1's tables as few times as a day can (0 here).
    assert count_repeat_pairs(sessions[0], history) == 0


def test_planning_one_day_is_allowed_and_says_so(rally):
    for number in (1, 2, 3):
        seat_day(day(rally, number), seed=number)
    outcome = plan_remaining_days(rally, seed=1)
    assert [s.day.number for s in outcome.sessions] == [4]
    assert "Only day 4 is left to seat" in outcome.note


def test_plan_keeps_pins_and_keep_apart_pairs_every_day(rally):
    entries = list(Entry.objects.filter(tournament=rally).order_by("number"))
    add_keep_apart(entries[0], entries[1])
    entries[2].pinned_table = 3
    entries[2].save()
    plan_remaining_days(rally, seed=4)
    for row in PlannedDay.objects.all():
        table_of = {p: n for n, t in enumerate(row.tables, start=1) for p in t}
        assert table_of[entries[0].pk] != table_of[entries[1].pk]
        assert table_of[entries[2].pk] == 3


@pytest.mark.parametrize(
    "prepare, message",
    [
        (
            lambda t: change_rules(t, {"reshuffle_each_day": False}, by=COMMAND_LINE),
            "Reshuffling is off for this event",
        ),
        (
            lambda t: [seat_day(d, seed=1) for d in t.days.all()],
            "Every day is already seated: there is no day left to plan.",
        ),
        (
            lambda t: seat_day(day(t, 3), seed=1),
            "Day 3 is seated but day 1 is not.",
        ),
        (
            lambda t: [withdraw_entry(e) for e in Entry.objects.filter(tournament=t)],
            "There is nobody to seat",
        ),
    ],
    ids=["reshuffle off", "all seated", "a gap", "nobody"],
)
def test_refused_plans_change_nothing(rally, prepare, message):
    prepare(rally)
    before = snapshot(*PLAN_MODELS)
    with pytest.raises(ServiceError, match=re.escape(message)):
        plan_remaining_days(rally, seed=9)
    assert snapshot(*PLAN_MODELS) == before


def test_a_refused_plan_keeps_the_older_plan(rally):
    plan_remaining_days(rally, seed=1)
    before = snapshot(*PLAN_MODELS)
    change_rules(rally, {"reshuffle_each_day": False}, by=COMMAND_LINE)
    with pytest.raises(ServiceError, match="Reshuffling is off"):
        plan_remaining_days(rally, seed=2)
    assert snapshot(SeatingPlan, PlannedDay) == {
        k: v for k, v in before.items() if k in ("SeatingPlan", "PlannedDay")
    }


@pytest.mark.parametrize(
    "meanwhile",
    [
        lambda t: register_player(t, name="Late Comer"),
        lambda t: seat_day(day(t, 1), seed=1),
        lambda t: add_keep_apart(*Entry.objects.filter(tournament=t).order_by("number")[:2]),
    ],
    ids=["a player entered", "a day seated", "a keep-apart pair"],
)
def test_a_plan_made_while_the_event_changed_is_not_stored(rally, monkeypatch, meanwhile):
    """The search runs outside the transaction: what changed meanwhile refuses the plan."""
    from tournaments.services import planning

    real = planning.plan_sessions

    def planner_while_the_desk_works(*args, **kwargs):
        plan = real(*args, **kwargs)
        meanwhile(rally)
        return plan

    monkeypatch.setattr(planning, "plan_sessions", planner_while_the_desk_works)
    with pytest.raises(ServiceError, match="The event changed while the plan was being made"):
        plan_remaining_days(rally, seed=1)
    assert not SeatingPlan.objects.exists() and not PlannedDay.objects.exists()


def test_clear_plan(rally):
    plan_remaining_days(rally, seed=1)
    clear_plan(rally)
    assert not SeatingPlan.objects.exists() and not PlannedDay.objects.exists()
    assert selectors.seating_plan(rally) is None
    with pytest.raises(ServiceError, match=re.escape("There is no plan to clear.")):
        clear_plan(rally)


# ---------------------------------------------------------------------------
# Seating a planned day
# ---------------------------------------------------------------------------


def test_seating_an_unchanged_plan_keeps_it_exactly(rally):
    plan_remaining_days(rally, seed=5)
    planned = {row.day.number: row.tables for row in PlannedDay.objects.select_related("day")}
    for number in (1, 2, 3, 4):
        outcome = seat_day(day(rally, number))
        assert stored_tables(day(rally, number)) == [sorted(t) for t in planned[number]]
        assert outcome.plan is not None and outcome.plan.as_planned
        assert outcome.seed == 5  # the plan's seed, so the day can be told apart from a draw
        assert not PlannedDay.objects.filter(day__number=number).exists()
        seated = day(rally, number)
        assert (outcome.repeat_pairs, outcome.lower_bound) == (
            seated.repeat_pairs,
            seated.repeat_lower_bound,
        )
    plan = selectors.seating_plan(rally)
    assert [d.state for d in plan.days] == ["seated"] * 4
    assert plan.total_repeats == SeatingPlan.objects.get().planned_repeats


def test_withdrawal_then_seat_keeps_most_of_the_plan_and_reports_honestly(rally):
    plan_remaining_days(rally, seed=6)
    seat_day(day(rally, 1))
    leaving = Entry.objects.get(tournament=rally, number=5)
    withdrawn = withdraw_entry(leaving)
    assert withdrawn.planned_days == [2, 3, 4]
    view = selectors.seating_plan(rally)
    assert view.changes.count == 1 and view.gone == ["Player 5"]
    # The bound is measured against today's 15 players, not the 16 planned.
    assert view.lower_bound == schedule_lower_bound(15, 4, 4)
    planned = PlannedDay.objects.get(day__number=2).tables

    outcome = seat_day(day(rally, 2))
    tables = stored_tables(day(rally, 2))
    players = [e.pk for e in selectors.players_to_seat(rally)]
    assert_valid(tables, players, 4)
    followed = outcome.plan
    assert not followed.as_planned
    assert followed.changes.gone == [leaving.pk] and followed.changes.new == []
    assert followed.moved == moved_from_plan(tables, planned)
    assert followed.moved <= 4  # most of the 15 keep their planned table
    history = [stored_tables(day(rally, 1))]
    assert outcome.repeat_pairs == count_repeat_pairs(tables, history)
    assert outcome.lower_bound == day(rally, 2).repeat_lower_bound <= outcome.repeat_pairs


def test_a_late_entry_is_seated_into_the_plan(rally):
    plan_remaining_days(rally, seed=8)
    late = register_player(rally, name="Late Comer")
    assert selectors.seating_plan(rally).new == ["Late Comer"]
    outcome = seat_day(day(rally, 1))
    tables = stored_tables(day(rally, 1))
    assert_valid(tables, [e.pk for e in selectors.players_to_seat(rally)], 4)
    assert outcome.plan.changes.new == [late.pk]


def test_a_keep_apart_pair_set_after_planning_is_respected(rally):
    plan_remaining_days(rally, seed=2)
    first_table = PlannedDay.objects.get(day__number=1).tables[0]
    a, b = Entry.objects.filter(pk__in=first_table[:2]).order_by("number")
    add_keep_apart(a, b)
    view = selectors.seating_plan(rally).day(1)
    assert any(f"must sit apart from {b.player.name}" in s.notes for s in view.tables[0].seats)
    outcome = seat_day(day(rally, 1))
    table_of = {p: n for n, t in enumerate(stored_tables(day(rally, 1)), start=1) for p in t}
    assert table_of[a.pk] != table_of[b.pk]
    # The planner keeps the pair apart by moving as few players as it can, not by starting over.
    assert not outcome.plan.as_planned and not outcome.plan.replanned
    assert 1 <= outcome.plan.moved <= 4
    assert f"The plan was adjusted: {outcome.plan.moved} players moved" in seating_summary(
        day(rally, 1), outcome
    )


def test_a_cleared_day_keeps_its_planned_tables_and_drops_only_the_seats(rally):
    plan_remaining_days(rally, seed=2)
    planned = PlannedDay.objects.get(day=day(rally, 1)).tables
    seat_day(day(rally, 1))
    seated = stored_tables(day(rally, 1))
    assert clear_seating(day(rally, 1)) == len(planned)
    assert not Seat.objects.filter(day=day(rally, 1)).exists()
    view = selectors.seating_plan(rally)
    assert [d.state for d in view.days] == ["planned", "planned", "planned", "planned"]
    assert [sorted(t) for t in PlannedDay.objects.get(day=day(rally, 1)).tables] == seated
    # Seating it again follows the plan it kept: the same tables.
    again = seat_day(day(rally, 1))
    assert again.plan is not None and again.plan.as_planned
    assert stored_tables(day(rally, 1)) == seated


def test_clearing_a_day_outside_the_plan_keeps_nothing(rally):
    seat_day(day(rally, 1), seed=1)
    assert clear_seating(day(rally, 1)) == 0
    assert not PlannedDay.objects.filter(day=day(rally, 1)).exists()


def test_unplanned_days_seat_as_before(rally):
    assert seat_day(day(rally, 1), seed=1).plan is None


def test_check_in_changes_mark_the_plan_out_of_date(rally):
    plan_remaining_days(rally, seed=2)
    here = list(Entry.objects.filter(tournament=rally).order_by("number"))[:12]
    for entry in here:
        set_checked_in(entry, True)
    view = selectors.seating_plan(rally)
    assert view.changes.count == 4
    outcome = seat_day(day(rally, 1))
    assert_valid(stored_tables(day(rally, 1)), [e.pk for e in here], 4)
    assert len(outcome.plan.changes.gone) == 4


# ---------------------------------------------------------------------------
# Reads
# ---------------------------------------------------------------------------


def test_the_plan_view_is_a_fixed_number_of_queries(make_tournament, organiser):
    small = make_tournament(slug="small", organiser=organiser)
    change_rules(small, {"days": 3, "max_table_size": 4}, by=COMMAND_LINE)
    register(small, count=8)
    big = make_tournament(slug="big", organiser=organiser)
    change_rules(big, {"days": 4, "max_table_size": 6}, by=COMMAND_LINE)
    entries = register(big, count=40)
    add_keep_apart(entries[0], entries[1])
    for tournament in (small, big):
        seat_day(day(tournament, 1), seed=1)
        plan_remaining_days(tournament, seed=1)
    withdraw_entry(entries[3])
    counts = []
    for tournament in (small, big):
        with CaptureQueriesContext(connection) as queries:
            view = selectors.seating_plan(tournament)
        counts.append(len(queries))
        assert view.planned_days
    assert counts == [6, 6]


def test_the_seating_pages_showing_the_plan_are_a_fixed_number_of_queries(
    make_tournament, organiser, organiser_client
):
    counts = []
    for slug, players, days in (("small", 8, 3), ("big", 40, 4)):
        tournament = make_tournament(slug=slug, organiser=organiser)
        change_rules(tournament, {"days": days, "max_table_size": 5}, by=COMMAND_LINE)
        register(tournament, count=players)
        seat_day(day(tournament, 1), seed=1)
        plan_remaining_days(tournament, seed=1)
        page_counts = []
        for rest in ("seating/", "seating/2/"):
            with CaptureQueriesContext(connection) as queries:
                response = organiser_client.get(url(tournament, rest))
            assert response.status_code == 200
            assert "Planned" in response.content.decode()
            page_counts.append(len(queries))
        counts.append(page_counts)
    assert counts[0] == counts[1]


# ---------------------------------------------------------------------------
# Who may see and plan
# ---------------------------------------------------------------------------


def test_desk_staff_see_the_plan_but_cannot_plan_or_seat(rally, client):
    plan_remaining_days(rally, seed=1)
    desk = staff(rally, "desk1")
    client.force_login(desk)
    page = client.get(url(rally, "seating/")).content.decode()
    assert "Planned" in page and "Plan all remaining sessions" not in page
    assert "Seat day 1 as planned" not in client.get(url(rally, "seating/1/")).content.decode()
    before = snapshot(*PLAN_MODELS)
    assert client.post(url(rally, "seating/plan/"), {}).status_code == 403
    assert client.post(url(rally, "seating/plan/clear/")).status_code == 403
    assert client.post(url(rally, "seating/1/seat/"), {}).status_code == 403
    assert snapshot(*PLAN_MODELS) == before


def test_strangers_and_visitors_cannot_see_or_plan(rally, client, make_user):
    plan_remaining_days(rally, seed=1)
    before = snapshot(*PLAN_MODELS)
    for path in ("seating/", "seating/1/", "seating/1/planned.pdf"):
        response = client.get(url(rally, path))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client.post(url(rally, "seating/plan/"), {}).status_code == 302
    client.force_login(make_user("stranger"))
    assert client.get(url(rally, "seating/")).status_code == 404
    assert client.post(url(rally, "seating/plan/"), {}).status_code == 404
    assert snapshot(*PLAN_MODELS) == before


def test_a_scorekeeper_link_never_shows_the_plan(rally, client):
    plan_remaining_days(rally, seed=1)
    seat_day(day(rally, 1))
    table = Table.objects.get(day__number=1, number=1)
    page = client.get(f"/table/{table.link_token}/").content.decode()
    assert "Table 1" in page
    assert "Planned" not in page and "Day 2" not in page
    day2_only = set(PlannedDay.objects.get(day__number=2).tables[0]) - {
        s.entry_id for s in table.seats.all()
    }
    names = Entry.objects.filter(pk__in=day2_only).values_list("player__name", flat=True)
    assert not any(f"{name}<" in page for name in names)


def test_public_pages_never_show_a_plan_as_seated(rally, client):
    set_public_pages(rally, True)  # a new event's public pages start off
    plan_remaining_days(rally, seed=1)
    found = client.get(f"/t/{rally.slug}/find-your-table/", {"q": "Player 1"}).content.decode()
    assert "find-table-number" not in found and "no table yet" in found
    assert "Planned" not in client.get(f"/t/{rally.slug}/").content.decode()
    # The scorekeepers' links are made for tables, and a planned day has none.
    assert not Table.objects.filter(day__tournament=rally).exists()


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


def test_plan_page_plans_shows_and_seats(rally, organiser_client):
    response = organiser_client.post(url(rally, "seating/plan/"), {"seed": "3"}, follow=True)
    page = response.content.decode()
    plan = SeatingPlan.objects.get()
    line = pairs_again(plan.planned_repeats, plan.lower_bound)
    assert f"Days 1, 2, 3 and 4 are planned (not seated), shuffle number 3: {line}" in page
    assert page.count('class="badge planned"') == 4
    day2 = organiser_client.get(url(rally, "seating/2/")).content.decode()
    assert "Day 2 is planned, not seated." in day2 and "Seat day 2 as planned" in day2
    response = organiser_client.post(url(rally, "seating/2/seat/"), {}, follow=True)
    assert "The plan was followed as it was." in response.content.decode()
    assert PlannedDay.objects.filter(day__number=2).count() == 0


def test_plan_page_refusal_is_shown_and_changes_nothing(rally, organiser_client):
    change_rules(rally, {"reshuffle_each_day": False}, by=COMMAND_LINE)
    page = organiser_client.get(url(rally, "seating/")).content.decode()
    assert "Reshuffling is off for this event" in page
    response = organiser_client.post(url(rally, "seating/plan/"), {"seed": "1"}, follow=True)
    assert "Nothing was planned: Reshuffling is off" in response.content.decode()
    assert not SeatingPlan.objects.exists()
    response = organiser_client.post(url(rally, "seating/plan/"), {"seed": "-4"}, follow=True)
    assert (
        "Nothing was planned: the shuffle number must be a whole number."
        in response.content.decode()
    )


def test_withdrawal_marks_the_plan_out_of_date_on_the_page(rally, organiser_client):
    plan_remaining_days(rally, seed=1)
    withdraw_entry(Entry.objects.get(tournament=rally, number=3))
    page = organiser_client.get(url(rally, "seating/1/")).content.decode()
    assert "Plan out of date: 1 player changed since it was made" in page
    assert "<s>Player 3</s>" in page


def test_planned_chart_pdf_is_marked_as_a_plan(rally, organiser_client):
    plan_remaining_days(rally, seed=1)
    response = organiser_client.get(url(rally, "seating/2/planned.pdf"))
    assert response["Content-Type"] == "application/pdf"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert "PLANNED, not seated" in text and "Player 16" in text
    seat_day(day(rally, 2))
    assert organiser_client.get(url(rally, "seating/2/planned.pdf")).status_code == 404


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------


def run_seat(*args) -> str:
    out = io.StringIO()
    call_command("seat", *args, stdout=out)
    return out.getvalue()


def test_seat_plan_prints_each_session_and_the_total(rally):
    out = run_seat("rally", "--plan", "--seed", "11")
    plan = SeatingPlan.objects.get()
    rows = list(PlannedDay.objects.order_by("day__number"))
    lines = out.splitlines()
    per_day = [line for line in lines if "sat together" in line and not line.startswith("Over")]
    assert per_day == [_sentence(pairs_again(r.repeat_pairs, r.lower_bound)) for r in rows]
    assert lines[-1] == "Over the planned days: " + pairs_again(
        plan.planned_repeats, plan.lower_bound
    )
    assert sum(1 for line in lines if re.fullmatch(r"Table \d \(4\): .*", line)) == 16
    assert "Day 1 (planned)" in lines and "Day 4 (planned)" in lines


def test_seat_plan_says_the_best_possible(make_tournament, organiser):
    tournament = make_tournament(slug="pair", organiser=organiser)
    change_rules(tournament, {"max_table_size": 4}, by=COMMAND_LINE)
    register(tournament, count=16)
    out = run_seat("pair", "--plan", "--seed", "1")
    assert out.splitlines()[-1] == (
        "Over the planned days: pairs who have sat together before: 0 (fewest possible: 0)"
    )


def test_seat_day_of_a_planned_day_says_how_the_plan_was_kept(rally):
    run_seat("rally", "--plan", "--seed", "11")
    assert "The plan was followed as it was." in run_seat("rally", "--day", "1")
    withdraw_entry(Entry.objects.get(tournament=rally, number=1))
    out = run_seat("rally", "--day", "2")
    assert "The plan was adjusted: 1 planned player is no longer playing;" in out
    assert re.search(r"\d+ players? moved from their planned table\.", out)


def test_seat_plan_clear(rally):
    run_seat("rally", "--plan")
    assert run_seat("rally", "--plan", "--clear").strip() == "Rally: the seating plan is cleared."
    assert not SeatingPlan.objects.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (("rally",), "the following arguments are required: --day (or give --plan)"),
        (("rally", "--plan", "--day", "2"), "Give either --day N (seat one day) or --plan"),
        (("rally", "--plan", "--seed", "-1"), "The shuffle number must be a whole number"),
        (("nowhere", "--plan"), 'There is no tournament with the slug "nowhere".'),
        (("rally", "--plan", "--clear"), "There is no plan to clear."),
    ],
)
def test_seat_plan_refusals(rally, args, message):
    before = snapshot(*PLAN_MODELS)
    with pytest.raises(CommandError, match=re.escape(message)):
        run_seat(*args)
    assert snapshot(*PLAN_MODELS) == before


def test_seat_plan_refuses_without_reshuffle(rally):
    change_rules(rally, {"reshuffle_each_day": False}, by=COMMAND_LINE)
    with pytest.raises(CommandError, match="Reshuffling is off for this event"):
        run_seat("rally", "--plan")
    assert not SeatingPlan.objects.exists()


def test_staff_roles_unchanged(rally):
    # The plan belongs to the event: deleting the organiser keeps it, without a name.
    user = StaffRole.objects.get(tournament=rally).user
    plan_remaining_days(rally, seed=1, organiser=user)
    user.delete()
    assert SeatingPlan.objects.get().planned_by is None


def test_a_smaller_table_size_marks_the_plan_as_not_fitting(rally, organiser_client):
    plan_remaining_days(rally, seed=1)
    assert selectors.seating_plan(rally).fits_the_rules
    change_rules(rally, {"max_table_size": 3}, by=COMMAND_LINE)
    assert not selectors.seating_plan(rally).fits_the_rules
    page = organiser_client.get(url(rally, "seating/")).content.decode()
    assert "The planned tables no longer fit the rules (tables of at most 3" in page
    seat_day(day(rally, 1))
    assert_valid(stored_tables(day(rally, 1)), [e.pk for e in selectors.players_to_seat(rally)], 3)


def test_the_overview_shows_planned_days(rally, organiser_client):
    plan_remaining_days(rally, seed=1)
    seat_day(day(rally, 1))
    page = organiser_client.get(url(rally)).content.decode()
    assert page.count("Planned (not seated)") == 3
