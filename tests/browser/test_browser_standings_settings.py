"""In Chromium: after play has started the organiser switches the tie-breaks on from the rules
page, the change shows in the page's history, and the standings split the tie for 2nd."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_organiser_switches_the_tie_breaks_on_after_play_and_the_tie_splits(
    transactional_db, login_page, live_server, make_user
):
    from scoring_factories import seated_day, snapshot, three_tied_for_second

    from tournaments.models import RuleSet, StaffRole, StandingsSettingChange

    w = seated_day()
    boss = make_user("boss")
    StaffRole.objects.create(tournament=w.tournament, user=boss, role=StaffRole.ORGANISER)
    three_tied_for_second(w)
    page = login_page(boss)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/organiser/t/cup/standings/")
    standings = page.locator("#standings tbody tr")
    expect(standings.filter(has_text="Flo Ng").locator("td").first).to_have_text("=2")

    page.goto(f"{live_server.url}/organiser/t/cup/rules/")
    expect(page.locator(".notice")).to_contain_text("Play has started")
    expect(page.get_by_role("button", name="Save the rules")).to_have_count(0)
    expect(page.locator("#setting-history")).to_contain_text("No changes yet")
    # Saving with nothing ticked changes nothing and says so.
    before = snapshot(RuleSet, StandingsSettingChange)
    page.get_by_role("button", name="Save the tie-breaks").click()
    expect(page.get_by_role("status").first).to_contain_text("Nothing changed")
    assert snapshot(RuleSet, StandingsSettingChange) == before

    page.get_by_label("Most games gone out").check()
    page.get_by_label("Lowest single worst game").check()
    page.get_by_role("button", name="Save the tie-breaks").click()
    expect(page.get_by_role("status").first).to_contain_text("Saved: tie-breaks")
    history = page.locator("#setting-history tbody tr")
    expect(history).to_have_count(1)
    expect(history.first).to_contain_text("boss")
    expect(history.first).to_contain_text("none (tied players share a rank)")
    expect(history.first).to_contain_text("Most games gone out, then Lowest single worst game")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

    page.goto(f"{live_server.url}/organiser/t/cup/standings/")
    for name, rank in (("Ed Poe", "2"), ("Flo Ng", "3"), ("Bob Roe", "4")):
        expect(standings.filter(has_text=name).locator("td").first).to_have_text(rank)
