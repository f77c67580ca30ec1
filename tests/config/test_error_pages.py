"""When something goes wrong the visitor sees a page in the app's words, never Django's
technical one: a form refused for its security cookie (cookies blocked), a server error, a
missing page, a refusal. They work with DEBUG off and in venue mode, as at the venue."""

import pytest
from django.test import Client, override_settings
from scoring_factories import link, phone_post, seated_day, snapshot, text_of

from scoring.models import GameSheet
from tournaments.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db

KEPT = "your numbers are kept on this phone"


@pytest.mark.parametrize("venue_mode", [False, True])
def test_a_save_without_its_security_cookie_gets_a_plain_page_and_stores_nothing(venue_mode):
    w = seated_day()
    phone = Client(enforce_csrf_checks=True)  # as a phone with cookies blocked: no CSRF token
    before = snapshot(GameSheet)
    with override_settings(DEBUG=False, VENUE_MODE=venue_mode):
        response = phone.post(link(w.tables[0]), phone_post(w))
    assert response.status_code == 403
    text = text_of(response)
    assert "Not sent: please try again" in text and KEPT in text
    assert "CSRF" not in response.content.decode()
    assert snapshot(GameSheet) == before


def test_a_server_error_gets_a_plain_page(monkeypatch):
    w = seated_day()

    def broken(request, token):
        raise RuntimeError("the database went away")

    monkeypatch.setattr("scoring.views_scorekeeper._table_page", broken)
    phone = Client(raise_request_exception=False)
    with override_settings(DEBUG=False):
        response = phone.post(link(w.tables[0]), phone_post(w))
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on the scoring laptop" in html and KEPT in html
    assert "RuntimeError" not in html and "Traceback" not in html


def test_a_missing_page_and_a_refusal_get_plain_pages(django_user_model):
    with override_settings(DEBUG=False):
        missing = Client().get("/no-such-page/")
    assert missing.status_code == 404
    assert "Page not found" in text_of(missing) and "scan the QR code" in text_of(missing)
    seated_day()
    desk = django_user_model.objects.create_user("desk", password="x")
    StaffRole.objects.create(tournament=Tournament.objects.get(), user=desk, role=StaffRole.DESK)
    client = Client()
    client.force_login(desk)
    with override_settings(DEBUG=False):
        refused = client.get("/organiser/t/cup/rules/")
    assert refused.status_code == 403
    assert "Only an organiser can do that." in text_of(refused)
    assert "Nothing was changed" in text_of(refused)
