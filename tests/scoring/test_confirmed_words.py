"""A game the desk keyed (stored confirmed at once) is described as confirmed wherever the
desk or the organiser is told what a game says now: never "game 1 was entered" alone."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from scoring_factories import T1, client_for, phone_enters, snapshot, text_of, typed

from scoring import services
from scoring.models import GameSheet, Source

pytestmark = pytest.mark.django_db

AT = timezone.make_aware(datetime.datetime(2026, 3, 14, 14, 2))  # noqa: DTZ001 (made aware here)


def key_at_desk(w, user, base=0, scores=T1):
    return services.submit_game(
        w.tables[0],
        w.games[1],
        typed(w, 1, scores, out="Ann Lee"),
        base,
        source=Source.DESK,
        user=user,
    )


def at_two_past(sheet):
    GameSheet.objects.filter(pk=sheet.pk).update(entered_at=AT, confirmed_at=AT)


def clash_message(w, user, base) -> str:
    before = snapshot()
    with pytest.raises(services.VersionConflict) as clash:
        key_at_desk(w, user, base=base, scores={**T1, "Bob Roe": 13})
    assert snapshot() == before
    return clash.value.current[0].message


def test_a_game_the_desk_keyed_is_entered_and_confirmed(world):
    at_two_past(key_at_desk(world, world.desk).sheet)
    assert clash_message(world, world.desk2, base=0) == (
        "Game 1 was entered and confirmed by the desk (desk1) at 14:02; here is what it says now."
    )


def test_a_game_the_organiser_corrected_is_changed_and_confirmed(world):
    key_at_desk(world, world.desk)
    corrected = services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, {**T1, "Cy Doe": 41}, out="Ann Lee"),
        1,
        source=Source.CORRECTION,
        user=world.boss,
        reason="Card said 41",
    )
    at_two_past(corrected.sheet)
    assert clash_message(world, world.desk2, base=1) == (
        "Game 1 was changed and confirmed by the organiser (boss) at 14:02; "
        "here is what it says now."
    )


def test_a_game_the_table_entered_and_the_desk_confirmed_names_who_confirmed(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    services.confirm_game(world.tables[0], world.games[1], 1, world.desk)
    assert clash_message(world, world.desk2, base=0).startswith(
        "Game 1 was confirmed by the desk (desk1) at "
    )


def test_the_desk_card_page_says_confirmed(world):
    url = reverse("organiser:score_card", args=[world.tournament.slug, 1, 1])
    data = {
        "g1-base": "0",
        "g1-engine": str(world.games[1].scheduled_engine),
        "g1-out": str(world.entries["Ann Lee"].pk),
        **{f"g1-score-{world.entries[n].pk}": str(p) for n, p in {**T1, "Bob Roe": 13}.items()},
    }
    key_at_desk(world, world.desk)  # after the second desk's page was drawn
    before = snapshot()
    page = text_of(client_for(world.desk2).post(url, data))
    assert re.search(r"Game 1 was entered and confirmed by the desk \(desk1\) at \d\d:\d\d", page)
    assert "Game 1 was entered by" not in page
    assert snapshot() == before
