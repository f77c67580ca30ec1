"""End to end in Chromium (issue 27): the organiser sets what a late player's missed games count
on the rules page, seats a late player mid-day, and the standings mark the credited day with
"late: highest at the table"; axe-core finds nothing on either page."""

import pytest
from playwright.sync_api import expect
from test_browser_accessibility import AA_TAGS, violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    """As the accessibility tests: the policy set aside for axe-core's own script alone."""
    return {**browser_context_args, "bypass_csp": True}


def test_the_organiser_sets_the_late_rule_and_the_standings_mark_the_credited_day(
    organiser, login_page, live_server, axe_script
):
    from scoring_factories import play, seated_day, stored_sheet

    from tournaments.services.registration import register_player

    w = seated_day(preset="club-session", organiser=organiser)
    page = login_page(organiser)
    page.goto(f"{live_server.url}/organiser/t/cup/rules/")
    page.get_by_label("A late player's missed games count").select_option(
        label="The highest score at their table in that game"
    )
    page.get_by_role("button", name="Save the rules").click()
    expect(page.get_by_role("status").first).to_contain_text("Rules saved")
    expect(page.locator('tr[data-rule="late_missed_games"]')).to_contain_text(
        "The highest score at their table in that game"
    )
    assert not violations(page, axe_script, AA_TAGS)

    # Table 2 plays games 1 and 2 (highest 30, then 41) before Lou Late walks in.
    e = w.entries
    play(w, w.tables[0], [1, 2])
    for number, scores, out in (
        (1, {"Ed Poe": 0, "Flo Ng": 12, "Gus Ray": 30}, "Ed Poe"),
        (2, {"Ed Poe": 7, "Flo Ng": 0, "Gus Ray": 41}, "Flo Ng"),
    ):
        points = {e[name]: score for name, score in scores.items()}
        stored_sheet(w.tables[1], w.games[number], points, out=e[out])
    register_player(w.tournament, name="Lou Late")
    page.goto(f"{live_server.url}/organiser/t/cup/seating/1/")
    expect(page.locator(".late-plan")).to_contain_text(
        "each counts the highest score at their table in that game"
    )
    page.get_by_label("Late player").select_option(label="Lou Late (#8)")
    page.get_by_role("button", name="Seat at table 2 from game 3").click()
    expect(page.get_by_role("status").first).to_contain_text("Lou Late joins table 2 from game 3.")
    play(w, w.tables[0], [3])
    play(w, w.tables[1], [3])  # Ed out; Flo, Gus and Lou 10 each

    page.goto(f"{live_server.url}/organiser/t/cup/standings/?after_game=3")
    lou = page.locator("#standings tr").filter(has_text="Lou Late")
    expect(lou.locator("td.col-day_1")).to_have_text("81L")
    expect(lou.locator("td.col-total")).to_have_text("81")
    expect(page.get_by_text("L: late: highest at the table")).to_be_visible()
    assert not violations(page, axe_script, AA_TAGS)
