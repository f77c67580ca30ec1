"""Public standings and the projector board in headless Chromium."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import GameSheet, SheetState

pytestmark = pytest.mark.browser


@pytest.fixture
def demo_with_two_games_to_confirm(transactional_db, make_demo):
    from django.contrib.auth import get_user_model

    tournament = make_demo(get_user_model().objects.create_superuser("demo-organiser"))
    GameSheet.objects.filter(pk__in=GameSheet.objects.order_by("pk").values("pk")[:2]).update(
        state=SheetState.ENTERED, confirmed_at=None
    )
    return tournament


def test_public_standings_search_sort_and_phone(live_server, page, demo_with_two_games_to_confirm):
    slug = demo_with_two_games_to_confirm.slug
    page.goto(f"{live_server.url}/t/{slug}/")
    page.get_by_role("link", name="Standings", exact=True).click()
    expect(page.get_by_role("heading", level=2, name="Standings")).to_be_visible()
    expect(page.get_by_role("status")).to_have_text("Provisional: 2 games to confirm")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(43)
    expect(rows.first.locator("td").first).to_have_text("1")

    page.get_by_role("link", name="Player", exact=True).click()
    # The sort is a new page: read the names only once it has loaded, all 43 of them.
    expect(page).to_have_url(re.compile(r"sort=name"))
    expect(rows).to_have_count(43)
    names = page.locator("#standings tbody tr td:nth-child(3)").all_text_contents()
    assert names == sorted(names, key=str.casefold) and len(names) == 43

    page.get_by_label("Find").fill("siobhán")
    page.get_by_role("button", name="Show").click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("Siobhán Jensen")

    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.get_by_role("link", name="PDF")).to_be_visible()
    expect(page.get_by_role("link", name="Excel")).to_be_visible()


def test_projector_is_large_pages_itself_and_turns_final(
    live_server, page, demo_with_two_games_to_confirm
):
    slug = demo_with_two_games_to_confirm.slug
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/t/{slug}/projector/?seconds=4")
    expect(page.locator(".board-provisional")).to_have_text("Provisional: 2 games to confirm")
    expect(page.get_by_text("Page 1 of 5")).to_be_visible()
    cell = page.locator("#board-players tbody td").first
    assert cell.evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 30
    # Fifteen rows and the heading fit the wall screen without scrolling.
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")

    expect(page.get_by_text("Page 2 of 5")).to_be_visible(timeout=10_000)
    expect(page.locator("#board-players tbody td").first).to_have_text(re.compile(r"^=?16$"))
    assert "page=2" in page.url

    GameSheet.objects.filter(state=SheetState.ENTERED).update(
        state=SheetState.CONFIRMED, confirmed_at=timezone.now()
    )
    expect(page.locator(".board-final")).to_have_text("Final", timeout=10_000)
    expect(page.get_by_text("Provisional")).to_have_count(0)
