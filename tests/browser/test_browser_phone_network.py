"""The table page's save on a poor network (issue 24), with the network emulated by Playwright:
offline, a request that hangs. What is stored must be what the phone's screen shows, and the
state of the save is said in the Save bar, under the thumb."""

import re

import pytest
from playwright.sync_api import expect
from scoring_factories import T1, seated_day
from test_browser_scoring import PHONE
from test_browser_venue import NOT_SENT, fill_game_one

from scoring.models import LIVE_STATES, GameSheet, TableSubmission

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SAVE_BAR_STATUS = ".save-bar [role=status]"


def stored_points():
    sheet = GameSheet.objects.get(state__in=LIVE_STATES)
    return {s.entry.player.name: s.points for s in sheet.scores.select_related("entry__player")}


def in_view(page, selector):
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_correction_typed_while_a_save_waits_is_the_one_sent(live_server, page, context):
    w = seated_day()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    fill_game_one(page)
    context.set_offline(True)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text(NOT_SENT)
    # 40 was a slip for 18: changed on screen, without pressing Save again.
    page.get_by_label("Cy Doe", exact=True).fill("18")
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text("numbers on screen now")
    context.set_offline(False)
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible(timeout=30_000)
    assert stored_points() == {**T1, "Cy Doe": 18}
    assert GameSheet.objects.get().version == 1


def test_the_save_state_is_in_the_save_bar_and_no_stale_saved_shows(live_server, page, context):
    w = seated_day()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    fill_game_one(page)
    page.get_by_role("button", name="Save game 1").click()
    saved_one = page.get_by_text("Game 1 is saved.")
    expect(saved_one).to_be_visible()
    for name, points in {"Ann Lee": 9, "Bob Roe": 0, "Cy Doe": 4, "Di Fox": 21}.items():
        page.get_by_label(name, exact=True).fill(str(points))
    context.set_offline(True)
    page.get_by_role("button", name="Save game 2").click()
    status = page.locator(SAVE_BAR_STATUS)
    expect(status).to_contain_text(NOT_SENT)
    # Game 2 is not saved: the green "game 1 is saved" of before is gone, and the bar says so
    # on a phone's screen without scrolling.
    expect(saved_one).to_be_hidden()
    assert in_view(page, SAVE_BAR_STATUS)
    assert GameSheet.objects.count() == 1
    context.set_offline(False)
    expect(page.get_by_text("Game 2 is saved.")).to_be_visible(timeout=30_000)
    assert GameSheet.objects.count() == 2


def test_a_save_that_hangs_gives_up_and_is_sent_again_once(live_server, page):
    w = seated_day()
    page.set_viewport_size(PHONE)
    posts, hung = [], []

    def hang_the_first_answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(route.request.post_data)
        if len(posts) == 1:
            route.fetch()  # the server gets it and stores the game...
            hung.append(route)  # ...and the answer never comes back
        else:
            route.continue_()

    page.route(re.compile(r".*/table/[^/]+/$"), hang_the_first_answer)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    fill_game_one(page)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text("Sending game 1")
    # Given up after about 10 seconds: the bar says so and Save can be pressed again.
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text(NOT_SENT, timeout=13_000)
    expect(page.get_by_role("button", name="Save game 1")).to_be_enabled()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible(timeout=30_000)
    ids = [re.search(r'name="submission_id"\r\n\r\n([^\r]+)', post).group(1) for post in posts]
    assert len(ids) == 2 and ids[0] == ids[1]
    assert stored_points() == T1 and GameSheet.objects.get().version == 1
    assert TableSubmission.objects.count() == 1


def test_a_correction_typed_while_a_save_is_sending_is_stored_as_shown(live_server, page):
    """The first try is on its way (slow Wi-Fi) when 40 is changed to 18: the first try is
    stored, then the change goes on its own, and what is stored in the end is on the screen."""
    w = seated_day()
    page.set_viewport_size(PHONE)
    held = []

    def hold_the_first_save(route):
        if route.request.method == "POST" and not held:
            held.append(route)
            return
        route.continue_()

    page.route(re.compile(r".*/table/[^/]+/$"), hold_the_first_save)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    fill_game_one(page)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text("Sending game 1")
    page.get_by_label("Cy Doe", exact=True).fill("18")
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text("numbers on screen now")
    held[0].continue_()
    expect(page.get_by_text("Game 1 is saved.")).to_be_visible(timeout=30_000)
    assert stored_points() == {**T1, "Cy Doe": 18}
    expect(page.get_by_role("heading", name="Game 2")).to_be_visible()
    assert TableSubmission.objects.count() == 2  # the first try, and the change after it


def test_enter_in_a_score_moves_to_the_next_score_and_sends_nothing(live_server, page):
    w = seated_day()
    page.set_viewport_size(PHONE)
    posts = []
    page.on("request", lambda r: posts.append(r) if r.method == "POST" else None)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    ann, bob = page.get_by_label("Ann Lee", exact=True), page.get_by_label("Bob Roe", exact=True)
    expect(ann).to_have_attribute("enterkeyhint", "next")
    ann.fill("0")
    ann.press("Enter")
    expect(bob).to_be_focused()
    bob.fill("12")
    bob.press("Enter")
    expect(page.get_by_label("Cy Doe", exact=True)).to_be_focused()
    page.wait_for_timeout(300)
    assert posts == [] and not GameSheet.objects.exists()


def stored_drafts(page):
    return page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('mt-table:'))"
        ".map(k => JSON.parse(localStorage.getItem(k)))"
    )


def test_keeping_the_saved_numbers_clears_this_phones_typing_and_goes_on(live_server, browser):
    w = seated_day()
    url = f"{live_server.url}/table/{w.tables[0].link_token}/"
    first = browser.new_context(viewport=PHONE).new_page()
    second = browser.new_context(viewport=PHONE).new_page()
    first.goto(url)
    second.goto(url)
    fill_game_one(first)
    first.get_by_role("button", name="Save game 1").click()
    expect(first.get_by_text("Game 1 is saved.")).to_be_visible()

    # The second phone typed other numbers, with Bob going out, and saves over game 1.
    for name, points in {"Ann Lee": 3, "Bob Roe": 0, "Cy Doe": 18, "Di Fox": 7}.items():
        second.get_by_label(name, exact=True).fill(str(points))
    second.get_by_label("Bob Roe went out").check()
    second.get_by_role("button", name="Save game 1").click()
    expect(second.locator(".conflict")).to_contain_text("here is what it says now")
    second.get_by_label("Cy Doe", exact=True).fill("19")  # typed on while deciding
    second.get_by_role("link", name="Keep the saved numbers").click()

    # On to game 2, empty, with a word about game 1; nothing of game 1's typing is kept.
    expect(second.get_by_role("heading", name=re.compile("^Game 2"))).to_be_visible()
    expect(second.get_by_text("Game 1 keeps the saved numbers.")).to_be_visible()
    expect(second.locator(".conflict")).to_have_count(0)
    expect(second.get_by_label("Cy Doe", exact=True)).to_have_value("")
    assert [d for d in stored_drafts(second) if ["game", "1"] in d["fields"]] == []
    assert stored_points() == T1 and GameSheet.objects.get().version == 1

    # Game 1 opened again shows what is saved: one player went out, no clash.
    second.goto(url + "?game=1")
    expect(second.get_by_label("Cy Doe", exact=True)).to_have_value("40")
    expect(second.locator(".out-toggle input:checked")).to_have_count(1)
    expect(second.get_by_label("Ann Lee went out")).to_be_checked()
    expect(second.locator(".conflict")).to_have_count(0)


GAMES = {
    1: ({"Ann Lee": 0, "Bob Roe": 12, "Cy Doe": 40, "Di Fox": 7}, "Ann Lee"),
    2: ({"Ann Lee": 9, "Bob Roe": 0, "Cy Doe": 4, "Di Fox": 21}, "Bob Roe"),
    3: ({"Ann Lee": 15, "Bob Roe": 8, "Cy Doe": 0, "Di Fox": 30}, "Cy Doe"),
}


def enter(page, number):
    scores, out = GAMES[number]
    expect(page.get_by_role("heading", name=re.compile(f"^Game {number}"))).to_be_visible()
    for name, points in scores.items():
        page.get_by_label(name, exact=True).fill(str(points))
    page.get_by_label(f"{out} went out").check()
    page.get_by_role("button", name=f"Save game {number}").click()


def stored_games():
    return {
        sheet.game.number: {
            s.entry.player.name: s.points for s in sheet.scores.select_related("entry__player")
        }
        for sheet in GameSheet.objects.select_related("game")
    }


def test_several_games_wait_offline_in_order_and_each_is_sent_once(live_server, page, context):
    w = seated_day()
    page.set_viewport_size(PHONE)
    posts = []  # the saves that reached the server (those tried offline fail on the phone)
    page.on("requestfinished", lambda r: posts.append(r.post_data) if r.method == "POST" else None)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    context.set_offline(True)
    status = page.locator(SAVE_BAR_STATUS)
    enter(page, 1)
    expect(status).to_contain_text(NOT_SENT)
    page.get_by_role("button", name="Enter game 2 now").click()
    # The next game starts empty, on its own engine.
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("")
    expect(page.get_by_label("Ann Lee went out")).not_to_be_checked()
    expect(page.get_by_label("Engine")).to_have_value("11")
    enter(page, 2)
    expect(status).to_contain_text("2 games are waiting: 1, 2")
    page.get_by_role("button", name="Enter game 3 now").click()
    enter(page, 3)
    expect(status).to_contain_text("3 games are waiting: 1, 2, 3")
    assert in_view(page, SAVE_BAR_STATUS)
    # Game 2 had a slip: changed while it waits, without pressing Save again.
    page.get_by_role("button", name="Change game 2 (not sent yet)").click()
    expect(page.get_by_label("Di Fox", exact=True)).to_have_value("21")
    page.get_by_label("Di Fox", exact=True).fill("12")
    expect(status).to_contain_text("numbers on screen now")
    assert not GameSheet.objects.exists()

    context.set_offline(False)
    expect(page.get_by_role("heading", name=re.compile("^Game 4"))).to_be_visible(timeout=30_000)
    expected = {n: scores for n, (scores, _) in GAMES.items()}
    expected[2] = {**expected[2], "Di Fox": 12}
    assert stored_games() == expected
    assert all(sheet.version == 1 for sheet in GameSheet.objects.all())
    sent = [int(re.search(r'name="game"\r\n\r\n(\d+)', post).group(1)) for post in posts]
    assert sent == [1, 2, 3] and TableSubmission.objects.count() == 3
    assert [e.game.number for e in TableSubmission.objects.order_by("received_at")] == [1, 2, 3]
    assert stored_drafts(page) == []


def test_games_waiting_are_kept_across_a_reload_and_sent_after(live_server, page):
    w = seated_day()
    page.set_viewport_size(PHONE)
    url = f"{live_server.url}/table/{w.tables[0].link_token}/"
    # The Wi-Fi carries the page but every save is lost on the way.
    page.route(
        re.compile(r".*/table/[^/]+/$"),
        lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
    )
    page.goto(url)
    enter(page, 1)
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text(NOT_SENT)
    page.get_by_role("button", name="Enter game 2 now").click()
    enter(page, 2)
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text("2 games are waiting")
    page.reload()  # the phone slept, or the browser dropped the tab
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text("2 games are waiting: 1, 2")
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("40")
    expect(page.get_by_role("button", name="Change game 2 (not sent yet)")).to_be_visible()
    assert not GameSheet.objects.exists()
    page.unroute(re.compile(r".*/table/[^/]+/$"))
    expect(page.get_by_role("heading", name=re.compile("^Game 3"))).to_be_visible(timeout=30_000)
    assert stored_games() == {n: GAMES[n][0] for n in (1, 2)}
    assert TableSubmission.objects.count() == 2


def test_a_went_out_the_page_ticked_goes_when_its_zero_changes_even_after_a_reload(
    live_server, page
):
    w = seated_day()  # the double blank counts 50: a lone 0 can only be going out
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    ann, ann_out = page.get_by_label("Ann Lee", exact=True), page.get_by_label("Ann Lee went out")
    ann.fill("0")
    expect(ann_out).to_be_checked()
    ann.fill("6")
    expect(ann_out).not_to_be_checked()
    ann.fill("0")
    expect(ann_out).to_be_checked()
    # Tapped by hand: Bob's tick stays whatever his score becomes.
    bob_out = page.get_by_label("Bob Roe went out")
    page.get_by_label("Bob Roe", exact=True).fill("5")
    page.get_by_label("Cy Doe", exact=True).fill("40")
    page.reload()  # the phone slept: the typed values come back from the page's storage
    expect(ann).to_have_value("0")
    expect(ann_out).to_be_checked()
    ann.fill("6")
    expect(ann_out).not_to_be_checked()
    ann.fill("")
    bob_out.check()  # by hand, with a score already typed: kept as it is
    page.get_by_label("Bob Roe", exact=True).fill("0")
    page.get_by_label("Bob Roe", exact=True).fill("3")
    expect(bob_out).to_be_checked()
    page.reload()
    expect(bob_out).to_be_checked()
    page.get_by_label("Bob Roe", exact=True).fill("0")
    page.get_by_label("Bob Roe", exact=True).fill("8")
    expect(bob_out).to_be_checked()
    # What the page keeps says the same as the screen: Ann not out, Bob out.
    [draft] = stored_drafts(page)
    outs = [name for name, _ in draft["fields"] if name.startswith("out-")]
    assert outs == [f"out-{w.entries['Bob Roe'].pk}"]


def test_a_save_sent_again_after_the_wifi_came_back_says_saved_once(live_server, page, context):
    w = seated_day()
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    fill_game_one(page)
    context.set_offline(True)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text(NOT_SENT)
    context.set_offline(False)
    expect(page.get_by_role("heading", name=re.compile("^Game 2"))).to_be_visible(timeout=30_000)
    page.wait_for_timeout(500)
    expect(page.get_by_text("Game 1 is saved.")).to_have_count(1)
    assert TableSubmission.objects.count() == 1 and GameSheet.objects.get().version == 1


def test_a_save_whose_answer_was_cut_off_by_the_wifi_says_saved_once(live_server, page, context):
    w = seated_day()
    page.set_viewport_size(PHONE)
    posts = []

    def cut_off_the_first_answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(route.request.post_data)
        if len(posts) == 1:
            # The save reaches the server, which stores it and answers (its cookies reach the
            # phone), then the Wi-Fi drops before the page hears the answer.
            route.fetch(max_redirects=0)
            context.set_offline(True)
            route.abort()
        else:
            route.continue_()

    page.route(re.compile(r".*/table/[^/]+/$"), cut_off_the_first_answer)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    fill_game_one(page)
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator(SAVE_BAR_STATUS)).to_contain_text(NOT_SENT)
    context.set_offline(False)  # sent again, with the same id
    expect(page.get_by_role("heading", name=re.compile("^Game 2"))).to_be_visible(timeout=30_000)
    expect(page.locator(".messages li")).to_have_text(
        ["Game 1 is saved. The desk will check it against your card."]
    )
    assert len(posts) == 2
    assert TableSubmission.objects.count() == 1 and GameSheet.objects.get().version == 1
