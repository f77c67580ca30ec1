"""A body larger than its address takes is refused from its declared length, before anything
reads it, and an anonymous upload to an organiser page is refused before it is parsed (and
spooled to disk). The venue worker's side of the same rule is in tests/config."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http.multipartparser import MultiPartParser
from django.test import Client

from core.request_limits import (
    ORGANISER_FORM_BYTES,
    SMALL_FORM_BYTES,
    UPLOAD_WRAPPING_BYTES,
    body_limit,
)

MB = 1024 * 1024


@pytest.mark.parametrize(
    ("path", "limit"),
    [
        ("/table/abc/", SMALL_FORM_BYTES),
        ("/accounts/login/", SMALL_FORM_BYTES),
        ("/admin/login/", SMALL_FORM_BYTES),
        ("/", SMALL_FORM_BYTES),
        ("/t/spring/players/import/", SMALL_FORM_BYTES),  # public: no uploads
        ("/organiser/t/spring/check-in/", ORGANISER_FORM_BYTES),
        ("/admin/auth/user/1/change/", ORGANISER_FORM_BYTES),
        ("/organiser/t/spring/players/import/", 10 * MB + UPLOAD_WRAPPING_BYTES),
        ("/organiser/t/spring/players/import/review/", 10 * MB + UPLOAD_WRAPPING_BYTES),
        ("/organiser/t/spring/scores/upload/", 10 * MB + UPLOAD_WRAPPING_BYTES),
    ],
)
def test_each_address_takes_a_body_as_large_as_its_largest_form(path, limit):
    assert body_limit(path, 5 * MB) == limit


def _never_parse(*_args, **_kwargs):
    raise AssertionError("the body was parsed")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "length"),
    [
        ("/table/abc/", 300 * MB),
        ("/table/abc/", SMALL_FORM_BYTES + 1),
        ("/accounts/login/", 4 * MB),
        ("/organiser/t/spring/players/import/", 11 * MB),
    ],
)
def test_a_declared_length_over_the_limit_is_answered_413_unread(path, length, monkeypatch):
    monkeypatch.setattr(MultiPartParser, "parse", _never_parse)
    client = Client(enforce_csrf_checks=True)
    # The test client's payload refuses a read past what was sent: a read would raise.
    response = client.post(
        path, "a=1", content_type="application/x-www-form-urlencoded", CONTENT_LENGTH=str(length)
    )
    assert response.status_code == 413
    assert "nothing was stored" in response.content.decode()
    assert response["Content-Type"].startswith("text/plain")


@pytest.mark.django_db
def test_an_anonymous_upload_to_an_organiser_page_is_refused_before_it_is_parsed(monkeypatch):
    monkeypatch.setattr(MultiPartParser, "parse", _never_parse)
    client = Client(enforce_csrf_checks=True)
    upload = SimpleUploadedFile("players.csv", b"Name\nAda\n" * 1000, content_type="text/csv")
    response = client.post("/organiser/t/spring/players/import/", {"file": upload})
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.django_db
def test_a_table_phones_multipart_save_still_reaches_the_page(monkeypatch):
    """The phone's script posts its saves as multipart; they are small and not refused here."""
    client = Client()
    response = client.post("/table/no-such-table/", {"game": "1"})
    assert response.status_code == 404


@pytest.mark.django_db
def test_an_organisers_upload_within_the_limit_is_parsed(organiser_client):
    from tournaments.services.events import create_tournament

    create_tournament(slug="spring", name="Spring", preset_key="tournament")
    upload = SimpleUploadedFile("players.csv", b"Name\nAda Lovelace\n", content_type="text/csv")
    response = organiser_client.post("/organiser/t/spring/players/import/", {"file": upload})
    assert response.status_code in (200, 302)
    assert "/accounts/login/" not in response.get("Location", "")
