"""The race chart, the player's page and the live standings in headless Chromium, with
screenshots at 390 px and 1080p saved under test-results/."""

from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring.models import GameSheet, SheetState
from standings.read import requested_standings, standings

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-results"
PHONE = {"width": 390, "height": 844}
HD = {"width": 1920, "height": 1080}


@pytest.fixture
def demo(transactional_db, make_demo):
    from django.contrib.auth import get_user_model

    tournament = make_demo(get_user_model().objects.create_superuser("demo-organiser"))
    GameSheet.objects.filter(pk__in=GameSheet.objects.order_by("-pk").values("pk")[:2]).update(
        state=SheetState.ENTERED, confirmed_at=None
    )
    return tournament


def shot(page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def chart_ends(page, scope="svg.race-chart") -> dict[int, list[int]]:
    return page.evaluate(
        """scope => Object.fromEntries([...document.querySelectorAll(scope + ' g.race-line')]
            .map(g => [g.dataset.player, g.dataset.values.split(' ').map(Number)]))""",
        scope,
    )


def with_strict_csp(page, violations: list) -> None:
    """Check that every page comes with the site's strict Content-Security-Policy (nothing
    inline, nothing from elsewhere) and collect whatever the policy blocks."""

    def policy_sent(response):
        if response.request.resource_type == "document":
            policy = response.headers.get("content-security-policy", "")
            if "script-src 'self'" not in policy or "style-src 'self'" not in policy:
                violations.append(f"{response.url}: policy {policy!r}")

    page.on("response", policy_sent)
    page.on(
        "console",
        lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None,
    )


def test_public_standings_on_a_phone_and_full_hd_with_the_race(live_server, page, demo):
    violations: list[str] = []
    with_strict_csp(page, violations)
    # Two games of one table wait: the page opens on the view every table has finished.
    result = requested_standings(demo, {})
    assert result.default_view
    totals = {row.record.player_number: row.total for row in result.rows}
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{demo.slug}/standings/")
    expect(page.locator("#standings-status")).to_have_text(result.status_line)
    expect(page.locator("#default-view")).to_contain_text(result.cut_label)
    # Rank, player and total on a phone without sideways scrolling; the days on demand.
    first = page.locator("#standings tbody tr").first
    expect(first.locator("td.col-rank")).to_be_visible()
    expect(first.locator("td.col-name")).to_be_visible()
    expect(first.locator("td.col-total")).to_be_visible()
    expect(first.locator("td.col-day_1")).to_be_hidden()
    assert no_sideways_scroll(page)
    lines = chart_ends(page)
    assert len(lines) == 10
    for number, values in lines.items():
        row = page.locator(f'#standings tbody tr[data-number="{number}"] td.col-total')
        assert values[-1] == int(row.inner_text()) == totals[int(number)]
    shot(page, "standings-390")
    page.get_by_role("link", name="Every column (days, outs, games)").click()
    expect(page.locator("#standings tbody tr").first.locator("td.col-day_1")).to_be_visible()

    # Add a player from the bottom of the field to the chart; a wrong number is said beside it.
    page.set_viewport_size(HD)
    last = result.rows[-1].record.player_number
    page.get_by_label("Add a player to the chart (Player ID)").fill("4x")
    page.get_by_role("button", name="Add").click()
    expect(page.locator("#pick-error")).to_contain_text('no Player ID "4x"')
    page.get_by_label("Add a player to the chart (Player ID)").fill(str(last))
    page.get_by_role("button", name="Add").click()
    expect(page.locator("g.race-line.picked")).to_have_count(1)
    assert chart_ends(page)[str(last)][-1] == totals[last]
    assert no_sideways_scroll(page)
    shot(page, "standings-1080")
    assert violations == []


def test_the_standings_refresh_in_place_when_games_are_confirmed(live_server, page, demo, settings):
    settings.STANDINGS_REFRESH_SECONDS = 1
    violations: list[str] = []
    with_strict_csp(page, violations)
    page.set_viewport_size(HD)
    page.goto(f"{live_server.url}/t/{demo.slug}/standings/")
    expect(page.locator("#standings-status")).to_have_text(
        requested_standings(demo, {}).status_line
    )
    expect(page.locator("#standings-status")).to_have_class("banner banner-complete")
    page.evaluate("window.notReloaded = true")
    confirmed_at = timezone.now()
    GameSheet.objects.filter(state=SheetState.ENTERED).update(
        state=SheetState.CONFIRMED, confirmed_at=confirmed_at
    )
    expect(page.locator("#standings-status")).to_have_text("Final", timeout=10_000)
    expect(page.locator("#default-view")).to_have_count(0)
    assert page.evaluate("window.notReloaded === true")  # swapped in, not reloaded
    expect(page.locator(".last-changed time")).to_have_text(
        timezone.localtime(confirmed_at).strftime("%H:%M")
    )
    assert violations == []


def test_projector_shows_the_race_at_1080p_720p_and_on_a_phone(live_server, page, demo):
    result = requested_standings(demo, {})
    totals = {row.record.player_number: row.total for row in result.rows}
    url = f"{live_server.url}/t/{demo.slug}/projector/?page=5&seconds=600"
    for name, size in (("1080", HD), ("720", {"width": 1280, "height": 720}), ("390", PHONE)):
        page.set_viewport_size(size)
        page.goto(url)
        expect(page.locator("#board-chart svg")).to_be_visible()
        expect(page.get_by_text("Page 5 of 5")).to_be_visible()
        lines = chart_ends(page, "#board-chart svg")
        assert len(lines) == 10
        assert all(values[-1] == totals[int(number)] for number, values in lines.items())
        if size is not PHONE:
            assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
        assert no_sideways_scroll(page)
        shot(page, f"projector-chart-{name}")
    # The board moves on from the chart to the first page of players, which fits 720p too.
    page.set_viewport_size({"width": 1280, "height": 720})
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text("Page 1 of 5")).to_be_visible()
    expect(page.locator("#board-players tbody tr")).to_have_count(15)
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    assert no_sideways_scroll(page)
    page.set_viewport_size(HD)
    shot(page, "projector-players-1080")


def test_a_players_page_from_the_standings(live_server, page, demo):
    result = standings(demo)
    row = result.rows[2]
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/t/{demo.slug}/standings/")
    page.locator(
        f'#standings tbody tr[data-number="{row.record.player_number}"] td.col-name a'
    ).click()
    expect(page.locator("#player-name")).to_have_text(row.record.name)
    expect(page.locator("#player-total")).to_have_text(str(row.total))
    expect(page.locator("table.player-games")).to_have_count(2)
    mine = chart_ends(page)[str(row.record.player_number)]
    assert mine[-1] == row.total
    last_total = page.locator("#day-2 tbody tr").last.locator("td.total")
    # The last game of day 2 may be one of the two waiting: then the last confirmed one.
    totals = [t for t in page.locator("#day-2 td.total").all_inner_texts() if t != "\u2013"]
    assert int(totals[-1]) == row.total
    assert last_total.is_visible()
    assert no_sideways_scroll(page)
    shot(page, "player-390")
    page.set_viewport_size(HD)
    shot(page, "player-1080")


def test_the_day_board_shows_the_room_and_turns_green(
    live_server, page, make_user, make_demo, login_page, settings
):
    settings.STANDINGS_REFRESH_SECONDS = 1
    organiser = make_user("board-organiser", superuser=True)
    demo = make_demo(organiser)
    GameSheet.objects.filter(pk__in=GameSheet.objects.order_by("-pk").values("pk")[:2]).update(
        state=SheetState.ENTERED, confirmed_at=None
    )
    login_page(organiser)
    page.set_viewport_size(HD)
    page.goto(f"{live_server.url}/organiser/t/{demo.slug}/standings/")
    page.get_by_role("link", name="Day board").click()
    expect(page.get_by_role("heading", name="Day 2: the room")).to_be_visible()
    tiles = page.locator("ol.tiles > li")
    expect(tiles).to_have_count(demo.days.get(number=2).tables.count())
    expect(page.locator("ol.tiles li.tile-waiting")).to_have_count(1)
    expect(page.locator(".board-legend .tile-waiting")).to_have_text(
        "1 table: games for the desk to confirm"
    )
    waiting = page.locator("ol.tiles li.tile-waiting")
    expect(waiting).to_contain_text("4/6 confirmed · 2 to confirm")
    colour = waiting.locator("a").evaluate("e => getComputedStyle(e).backgroundColor")
    assert colour != page.locator("li.tile-done a").first.evaluate(
        "e => getComputedStyle(e).backgroundColor"
    )
    shot(page, "day-board-1080")
    page.set_viewport_size(PHONE)
    assert no_sideways_scroll(page)
    shot(page, "day-board-390")
    # The desk confirms the two games: the board turns all green by itself.
    GameSheet.objects.filter(state=SheetState.ENTERED).update(
        state=SheetState.CONFIRMED, confirmed_at=timezone.now()
    )
    page.evaluate("window.notReloaded = true")
    expect(page.locator("ol.tiles li.tile-waiting")).to_have_count(0, timeout=30_000)
    expect(page.locator("ol.tiles li.tile-done")).to_have_count(tiles.count())
    assert page.evaluate("window.notReloaded === true")
