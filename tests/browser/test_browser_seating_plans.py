"""End to end in Chromium at desktop width: the organiser plans every remaining day of a rally,
reads the plan, seats a planned day as planned, and seats another after a withdrawal."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture
def quick_planning(settings):
    settings.SEATING_PLAN_TIME_LIMIT = 2.0


def test_plan_all_remaining_sessions_then_seat_them(
    transactional_db, organiser, login_page, live_server, quick_seating, quick_planning
):
    from scoring_factories import register

    from domain.seating.bounds import schedule_bound
    from domain.seating.plan_following import schedule_line
    from tournaments.access import COMMAND_LINE
    from tournaments.models import Entry, PlannedDay, Seat, SeatingPlan
    from tournaments.services.events import create_tournament
    from tournaments.services.registration import withdraw_entry
    from tournaments.services.rules import change_rules

    rally = create_tournament(
        slug="rally", name="Spring Rally", preset_key="tournament", organiser=organiser
    )
    change_rules(rally, {"days": 3, "max_table_size": 4}, by=COMMAND_LINE)
    register(rally, count=12)

    page = login_page(organiser)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.get_by_role("link", name="Spring Rally").click()
    page.get_by_role("link", name="Seating").click()

    # Plan all three days at once: the button says what it does.
    page.get_by_label("Shuffle number, to repeat a seating").fill("31")
    page.get_by_role("button", name="Plan all remaining sessions (days 1, 2, 3)").click()
    plan = SeatingPlan.objects.get()
    bound = schedule_bound(12, 4, 3)  # 3 tables for 4 seats: 3 a session after the first
    line = schedule_line(plan.planned_repeats, plan.lower_bound, bound.reason, bound.at_most_twice)
    assert "bound" not in line and "5 tables" not in line and "3 tables for 4 seats" in line
    expect(page.get_by_role("status")).to_contain_text(
        f"Days 1, 2 and 3 are planned (not seated), shuffle number 31: {line}."
    )
    expect(page.locator("#schedule-line")).to_have_text(line)
    expect(page.get_by_role("cell", name="Planned (not seated)")).to_have_count(3)
    expect(page.locator(".plan-day")).to_have_count(3)
    expect(page.locator(".plan-day").first.locator(".planned-table")).to_have_count(3)
    # A plan is not a seating: no table links, no score sheets, no charts of seated tables.
    expect(page.get_by_role("link", name="Seating chart (PDF)")).to_have_count(0)
    # Printed, the page is the plan: its tables, without the forms and the menus.
    page.emulate_media(media="print")
    expect(page.locator(".planned-table").first).to_be_visible()
    expect(page.get_by_role("button", name=re.compile("Plan all remaining"))).to_be_hidden()
    expect(page.locator(".subnav")).to_be_hidden()
    page.emulate_media(media="screen")
    expect(page.get_by_role("button", name="Print the plan")).to_be_visible()

    # Day 2 shows its plan, and seats as planned.
    page.get_by_role("link", name="Day 2", exact=True).click()
    expect(page.get_by_text("Day 2 is planned, not seated.")).to_be_visible()
    planned = PlannedDay.objects.get(day__number=2).tables
    page.get_by_role("button", name="Seat day 2 as planned").click()
    expect(page.get_by_role("status")).to_contain_text("Day 2 is seated at 3 tables")
    expect(page.get_by_role("status")).to_contain_text("The plan was followed as it was.")
    expect(page.locator(".seating-table")).to_have_count(3)
    seated = {}
    for number, entry_id in Seat.objects.filter(day__number=2).values_list(
        "table__number", "entry_id"
    ):
        seated.setdefault(number, []).append(entry_id)
    assert [sorted(seated[n]) for n in sorted(seated)] == [sorted(t) for t in planned]
    expect(page.get_by_role("link", name="Seating chart (PDF)")).to_be_visible()

    # A player withdraws: day 3's plan is out of date, and seating it adjusts it.
    withdraw_entry(Entry.objects.get(tournament=rally, number=4))
    page.get_by_role("link", name="Day 3", exact=True).click()
    expect(page.locator("#plan-out-of-date")).to_contain_text(
        "Plan out of date: 1 player changed since it was made (no longer playing: Player 4)"
    )
    page.get_by_role("button", name="Seat day 3 as planned").click()
    expect(page.get_by_role("status")).to_contain_text(
        re.compile(
            r"The plan was adjusted: 1 planned player is no longer playing; "
            r"\d+ players? moved from their planned table\."
        )
    )
    expect(page.locator(".seating-table li")).to_have_count(11)

    # Back on the days page: two days seated, day 1 still planned.
    page.get_by_role("link", name="Seating", exact=True).click()
    expect(page.get_by_role("cell", name="Planned (not seated)")).to_have_count(1)
    expect(page.get_by_role("cell", name="Seated", exact=True)).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
