"""The table page notices by itself (issue 24): a light poll of the table's link, every
STANDINGS_REFRESH_SECONDS (1 s here), redraws the page when the desk marks a game wrong or
another phone saves one, or, when the scorekeeper has typed something, says so in big words
with "Show it", keeping what was typed. The "all games entered" page redraws itself too."""

import pytest
from playwright.sync_api import expect
from scoring_factories import T1, phone_enters, seated_day, staff, stored_sheet, typed
from test_browser_scoring import PHONE

from scoring import services
from scoring.models import GameSheet, SheetState, Source

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAME_2 = {"Ann Lee": 5, "Bob Roe": 0, "Cy Doe": 9, "Di Fox": 3}


@pytest.fixture
def quick(settings):
    settings.STANDINGS_REFRESH_SECONDS = 1


def open_table(page, live_server, w):
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/table/{w.tables[0].link_token}/")
    page.evaluate("window.notReloaded = true")


def desk_marks_wrong(w, number):
    sheet = GameSheet.objects.get(table=w.tables[0], game=w.games[number], state=SheetState.ENTERED)
    services.reject_game(
        w.tables[0], w.games[number], sheet.version, staff(w.tournament, "desk1"), "the card says 9"
    )


def test_with_nothing_typed_the_page_redraws_itself_with_the_wrong_mark(live_server, page, quick):
    w = seated_day()
    phone_enters(w, 0, 1, T1, "Ann Lee")
    open_table(page, live_server, w)
    expect(page.get_by_role("heading", name="Game 2")).to_be_visible()
    desk_marks_wrong(w, 1)
    expect(page.get_by_text("The desk marked game 1 wrong at")).to_be_visible(timeout=10_000)
    assert page.evaluate("window.notReloaded === undefined")  # drawn again
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("40")  # what was entered


def test_with_something_typed_it_says_so_and_keeps_the_typing(live_server, page, quick):
    w = seated_day()
    phone_enters(w, 0, 1, T1, "Ann Lee")
    open_table(page, live_server, w)
    page.get_by_label("Cy Doe", exact=True).fill("9")
    desk_marks_wrong(w, 1)
    notice = page.locator(".table-watch").get_by_text("The desk marked game 1 wrong: check it.")
    expect(notice).to_be_visible(timeout=10_000)
    expect(
        page.locator(".save-bar").get_by_text("The desk marked game 1 wrong: check it.")
    ).to_be_visible()
    assert page.evaluate("window.notReloaded === true")
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("9")
    # Another phone saves the game this one is typing: said too, in the same place.
    game_2 = typed(w, 2, GAME_2, out="Bob Roe")
    services.submit_game(w.tables[0], w.games[2], game_2, 0, source=Source.TABLE_LINK)
    expect(page.locator(".table-watch")).to_contain_text("Another phone saved game 2.")
    expect(page.locator(".table-watch")).to_contain_text("The desk marked game 1 wrong")
    expect(page.get_by_label("Cy Doe", exact=True)).to_have_value("9")
    page.locator(".save-bar").get_by_role("button", name="Show it").click()
    expect(page.get_by_text("The desk marked game 1 wrong at")).to_be_visible()


def test_the_all_games_entered_page_redraws_itself_when_a_game_is_marked_wrong(
    live_server, page, quick
):
    w = seated_day()
    seats = list(w.tables[0].seats.order_by("position"))
    for number, game in w.games.items():
        points = {s.entry: 0 if i == 0 else 10 + number for i, s in enumerate(seats)}
        stored_sheet(
            w.tables[0],
            game,
            points,
            out=seats[0].entry,
            state=SheetState.ENTERED,
            source=Source.TABLE_LINK,
        )
    open_table(page, live_server, w)
    expect(page.get_by_text("All games at this table are entered.")).to_be_visible()
    desk_marks_wrong(w, 3)
    expect(page.get_by_text("The desk marked game 3 wrong at")).to_be_visible(timeout=10_000)
    assert page.evaluate("window.notReloaded === undefined")


def test_it_does_not_ask_while_a_save_waits_to_be_sent(live_server, page, quick):
    w = seated_day()
    asked = []
    page.route("**/sheets/", lambda route: (asked.append(1), route.continue_()))
    page.route(
        "**/table/*/",
        lambda route: route.abort() if route.request.method == "POST" else route.continue_(),
    )
    open_table(page, live_server, w)
    page.wait_for_timeout(1500)
    assert asked  # it asks when nothing waits
    for name, points in T1.items():
        page.get_by_label(name, exact=True).fill(str(points))
    page.get_by_label("Ann Lee went out").check()
    page.get_by_role("button", name="Save game 1").click()
    expect(page.locator(".save-bar [role=status]")).to_contain_text("Not sent yet")
    asked.clear()
    page.wait_for_timeout(3000)
    assert asked == []
    assert page.evaluate("window.notReloaded === true")
