"""The season standings and a player's season in headless Chromium, on a desktop and a phone."""

import re

import pytest
from playwright.sync_api import expect
from season_factories import club_session, people, season_of
from test_browser_accessibility import AA_TAGS, DESK, PHONE, PHONE_TAGS, violations

from tournaments.models import Player

pytestmark = pytest.mark.browser

NAMES = ("Ann Lee", "Bob Roe", "Cy Doe", "Di Fox", "Ed Poe", "Flo Ng")


@pytest.fixture
def browser_context_args(browser_context_args):
    """As the accessibility tests: the policy set aside for axe-core's own script alone."""
    return {**browser_context_args, "bypass_csp": True}


@pytest.fixture
def public_season(transactional_db):
    who = people(*NAMES, club="Elks of the Northern Valley")
    weeks = []
    for week in range(1, 5):
        here = NAMES[: 6 - week % 2]  # Flo misses every other week
        scores = {name: (week * 7 + i * 5) % 23 for i, name in enumerate(here)}
        weeks.append(club_session(f"week-{week}", [list(here)], who, scores=[[scores, scores]]))
    return season_of("winter", *weeks, best_of=3, public=True)


def test_season_page_on_desktop_and_phone(live_server, page, public_season):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{live_server.url}/season/winter/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Winter")
    expect(page.locator("#season-rule")).to_have_text("Ranked by the best 3 of 4 sessions")
    rows = page.locator("#season-standings tbody tr")
    expect(rows).to_have_count(6)
    expect(rows.first.locator("td.col-rank")).to_have_text("1")
    expect(page.locator("#season-standings th.col-session_4")).to_be_visible()
    expect(page.locator("#season-standings th.col-club")).to_be_visible()

    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    # A phone shows rank, player and the figure the season is ranked by; the page never
    # scrolls sideways.
    visible = page.locator("#season-standings thead th:visible")
    expect(visible).to_have_text(["Rank", "Player", "Best 3"])
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    expect(page.get_by_role("link", name="PDF")).to_be_visible()
    expect(page.get_by_role("link", name="Excel")).to_be_visible()
    page.get_by_role("link", name="Every column").click()
    expect(page.locator("#season-standings th.col-session_1")).to_be_visible()

    page.get_by_role("link", name="Flo Ng").click()
    expect(page.locator("#player-name")).to_have_text("Flo Ng")
    expect(page.locator("#player-attendance")).to_have_text("2 of 4 sessions")
    expect(page.locator("#player-sessions tbody tr")).to_have_count(4)
    expect(page.locator("#player-best")).to_have_text("–")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_organiser_removes_and_adds_back_an_event_on_a_phone(
    live_server, page, public_season, make_user, login_page
):
    login_page(make_user("boss", superuser=True))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/organiser/season/winter/")
    page.get_by_role("link", name="Events of the season").click()
    page.get_by_role("button", name="Remove Week 4 from the season").click()
    expect(page.get_by_role("status")).to_have_text("The event is no longer in the season.")
    expect(page.locator("ol.season-events li")).to_have_count(3)
    page.get_by_label("Event").select_option(label="Week 4")
    page.get_by_label("At place").fill("1")
    page.get_by_role("button", name="Add to the season").click()
    expect(page.get_by_role("status")).to_have_text("Added as event 1 of Winter.")
    expect(page.locator("ol.season-events li").first).to_contain_text("Week 4")
    page.get_by_role("link", name="Season standings").click()
    expect(page.locator("ol.season-sessions li").first).to_contain_text("Week 4")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def ranks_by_name(page) -> dict[str, str]:
    rows = page.locator("#season-standings tbody tr")
    names = rows.locator("td.col-name").all_text_contents()
    ranks = rows.locator("td.col-rank").all_text_contents()
    return dict(zip(names, ranks, strict=True))


@pytest.mark.parametrize("size", [DESK, PHONE], ids=["1280", "390"])
def test_search_and_sort_the_season_page(
    live_server, page, public_season, make_user, login_page, axe_script, size
):
    Player.objects.filter(name="Di Fox").update(name="Désirée Fox")
    tags = AA_TAGS if size is DESK else PHONE_TAGS
    problems = []
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/season/winter/")
    ranked = ranks_by_name(page)
    assert len(ranked) == 6

    # Sorting by name is a new page; each row keeps the rank the season gives it.
    page.locator("#season-standings thead").get_by_role("link", name="Player").click()
    expect(page).to_have_url(re.compile(r"sort=name"))
    rows = page.locator("#season-standings tbody tr")
    expect(rows).to_have_count(6)
    names = rows.locator("td.col-name").all_text_contents()
    assert names == sorted(names, key=str.casefold)
    assert ranks_by_name(page) == ranked
    problems += [f"public sorted: {v}" for v in violations(page, axe_script, tags)]
    # The figure the season is ranked by sorts too, and the first click puts the best first.
    page.locator("#season-standings thead").get_by_role("link", name="Best 3").click()
    expect(page).to_have_url(re.compile(r"sort=best"))
    assert ranks_by_name(page) == ranked

    # Accents and case do not matter; the search keeps the sort and the rank.
    page.get_by_label("Find").fill("desiree")
    page.get_by_role("button", name="Show").click()
    expect(rows).to_have_count(1)
    expect(rows.first.locator("td.col-name")).to_have_text("Désirée Fox")
    expect(rows.first.locator("td.col-rank")).to_have_text(ranked["Désirée Fox"])
    assert "sort=best" in page.url
    page.get_by_label("Find").fill("zz")
    page.get_by_role("button", name="Show").click()
    expect(page.locator("#season-standings td.nobody")).to_have_text("No players match “zz”.")
    expect(page.locator("#season-standings td.nobody")).to_be_visible()
    problems += [f"public nobody: {v}" for v in violations(page, axe_script, tags)]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # The organiser's page searches by club the same way.
    login_page(make_user("boss", superuser=True))
    page.set_viewport_size(size)
    page.goto(f"{live_server.url}/organiser/season/winter/?q=elks+of+the+northern")
    expect(page.locator("#season-standings tbody tr")).to_have_count(6)
    heading = page.locator("#season-standings thead").get_by_role("link", name="Rank")
    heading.click()
    expect(page).to_have_url(re.compile(r"sort=rank"))
    heading.click()  # the second click turns the order round
    expect(page).to_have_url(re.compile(r"sort=-rank"))
    last = page.locator("#season-standings tbody tr").last.locator("td.col-rank")
    expect(last).to_have_text("1")
    problems += [f"organiser: {v}" for v in violations(page, axe_script, AA_TAGS)]
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not problems, "\n".join(problems)
