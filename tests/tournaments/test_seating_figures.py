"""The figures of one plan agree wherever they are shown: the schedule line and each day's row
on the seating pages, the seat command, the seating charts (PDF), and the pages after a
withdrawal and a reseat."""

import html
import io
import re

import pytest
from django.core.management import call_command
from pypdf import PdfReader
from scoring_factories import organiser_url as url, register

from domain.seating.bounds import schedule_bound
from domain.seating.pairs import count_repeat_pairs
from domain.seating.plan_following import pairs_again, schedule_line
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, Entry, PlannedDay, SeatingPlan
from tournaments.presenters import CUT_SHORT, seating_summary
from tournaments.services.registration import withdraw_entry
from tournaments.services.rules import change_rules
from tournaments.services.seating import SeatingOutcome

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("quick_seating")]


@pytest.fixture
def good_sam(make_tournament, organiser, settings):
    """26 players at tables of 6 over three days: each day after the first must seat a pair
    who sat together before (5 tables for a table of 6)."""
    settings.SEATING_PLAN_TIME_LIMIT = 60.0
    tournament = make_tournament(slug="sam", preset="good-sam", organiser=organiser)
    change_rules(tournament, {"days": 3, "reshuffle_each_day": True}, by=COMMAND_LINE)
    register(tournament, count=26)
    return tournament


def command(*args) -> list[str]:
    out = io.StringIO()
    call_command("seat", *args, stdout=out)
    return out.getvalue().splitlines()


def page_text(client, path) -> str:
    """The page's text, tags dropped and white space folded, as a reader sees it."""
    body = client.get(path).content.decode()
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def pdf_text(client, path) -> str:
    response = client.get(path)
    assert response["Content-Type"] == "application/pdf"
    pages = PdfReader(io.BytesIO(response.content)).pages
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in pages))


def stored_tables(day) -> list[list[int]]:
    tables: dict[int, list[int]] = {}
    for table in day.tables.prefetch_related("seats"):
        tables[table.number] = sorted(s.entry_id for s in table.seats.all())
    return [tables[n] for n in sorted(tables)]


def test_plan_figures_agree_on_page_command_and_pdf(good_sam, organiser_client):
    lines = command("sam", "--plan", "--seed", "5")
    plan = SeatingPlan.objects.get()
    bound = schedule_bound(26, 6, 3)
    assert plan.lower_bound == bound.value == 2
    assert "5 tables for 6 seats" in bound.reason
    assert bound.at_most_twice == 3  # one repeat a day, never the same pair twice over
    total = schedule_line(plan.planned_repeats, plan.lower_bound, bound.reason, 3)
    assert total.endswith("; 3 if no pair sits together three times)")
    assert lines[-1] == f"Over the planned days: {total}"
    days = list(PlannedDay.objects.order_by("day__number"))
    assert sum(d.repeat_pairs for d in days) == plan.planned_repeats
    per_day = [pairs_again(d.repeat_pairs, d.lower_bound) for d in days]
    assert [line for line in lines if line.startswith("Pairs who")] == [
        f.capitalize() for f in per_day
    ]

    index = page_text(organiser_client, url(good_sam, "seating/"))
    day_page = page_text(organiser_client, url(good_sam, "seating/2/"))
    for text in (index, day_page):
        assert total in text
    for number, figure in enumerate(per_day, start=1):
        assert f"planned: {figure}" in index.lower().replace("planned: planned:", "planned:")
        assert f"Planned: {figure}" in page_text(
            organiser_client, url(good_sam, f"seating/{number}/")
        )
        chart = pdf_text(organiser_client, url(good_sam, f"seating/{number}/planned.pdf"))
        assert f"Planned: {figure}" in chart
    assert "seed" not in index.lower() and "seed" not in day_page.lower()


def test_figures_agree_after_a_withdrawal_and_a_reseat(good_sam, organiser_client):
    command("sam", "--plan", "--seed", "5")
    first = command("sam", "--day", "1")
    withdraw_entry(Entry.objects.get(tournament=good_sam, number=7))
    second = command("sam", "--day", "2")
    days = [Day.objects.get(tournament=good_sam, number=n) for n in (1, 2)]
    tables = [stored_tables(d) for d in days]
    # counted afresh from the tables as stored, nothing the seating wrote
    assert days[1].repeat_pairs == count_repeat_pairs(tables[1], [tables[0]])
    figures = [pairs_again(d.repeat_pairs, d.repeat_lower_bound) for d in days]
    assert figures[0].capitalize() in first and figures[1].capitalize() in second
    for day, figure in zip(days, figures, strict=True):
        shown = page_text(organiser_client, url(good_sam, f"seating/{day.number}/"))
        assert figure.capitalize() in shown
        chart = pdf_text(organiser_client, url(good_sam, f"seating/{day.number}/chart.pdf"))
        assert figure.capitalize() in chart
    # the schedule line counts the days seated and still planned against today's 25 players
    from tournaments import selectors

    view = selectors.seating_plan(good_sam)
    planned_3 = view.day(3)
    assert view.total_repeats == days[0].repeat_pairs + days[1].repeat_pairs + planned_3.repeats
    bound = schedule_bound(25, 6, 3)
    assert view.lower_bound == bound.value
    line = schedule_line(view.total_repeats, bound.value, bound.reason, bound.at_most_twice)
    assert line in page_text(organiser_client, url(good_sam, "seating/"))


def test_seat_plan_goal_meet_everyone_prints_the_sessions_and_the_bound(good_sam):
    lines = command("sam", "--plan", "--goal", "meet-everyone", "--seed", "3")
    head = lines[0]
    assert head.startswith("Sam: every pair of the 26 players meets in ")
    assert "(fewest possible: 6, since 325 pairs to meet and at most 55 meet a session)" in head
    assert head.endswith("Nothing is stored.")
    sessions = int(re.search(r"meets in (\d+) sessions", head).group(1))
    assert sum(1 for line in lines if line.startswith("Session ")) == sessions >= 6
    assert not SeatingPlan.objects.exists()


def test_goal_meet_everyone_needs_plan(good_sam):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="goes with --plan"):
        command("sam", "--day", "1", "--goal", "meet-everyone")


def test_a_plan_and_a_day_cut_short_by_the_time_limit_say_so(good_sam, settings):
    settings.SEATING_PLAN_TIME_LIMIT = 0.0
    lines = command("sam", "--plan", "--seed", "5")
    assert any("time limit (0 seconds) ran out" in line for line in lines)
    assert SeatingPlan.objects.exists()  # still a whole plan, stored
    day = Day.objects.get(tournament=good_sam, number=1)
    outcome = SeatingOutcome(day=day, tables=[], repeat_pairs=0, lower_bound=0, seed=1)
    assert CUT_SHORT not in seating_summary(day, outcome)
    outcome.cut_short = True
    assert seating_summary(day, outcome).endswith(CUT_SHORT)
