"""The event's Staff page: an organiser of the event (not only a superuser) adds desk and
organiser logins, resets their passwords and removes them; every refusal says why and changes
nothing."""

import html

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from page_fields import options
from scoring_factories import snapshot, staff, text_of
from users import PASSWORD

from tournaments.models import StaffRole

User = get_user_model()
NEW_PASSWORD = "tiles-on-the-train-42"


@pytest.fixture
def event(make_tournament, make_user):
    boss = make_user("boss")
    return make_tournament(slug="spring", organiser=boss), boss


@pytest.fixture
def boss_client(client, event):
    client.force_login(event[1])
    return client


def _add(client, tournament, **data):
    fields = {"username": "vera", "role": "desk", "password": NEW_PASSWORD, "again": NEW_PASSWORD}
    fields.update(data)
    return client.post(reverse("organiser:staff", args=[tournament.slug]), fields)


def test_the_add_form_offers_desk_first(boss_client, event):
    page = boss_client.get(reverse("organiser:staff", args=[event[0].slug])).content.decode()
    assert options(page, "id_role") == [("desk", True), ("organiser", False)]
    assert StaffRole._meta.get_field("role").default == StaffRole.DESK


def test_an_organiser_who_is_not_a_superuser_adds_a_desk_login_that_logs_in(
    boss_client, event, client
):
    tournament, _boss = event
    response = _add(boss_client, tournament)
    assert response.status_code == 302
    role = StaffRole.objects.get(tournament=tournament, user__username="vera")
    assert role.role == StaffRole.DESK
    boss_client.logout()
    assert client.login(username="vera", password=NEW_PASSWORD)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "BOSS"}, 'The username "boss" is already taken'),
        ({"again": "tiles-on-the-train-43"}, "The two passwords are not the same"),
        ({"password": "short", "again": "short"}, "too short"),
        ({"password": "password123", "again": "password123"}, "too common"),
        ({"username": "   "}, "This field is required"),
        ({"role": "admin"}, "Select a valid choice"),
    ],
)
def test_a_bad_new_login_is_refused_with_a_message_and_nothing_stored(
    boss_client, event, data, message
):
    tournament, _boss = event
    before = snapshot(User, StaffRole)
    response = _add(boss_client, tournament, **data)
    assert response.status_code == 200
    assert message in html.unescape(text_of(response))
    assert snapshot(User, StaffRole) == before


def test_resetting_a_password_changes_it_and_a_mismatch_changes_nothing(boss_client, event, client):
    tournament, _boss = event
    vera = staff(tournament, "vera")
    url = reverse("organiser:staff_password", args=[tournament.slug, vera.pk])
    before = snapshot(User)
    response = boss_client.post(
        url, {f"u{vera.pk}-password": NEW_PASSWORD, f"u{vera.pk}-again": "something-else-77"}
    )
    assert "The two passwords are not the same" in text_of(response)
    assert snapshot(User) == before
    boss_client.post(url, {f"u{vera.pk}-password": NEW_PASSWORD, f"u{vera.pk}-again": NEW_PASSWORD})
    assert client.login(username="vera", password=NEW_PASSWORD)


def test_removing_a_login_stops_it_and_the_name_may_be_given_again(boss_client, event, client):
    tournament, _boss = event
    vera = staff(tournament, "vera")
    vera.set_password(PASSWORD)
    vera.save()
    boss_client.post(reverse("organiser:staff_remove", args=[tournament.slug, vera.pk]))
    assert not StaffRole.objects.filter(user=vera).exists()
    assert not client.login(username="vera", password=PASSWORD)
    _add(boss_client, tournament, role="organiser")
    assert StaffRole.objects.get(user=vera).role == StaffRole.ORGANISER
    assert client.login(username="vera", password=NEW_PASSWORD)


def test_you_cannot_remove_or_reset_yourself(boss_client, event):
    tournament, boss = event
    before = snapshot(User, StaffRole)
    response = boss_client.post(
        reverse("organiser:staff_remove", args=[tournament.slug, boss.pk]), follow=True
    )
    assert "You cannot change or remove your own login here." in text_of(response)
    boss_client.post(
        reverse("organiser:staff_password", args=[tournament.slug, boss.pk]),
        {f"u{boss.pk}-password": NEW_PASSWORD, f"u{boss.pk}-again": NEW_PASSWORD},
    )
    assert snapshot(User, StaffRole) == before


def test_a_login_that_runs_another_event_or_the_site_is_not_changed_here(
    boss_client, event, make_tournament, make_user
):
    tournament, _boss = event
    other = make_tournament(slug="autumn")
    shared = staff(other, "shared")
    StaffRole.objects.create(tournament=tournament, user=shared, role=StaffRole.DESK)
    admin = make_user("admin", superuser=True)
    StaffRole.objects.create(tournament=tournament, user=admin, role=StaffRole.ORGANISER)
    outsider = staff(other, "outsider")
    before = snapshot(User, StaffRole)
    refusals = {
        shared: "shared also runs other events or the whole site",
        admin: "admin also runs other events or the whole site",
        outsider: "That login does not run this event.",
    }
    for user, refusal in refusals.items():
        response = boss_client.post(
            reverse("organiser:staff_remove", args=[tournament.slug, user.pk]), follow=True
        )
        assert refusal in text_of(response)
        boss_client.post(
            reverse("organiser:staff_password", args=[tournament.slug, user.pk]),
            {f"u{user.pk}-password": NEW_PASSWORD, f"u{user.pk}-again": NEW_PASSWORD},
        )
    assert snapshot(User, StaffRole) == before
    page = boss_client.get(reverse("organiser:staff", args=[tournament.slug])).content.decode()
    assert "a site administrator changes it" in page


def test_a_desk_login_cannot_add_logins(client, event):
    tournament, _boss = event
    desk = staff(tournament, "desk1")
    client.force_login(desk)
    before = snapshot(User, StaffRole)
    assert _add(client, tournament, role="organiser").status_code == 403
    assert snapshot(User, StaffRole) == before
