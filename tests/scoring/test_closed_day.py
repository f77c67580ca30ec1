"""A closed day's scores are final (issue 23): the desk's card, its confirm and "Wrong", and
the organiser's correction are each refused with the day named, and change nothing, until the
day is reopened."""

import pytest
from scoring_factories import T1, client_for, phone_enters, snapshot, text_of, typed
from test_desk_cards import card_data, card_url

from core.errors import ServiceError
from scoring import review, services
from scoring.models import GameSheet, SheetState, Source

pytestmark = pytest.mark.django_db

CLOSED = "Day 1 is closed: reopen it to change its scores."


def test_the_desk_card_on_a_closed_day_is_refused_with_the_day_named(world):
    services.close_day(world.day, world.boss)
    before = snapshot()
    response = client_for(world.desk).post(card_url(world), card_data(world, {1: (T1, "Ann Lee")}))
    assert response.status_code == 200
    assert CLOSED in text_of(response)
    assert snapshot() == before


def test_confirm_and_wrong_on_a_closed_day_are_refused(world):
    sheet = phone_enters(world, 0, 1, T1, "Ann Lee").sheet
    services.close_day(world.day, world.boss)
    before = snapshot()
    table, game = world.tables[0], world.games[1]
    for saved in (
        review.confirm_game(table, game, sheet.version, world.desk),
        review.confirm_card(table, {1: sheet.version}, world.desk),
        review.reject_game(table, game, sheet.version, world.desk, "the card says 9"),
    ):
        assert [r.message for r in saved.refusals] == [CLOSED] and not saved.outcomes
    assert snapshot() == before
    assert GameSheet.objects.get().state == SheetState.ENTERED


def test_a_correction_waits_for_the_day_to_be_reopened(world):
    phone_enters(world, 0, 1, T1, "Ann Lee")
    review.confirm_game(world.tables[0], world.games[1], 1, world.desk)
    services.close_day(world.day, world.boss)
    changed = {**T1, "Di Fox": 9}

    def correct():
        return services.submit_game(
            world.tables[0],
            world.games[1],
            typed(world, 1, changed, out="Ann Lee"),
            1,
            source=Source.CORRECTION,
            user=world.boss,
            reason="Card said 9",
        )

    before = snapshot()
    with pytest.raises(ServiceError, match=CLOSED):
        correct()
    assert snapshot() == before
    services.reopen_day(world.day, world.boss)
    assert correct().action == "corrected"


def test_the_card_pages_of_a_closed_day_say_so_at_the_top(world):
    services.close_day(world.day, world.boss)
    check_url = card_url(world).replace("/card/", "/check/")
    for user, reopen in ((world.desk, False), (world.boss, True)):
        for url in (card_url(world), check_url):
            response = client_for(user).get(url)
            assert response.status_code == 200, url
            assert CLOSED in text_of(response)
            assert ("Reopen day 1" in text_of(response)) == reopen
