"""Every URL of the project, requested as every role.

A new page must be added to EXPECTED with the status each role gets, or this suite fails:
that is how a page without an access rule is caught before it ships.
"""

import re

import pytest
from django.apps import apps
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tournaments.models import Season, SeasonEvent, StaffRole, Table

ROLES = ("anonymous", "outsider", "desk", "organiser")

ORGANISER_PAGE = {"anonymous": 302, "outsider": 404, "desk": 403, "organiser": 200}
ORGANISER_POST_ONLY = {"anonymous": 302, "outsider": 404, "desk": 403, "organiser": 405}
DESK_PAGE = {"anonymous": 302, "outsider": 404, "desk": 200, "organiser": 200}
DESK_POST_ONLY = {"anonymous": 302, "outsider": 404, "desk": 405, "organiser": 405}
PUBLIC_PAGE = {"anonymous": 200, "outsider": 200, "desk": 200, "organiser": 200}
ANY_LOGIN = {"anonymous": 302, "outsider": 200, "desk": 200, "organiser": 200}
SCOREKEEPER = {"anonymous": 200, "outsider": 200, "desk": 200, "organiser": 200}
SCOREKEEPER_POST_ONLY = {"anonymous": 405, "outsider": 405, "desk": 405, "organiser": 405}

EXPECTED = {
    "login": PUBLIC_PAGE,
    # Our own icon, for the browsers that ask for /favicon.ico.
    "favicon": {"anonymous": 301, "outsider": 301, "desk": 301, "organiser": 301},
    "logout": {"anonymous": 405, "outsider": 405, "desk": 405, "organiser": 405},
    "public:home": PUBLIC_PAGE,
    "public:tournament": PUBLIC_PAGE,
    "public:find_table": PUBLIC_PAGE,
    "public:standings": PUBLIC_PAGE,
    "public:standings_pdf": PUBLIC_PAGE,
    "public:standings_xlsx": PUBLIC_PAGE,
    "public:projector": PUBLIC_PAGE,
    "public:player": PUBLIC_PAGE,
    "scorekeeper:table": SCOREKEEPER,
    # The table page's poll: the same private link, read-only.
    "scorekeeper:table_watch": SCOREKEEPER,
    "scorekeeper:call_desk": SCOREKEEPER_POST_ONLY,
    "scorekeeper:enter_code": SCOREKEEPER,
    "organiser:home": ANY_LOGIN,
    "organiser:tournament": DESK_PAGE,
    "organiser:connect_phones": DESK_PAGE,
    # Creating events takes the "can create tournaments" permission, which none of these has;
    # superusers have it (tested in test_event_rules).
    "organiser:tournament_new": {"anonymous": 302, "outsider": 403, "desk": 403, "organiser": 403},
    "organiser:settings": ORGANISER_PAGE,
    "organiser:rules": ORGANISER_PAGE,
    "organiser:staff": ORGANISER_PAGE,
    "organiser:staff_password": ORGANISER_POST_ONLY,
    "organiser:staff_remove": ORGANISER_POST_ONLY,
    "organiser:players": ORGANISER_PAGE,
    "organiser:player_add": ORGANISER_PAGE,
    "organiser:import_players": ORGANISER_PAGE,
    "organiser:import_review": ORGANISER_POST_ONLY,
    "organiser:player_edit": ORGANISER_PAGE,
    "organiser:player_withdraw": ORGANISER_PAGE,
    "organiser:player_reinstate": ORGANISER_POST_ONLY,
    "organiser:keep_apart_add": ORGANISER_POST_ONLY,
    "organiser:keep_apart_remove": ORGANISER_POST_ONLY,
    # Merging two people (issue 25): the page, the event's merges, and an undo (POST only).
    "organiser:player_merge": ORGANISER_PAGE,
    "organiser:player_merges": ORGANISER_PAGE,
    "organiser:merge_undo": ORGANISER_POST_ONLY,
    # Setting the flights by age (issue 27): a POST from the players page.
    "organiser:set_flights_by_age": ORGANISER_POST_ONLY,
    "organiser:check_in": DESK_PAGE,
    "organiser:check_in_set": DESK_POST_ONLY,
    "organiser:check_in_everyone": DESK_POST_ONLY,
    "organiser:take_payment": DESK_POST_ONLY,
    "organiser:undo_payment": DESK_POST_ONLY,
    "organiser:treasurer": DESK_PAGE,
    "organiser:treasurer_xlsx": DESK_PAGE,
    "organiser:treasurer_pdf": DESK_PAGE,
    "organiser:set_fees": ORGANISER_POST_ONLY,
    "organiser:seating_index": DESK_PAGE,
    "organiser:seating": DESK_PAGE,
    "organiser:seat_day": ORGANISER_POST_ONLY,
    "organiser:move_player": ORGANISER_POST_ONLY,
    "organiser:clear_seating": ORGANISER_POST_ONLY,
    "organiser:late_join": ORGANISER_POST_ONLY,
    "organiser:substitute": ORGANISER_POST_ONLY,
    "organiser:swap_players": ORGANISER_POST_ONLY,
    "organiser:seating_chart_pdf": DESK_PAGE,
    "organiser:find_table_pdf": DESK_PAGE,
    "organiser:plan_days": ORGANISER_POST_ONLY,
    "organiser:clear_plan": ORGANISER_POST_ONLY,
    # A desk page, but the demo's day 2 is seated, so it has no plan to print.
    "organiser:planned_chart_pdf": {
        "anonymous": 302,
        "outsider": 404,
        "desk": 404,
        "organiser": 404,
    },
    "organiser:scores": {"anonymous": 302, "outsider": 404, "desk": 302, "organiser": 302},
    "organiser:upload_workbook": DESK_PAGE,
    "organiser:scores_day": DESK_PAGE,
    "organiser:practice": ORGANISER_POST_ONLY,
    "organiser:export_workbook": DESK_PAGE,
    "organiser:score_sheets": DESK_PAGE,
    "organiser:close_day": ORGANISER_PAGE,
    "organiser:reopen_day": ORGANISER_POST_ONLY,
    "organiser:table_links": ORGANISER_PAGE,
    "organiser:score_card": DESK_PAGE,
    "organiser:check_card": DESK_PAGE,
    "organiser:mark_not_played": DESK_POST_ONLY,
    "organiser:undo_not_played": DESK_POST_ONLY,
    "organiser:table_history": ORGANISER_PAGE,
    "organiser:regenerate_link": ORGANISER_PAGE,
    "organiser:review_game": DESK_PAGE,
    "organiser:correct_game": ORGANISER_PAGE,
    "organiser:day_board": DESK_PAGE,
    "organiser:answer_call": DESK_POST_ONLY,
    "organiser:standings": DESK_PAGE,
    "organiser:standings_pdf": DESK_PAGE,
    "organiser:standings_xlsx": DESK_PAGE,
    "organiser:standings_public_pages": ORGANISER_POST_ONLY,
    "organiser:standings_hidden_finish": ORGANISER_POST_ONLY,
    # The final: who goes through is the organiser's page (it seats the final).
    "organiser:final": ORGANISER_PAGE,
    "organiser:seat_final": ORGANISER_POST_ONLY,
    "organiser:prizes": DESK_PAGE,
    "organiser:prize_add": ORGANISER_POST_ONLY,
    "organiser:prize_one_each": ORGANISER_POST_ONLY,
    "organiser:prize_remove": ORGANISER_POST_ONLY,
    "organiser:prize_decide": ORGANISER_POST_ONLY,
    # The demo event has no prizes: its sheets cannot be printed, and say why.
    "organiser:prize_announcement": {
        "anonymous": 302,
        "outsider": 404,
        "desk": 409,
        "organiser": 409,
    },
    "organiser:prize_certificates": {
        "anonymous": 302,
        "outsider": 404,
        "desk": 409,
        "organiser": 409,
    },
    # Seasons: the fixture's season holds the demo event alone, so its staff are the season's.
    "organiser:season_new": {"anonymous": 302, "outsider": 403, "desk": 403, "organiser": 403},
    "organiser:season": DESK_PAGE,
    "organiser:season_player": DESK_PAGE,
    "organiser:season_pdf": DESK_PAGE,
    "organiser:season_xlsx": DESK_PAGE,
    "organiser:season_public_pages": ORGANISER_POST_ONLY,
    "organiser:season_events": ORGANISER_PAGE,
    "organiser:season_ranking": ORGANISER_PAGE,
    "organiser:season_event_remove": ORGANISER_POST_ONLY,
    "public:season": PUBLIC_PAGE,
    "public:season_player": PUBLIC_PAGE,
    "public:season_pdf": PUBLIC_PAGE,
    "public:season_xlsx": PUBLIC_PAGE,
}
PUBLIC_NAMES = {name for name in EXPECTED if name.startswith("public:") and name != "public:home"}


def project_url_names():
    """Every named URL outside the admin (the admin has its own staff check, tested below)."""
    names = set()

    def walk(patterns, namespace):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace == "admin":
                    continue
                walk(pattern.url_patterns, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern):
                assert pattern.name, f"URL {pattern.pattern} has no name, so it has no rule here"
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver().url_patterns, None)
    return names


def test_every_url_has_an_access_rule():
    names = project_url_names()
    assert names - EXPECTED.keys() == set(), "pages without an access rule"
    assert EXPECTED.keys() - names == set(), "rules for pages that no longer exist"


@pytest.fixture
def event(demo_tournament, make_user):
    """The demo event with day 2 reopened, a desk user, a second organiser, and an outsider."""
    day = demo_tournament.days.get(number=2)
    day.closed_at = None
    day.save()
    users = {
        "outsider": make_user("outsider"),
        "desk": make_user("desk"),
        "organiser": make_user("organiser2"),
    }
    StaffRole.objects.create(tournament=demo_tournament, user=users["desk"], role=StaffRole.DESK)
    StaffRole.objects.create(
        tournament=demo_tournament, user=users["organiser"], role=StaffRole.ORGANISER
    )
    table = Table.objects.get(day=day, number=1)
    # A public season of the demo event alone, under the event's slug, for the season pages.
    season = Season.objects.create(slug=demo_tournament.slug, name="Demo season", public_pages=True)
    SeasonEvent.objects.create(season=season, tournament=demo_tournament, position=1)
    return demo_tournament, users, table


def url_for(name, tournament, table):
    values = {
        "slug": tournament.slug,
        "day": 2,
        "day_number": 2,
        "table": 1,
        "game": 1,
        "number": 1,
        "other": 2,
        "token": table.link_token,
        "player_id": table.seats.first().entry.player_id,
        "call": 1,
        "prize": 1,
        "merge": 1,
    }
    for params in (
        (),
        ("slug",),
        ("slug", "day"),
        ("slug", "day_number"),
        ("slug", "number"),
        ("slug", "number", "other"),
        ("slug", "player_id"),
        ("slug", "prize"),
        ("slug", "merge"),
        ("slug", "day", "table"),
        ("slug", "day", "call"),
        ("slug", "day", "table", "game"),
        ("token",),
    ):
        try:
            return reverse(name, kwargs={p: values[p] for p in params})
        except NoReverseMatch:
            continue
    raise AssertionError(f"cannot build a URL for {name}")


def _client_as(client, role, users):
    client.logout()
    if role != "anonymous":
        client.force_login(users[role])
    return client


@pytest.mark.parametrize("role", ROLES)
def test_each_role_gets_the_expected_status_on_every_page(client, event, role):
    tournament, users, table = event
    _client_as(client, role, users)
    wrong = {}
    for name, expected in sorted(EXPECTED.items()):
        response = client.get(url_for(name, tournament, table))
        if response.status_code != expected[role]:
            wrong[name] = (response.status_code, expected[role])
    assert wrong == {}, "name: (got, expected)"


def database_state() -> dict:
    """Every row the app keeps (sessions and login records aside), to prove a POST wrote nothing."""
    return {
        model._meta.label: list(model.objects.order_by("pk").values())
        for model in apps.get_models()
        if model._meta.app_label not in ("sessions", "axes", "admin", "contenttypes")
    }


@pytest.mark.parametrize("role", ["anonymous", "outsider", "desk"])
def test_writes_are_refused_to_roles_without_the_right(client, event, role):
    """A POST with no form data must never reach a write it is not allowed: the refusal comes
    from the server's rule, not from a template that hides the button."""
    tournament, users, table = event
    _client_as(client, role, users)
    login = reverse("login")
    for name, expected in sorted(EXPECTED.items()):
        if expected[role] in (200, 301, 405, 409) and name not in PUBLIC_NAMES:
            continue  # this role may use the page; its forms are tested elsewhere
        before = database_state()
        response = client.post(url_for(name, tournament, table))
        status = response.status_code
        if name in PUBLIC_NAMES:
            assert status == 405, f"{name}: public pages are read-only, got {status}"
        else:
            assert status in (302, 403, 404), f"{name} let {role} POST: {status}"
        if status == 302 and role == "anonymous":
            assert response["Location"].startswith(login), f"{name}: {response['Location']}"
        assert database_state() == before, f"{name}: a POST by {role} changed the database"


def test_public_pages_vanish_when_the_organiser_switches_them_off(client, event):
    tournament, users, table = event
    tournament.public_pages = False
    tournament.save()
    for name in sorted(PUBLIC_NAMES):
        url = url_for(name, tournament, table)
        assert client.get(url).status_code == 404, name
        client.force_login(users["desk"])
        assert client.get(url).status_code == 200, name
        client.logout()


def test_table_link_reaches_only_its_own_table_and_dies_with_the_day(client, event):
    tournament, _users, table = event
    other = Table.objects.get(day=table.day, number=2)
    page = client.get(url_for("scorekeeper:table", tournament, table)).content.decode()
    own = [s.entry.player.name for s in table.seats.select_related("entry__player")]
    others = [s.entry.player.name for s in other.seats.select_related("entry__player")]
    assert all(name.replace("'", "&#x27;") in page for name in own)
    assert not any(name.replace("'", "&#x27;") in page for name in others)
    assert client.get("/table/" + "A" * 43 + "/").status_code == 404
    table.day.closed_at = timezone.now()
    table.day.save()
    assert client.get(url_for("scorekeeper:table", tournament, table)).status_code == 404


def test_admin_is_for_staff_accounts_only(client, event):
    _tournament, users, _table = event
    assert client.get("/admin/").status_code == 302
    client.force_login(users["desk"])
    assert client.get("/admin/").status_code == 302
    client.force_login(users["organiser"])  # an event organiser is not a site administrator
    assert client.get("/admin/").status_code == 302


INLINE_CODE = re.compile(
    r"<script(?![^>]*\bsrc=)[^>]*>|<style\b|\sstyle=|\son[a-z]+=|javascript:", re.IGNORECASE
)


def test_staff_pages_are_never_stored_and_every_page_carries_the_policy(client, event):
    """Organiser and desk pages (contacts, table links) tell browsers and proxies to keep no
    copy; every page sends the Content-Security-Policy and has no inline script or style for
    it to block."""
    tournament, users, table = event
    client.force_login(users["organiser"])
    for name in sorted(EXPECTED):
        response = client.get(url_for(name, tournament, table))
        policy = response.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy, name
        if name.startswith("organiser:") or name == "login":
            assert "no-store" in response.get("Cache-Control", ""), name
        if response.get("Content-Type", "").startswith("text/html"):
            found = INLINE_CODE.search(response.content.decode())
            assert found is None, f"{name}: {found.group(0) if found else ''}"


# The player directory: an organiser sees and enters again only players of events they run.
DIRECTORY_SEARCH = {"anonymous": 302, "outsider": 404, "desk": 403, "organiser": 200}
DIRECTORY_ADD_OTHERS = {"anonymous": 302, "outsider": 404, "desk": 403, "organiser": 404}


@pytest.fixture
def elsewhere(event, make_tournament, make_user):
    """A private event run by someone else, with a player the demo's staff must never see."""
    from tournaments.services.registration import register_player

    other = make_tournament(slug="elsewhere", organiser=make_user("elsewhere-organiser"))
    other.public_pages = False
    other.save()
    return register_player(other, name="Priya Private", contact="555-0142")


@pytest.mark.parametrize("role", ROLES)
def test_each_role_sees_and_reuses_only_its_own_directory(client, event, elsewhere, role):
    tournament, users, _table = event
    _client_as(client, role, users)
    add = reverse("organiser:player_add", args=[tournament.slug])
    response = client.get(add, {"q": "Priya"})
    assert response.status_code == DIRECTORY_SEARCH[role]
    assert "Priya Private" not in response.content.decode()
    assert "555-0142" not in response.content.decode()
    before = database_state()
    response = client.post(add, {"player": elsewhere.player_id})
    assert response.status_code == DIRECTORY_ADD_OTHERS[role]
    assert database_state() == before
    # The other event's player pages stay out of reach, whatever the number typed.
    edit = reverse("organiser:player_edit", args=["elsewhere", elsewhere.number])
    assert client.get(edit).status_code in (302, 404)


def test_the_other_organiser_does_not_see_the_demo_events_players(client, event, elsewhere):
    tournament, _users, _table = event
    someone = tournament.entries.select_related("player").first().player.name
    client.force_login(elsewhere.tournament.staff.get().user)
    page = client.get(
        reverse("organiser:player_add", args=["elsewhere"]), {"q": someone}
    ).content.decode()
    assert "Nobody in your directory" in page
    response = client.post(
        reverse("organiser:player_add", args=["elsewhere"]),
        {"player": tournament.entries.first().player_id},
    )
    assert response.status_code == 404


def test_only_the_phone_keeps_a_copy_of_its_table_page_never_a_shared_cache(client, event):
    """A table's page is kept by the phone that opened it, to show with no Wi-Fi from its
    history: private (no proxy keeps it), checked with the server on every load, and kept
    whatever the cookies. A staff page opened with the same browser still keeps nothing."""
    tournament, users, table = event
    page = client.get(f"/table/{table.link_token}/")
    cache = {part.strip() for part in page["Cache-Control"].split(",")}
    assert {"private", "no-cache", "max-age=0"} <= cache and "public" not in cache
    assert "cookie" not in page.get("Vary", "").lower()
    client.force_login(users["organiser"])
    staff_page = client.get(url_for("organiser:tournament", tournament, table))
    assert "no-store" in staff_page["Cache-Control"]
    assert "no-store" in client.get(f"/table/{table.link_token}/sheets/")["Cache-Control"]
