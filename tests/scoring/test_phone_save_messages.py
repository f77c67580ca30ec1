"""What the table's page says after a save: "saved" once per save, however many times the
phone sent it (static/js/game-entry.js sends a save again, with the same id, when it cannot
tell whether the first try arrived)."""

import pytest
from scoring_factories import link, phone_post, seated_day, snapshot, staff

from scoring import services
from scoring.models import LIVE_STATES, GameSheet, Score, TableSubmission

pytestmark = pytest.mark.django_db

SAVED = "Game 1 is saved."


def test_a_save_sent_again_after_its_answer_arrived_says_saved_once(client):
    w = seated_day()
    url = link(w.tables[0])
    data = {**phone_post(w), "submission_id": "the-phones-save-of-game-1"}
    headers = {"X-Table-Save": "background"}
    # The first answer reached the phone (its cookies with it) but the page could not tell,
    # so the same save went again before the page was drawn.
    assert client.post(url, data, headers=headers).status_code == 302
    assert client.post(url, data, headers=headers).status_code == 302
    # The page's script opens the page after its saves naming them; the session keeps nothing.
    assert SAVED not in client.get(url).content.decode()
    page = client.get(f"{url}?saved=1").content.decode()
    assert page.count(SAVED) == 1
    assert GameSheet.objects.get().version == 1 and TableSubmission.objects.count() == 1


def test_the_page_after_a_save_says_it_again_when_loaded_again(client):
    """That page lost on its way to the phone: loaded again, it still says the game is saved,
    because the address says it, not a message the lost answer used up."""
    w = seated_day()
    url = link(w.tables[0])
    headers = {"X-Table-Save": "background"}
    client.post(url, {**phone_post(w), "submission_id": "save-1"}, headers=headers)
    client.post(url, {**phone_post(w, game=2), "submission_id": "save-2"}, headers=headers)
    for _ in range(2):
        page = client.get(f"{url}?saved=1,2").content.decode()
        assert page.count(SAVED) == 1 and page.count("Game 2 is saved.") == 1


def test_the_page_says_saved_only_for_games_the_table_holds(client):
    w = seated_day()
    url = link(w.tables[0])
    client.post(
        url, {**phone_post(w), "submission_id": "save-1"}, headers={"X-Table-Save": "background"}
    )
    page = client.get(f"{url}?saved=1,2,x,,99,-1,{'9' * 40}").content.decode()
    assert page.count(SAVED) == 1
    assert "Game 2 is saved." not in page and "Game 99" not in page
    assert "is saved." not in client.get(f"{url}?saved=2").content.decode()
    assert GameSheet.objects.count() == 1


def test_two_games_saved_before_the_page_is_drawn_are_each_said(client):
    w = seated_day()
    url = link(w.tables[0])
    client.post(url, {**phone_post(w), "submission_id": "save-of-game-1"})
    client.post(url, {**phone_post(w, game=2), "submission_id": "save-of-game-2"})
    page = client.get(url).content.decode()
    assert page.count(SAVED) == 1 and page.count("Game 2 is saved.") == 1


def test_a_game_the_desk_marked_wrong_since_is_not_said_saved(client):
    w = seated_day()
    url = link(w.tables[0])
    client.post(
        url, {**phone_post(w), "submission_id": "save-1"}, headers={"X-Table-Save": "background"}
    )
    desk = staff(w.tournament, "desk1")
    services.reject_game(w.tables[0], w.games[1], 1, desk, "the card says 9")
    assert SAVED not in client.get(f"{url}?saved=1").content.decode()


@pytest.mark.parametrize("other", ["game 2", "other numbers"])
def test_an_id_that_comes_back_with_another_save_is_refused_not_said_saved(client, other):
    """The page gives each save its own id (a new one when the numbers change while it waits),
    so the same id with another game or other numbers is never the phone's retry: answering
    "saved" would drop the game the phone believes is stored."""
    w = seated_day()
    url = link(w.tables[0])
    headers = {"X-Table-Save": "background"}
    first = {**phone_post(w), "submission_id": "reused-id"}
    assert client.post(url, first, headers=headers).status_code == 302
    before = snapshot(GameSheet, Score, TableSubmission)
    if other == "game 2":
        again = {**phone_post(w, game=2), "submission_id": "reused-id"}
    else:
        again = {**first, f"score-{w.entries['Bob Roe'].pk}": "31"}
    answer = client.post(url, again, headers=headers)
    assert answer.status_code == 409  # not "saved": the page opens the game to show why
    assert snapshot(GameSheet, Score, TableSubmission) == before
    page = client.get(f"{url}?game={again['game']}").content.decode()
    if other == "game 2":
        assert "the mark of an earlier, different save, so it was not stored" in page
    # Tapped again from the game's page (drawn on what is stored now), under a new id: stored.
    again["submission_id"] = "a-new-id"
    if other == "other numbers":
        again["base_version"] = "1"
    assert client.post(url, again, headers=headers).status_code == 302
    live = GameSheet.objects.get(
        table=w.tables[0], game=w.games[int(again["game"])], state__in=LIVE_STATES
    )
    assert live.scores.get(entry=w.entries["Bob Roe"]).points == (12 if other == "game 2" else 31)


@pytest.mark.parametrize("secure", [False, True])
def test_the_phones_cookies_are_https_only_where_the_sessions_is(client, settings, secure):
    """In production (SESSION_COOKIE_SECURE) every cookie the table's page leaves on the phone
    goes over HTTPS only; at the venue, on plain HTTP, none may, or phones would lose them."""
    settings.SESSION_COOKIE_SECURE = secure
    w = seated_day()
    answer = client.post(link(w.tables[0]), {**phone_post(w), "submission_id": "save-of-one"})
    phone_cookies = [c for name, c in answer.cookies.items() if name != settings.CSRF_COOKIE_NAME]
    names = {c.key for c in phone_cookies}
    assert names == {f"saved-{w.tables[0].pk}", "table_link_device", "messages"}, names
    for cookie in phone_cookies:
        assert bool(cookie["secure"]) is secure, cookie.key
        assert cookie["httponly"] and cookie["samesite"] == "Lax"


def test_a_refused_save_keeps_only_the_forms_own_fields_in_a_short_session(client):
    """Anyone with a table's link can post refused saves: each kept every posted field, any
    name and any length, for two weeks (ten 4 MB posts grew the database by 43 MB)."""
    from django.contrib.sessions.models import Session

    from scoring.views_entry import TABLE_SESSION_SECONDS

    w = seated_day()
    url = link(w.tables[0])
    bob = f"score-{w.entries['Bob Roe'].pk}"
    for n in range(10):
        junk = {f"junk-{n}-{i}": "x" * 1000 for i in range(10)}  # under the body limit
        # Bob's score is no number: refused, and what was typed is kept for the page.
        client.post(url, {**phone_post(w), bob: "y" * 4000, **junk})
    stored = Session.objects.get()
    # Ten 4 MB posts are refused from their length alone (core/request_limits.py).
    huge = {f"junk-{i}": "x" * 400_000 for i in range(10)}
    assert client.post(url, {**phone_post(w), **huge}).status_code == 413
    assert Session.objects.get().session_data == stored.session_data
    assert len(stored.session_data) < 4000
    kept = client.session["scoring.pending_entry"]["data"]
    assert not any(name.startswith("junk") for name in kept)
    assert len(kept[bob]) == 101  # one past the field's 100, so it is still "too long"
    assert 0 < client.session.get_expiry_age() <= TABLE_SESSION_SECONDS
    page = client.get(f"{url}?game=1").content.decode()
    assert "Bob Roe" in page and "whole number" in page
    assert GameSheet.objects.count() == 0
