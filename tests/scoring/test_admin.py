"""The admin shows what only services may write, and changes none of it."""

import pytest
from django.urls import reverse
from scoring_factories import T1, seated_day, snapshot, typed

from scoring.models import AuditEvent, GameSheet
from tournaments.models import Day, Entry, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def world_with_a_confirmed_game(organiser):
    from scoring import services

    world = seated_day(organiser=organiser)
    services.save_card(
        world.tables[0],
        [services.GameInput(world.games[1], typed(world, 1, T1, out="Ann Lee"))],
        {},
        organiser,
    )
    return world


@pytest.mark.parametrize("model", [GameSheet, AuditEvent, Seat, Entry, Day])
def test_a_superuser_cannot_change_or_delete_service_records_in_the_admin(
    client, organiser, world_with_a_confirmed_game, model
):
    client.force_login(organiser)
    row = model.objects.order_by("pk").first()
    meta = row._meta
    change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk])
    delete = reverse(f"admin:{meta.app_label}_{meta.model_name}_delete", args=[row.pk])
    before = snapshot()
    assert client.get(change).status_code == 200  # shown, read-only
    assert client.post(change, {}).status_code == 403
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert snapshot() == before
    assert model.objects.filter(pk=row.pk).exists()


def test_the_admin_offers_no_add_page_for_scores(client, organiser):
    client.force_login(organiser)
    assert client.get(reverse("admin:scoring_gamesheet_add")).status_code == 403
