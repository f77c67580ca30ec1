"""Score-entry pages: the table link, the desk card, review, corrections, history, the day grid."""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from page_fields import elements, options, value_of
from scoring_factories import (
    T1,
    link,
    phone_post,
    play,
    seated_day,
    snapshot,
    staff,
    text_of,
    typed,
)

from core.errors import ServiceError
from scoring import services
from scoring.models import GameSheet, Score, SheetState, Source
from tournaments.models import StaffRole, Table
from tournaments.services.registration import withdraw_entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    w = seated_day()
    w.desk = staff(w.tournament, "desk1")
    w.boss = staff(w.tournament, "boss", StaffRole.ORGANISER)
    return w


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


# ---------------------------------------------------------------------------
# The scorekeeper's table link
# ---------------------------------------------------------------------------


def refused_post(client, url, data):
    """A refused save from the phone: it redirects back to its game (POST, redirect, GET), and
    the page drawn there shows what was typed and what is wrong."""
    response = client.post(url, data)
    assert response.status_code == 302 and "?game=" in response["Location"]
    return client.get(response["Location"])


def test_the_table_page_shows_only_this_table_with_a_labelled_field_per_player(world, client):
    response = client.get(link(world.tables[0]))
    assert response.status_code == 200
    html = response.content.decode()
    for name in T1:
        pk = world.entries[name].pk
        assert f'<label class="player-name" for="id_score-{pk}">{name}</label>' in html
        # The toggle shows "went out"; its label names the player for a screen reader.
        assert (
            f'<label for="id_out-{pk}"><span class="sr-only">{name} </span>went out</label>' in html
        )
        [score] = elements(html, "input", id=f"id_score-{pk}")
        assert score["inputmode"] == "numeric"
    assert "Blocked: nobody went out" in html
    for name in ("Ed Poe", "Flo Ng", "Gus Ray"):
        assert name not in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert "Game 1" in text_of(response)
    assert [value for value, selected in options(html, "id_engine") if selected] == ["12"]


def test_the_table_link_saves_a_provisional_game(world, client):
    response = client.post(link(world.tables[0]), phone_post(world))
    assert response.status_code == 302
    sheet = GameSheet.objects.get()
    assert (sheet.state, sheet.source, sheet.table) == (
        SheetState.ENTERED,
        Source.TABLE_LINK,
        world.tables[0],
    )
    page = text_of(client.get(link(world.tables[0])))
    assert "Game 1 is saved" in page and "saved, for the desk to confirm" in page
    assert "Game 2" in page  # the next game is offered


def test_two_players_out_is_refused_next_to_the_field(world, client):
    response = refused_post(
        client,
        link(world.tables[0]),
        phone_post(world, scores={**T1, "Bob Roe": 0}, out=("Ann Lee", "Bob Roe")),
    )
    assert "Two players went out in game 1: only one can." in text_of(response)
    assert 'id="id_blocked_error"' in response.content.decode()
    assert not GameSheet.objects.exists()


@pytest.mark.parametrize(
    "value, message",
    [
        ("abc", "Bob Roe's score must be a whole number, like 0 or 23."),
        ("-5", "Bob Roe's score cannot be negative."),
        ("12.5", "Bob Roe's score must be a whole number, like 0 or 23."),
        ("9" * 40, "more than one hand can hold at a table of 4 players"),
        ("1e3", "Bob Roe's score must be a whole number, like 0 or 23."),
        ("<script>x</script>", "Bob Roe's score must be a whole number, like 0 or 23."),
    ],
)
def test_hostile_scores_are_refused_in_plain_words(world, client, value, message):
    response = refused_post(
        client, link(world.tables[0]), phone_post(world, scores={**T1, "Bob Roe": value})
    )
    assert message in text_of(response)
    assert "<script>x</script>" not in response.content.decode()
    assert not GameSheet.objects.exists()


def test_hostile_form_values_store_nothing(world, client):
    other = world.entries["Ed Poe"].pk
    data = phone_post(world)
    data[f"score-{other}"] = "5"  # a player of another table: not a field of this form
    data["engine"] = "99"
    response = refused_post(client, link(world.tables[0]), data)
    assert "The engine must be a double from 12 down to 7." in text_of(response)
    data = phone_post(world)
    data["base_version"] = "x"
    response = refused_post(client, link(world.tables[0]), data)
    assert "This page is out of date" in text_of(response)
    data = phone_post(world, scores={**T1, "Ann Lee": 3}, out=())
    data[f"out-{other}"] = "on"  # ticking someone from another table does nothing
    response = refused_post(client, link(world.tables[0]), data)
    assert "Nobody went out in game 1" in text_of(response)
    assert not GameSheet.objects.exists()


def test_tiles_typed_instead_of_a_score(world, client):
    data = phone_post(world, scores={**T1, "Bob Roe": ""}, tiles={"Bob Roe": "12-11 6-6"})
    assert client.post(link(world.tables[0]), data).status_code == 302
    score = Score.objects.get(entry=world.entries["Bob Roe"])
    assert (score.points, score.tiles) == (35, "12-11 6-6")


def test_the_scorekeeper_fixes_a_provisional_game(world, client):
    client.post(link(world.tables[0]), phone_post(world))
    page = client.get(link(world.tables[0]) + "?game=1")
    html = page.content.decode()
    assert "You are fixing game 1" in html
    assert value_of(html, f"score-{world.entries['Cy Doe'].pk}") == "40"
    assert value_of(html, "base_version") == "1"
    response = client.post(
        link(world.tables[0]), phone_post(world, scores={**T1, "Cy Doe": 41}, base=1)
    )
    assert response.status_code == 302
    assert GameSheet.objects.get(state=SheetState.ENTERED).version == 2


def test_a_stale_save_from_the_phone_shows_what_the_game_says_now(world, client):
    client.post(link(world.tables[0]), phone_post(world))
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, {**T1, "Cy Doe": 44}, out="Ann Lee"),
        1,
        source=Source.TABLE_LINK,
    )  # a second phone at the table fixed it
    before = snapshot()
    response = refused_post(
        client, link(world.tables[0]), phone_post(world, scores={**T1, "Cy Doe": 41}, base=1)
    )
    page = text_of(response)
    assert re.search(
        r"Game 1 was changed by the table at \d\d:\d\d; here is what it says now\.", page
    )
    assert "Cy Doe 44" in page and "Nothing you typed was saved" in page
    assert value_of(response.content.decode(), "base_version") == "2"
    assert snapshot() == before


def test_a_confirmed_game_is_read_only_on_the_phone(world, client):
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.DESK,
        user=world.desk,
    )
    page = client.get(link(world.tables[0]) + "?game=1")
    assert "Game 2" in text_of(page) and "confirmed" in text_of(page)
    assert "You are fixing game 1" not in text_of(page)


@pytest.mark.parametrize("how", ["unknown", "closed", "regenerated"])
def test_a_dead_link_is_a_plain_404(world, client, how):
    url = link(world.tables[0])
    if how == "unknown":
        url = reverse("scorekeeper:table", args=["x" * 43])
    elif how == "closed":
        services.close_day(world.day, world.boss)
    else:
        services.regenerate_table_link(world.tables[0], world.boss)
    for response in (client.get(url), client.post(url, phone_post(world))):
        assert response.status_code == 404
        assert "This table link no longer works: ask the desk." in text_of(response)
    assert not GameSheet.objects.exists()


def test_the_table_link_keeps_csrf(world):
    client = Client(enforce_csrf_checks=True)
    assert client.post(link(world.tables[0]), phone_post(world)).status_code == 403
    assert not GameSheet.objects.exists()


# ---------------------------------------------------------------------------
# The desk
# ---------------------------------------------------------------------------


def card_url(w, table=1):
    return reverse("organiser:score_card", args=[w.tournament.slug, 1, table])


def card_post(w, games, totals=None, bases=None):
    data = {}
    for game in w.games.values():
        data[f"g{game.number}-base"] = str((bases or {}).get(game.number, 0))
    for n, scores, out, engine in games:
        data[f"g{n}-engine"] = str(engine)
        data[f"g{n}-out"] = "blocked" if out == "blocked" else str(w.entries[out].pk)
        for name, value in scores.items():
            data[f"g{n}-score-{w.entries[name].pk}"] = str(value)
    for name, value in (totals or {}).items():
        data[f"total-{w.entries[name].pk}"] = str(value)
    return data


def test_the_desk_card_is_laid_out_like_the_paper_card(world):
    response = client_for(world.desk).get(card_url(world))
    html = response.content.decode()
    assert response.status_code == 200
    for name in T1:
        assert f'<th scope="col" class="num">{name}</th>' in html
    for n in range(1, 7):
        assert f'name="g{n}-engine"' in html and f'name="g{n}-out"' in html
    assert html.count('name="total-') == 4
    assert "Blocked: nobody went out" in html


def test_the_desk_saves_a_whole_card_confirmed(world):
    game2 = {"Ann Lee": 8, "Bob Roe": 0, "Cy Doe": 3, "Di Fox": 20}
    data = card_post(
        world,
        [(1, T1, "Ann Lee", 12), (2, game2, "Bob Roe", 10)],
        totals={"Ann Lee": 8, "Bob Roe": 12, "Cy Doe": 43, "Di Fox": 27},
    )
    response = client_for(world.desk).post(card_url(world), data)
    assert response.status_code == 302, text_of(response)
    sheets = GameSheet.objects.order_by("game__number")
    assert [(s.game.number, s.engine_used, s.state) for s in sheets] == [
        (1, 12, SheetState.CONFIRMED),
        (2, 10, SheetState.CONFIRMED),
    ]
    assert all(s.entered_by == world.desk and s.source == Source.DESK for s in sheets)


def test_a_card_with_wrong_totals_is_refused_next_to_the_total(world):
    data = card_post(world, [(1, T1, "Ann Lee", 12)], totals={"Cy Doe": 44})
    response = client_for(world.desk).post(card_url(world), data)
    html = response.content.decode()
    assert "Cy Doe's total says 44, but Cy Doe's games add up to 40." in text_of(response)
    assert f'id="id_total-{world.entries["Cy Doe"].pk}_error"' in html
    assert not GameSheet.objects.exists()


def test_a_card_refusal_names_the_game_row(world):
    data = card_post(world, [(1, T1, "Ann Lee", 12), (3, {**T1, "Bob Roe": 0}, "blocked", 10)])
    response = client_for(world.desk).post(card_url(world), data)
    page = text_of(response)
    assert "Game 3 cannot be both" not in page
    assert "Bob Roe's score is 0, but only the player who went out can score 0" in page
    assert not GameSheet.objects.exists()


def test_the_desk_reviews_a_table_entry(world, client):
    client.post(link(world.tables[0]), phone_post(world))
    url = reverse("organiser:review_game", args=[world.tournament.slug, 1, 1, 1])
    desk = client_for(world.desk)
    page = text_of(desk.get(url))
    assert "Provisional: entered from the table link" in page and "Cy Doe 40" in page
    response = desk.post(url, {"base_version": "1", "decision": "confirm"})
    assert response.status_code == 302
    assert GameSheet.objects.get().confirmed_by == world.desk


def test_wrong_from_the_review_page_lets_the_table_enter_again(world, client):
    client.post(link(world.tables[0]), phone_post(world))
    url = reverse("organiser:review_game", args=[world.tournament.slug, 1, 1, 1])
    client_for(world.desk).post(url, {"base_version": "1", "decision": "wrong", "reason": "Bob 21"})
    assert GameSheet.objects.get().state == SheetState.REJECTED
    assert "Game 1" in text_of(client.get(link(world.tables[0])))
    assert (
        client.post(
            link(world.tables[0]), phone_post(world, scores={**T1, "Bob Roe": 21})
        ).status_code
        == 302
    )


def test_the_review_page_refuses_a_self_confirm(world):
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.TABLE_LINK,
        user=world.desk,
    )
    url = reverse("organiser:review_game", args=[world.tournament.slug, 1, 1, 1])
    response = client_for(world.desk).post(url, {"base_version": "1", "decision": "confirm"})
    assert "You entered game 1 yourself, so someone else must confirm it." in text_of(response)
    assert GameSheet.objects.get().state == SheetState.ENTERED


def _log_in_on_the_same_browser(client, user):
    """The real login page, as a desk user would, in the browser that used the table link."""
    from users import PASSWORD

    user.set_password(PASSWORD)
    user.save()
    response = client.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302


def test_a_logged_out_table_link_entry_cannot_be_confirmed_from_the_same_browser(world, client):
    """A desk user types the table's numbers on its link while logged out, then logs in at the
    desk on the same browser: the service refuses them confirming it, by the review page and by
    retyping the card; someone else at the desk can."""
    assert client.post(link(world.tables[0]), phone_post(world)).status_code == 302
    sheet = GameSheet.objects.get()
    assert sheet.entered_by is None and len(sheet.entered_device) == 64
    _log_in_on_the_same_browser(client, world.desk)
    url = reverse("organiser:review_game", args=[world.tournament.slug, 1, 1, 1])
    page = text_of(client.get(url))
    assert "You entered game 1 yourself, so someone else must confirm it." in page
    before = snapshot()
    response = client.post(url, {"base_version": "1", "decision": "confirm"})
    assert "You entered game 1 yourself" in text_of(response)
    data = card_post(world, [(1, T1, "Ann Lee", 12)], bases={1: 1})
    assert "You entered game 1 yourself" in text_of(client.post(card_url(world), data))
    with pytest.raises(ServiceError, match="You entered game 1 yourself"):
        services.confirm_game(world.tables[0], world.games[1], 1, world.desk, sheet.entered_device)
    assert snapshot() == before
    assert (
        client_for(world.boss).post(url, {"base_version": "1", "decision": "confirm"}).status_code
        == 302
    )
    assert GameSheet.objects.get().confirmed_by == world.boss


def test_a_table_link_save_records_the_logged_in_user(world, client):
    client.force_login(world.desk)
    assert client.post(link(world.tables[0]), phone_post(world)).status_code == 302
    sheet = GameSheet.objects.get()
    assert sheet.entered_by == world.desk and sheet.source == Source.TABLE_LINK
    url = reverse("organiser:review_game", args=[world.tournament.slug, 1, 1, 1])
    response = client_for(world.desk).post(url, {"base_version": "1", "decision": "confirm"})
    assert "You entered game 1 yourself" in text_of(response)
    assert GameSheet.objects.get().state == SheetState.ENTERED


def test_blind_retype_mismatch_lists_the_differences_on_the_card(world, client):
    client.post(link(world.tables[0]), phone_post(world))
    data = card_post(world, [(1, {**T1, "Di Fox": 9}, "Ann Lee", 12)], bases={1: 1})
    page = text_of(client_for(world.desk).post(card_url(world), data))
    # Shown beside the table's entry, which stays as it was (issue 23).
    assert "disagree in game 1" in page and "Di Fox 7 9" in page
    assert GameSheet.objects.get().state == SheetState.ENTERED
    data = card_post(world, [(1, T1, "Ann Lee", 12)], bases={1: 1})
    assert client_for(world.desk).post(card_url(world), data).status_code == 302
    assert GameSheet.objects.get().state == SheetState.CONFIRMED


def test_corrections_are_for_organisers_with_a_reason_and_show_in_the_history(world):
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee"),
        0,
        source=Source.DESK,
        user=world.desk,
    )
    url = reverse("organiser:correct_game", args=[world.tournament.slug, 1, 1, 1])
    assert client_for(world.desk).get(url).status_code == 403
    boss = client_for(world.boss)
    data = phone_post(world, scores={**T1, "Di Fox": 9}, base=1)
    response = boss.post(url, data)
    assert "Give a reason for changing a confirmed score." in text_of(response)
    assert GameSheet.objects.count() == 1
    response = boss.post(url, {**data, "reason": "Card said 9"})
    assert response.status_code == 302
    history = text_of(
        boss.get(reverse("organiser:table_history", args=[world.tournament.slug, 1, 1]))
    )
    assert (
        "Di Fox: 7 → 9" in history
        and "Card said 9" in history
        and "Organiser correction" in history
    )
    assert "Ann Lee: — → 0" in history  # the first entry, from nothing
    assert (
        client_for(world.desk)
        .get(reverse("organiser:table_history", args=[world.tournament.slug, 1, 1]))
        .status_code
        == 403
    )


def test_the_day_grid_shows_each_table_and_game(world, client):
    client.post(link(world.tables[0]), phone_post(world))
    services.submit_game(
        world.tables[1],
        world.games[1],
        typed(world, 1, {"Ed Poe": 5, "Flo Ng": 0, "Gus Ray": 33}, out="Flo Ng"),
        0,
        source=Source.DESK,
        user=world.desk,
    )
    response = client_for(world.desk).get(
        reverse("organiser:scores_day", args=[world.tournament.slug, 1])
    )
    page = text_of(response)
    assert "1 confirmed · 1 to confirm · 10 not entered" in page and "waiting" not in page
    assert "provisional" in page
    html = response.content.decode()
    assert html.count('class="badge entered"') == 1 and html.count('class="badge confirmed"') == 1
    assert "Close day 1" not in html  # desk staff cannot close the day
    assert (
        "Close day 1"
        in client_for(world.boss)
        .get(reverse("organiser:scores_day", args=[world.tournament.slug, 1]))
        .content.decode()
    )


def test_the_day_grid_takes_the_same_queries_for_a_bigger_event():
    def count(tables):
        w = seated_day(slug=f"e{len(tables)}", tables=tables)
        desk = staff(w.tournament, f"desk{len(tables)}")
        for table in w.tables:
            names = [s.entry.player.name for s in table.seats.select_related("entry__player")]
            services.submit_game(
                table,
                w.games[1],
                typed(w, 1, {n: (0 if i == 0 else 5) for i, n in enumerate(names)}, out=names[0]),
                0,
                source=Source.DESK,
                user=desk,
            )
        client = client_for(desk)
        url = reverse("organiser:scores_day", args=[w.tournament.slug, 1])
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    small = count([["A a", "B b", "C c"]])
    big = count([[f"P{t}{i} x" for i in range(6)] for t in range(8)])
    assert small == big


def test_close_and_reopen_buttons(world, client):
    boss = client_for(world.boss)
    url = reverse("organiser:close_day", args=[world.tournament.slug, 1])
    assert client_for(world.desk).post(url, {"sure": "yes"}).status_code == 403
    # The page asks first, and a post that skipped the question closes nothing.
    question = text_of(boss.get(url))
    assert "Every table link of day 1 stops working at once." in question
    assert "12 games are not entered yet." in question
    assert "0 games entered by the tables are not confirmed yet." in question
    boss.post(url)
    world.day.refresh_from_db()
    assert world.day.closed_at is None
    boss.post(url, {"sure": "yes"})
    world.day.refresh_from_db()
    assert world.day.closed_at is not None
    assert client.get(link(world.tables[0])).status_code == 404
    # The close page says truthfully what reopening gives: new links and codes.
    assert "the old links and codes stay dead" in question
    reopen = reverse("organiser:reopen_day", args=[world.tournament.slug, 1])
    # Reopening asks first too, and a post that skipped the question reopens nothing.
    asked = text_of(boss.post(reopen))
    assert "Every table of day 1 gets a new link and a new code." in asked
    world.day.refresh_from_db()
    assert world.day.closed_at is not None
    old_code = world.tables[0].code
    boss.post(reopen, {"sure": "yes"})
    world.day.refresh_from_db()
    assert world.day.closed_at is None
    # The closed day's links and codes stay dead; the reopened day's tables have new ones.
    assert client.get(link(world.tables[0])).status_code == 404
    world.tables[0].refresh_from_db()
    assert client.get(link(world.tables[0])).status_code == 200
    assert world.tables[0].code != old_code


def test_the_table_links_page_and_a_new_link(world, client):
    boss = client_for(world.boss)
    page = boss.get(
        reverse("organiser:table_links", args=[world.tournament.slug, 1])
    ).content.decode()
    assert f"http://testserver/table/{world.tables[0].link_token}/" in page
    assert "data:image/svg+xml" in page
    old = link(world.tables[0])
    url = reverse("organiser:regenerate_link", args=[world.tournament.slug, 1, 1])
    assert "The old link of table 1 stops working at once." in text_of(boss.get(url))
    boss.post(url)
    assert client.get(old).status_code == 200  # not asked: nothing changed
    boss.post(url, {"sure": "yes"})
    world.tables[0].refresh_from_db()
    assert client.get(old).status_code == 404
    assert client.get(link(world.tables[0])).status_code == 200


def test_pages_need_a_role_in_the_tournament(world, client):
    outsider = staff(seated_day(slug="other").tournament, "outsider")
    urls = [
        reverse("organiser:scores_day", args=[world.tournament.slug, 1]),
        card_url(world),
        reverse("organiser:upload_workbook", args=[world.tournament.slug]),
    ]
    for url in urls:
        assert client_for(outsider).get(url).status_code == 404
        assert client.get(url).status_code == 302  # to the login page


def test_the_score_sheets_button_returns_a_pdf(world):
    response = client_for(world.desk).get(
        reverse("organiser:score_sheets", args=[world.tournament.slug, 1])
    )
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")


def test_the_nav_links_to_scores(world):
    page = client_for(world.desk).get(reverse("organiser:tournament", args=[world.tournament.slug]))
    assert reverse("organiser:scores", args=[world.tournament.slug]) in page.content.decode()
    response = client_for(world.desk).get(reverse("organiser:scores", args=[world.tournament.slug]))
    assert response.status_code == 302 and response["Location"].endswith("/day/1/scores/")


def test_the_engine_defaults_to_the_next_lower_unused_double(world, client):
    # Nobody held double 12 in game 1, so the table played double 11.
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, T1, out="Ann Lee", engine=11),
        0,
        source=Source.TABLE_LINK,
    )
    html = client.get(link(world.tables[0])).content.decode()
    engines = options(html, "id_engine")
    assert [value for value, _ in engines] == ["12", "10", "9", "8", "7"]  # 11 is used
    # The first double of the engine order not used yet at this table: 12 again.
    assert [value for value, selected in engines if selected] == ["12"]
    assert "engine double 12" in text_of(client.get(link(world.tables[0])))


def test_planned_engines_follow_the_record_of_starting_doubles():
    from types import SimpleNamespace

    from domain.sheet_checks import SheetRules, planned_engines

    rules = SheetRules(12, 50, 12, 7)
    games = [SimpleNamespace(number=n) for n in range(1, 7)]
    assert planned_engines(rules, games, {}) == {1: 12, 2: 11, 3: 10, 4: 9, 5: 8, 6: 7}
    # Game 3 fell back to double 9: game 4 still looks for the 10, then 8 and 7.
    assert planned_engines(rules, games, {1: 12, 2: 11, 3: 9}) == {
        1: 12,
        2: 11,
        3: 9,
        4: 10,
        5: 8,
        6: 7,
    }
    # Every double used: a game past the last one has none.
    assert planned_engines(rules, games[:1], {2: 12, 3: 11, 4: 10, 5: 9, 6: 8, 7: 7}) == {}


def test_a_fix_posted_after_the_desk_confirmed_is_refused_not_moved_to_another_game(world, client):
    client.post(link(world.tables[0]), phone_post(world))
    services.confirm_game(world.tables[0], world.games[1], 1, world.desk)
    before = snapshot()
    response = refused_post(
        client, link(world.tables[0]), phone_post(world, scores={**T1, "Cy Doe": 41}, base=1)
    )
    assert re.search(
        r"Game 1 was confirmed by the desk at \d\d:\d\d\. Ask the desk", text_of(response)
    )
    assert snapshot() == before


def test_the_phone_page_reads_and_saves_in_a_fixed_number_of_queries(world, client):
    """Every phone in the room loads this page after every save: its queries are counted."""

    def queries(method, *args):
        with CaptureQueriesContext(connection) as captured:
            response = getattr(client, method)(*args)
        assert response.status_code == (302 if method == "post" else 200)
        return [q["sql"].split()[0] for q in captured]

    # The link's table with its day and rules, the games, the seats, the sheets, the games
    # marked not played, the table's calls to the desk.
    assert len(queries("get", link(world.tables[0]))) == 6
    # The link, the games, the seats the form is read against, then the table's lock, its
    # sheets and games not played read once under it, and 3 writes (the sheet, its scores, the
    # audit event).
    first = queries("post", link(world.tables[0]), phone_post(world))
    assert first.count("SELECT") == 6 and first.count("INSERT") == 3
    # Once a game is saved its scores come too: one query for the whole table.
    assert len(queries("get", link(world.tables[0]))) == 7
    # A save reads no scores but those of the game it replaces: none for a new game.
    second = queries("post", link(world.tables[0]), phone_post(world, game=2))
    assert second.count("SELECT") == 6 and second.count("INSERT") == 3
    assert GameSheet.objects.filter(table=world.tables[0]).count() == 2


def test_an_error_is_announced_on_its_input(world, client):
    data = phone_post(world, scores={**T1, "Bob Roe": "lots"}, tiles={"Cy Doe": "12-x"})
    html = refused_post(client, link(world.tables[0]), data).content.decode()
    described = re.findall(r'aria-invalid="true" aria-describedby="([^"]+)"', html)
    assert len(described) == 2
    for element_id in described:
        assert html.count(f'id="{element_id}"') == 1
    assert not GameSheet.objects.exists()


@pytest.mark.parametrize("page", ["score_sheets", "export_workbook"])
def test_an_unseated_day_has_nothing_to_print_or_export(world, page):
    response = client_for(world.desk).get(
        reverse(f"organiser:{page}", args=[world.tournament.slug, 2]), follow=True
    )
    assert response.redirect_chain[-1][0] == reverse(
        "organiser:scores_day", args=[world.tournament.slug, 2]
    )
    assert "Day 2 is not seated yet: there are no tables" in text_of(response)


def _log_of(request):
    """What the app's log handlers print while ``request()`` runs."""
    import io
    import logging

    from core.log_redaction import RedactTableTokens

    handlers = [
        handler
        for name in ("", "django.server")
        for handler in logging.getLogger(name).handlers
        if any(isinstance(f, RedactTableTokens) for f in handler.filters)
    ]
    assert handlers, "no log handler takes table tokens out"
    stream = io.StringIO()
    old = [handler.setStream(stream) for handler in handlers]
    try:
        request()
    finally:
        for handler, previous in zip(handlers, old, strict=True):
            handler.setStream(previous)
    return stream.getvalue()


@pytest.mark.parametrize("how", ["closed", "regenerated"])
def test_a_dead_link_is_logged_without_its_token(world, client, how):
    token = world.tables[0].link_token
    if how == "closed":
        services.close_day(world.day, world.boss)
    else:
        services.regenerate_table_link(world.tables[0], world.boss)
    logged = _log_of(lambda: client.get(f"/table/{token}/?game=1"))
    assert "Not Found: /table/[token removed]" in logged
    assert token not in logged


def test_a_reopened_day_keeps_its_old_links_dead(world, client):
    old = {t.pk: t.link_token for t in world.tables}
    services.close_day(world.day, world.boss)
    services.reopen_day(world.day, world.boss)
    for table in world.tables:
        assert client.get(f"/table/{old[table.pk]}/").status_code == 404
        table.refresh_from_db()
        assert table.link_token != old[table.pk]
        assert client.get(f"/table/{table.link_token}/").status_code == 200
    with pytest.raises(ServiceError, match="no longer works"):
        services.submit_game(
            Table(pk=world.tables[0].pk, day=world.day, link_token=old[world.tables[0].pk]),
            world.games[1],
            typed(world, 1, T1, out="Ann Lee"),
            0,
            source=Source.TABLE_LINK,
        )


@pytest.mark.django_db
def test_a_score_typed_for_a_player_who_left_while_the_table_typed_is_told_not_stored(client):
    w = seated_day()
    play(w, w.tables[0], [1])
    page = client.get(link(w.tables[0]))  # the phone opens game 2 with Di Fox still playing
    assert f"score-{w.entries['Di Fox'].pk}" in page.content.decode()
    withdraw_entry(w.entries["Di Fox"], after_game=1)  # the desk records it meanwhile
    typed = {"Ann Lee": 0, "Bob Roe": 12, "Cy Doe": 40, "Di Fox": 23}
    response = client.post(link(w.tables[0]), phone_post(w, game=2, scores=typed), follow=True)
    text = text_of(response)
    assert (
        "Di Fox has left the table after game 1; Di Fox's score for game 2 (23) was not stored."
        in text
    )
    assert "Game 2 is saved" in text
    sheet = GameSheet.objects.get(game=w.games[2], table=w.tables[0])
    assert {s.entry.player.name: s.points for s in sheet.scores.all()} == {
        "Ann Lee": 0,
        "Bob Roe": 12,
        "Cy Doe": 40,
    }


@pytest.mark.django_db
def test_the_table_page_has_no_organiser_login_link(client):
    w = seated_day()
    html = client.get(link(w.tables[0])).content.decode()
    assert "Organiser login" not in html
    assert "Organiser login" in client.get("/").content.decode()
