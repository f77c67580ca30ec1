"""What the table's page says after a save: "saved" once per save, however many times the
phone sent it (static/js/game-entry.js sends a save again, with the same id, when it cannot
tell whether the first try arrived)."""

import pytest
from scoring_factories import link, phone_post, seated_day

from scoring.models import GameSheet, TableSubmission

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
    page = client.get(url).content.decode()
    assert page.count(SAVED) == 1
    assert GameSheet.objects.get().version == 1 and TableSubmission.objects.count() == 1
    assert SAVED not in client.get(url).content.decode()  # said once, then gone


def test_two_games_saved_before_the_page_is_drawn_are_each_said(client):
    w = seated_day()
    url = link(w.tables[0])
    client.post(url, {**phone_post(w), "submission_id": "save-of-game-1"})
    client.post(url, {**phone_post(w, game=2), "submission_id": "save-of-game-2"})
    page = client.get(url).content.decode()
    assert page.count(SAVED) == 1 and page.count("Game 2 is saved.") == 1
