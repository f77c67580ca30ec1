"""A table gone quiet, as the desk sees it in headless Chromium: the day board marks it by itself
as its next game becomes overdue, and the grid says why, on a laptop and on a 390 px phone."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect
from scoring_factories import seated_day, stored_sheet

from scoring.models import GameSheet, SheetState, Source

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
TABLES = tuple(tuple(f"P{t}{i} Lee" for i in range(4)) for t in range(1, 5))


def test_the_board_marks_a_table_gone_quiet_by_itself_and_the_grid_says_why(
    live_server, page, make_user, login_page, settings
):
    settings.STANDINGS_REFRESH_SECONDS = 1
    organiser = make_user("pace-organiser", superuser=True)
    world = seated_day(slug="pace", tables=TABLES, organiser=organiser)
    now = timezone.now()
    for table in world.tables:
        for number, ago in ((1, 45), (2, 25), (3, 5)):
            stored_sheet(
                table,
                world.games[number],
                state=SheetState.ENTERED,
                source=Source.TABLE_LINK,
                entered_at=now - timedelta(minutes=ago),
            )
    login_page(organiser)
    page.goto(f"{live_server.url}/organiser/t/pace/day/1/board/")
    expect(page.locator("ol.tiles > li")).to_have_count(4)
    expect(page.locator("li.tile-quiet")).to_have_count(0)
    page.evaluate("window.notReloaded = true")

    # Table 4's third game never reached the desk: it last entered a game 45 minutes ago.
    table_four = world.tables[3]
    GameSheet.objects.filter(table=table_four, game=world.games[3]).delete()
    GameSheet.objects.filter(table=table_four, game=world.games[2]).update(
        entered_at=now - timedelta(minutes=45)
    )
    GameSheet.objects.filter(table=table_four, game=world.games[1]).update(
        entered_at=now - timedelta(minutes=65)
    )
    quiet = page.locator("li.tile-quiet")
    expect(quiet).to_have_count(1, timeout=30_000)
    expect(quiet).to_contain_text("Table 4")
    expect(quiet).to_contain_text("Gone quiet. Nothing entered since")
    expect(page.get_by_role("link", name="table 4", exact=True)).to_be_visible()
    assert page.evaluate("window.notReloaded === true")

    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.goto(f"{live_server.url}/organiser/t/pace/day/1/scores/")
    expect(page.get_by_text("Gone quiet: 1 table whose next game is overdue")).to_be_visible()
    row = page.locator("tr", has=page.get_by_role("link", name="Table 4", exact=True))
    expect(row).to_contain_text("a game usually takes 20 minutes")
