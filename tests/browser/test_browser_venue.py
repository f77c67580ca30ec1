"""The venue in headless Chromium at phone size: a table code, a save through a Wi-Fi drop, a
save whose answer was lost, and the connect page's QR codes. Only loopback addresses are used."""

import re

import pytest
from playwright.sync_api import expect
from readback import decode_qr
from scoring_factories import T1, seated_day
from test_browser_scoring import PHONE, no_sideways_scroll

from scoring.models import GameSheet, TableSubmission
from tournaments.models import TABLE_CODE_ALPHABET

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOT_SENT = "Not sent yet: will send when the Wi-Fi is back"


def fill_game_one(page):
    for name, points in T1.items():
        page.get_by_label(name, exact=True).fill(str(points))
    page.get_by_label("Ann Lee went out").check()


def assert_game_one_stored_once():
    sheet = GameSheet.objects.get()
    assert sheet.version == 1
    assert {
        s.entry.player.name: s.points for s in sheet.scores.select_related("entry__player")
    } == T1


def test_a_table_code_opens_the_table_and_wrong_codes_are_refused_then_throttled(live_server, page):
    w = seated_day()
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + "/")
    no_sideways_scroll(page)
    page.get_by_label("Enter your table code").fill(w.tables[1].code.lower())
    page.get_by_role("button", name="Open my table").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Table 2")
    assert page.url == f"{live_server.url}/table/{w.tables[1].link_token}/"

    taken = {t.code for t in w.tables}
    wrong = [c * 6 for c in TABLE_CODE_ALPHABET if c * 6 not in taken][:10]
    page.goto(live_server.url + "/")
    # Slips of the thumb are told for what they are, and never count toward the wait.
    for slip in ["ACE6O7", "ACE67"] * 6:
        page.get_by_label("Enter your table code").fill(slip)
        page.get_by_role("button", name="Open my table").click()
        expect(page.locator(".field-error")).to_contain_text(
            "never use \u201cO\u201d" if "O" in slip else "this has 5"
        )
    for attempt, code in enumerate(wrong):
        page.get_by_label("Enter your table code").fill(code)
        page.get_by_role("button", name="Open my table").click()
        expect(page.locator(".field-error")).to_have_text(
            "No open table has this code. Check the card on your table."
        )
        expect(page.get_by_label("Enter your table code")).to_have_value(code)
        no_sideways_scroll(page)
        assert attempt < 10
    # The eleventh try is refused even with a right code: this phone waits now.
    page.get_by_label("Enter your table code").fill(w.tables[0].code)
    page.get_by_role("button", name="Open my table").click()
    expect(page.get_by_role("alert")).to_contain_text(
        "Too many wrong codes from this phone. Try again in 10 minutes"
    )
    expect(page.get_by_role("heading", level=1)).to_have_text("Enter your table code")


def test_a_save_while_offline_is_kept_and_sent_once_the_wifi_is_back(live_server, page, context):
    w = seated_day()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    fill_game_one(page)
    context.set_offline(True)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_role("status").filter(has_text=NOT_SENT)).to_be_visible()
    no_sideways_scroll(page)
    # Nothing reached the server; the phone still has every value, on screen and in storage.
    assert not GameSheet.objects.exists()
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("40")
    [stored] = page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('mt-table:'))"
        ".map(k => JSON.parse(localStorage.getItem(k)))"
    )
    assert stored["pending"] is True and stored["id"]
    assert [f"score-{w.entries['Cy Doe'].pk}", "40"] in stored["fields"]

    context.set_offline(False)
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible(timeout=30_000)
    expect(page.get_by_role("heading", name=re.compile("Game 2"))).to_be_visible()
    assert_game_one_stored_once()
    assert TableSubmission.objects.count() == 1
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('mt-table:'))") == []


def test_typed_values_stay_on_the_phone_across_a_reload_until_saved(live_server, page):
    w = seated_day()
    page.set_viewport_size(PHONE)
    url = f"{live_server.url}/table/{w.tables[0].link_token}/"
    page.goto(url)
    fill_game_one(page)
    page.reload()  # the phone slept, or the browser dropped the tab
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("40")
    expect(page.get_by_label("Ann Lee went out")).to_be_checked()
    assert not GameSheet.objects.exists()
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible()
    # Saved: the next game starts empty, and nothing is left in the phone's storage.
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('mt-table:'))") == []
    assert_game_one_stored_once()


def test_a_save_whose_answer_was_lost_is_sent_again_and_stored_once(live_server, page):
    w = seated_day()
    page.set_viewport_size(PHONE)
    posts = []

    def lose_the_first_answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(route.request.post_data)
        if len(posts) == 1:
            route.fetch()  # the server gets it and stores the game...
            route.abort("connectionreset")  # ...but the phone never hears back
        else:
            route.continue_()

    page.route(re.compile(r".*/table/[^/]+/$"), lose_the_first_answer)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    fill_game_one(page)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible(timeout=30_000)
    ids = [re.search(r'name="submission_id"\r\n\r\n([^\r]+)', post).group(1) for post in posts]
    assert len(ids) == 2 and ids[0] == ids[1]  # the same save sent again, with its id
    assert_game_one_stored_once()


def test_without_javascript_the_table_page_saves_as_a_plain_form(live_server, browser):
    w = seated_day()
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
        fill_game_one(page)
        page.get_by_role("button", name="Save game 1").click()
        expect(page.get_by_text("Game 1 is saved.")).to_be_visible()
    finally:
        context.close()
    assert_game_one_stored_once()
    assert not TableSubmission.objects.exists()


def test_the_connect_page_qr_codes_open_the_site_and_join_the_wifi(
    live_server, page, organiser, login_page
):
    w = seated_day(organiser=organiser)
    login_page(organiser)
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/organiser/t/{w.tournament.slug}/connect/")
    # Opened as localhost: the page says phones cannot use this address.
    expect(page.get_by_role("alert")).to_contain_text("Phones cannot open these links")
    site = page.locator(".tent-side:not(.tent-back) img.site-qr")
    assert decode_qr(site.screenshot()) == [live_server.url + "/"]

    page.get_by_label("Wi-Fi name").fill("Hall;5G")
    page.get_by_label("Wi-Fi password").fill('p:ss,wo"rd\\1')
    page.get_by_role("button", name="Show the Wi-Fi QR code").click()
    wifi = page.locator(".tent-side:not(.tent-back) img.wifi-qr")
    assert decode_qr(wifi.screenshot()) == ['WIFI:T:WPA;S:Hall\\;5G;P:p\\:ss\\,wo\\"rd\\\\1;;']
    expect(page.locator(".tent-side:not(.tent-back)")).to_contain_text("Network Hall;5G")
    no_sideways_scroll(page)
    expect(page.get_by_role("button", name="Print the table card")).to_be_visible()

    # Too short a password is refused next to its field, and no Wi-Fi code is drawn.
    page.get_by_label("Wi-Fi password").fill("short")
    page.get_by_role("button", name="Show the Wi-Fi QR code").click()
    expect(page.locator(".field-error")).to_contain_text("at least 8 characters")
    expect(page.locator("img.wifi-qr")).to_have_count(0)


def test_the_first_page_says_whether_the_phone_reaches_the_scoring_laptop(
    live_server, page, context, settings, organiser, login_page
):
    """The tent card tells scorekeepers to look for the line; it changes when the Wi-Fi goes."""
    settings.VENUE_MODE = True
    connected = "This phone is connected to the scoring laptop."
    lost = "This phone is not connected to the scoring laptop: check the Wi-Fi."
    w = seated_day(organiser=organiser)
    page.set_viewport_size(PHONE)
    for path in ("/", "/table/"):
        page.goto(live_server.url + path)
        line = page.locator("[data-connection]")
        expect(line).to_have_text(connected)
        context.set_offline(True)
        expect(line).to_have_text(lost)
        context.set_offline(False)
        expect(line).to_have_text(connected)
    login_page(organiser)
    page.goto(f"{live_server.url}/organiser/t/{w.tournament.slug}/connect/")
    expect(page.locator(".tent-side:not(.tent-back)")).to_contain_text(f"The page says {connected}")
