"""The venue: the address links use, table codes and their throttle, a save sent twice, the
connect page. Network addresses here are only strings or loopback: nothing leaves the machine."""

import json
import os
import re
import runpy
import subprocess
import sys
import time

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import given, strategies as st
from live_server_tools import ROOT
from scoring_factories import T1, link, phone_post, seated_day, snapshot, staff, text_of, typed

from core.venue import is_loopback_host, pick_lan_address, wifi_qr_text
from scoring import services
from scoring.models import GameSheet, Source, TableSubmission
from tournaments.access import COMMAND_LINE
from tournaments.models import (
    TABLE_CODE_ALPHABET,
    Table,
    new_table_code,
    normalise_table_code,
)

ENTER = "/table/"


# ---------------------------------------------------------------------------
# Pure helpers
# ---------------------------------------------------------------------------


def test_the_lan_address_prefers_home_router_ranges_and_never_loopback_or_link_local():
    assert pick_lan_address(["127.0.0.1", "10.0.0.5", "192.168.1.20"]) == "192.168.1.20"
    assert pick_lan_address(["172.17.0.1", "10.0.0.5"]) == "10.0.0.5"
    assert pick_lan_address(["172.20.0.3"]) == "172.20.0.3"
    assert pick_lan_address(["127.0.0.1", "169.254.3.4", "::1", "fe80::1"]) is None
    assert pick_lan_address(["8.8.8.8", "not-an-address", ""]) is None
    assert pick_lan_address([]) is None


def test_loopback_hosts():
    for host in ("127.0.0.1", "127.3.4.5", "localhost", "[::1]", "::1", "LOCALHOST"):
        assert is_loopback_host(host), host
    for host in ("192.168.1.20", "mt.example", "", "10.0.0.1"):
        assert not is_loopback_host(host), host


def test_wifi_text_escapes_the_characters_the_format_reserves():
    assert wifi_qr_text("Hall", "dominoes12") == "WIFI:T:WPA;S:Hall;P:dominoes12;;"
    assert wifi_qr_text('a;b,c:d"e\\f', "p;w") == 'WIFI:T:WPA;S:a\\;b\\,c\\:d\\"e\\\\f;P:p\\;w;;'
    assert wifi_qr_text("Open Hall", "") == "WIFI:T:nopass;S:Open Hall;;"


def _unescape_fields(text: str) -> dict:
    """Read a WIFI: string back the way a phone does: split on unescaped ';' then ':'."""
    assert text.startswith("WIFI:") and text.endswith(";;")
    fields, current, escaped = [], "", False
    for ch in text[len("WIFI:") : -1]:
        if escaped:
            current, escaped = current + ch, False
        elif ch == "\\":
            escaped = True
        elif ch == ";":
            fields.append(current)
            current = ""
        else:
            current += ch
    return {f[0]: f[2:] for f in fields if f}


@given(st.text(min_size=1, max_size=32), st.text(min_size=8, max_size=63))
def test_any_wifi_name_and_password_read_back_unchanged(ssid, password):
    fields = _unescape_fields(wifi_qr_text(ssid, password))
    assert fields == {"T": "WPA", "S": ssid, "P": password}


def test_table_codes_use_only_the_alphabet_without_look_alikes():
    for look_alike in "0O1IL2Z5S8BDQUV":
        assert look_alike not in TABLE_CODE_ALPHABET
    codes = {new_table_code() for _ in range(200)}
    assert all(len(c) == 6 and set(c) <= set(TABLE_CODE_ALPHABET) for c in codes)
    assert len(codes) > 190  # random, not a counter
    assert normalise_table_code(" ace-679 ") == "ACE679"


# ---------------------------------------------------------------------------
# Table codes
# ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_table_code_opens_that_table_typed_any_way(client):
    w = seated_day()
    table = w.tables[1]
    typed = table.code.lower()[:3] + " " + table.code.lower()[3:]
    response = client.post(ENTER, {"code": typed})
    assert response.status_code == 302
    assert response["Location"] == link(table)
    assert "Table 2" in client.get(response["Location"]).content.decode()


@pytest.mark.django_db
def test_every_table_gets_its_own_code():
    w = seated_day()
    codes = [t.code for t in Table.objects.filter(day=w.day)]
    assert len(codes) == len(set(codes)) == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    "typed, message",
    [
        ("", "Type the code from your table"),
        ("ACE67", "A table code has 6 letters and numbers; this has 5."),
        ("ACE6790", "A table code has 6 letters and numbers; this has 7."),
        # Six characters typed: the message names the ones codes never use, not the length.
        (
            "0O1IL5",
            "Table codes never use \u201c0\u201d, \u201c1\u201d, \u201c5\u201d, \u201cI\u201d, "
            "\u201cL\u201d or \u201cO\u201d.",
        ),
        ("ACE6O7", "Table codes never use \u201cO\u201d. Check the card on your table."),
        ("<b>x", "A table code has 6 letters and numbers; this has 4."),
        ("x" * 500, "Ensure this value has at most 20 characters"),
    ],
)
def test_a_malformed_code_is_refused_next_to_the_field(client, typed, message):
    seated_day()
    before = snapshot(Table, GameSheet)
    response = client.post(ENTER, {"code": typed})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in text_of(response)
    assert re.search(r'class="field has-error".*field-error', html, re.S)
    assert snapshot(Table, GameSheet) == before


@pytest.mark.django_db
def test_a_wrong_code_and_a_closed_days_code_open_nothing(client):
    w = seated_day()
    wrong = next(c * 6 for c in TABLE_CODE_ALPHABET if c * 6 not in {t.code for t in w.tables})
    response = client.post(ENTER, {"code": wrong})
    assert response.status_code == 400
    assert "No open table has this code" in text_of(response)
    services.close_day(w.day, COMMAND_LINE)
    response = client.post(ENTER, {"code": w.tables[0].code})
    assert response.status_code == 400
    assert "No open table has this code" in text_of(response)


@pytest.mark.django_db
def test_wrong_codes_are_throttled_per_address_and_the_wait_says_the_time_left(monkeypatch):
    w = seated_day()
    guesser = Client(REMOTE_ADDR="127.0.0.9")
    clock = [time.time()]
    monkeypatch.setattr("core.throttle._now", lambda: clock[0])
    for attempt in range(10):
        response = guesser.post(ENTER, {"code": f"AAAAA{TABLE_CODE_ALPHABET[attempt]}"})
        assert response.status_code == 400, attempt
    refused = guesser.post(ENTER, {"code": w.tables[0].code})
    assert refused.status_code == 429
    assert "Too many wrong codes from this phone. Try again in 10 minutes" in text_of(refused)
    clock[0] += 6 * 60 + 5  # 3 min 55 s left: rounded up
    refused = guesser.post(ENTER, {"code": w.tables[0].code})
    assert "Try again in 4 minutes, or scan the QR code" in text_of(refused)
    # Another phone at the venue is not held up by the guesser.
    other = Client(REMOTE_ADDR="127.0.0.10")
    assert other.post(ENTER, {"code": w.tables[0].code}).status_code == 302
    # A wait later (the window ends), the guesser's right code works again.
    clock[0] += 4 * 60
    assert guesser.post(ENTER, {"code": w.tables[0].code}).status_code == 302


@pytest.mark.django_db
def test_codes_that_cannot_exist_do_not_count_toward_the_wait():
    """A slip (a letter codes never use, a character too many or too few) is told at once and
    never locks the phone out: only well-formed wrong codes are guesses."""
    w = seated_day()
    phone = Client(REMOTE_ADDR="127.0.0.11")
    slips = ["ACE6O7", "ACE67", "ACE6790", "0O1IL5", "ACEO", "ACE 6-7 9 9 9"] * 3
    for slip in slips:
        assert phone.post(ENTER, {"code": slip}).status_code == 400, slip
    for attempt in range(9):  # nine well-formed wrong codes: one short of the limit
        assert (
            phone.post(ENTER, {"code": f"AAAAA{TABLE_CODE_ALPHABET[attempt]}"}).status_code == 400
        )
    assert phone.post(ENTER, {"code": w.tables[0].code}).status_code == 302


@pytest.mark.django_db
def test_a_new_link_makes_a_new_code_and_the_old_one_stops(client):
    w = seated_day()
    old_code, old_token = w.tables[0].code, w.tables[0].link_token
    renewed = services.regenerate_table_link(w.tables[0], COMMAND_LINE)
    assert renewed.code != old_code and renewed.link_token != old_token
    assert client.post(ENTER, {"code": old_code}).status_code == 400
    assert client.post(ENTER, {"code": renewed.code})["Location"] == link(renewed)


@pytest.mark.django_db
def test_the_home_page_asks_for_the_table_code(client):
    html = client.get("/").content.decode()
    assert "Enter your table code" in html
    assert f'action="{ENTER}"' in html and 'name="code"' in html


# ---------------------------------------------------------------------------
# A save sent twice (the answer to the first was lost) is stored once
# ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_save_sent_again_with_its_id_is_stored_once(client):
    w = seated_day()
    data = {**phone_post(w), "submission_id": "a1b2c3d4-e5f6-4711-8899-aabbccddeeff"}
    first = client.post(link(w.tables[0]), data)
    again = client.post(link(w.tables[0]), data)
    assert first.status_code == again.status_code == 302
    sheet = GameSheet.objects.get()
    assert sheet.version == 1
    assert {s.entry.player.name: s.points for s in sheet.scores.all()} == T1
    assert TableSubmission.objects.get().key == data["submission_id"]


@pytest.mark.django_db
def test_the_same_id_from_another_table_is_its_own_save(client):
    w = seated_day()
    sid = "same-id-for-two-tables"
    client.post(link(w.tables[0]), {**phone_post(w), "submission_id": sid})
    t2 = {"Ed Poe": 5, "Flo Ng": 0, "Gus Ray": 33}
    client.post(
        link(w.tables[1]), {**phone_post(w, scores=t2, out=("Flo Ng",)), "submission_id": sid}
    )
    assert GameSheet.objects.count() == 2


@pytest.mark.django_db
def test_without_an_id_a_save_from_a_page_drawn_before_another_phones_is_a_conflict(client):
    w = seated_day()
    Client().post(link(w.tables[0]), phone_post(w))  # another phone saved first
    changed = phone_post(w, scores={**T1, "Cy Doe": 41})
    response = client.post(link(w.tables[0]), changed, follow=True)
    # Redirected to the game's page, which shows what the game says now.
    assert response.redirect_chain[-1][0].endswith("?game=1")
    assert "here is what it says now" in text_of(response)
    assert GameSheet.objects.get().version == 1


@pytest.mark.django_db
def test_without_an_id_the_same_phone_sending_changed_numbers_changes_its_own_entry(client):
    """Its page still held the version before its own save (the answer lost, or Back pressed):
    what it sends is what its screen shows, and its own entry is not a clash with itself."""
    w = seated_day()
    client.post(link(w.tables[0]), phone_post(w))
    client.post(link(w.tables[0]), phone_post(w, scores={**T1, "Cy Doe": 41}))
    live = GameSheet.objects.get(state="entered")
    assert live.version == 2
    assert {s.entry.player.name: s.points for s in live.scores.all()}["Cy Doe"] == 41


@pytest.mark.django_db
@pytest.mark.parametrize("bad_id", ["short", "x" * 65, "has space in it", "<script>alert</script>"])
def test_a_malformed_id_is_ignored_and_the_save_is_checked_as_usual(client, bad_id):
    w = seated_day()
    response = client.post(link(w.tables[0]), {**phone_post(w), "submission_id": bad_id})
    assert response.status_code == 302
    assert GameSheet.objects.count() == 1 and not TableSubmission.objects.exists()


@pytest.mark.django_db
def test_a_refused_save_remembers_no_id(client):
    w = seated_day()
    data = {**phone_post(w, out=("Ann Lee", "Bob Roe")), "submission_id": "refused-save-1"}
    before = snapshot(GameSheet, TableSubmission)
    response = client.post(link(w.tables[0]), data, follow=True)
    assert "Nothing was saved" in text_of(response)
    assert snapshot(GameSheet, TableSubmission) == before


# ---------------------------------------------------------------------------
# Where links point, and the connect page
# ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_links_opened_on_loopback_warn_that_phones_cannot_open_them(organiser_client, settings):
    w = seated_day()
    settings.BASE_URL = ""
    url = reverse("organiser:table_links", args=[w.tournament.slug, 1])
    page = text_of(organiser_client.get(url, HTTP_HOST="127.0.0.1:8000"))
    assert "Phones cannot open these links" in page
    assert f"Table code {w.tables[0].code}" in page
    grid = reverse("organiser:scores_day", args=[w.tournament.slug, 1])
    assert "Phones cannot open these links" in text_of(
        organiser_client.get(grid, HTTP_HOST="localhost:8000")
    )


@pytest.mark.django_db
def test_links_use_the_configured_address_and_need_no_warning(organiser_client, settings):
    w = seated_day()
    settings.BASE_URL = "http://192.168.1.20:8000"
    url = reverse("organiser:table_links", args=[w.tournament.slug, 1])
    html = organiser_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert f"http://192.168.1.20:8000/table/{w.tables[0].link_token}/" in html
    assert "Phones cannot open these links" not in html
    assert "which phones on the venue" in html


@pytest.mark.django_db
def test_the_connect_page_needs_a_login_and_a_role(client):
    w = seated_day()
    url = reverse("organiser:connect_phones", args=[w.tournament.slug])
    assert client.get(url).status_code == 302
    stranger = staff(seated_day(slug="other").tournament, "stranger")
    client.force_login(stranger)
    assert client.get(url).status_code in (403, 404)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "fields, message",
    [
        ({"ssid": "", "password": "dominoes12"}, "This field is required."),
        ({"ssid": "Hall", "password": "short"}, "A Wi-Fi password has at least 8 characters"),
        ({"ssid": "x" * 33, "password": ""}, "A Wi-Fi name has at most 32 characters."),
        ({"ssid": "Hall", "password": "p" * 64}, "A Wi-Fi password has at most 63 characters."),
    ],
)
def test_bad_wifi_details_are_refused_next_to_the_field(organiser_client, fields, message):
    w = seated_day()
    url = reverse("organiser:connect_phones", args=[w.tournament.slug])
    response = organiser_client.post(url, fields)
    assert message in text_of(response)
    assert "wifi-qr" not in response.content.decode()


def _venue_settings(**env) -> dict:
    """The settings venue mode gives, read in a fresh process (settings load once per process)."""
    code = (
        "import json; from django.conf import settings; import django; django.setup(); "
        "print(json.dumps({'base': settings.BASE_URL, 'debug': settings.DEBUG, "
        "'secure': getattr(settings, 'SESSION_COOKIE_SECURE', False)}))"
    )
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "0",
        "DJANGO_VENUE_MODE": "1",
        "DJANGO_SECRET_KEY": "x" * 50,
        **env,
    }
    out = subprocess.run(
        [sys.executable, "-c", code], env=environment, cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_venue_mode_uses_the_given_address_and_plain_http_cookies():
    found = _venue_settings(DJANGO_BASE_URL="http://127.0.0.1:8123")
    assert found == {
        "base": "http://127.0.0.1:8123",
        "debug": False,
        "secure": False,
    }


def test_venue_mode_without_an_address_takes_the_laptops_own():
    base = _venue_settings(DJANGO_BASE_URL="", DJANGO_PORT="8123")["base"]
    # Whatever network this machine is on: a private address with the port, or none at all.
    assert base == "" or re.fullmatch(r"http://[\d.]+:8123", base)


@pytest.mark.django_db
def test_the_service_stores_a_save_once_per_id_and_a_new_id_is_checked_as_usual():
    w = seated_day()
    game = w.games[1]
    first = services.submit_game(
        w.tables[0],
        game,
        typed(w, 1, T1, out="Ann Lee"),
        0,
        source=Source.TABLE_LINK,
        submission_id="id-one-1",
    )
    assert first is not None
    again = services.submit_game(
        w.tables[0],
        game,
        typed(w, 1, T1, out="Ann Lee"),
        0,
        source=Source.TABLE_LINK,
        submission_id="id-one-1",
    )
    assert again is None
    with pytest.raises(services.VersionConflict):  # a different save on the old version
        services.submit_game(
            w.tables[0],
            game,
            typed(w, 1, T1, out="Ann Lee"),
            0,
            source=Source.TABLE_LINK,
            submission_id="id-two-2",
        )
    assert GameSheet.objects.count() == 1
    assert list(TableSubmission.objects.values_list("key", flat=True)) == ["id-one-1"]


def test_the_venue_server_opens_no_control_socket():
    """gunicorn's control socket is one path per user: a second server on the laptop (a bench,
    a practice copy) would take over the first one's, and it can stop the server."""
    from gunicorn.config import Config

    config = Config()
    for name, value in runpy.run_path(os.path.join(ROOT, "config", "gunicorn_venue.py")).items():
        if name in config.settings:
            config.set(name, value)
    assert config.control_socket_disable is True
    assert config.worker_class_str == "config.venue_worker.VenueWorker"
