"""A phone whose save reached the laptop but whose answer the Wi-Fi lost still holds the version
its page was drawn from. What the scorekeeper typed since is not a clash with the phone's own
entry (issue 24): the same numbers store nothing more, changed ones are stored as the table's
change. Another phone, or the desk's confirmation, is still a clash."""

import pytest
from scoring_factories import T1, snapshot, typed

from scoring import review, services
from scoring.models import GameSheet, SheetState, Source

pytestmark = pytest.mark.django_db


def phone(world, scores, *, device, submission, base=0):
    return services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, scores, out="Ann Lee"),
        base,
        source=Source.TABLE_LINK,
        device=device,
        submission_id=submission,
    )


def test_the_same_numbers_typed_again_after_a_lost_answer_store_nothing_more(world):
    phone(world, T1, device="phone-a", submission="s1")
    before = snapshot()
    assert phone(world, T1, device="phone-a", submission="s2") is None
    assert snapshot() == before


def test_a_number_changed_after_a_lost_answer_is_stored_as_the_tables_change(world):
    phone(world, T1, device="phone-a", submission="s1")
    changed = {**T1, "Di Fox": 18}
    outcome = phone(world, changed, device="phone-a", submission="s2")
    assert outcome.action == "corrected"
    live = GameSheet.objects.get(state=SheetState.ENTERED)
    assert live.version == 2
    assert {s.entry.player.name: s.points for s in live.scores.all()}["Di Fox"] == 18


def test_another_phone_is_still_a_clash(world):
    phone(world, T1, device="phone-a", submission="s1")
    before = snapshot()
    with pytest.raises(services.VersionConflict):
        phone(world, {**T1, "Di Fox": 18}, device="phone-b", submission="s2")
    with pytest.raises(services.VersionConflict):
        phone(world, {**T1, "Di Fox": 18}, device="", submission="s3")  # no mark: not known
    assert snapshot() == before


def test_a_confirmed_entry_is_still_a_clash_for_the_phone_that_made_it(world):
    first = phone(world, T1, device="phone-a", submission="s1")
    review.confirm_game(world.tables[0], world.games[1], first.sheet.version, world.desk)
    before = snapshot()
    with pytest.raises(services.VersionConflict):
        phone(world, {**T1, "Di Fox": 18}, device="phone-a", submission="s2")
    assert snapshot() == before
