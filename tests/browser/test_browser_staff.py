"""In Chromium: the event's organiser (no site administrator) adds a desk volunteer's login
from the event's Staff page, a duplicate is refused beside its field, and the volunteer logs in
and reaches the desk's pages but not the Staff page."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PASSWORD = "tiles-on-the-train-42"


def test_the_organiser_adds_a_desk_login_and_the_volunteer_logs_in(
    transactional_db, login_page, live_server, make_user, make_tournament
):
    from django.contrib.auth import get_user_model
    from scoring_factories import snapshot

    from tournaments.models import StaffRole

    boss = make_user("boss")
    make_tournament(slug="cup", name="Cup", organiser=boss)
    page = login_page(boss)
    page.goto(f"{live_server.url}/organiser/t/cup/settings/")
    page.get_by_role("link", name="Staff").click()
    expect(page.get_by_role("heading", name="Staff", exact=True)).to_be_visible()
    expect(page.get_by_label("Role")).to_have_value("desk")

    before = snapshot(get_user_model(), StaffRole)
    page.get_by_label("Username").fill("boss")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Add the login").click()
    expect(page.locator(".field.has-error")).to_contain_text('The username "boss" is already taken')
    assert snapshot(get_user_model(), StaffRole) == before

    page.get_by_label("Username").fill("vera")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Add the login").click()
    expect(page.get_by_role("status").first).to_contain_text("vera can now log in as desk")
    expect(page.locator('[data-username="vera"]')).to_contain_text("Desk")

    page.get_by_role("button", name="Log out").click()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("vera")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/organiser/")
    page.get_by_role("link", name="Cup").click()
    expect(page.get_by_role("link", name="Check-in")).to_be_visible()
    expect(page.get_by_role("link", name="Staff")).to_have_count(0)
    response = page.goto(f"{live_server.url}/organiser/t/cup/staff/")
    assert response is not None and response.status == 403
