"""Every page type checked by axe-core, the accessibility rule engine, at desk and phone widths.

axe-core is the npm package that ``.ci/run`` installs under ``.ci/node`` (pinned in
``.ci/node/package.json``); its script is read from disk and added to each page, never fetched
from the internet. Every rule axe runs by default counts, AAA contrast (7:1) too on the pages
read on a phone at a folding table: the table page, find your table and the public standings.
"""

from __future__ import annotations

import pytest
from django.utils import timezone
from scoring_factories import seated_day

from scoring.models import GameSheet, SheetState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
NARROW = {"width": 320, "height": 640}  # a small phone, or a larger one with its text zoomed
# Rule tags axe runs: WCAG 2.x A and AA and its best practices; the phone pages add AAA.
AA_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
PHONE_TAGS = [*AA_TAGS, "wcag2aaa"]


@pytest.fixture
def browser_context_args(browser_context_args):
    """axe-core is injected as a script of its own, which the site's Content-Security-Policy
    rightly refuses; the test's browser sets the policy aside for the checker alone."""
    return {**browser_context_args, "bypass_csp": True}


def violations(page, script: str, tags: list[str]) -> list[str]:
    """One line per rule broken on the page: rule, impact, and the first offending elements."""
    page.add_script_tag(path=script)
    found = page.evaluate(
        """tags => axe.run(document, {runOnly: {type: 'tag', values: tags},
                                     resultTypes: ['violations']})
                   .then(r => r.violations.map(v => ({
                       id: v.id, impact: v.impact,
                       nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': '
                              + n.failureSummary.replace(/\\s+/g, ' '))})))""",
        tags,
    )
    return [f"{v['id']} ({v['impact']}): {' | '.join(v['nodes'])}" for v in found]


def check_pages(page, base: str, script: str, pages: list[tuple[str, str, list[str]]]) -> None:
    problems = []
    for size_name, size in (("1280 px", DESK), ("390x844", PHONE), ("320x640", NARROW)):
        page.set_viewport_size(size)
        for name, path, tags in pages:
            response = page.goto(base + path)
            assert response is not None and response.status == 200, (name, path)
            problems += [
                f"{name} at {size_name}: {line}" for line in violations(page, script, tags)
            ]
    assert not problems, "\n".join(problems)


@pytest.fixture
def demo_event(organiser, make_demo):
    tournament = make_demo(organiser)
    # One game waiting for the desk, so the review page has something to review.
    first = GameSheet.objects.order_by("pk").first()
    GameSheet.objects.filter(pk=first.pk).update(state=SheetState.ENTERED, confirmed_at=None)
    return tournament, first


def in_a_season(tournament, *, public: bool) -> int:
    """Put the event in a season (public or not); the id of one of its players."""
    from tournaments.services.seasons import add_events, create_season

    season = create_season(slug="club-season", name="Club season", best_of=1, public_pages=public)
    add_events(season, [tournament.slug])
    return tournament.entries.order_by("number").first().player_id


def test_public_and_phone_pages_have_no_violations(live_server, page, axe_script, demo_event):
    tournament, _ = demo_event
    slug = tournament.slug
    a_player = in_a_season(tournament, public=True)
    # An open day, so the table page shows its score form, not only the closed-day notice.
    open_day = seated_day(slug="open-cup")
    check_pages(
        page,
        live_server.url,
        axe_script,
        [
            ("public home", "/", AA_TAGS),
            ("public tournament", f"/t/{slug}/", AA_TAGS),
            ("public standings", f"/t/{slug}/standings/", PHONE_TAGS),
            ("find your table", f"/t/{slug}/find-your-table/", PHONE_TAGS),
            ("find your table, too short", f"/t/{slug}/find-your-table/?q=a", PHONE_TAGS),
            ("find your table, found", f"/t/{slug}/find-your-table/?q=jensen", PHONE_TAGS),
            ("projector", f"/t/{slug}/projector/", AA_TAGS),
            ("projector race", f"/t/{slug}/projector/?page=5", AA_TAGS),
            ("player page", f"/t/{slug}/player/2/", PHONE_TAGS),
            ("standings with a pick refused", f"/t/{slug}/standings/?pick=x9", PHONE_TAGS),
            ("table page", f"/table/{open_day.tables[0].link_token}/", PHONE_TAGS),
            ("enter your table code", "/table/", PHONE_TAGS),
            ("login", "/accounts/login/", AA_TAGS),
            ("season standings", "/season/club-season/", PHONE_TAGS),
            ("a player's season", f"/season/club-season/player/{a_player}/", PHONE_TAGS),
        ],
    )
    # The table page as a scorekeeper sees a refusal: messages next to the fields, 7:1 too.
    page.goto(f"{live_server.url}/table/{open_day.tables[0].link_token}/")
    page.get_by_label("Ann Lee went out").check()
    page.get_by_label("Bob Roe went out").check()
    page.get_by_role("button", name="Save game 1").click()
    page.get_by_role("alert").first.wait_for()
    assert not violations(page, axe_script, PHONE_TAGS)
    # A wrong table code typed on the home page: the message next to the field, 7:1 too.
    page.goto(f"{live_server.url}/")
    page.get_by_label("Enter your table code").fill("AAAAAA")
    page.get_by_role("button", name="Open my table").click()
    page.locator(".field-error").wait_for()
    assert not violations(page, axe_script, PHONE_TAGS)
    # The board once every game is confirmed: the "Final" badge, and the clubs' screen.
    GameSheet.objects.filter(state=SheetState.ENTERED).update(
        state=SheetState.CONFIRMED, confirmed_at=timezone.now()
    )
    check_pages(
        page,
        live_server.url,
        axe_script,
        [
            ("final projector", f"/t/{slug}/projector/", AA_TAGS),
            ("projector clubs", f"/t/{slug}/projector/?page=4", AA_TAGS),
        ],
    )
    assert page.locator(".board-final").inner_text() == "Final"  # the badge was checked


def test_organiser_and_desk_pages_have_no_violations(
    live_server, page, axe_script, demo_event, organiser, login_page
):
    from tournaments.services.events import create_tournament

    tournament, sheet = demo_event
    a_player = in_a_season(tournament, public=False)
    create_tournament(slug="fresh", name="Fresh", preset_key="jib-room", organiser=organiser)
    login_page(organiser)
    t = f"/organiser/t/{tournament.slug}"
    table = f"{t}/day/{sheet.game.day.number}/table/{sheet.table.number}"
    confirmed = GameSheet.objects.filter(state=SheetState.CONFIRMED, table=sheet.table).first()
    pages = [
        ("organiser home", "/organiser/"),
        ("overview", f"{t}/"),
        ("players", f"{t}/players/"),
        ("add player", f"{t}/players/add/"),
        ("edit player", f"{t}/players/1/"),
        ("import players", f"{t}/players/import/"),
        ("check-in", f"{t}/check-in/"),
        ("seating index", f"{t}/seating/"),
        ("seating", f"{t}/seating/1/"),
        ("organiser standings", f"{t}/standings/"),
        ("scores", f"{t}/scores/"),
        ("day grid", f"{t}/day/1/scores/"),
        ("day board", f"{t}/day/1/board/"),
        ("upload", f"{t}/scores/upload/"),
        ("table links", f"{t}/day/1/table-links/"),
        ("connect phones", f"{t}/connect/"),
        ("score card", f"{table}/card/"),
        ("check card", f"{table}/check/"),
        ("close day", f"{t}/day/1/close/"),
        ("new link", f"{table}/new-link/"),
        ("withdraw player", f"{t}/players/1/withdraw/"),
        ("history", f"{table}/history/"),
        ("review", f"{table}/game/{sheet.game.number}/review/"),
        ("correct", f"{table}/game/{confirmed.game.number}/correct/"),
        ("new tournament", "/organiser/new/"),
        ("settings", f"{t}/settings/"),
        ("staff", f"{t}/staff/"),
        ("rules, fixed once play started", f"{t}/rules/"),
        ("rules, open to change", "/organiser/t/fresh/rules/"),
        ("overview, public pages off", "/organiser/t/fresh/"),
        ("new season", "/organiser/seasons/new/"),
        ("season", "/organiser/season/club-season/"),
        ("a player's season", f"/organiser/season/club-season/player/{a_player}/"),
        ("season events", "/organiser/season/club-season/events/"),
        ("season ranking", "/organiser/season/club-season/ranking/"),
        ("season searched, nobody", "/organiser/season/club-season/?q=zz&sort=name"),
    ]
    check_pages(page, live_server.url, axe_script, [(n, p, AA_TAGS) for n, p in pages])
