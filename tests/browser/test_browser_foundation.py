import re

import pytest
from playwright.sync_api import expect

from scoring.management.commands.load_demo import DEMO_PASSWORD, DEMO_USERNAME

pytestmark = pytest.mark.browser


def test_organiser_logs_in_and_opens_the_demo_tournament(
    live_server, page, transactional_db, settings
):
    from django.core.management import call_command

    settings.DEBUG = True  # `make run` loads the demo on a debug install
    call_command("load_demo")
    page.goto(live_server.url + "/organiser/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.get_by_label("Username").fill(DEMO_USERNAME)
    page.get_by_label("Password").fill("wrong password")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Spring Samboree Tournament 2026").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Spring Samboree Tournament 2026")
    expect(page.get_by_text("43 registered")).to_be_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    expect(page.get_by_role("heading", level=1)).to_be_visible()
