"""A hidden finish in headless Chromium: the organiser hides the last two games from the public
standings page, a spectator's phone and the projector stop at game 1 of day 2 and say why, and
the reveal shows the final standings; axe-clean at 1280 px and 390 px."""

import pytest
from playwright.sync_api import expect
from scoring_factories import two_days_that_turn_round
from test_browser_accessibility import (  # noqa: F401 (fixtures)
    AA_TAGS,
    DESK,
    PHONE,
    PHONE_TAGS,
    browser_context_args,
    violations,
)

from tournaments.services.events import set_public_pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def first_row(page):
    return page.locator("#standings tbody tr").first


def test_the_organiser_hides_the_last_games_and_reveals_them(
    live_server, login_page, make_user, axe_script
):
    organiser = make_user("boss", superuser=True)
    # The public pages are what a hidden finish is about: on, as a new event's start off.
    set_public_pages(two_days_that_turn_round(), True)
    page = login_page(organiser)
    page.set_viewport_size(DESK)
    staff_url = f"{live_server.url}/organiser/t/cup/standings/"
    public_url = f"{live_server.url}/t/cup/standings/"
    page.goto(staff_url)
    expect(first_row(page)).to_contain_text("Gus Ray")
    form = page.locator("#hidden-finish")
    form.get_by_label("Show public standings up to day").select_option("2")
    form.get_by_label("and up to").select_option("1")
    form.get_by_role("button", name="Hide the games after it").click()
    notice = "Public pages and the projector stop after game 1 of day 2"
    expect(page.locator(".messages")).to_contain_text(notice)
    expect(page.locator("#staff-hidden-note")).to_contain_text(notice)
    # Staff still see every game.
    expect(page.locator("#standings-title")).to_have_text("Standings")
    expect(first_row(page)).to_contain_text("Gus Ray")
    problems = [f"staff 1280: {v}" for v in violations(page, axe_script, AA_TAGS)]

    for size_name, size in (("1280", DESK), ("390", PHONE)):
        page.set_viewport_size(size)
        page.goto(public_url)
        expect(page.locator("#standings-title")).to_have_text("Standings after game 1 of day 2")
        expect(page.locator("#hidden-note")).to_contain_text(
            "hidden for the last 2 games (from game 2 of day 2)"
        )
        expect(first_row(page)).to_contain_text("Ann Lee")
        problems += [f"public {size_name}: {v}" for v in violations(page, axe_script, PHONE_TAGS)]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.goto(f"{live_server.url}/t/cup/projector/?rows=10")
    expect(page.locator(".board-hidden")).to_contain_text("hidden for the last 2 games")
    expect(page.locator(".board-title")).to_have_text("Standings after game 1 of day 2")

    page.goto(staff_url)
    problems += [f"staff 390: {v}" for v in violations(page, axe_script, AA_TAGS)]
    page.get_by_role("button", name="Reveal the standings").click()
    expect(page.locator(".messages")).to_contain_text("The standings are revealed")
    expect(page.locator("#staff-hidden-note")).to_have_count(0)
    page.goto(public_url)
    expect(page.locator("#standings-title")).to_have_text("Standings")
    expect(page.locator("#hidden-note")).to_have_count(0)
    expect(first_row(page)).to_contain_text("Gus Ray")
    assert not problems, "\n".join(problems)
