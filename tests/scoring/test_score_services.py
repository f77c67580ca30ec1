"""scoring/services.py: the one way scores are written, confirmed, rejected and corrected."""

import datetime

import pytest
from django.utils import timezone
from scoring_factories import T1, seated_day, snapshot, staff, typed

from core.errors import ServiceError
from scoring import review, services, submit
from scoring.models import AuditEvent, GameSheet, SheetState, Source
from scoring.services import GameInput
from tournaments.models import Seat

pytestmark = pytest.mark.django_db


def from_table(w, game=1, scores=T1, base=0, user=None, **kw):
    kw.setdefault("out", "Ann Lee")
    return services.submit_game(
        w.tables[0],
        w.games[game],
        typed(w, game, scores, **kw),
        base,
        source=Source.TABLE_LINK,
        user=user,
    )


def from_desk(w, game=1, scores=T1, base=0, user=None, **kw):
    kw.setdefault("out", "Ann Lee")
    return services.submit_game(
        w.tables[0],
        w.games[game],
        typed(w, game, scores, **kw),
        base,
        source=Source.DESK,
        user=user or w.desk,
    )


def scores_of(sheet):
    return {s.entry.player.name: s.points for s in sheet.scores.select_related("entry__player")}


# ---------------------------------------------------------------------------
# Entry, confirmation, rejection
# ---------------------------------------------------------------------------


def test_a_table_link_entry_is_provisional_and_audited(world):
    outcome = from_table(world)
    sheet = outcome.sheet
    assert (sheet.state, sheet.version, sheet.source) == (SheetState.ENTERED, 1, Source.TABLE_LINK)
    assert sheet.went_out == world.entries["Ann Lee"] and not sheet.blocked
    assert scores_of(sheet) == T1
    event = AuditEvent.objects.get()
    assert (event.action, event.source, event.actor_label) == (
        "entered",
        "table_link",
        "Table 1 link",
    )
    assert {c["name"]: (c["from"], c["to"]) for c in event.changes if "entry" in c} == {
        name: (None, points) for name, points in T1.items()
    }


def test_desk_confirms_a_table_entry_as_it_stands(world):
    sheet = from_table(world).sheet
    confirmed = services.confirm_game(world.tables[0], world.games[1], 1, world.desk)
    assert confirmed.pk == sheet.pk
    sheet.refresh_from_db()
    assert sheet.state == SheetState.CONFIRMED and sheet.confirmed_by == world.desk
    assert sheet.version == 1 and sheet.confirmed_at is not None
    assert list(AuditEvent.objects.values_list("action", flat=True)) == ["entered", "confirmed"]


def test_nobody_confirms_their_own_entry(world):
    # A desk user who opened the table link while logged in is recorded as its author.
    from_table(world, user=world.desk)
    before = snapshot()
    with pytest.raises(ServiceError, match="You entered game 1 yourself"):
        services.confirm_game(world.tables[0], world.games[1], 1, world.desk)
    # Retyping it blind at the desk is no way round it.
    with pytest.raises(services.SheetRefused, match="You entered game 1 yourself"):
        services.save_card(
            world.tables[0],
            [GameInput(world.games[1], typed(world, 1, T1, out="Ann Lee"), 1)],
            {},
            world.desk,
        )
    assert snapshot() == before
    services.confirm_game(world.tables[0], world.games[1], 1, world.desk2)
    assert GameSheet.objects.get().state == SheetState.CONFIRMED


def test_wrong_marks_the_entry_rejected_and_the_table_enters_again(world):
    from_table(world)
    services.reject_game(world.tables[0], world.games[1], 1, world.desk, "Bob had 21")
    first = GameSheet.objects.get()
    assert first.state == SheetState.REJECTED
    event = AuditEvent.objects.get(action="rejected")
    assert event.reason == "Bob had 21" and event.actor == world.desk
    again = from_table(world, scores={**T1, "Bob Roe": 21}).sheet
    assert (again.version, again.state) == (2, SheetState.ENTERED)
    assert scores_of(again)["Bob Roe"] == 21


def test_the_table_fixes_its_own_provisional_game_with_the_version(world):
    from_table(world)
    fixed = from_table(world, scores={**T1, "Cy Doe": 41}, base=1).sheet
    assert fixed.version == 2
    states = dict(GameSheet.objects.values_list("version", "state"))
    assert states == {1: SheetState.SUPERSEDED, 2: SheetState.ENTERED}
    event = AuditEvent.objects.get(action="corrected")
    assert [(c["name"], c["from"], c["to"]) for c in event.changes] == [("Cy Doe", 40, 41)]


def test_the_table_cannot_change_a_confirmed_game(world):
    from_desk(world)
    before = snapshot()
    with pytest.raises(services.SheetRefused, match="confirmed by the desk"):
        from_table(world, scores={**T1, "Cy Doe": 41}, base=1)
    assert snapshot() == before


def test_desk_entry_is_confirmed_and_an_identical_resave_changes_nothing(world):
    sheet = from_desk(world).sheet
    assert sheet.state == SheetState.CONFIRMED and sheet.confirmed_by == world.desk
    before = snapshot()
    assert from_desk(world, base=1) is None
    assert snapshot() == before


# ---------------------------------------------------------------------------
# Blind retype at the desk
# ---------------------------------------------------------------------------


def test_blind_retype_that_matches_confirms(world):
    from_table(world)
    outcomes = services.save_card(
        world.tables[0],
        [GameInput(world.games[1], typed(world, 1, T1, out="Ann Lee"), 1)],
        {},
        world.desk,
    )
    assert [(o.game, o.action) for o in outcomes] == [(1, "confirmed")]
    sheet = GameSheet.objects.get()
    assert sheet.version == 1 and sheet.state == SheetState.CONFIRMED


def test_blind_retype_that_differs_waits_with_the_differences(world):
    from_table(world)
    before = snapshot()
    saved = review.save_card(
        world.tables[0],
        [
            GameInput(
                world.games[1], typed(world, 1, {**T1, "Bob Roe": 21}, out="Ann Lee", engine=11), 1
            )
        ],
        {},
        world.desk,
    )
    assert saved.saved and saved.outcomes == [] and len(saved.differs) == 1
    messages = {p.field: p.message for p in saved.differs[0].problems}
    bob = world.entries["Bob Roe"].pk
    assert messages[f"score-{bob}"] == "The table entered 12 for Bob Roe; you typed 21."
    assert messages["engine"] == "The table entered double 12 as the engine; you typed double 11."
    assert snapshot() == before


# ---------------------------------------------------------------------------
# Corrections after confirmation
# ---------------------------------------------------------------------------


def test_only_an_organiser_with_a_reason_changes_a_confirmed_score(world):
    from_desk(world)
    changed = {**T1, "Di Fox": 9}
    before = snapshot()
    with pytest.raises(services.SheetRefused, match="Only an organiser can change it"):
        from_desk(world, scores=changed, base=1, user=world.desk2)
    with pytest.raises(
        services.SheetRefused, match="Only an organiser can change a confirmed score"
    ):
        services.submit_game(
            world.tables[0],
            world.games[1],
            typed(world, 1, changed, out="Ann Lee"),
            1,
            source=Source.CORRECTION,
            user=world.desk2,
            reason="typo",
        )
    with pytest.raises(services.SheetRefused) as refused:
        services.submit_game(
            world.tables[0],
            world.games[1],
            typed(world, 1, changed, out="Ann Lee"),
            1,
            source=Source.CORRECTION,
            user=world.boss,
            reason="   ",
        )
    assert refused.value.refusals[0].field == "reason"
    assert refused.value.refusals[0].message == "Give a reason for changing a confirmed score."
    assert snapshot() == before

    outcome = services.submit_game(
        world.tables[0],
        world.games[1],
        typed(world, 1, changed, out="Ann Lee"),
        1,
        source=Source.CORRECTION,
        user=world.boss,
        reason="Card said 9",
    )
    assert outcome.action == "corrected"
    new, old = outcome.sheet, GameSheet.objects.get(version=1)
    assert (new.version, new.state, new.confirmed_by) == (2, SheetState.CONFIRMED, world.boss)
    assert old.state == SheetState.SUPERSEDED and scores_of(old)["Di Fox"] == 7
    event = AuditEvent.objects.get(action="corrected")
    assert (event.actor, event.reason, event.source) == (
        world.boss,
        "Card said 9",
        Source.CORRECTION,
    )
    assert event.changes == [
        {"entry": world.entries["Di Fox"].pk, "name": "Di Fox", "from": 7, "to": 9}
    ]
    assert event.sheet == new


def test_a_correction_that_changes_nothing_is_refused(world):
    from_desk(world)
    before = snapshot()
    with pytest.raises(services.SheetRefused, match="Nothing in game 1 was changed"):
        services.submit_game(
            world.tables[0],
            world.games[1],
            typed(world, 1, T1, out="Ann Lee"),
            1,
            source=Source.CORRECTION,
            user=world.boss,
            reason="check",
        )
    assert snapshot() == before


def test_a_correction_records_engine_and_outcome_changes(world):
    from_desk(world)
    services.submit_game(
        world.tables[0],
        world.games[1],
        typed(
            world,
            1,
            {"Ann Lee": 3, "Bob Roe": 12, "Cy Doe": 40, "Di Fox": 7},
            blocked=True,
            engine=10,
        ),
        1,
        source=Source.CORRECTION,
        user=world.boss,
        reason="It was blocked",
    )
    changes = AuditEvent.objects.get(action="corrected").changes
    assert {"field": "engine", "name": "Engine", "from": 12, "to": 10} in changes
    assert {
        "field": "outcome",
        "name": "Went out",
        "from": "Ann Lee went out",
        "to": "blocked",
    } in changes


# ---------------------------------------------------------------------------
# Two saves at once (the sequential half: the threaded half is in test_score_concurrency.py)
# ---------------------------------------------------------------------------


def test_a_save_based_on_an_old_version_is_refused_with_what_it_says_now(world):
    from_table(world)
    from_table(world, scores={**T1, "Cy Doe": 41}, base=1)  # the table fixed it: version 2
    before = snapshot()
    with pytest.raises(services.VersionConflict) as clash:
        services.confirm_game(world.tables[0], world.games[1], 1, world.desk)
    current = clash.value.current[0]
    assert current.version == 2 and current.state == "entered"
    assert current.message.startswith("Game 1 was changed by the table at ")
    assert ("Cy Doe", 41) in current.scores
    with pytest.raises(services.VersionConflict):
        from_table(world, scores={**T1, "Cy Doe": 45}, base=1)
    with pytest.raises(services.VersionConflict):
        services.reject_game(world.tables[0], world.games[1], 1, world.desk)
    assert snapshot() == before


def test_a_new_game_saved_twice_from_two_forms_keeps_the_first(world):
    from_desk(world)
    before = snapshot()
    with pytest.raises(services.VersionConflict) as clash:
        from_table(world, scores={**T1, "Bob Roe": 13}, base=0)
    assert "entered and confirmed by the desk (desk1)" in clash.value.current[0].message
    assert snapshot() == before


def test_the_conflict_message_names_the_desk_and_the_time(world):
    sheet = from_desk(world).sheet
    at = timezone.make_aware(datetime.datetime(2026, 3, 14, 14, 2))  # noqa: DTZ001 (made aware here)
    GameSheet.objects.filter(pk=sheet.pk).update(entered_at=at, confirmed_at=at)
    before = snapshot()
    with pytest.raises(services.VersionConflict) as clash:
        from_desk(world, user=world.desk2, base=0)
    assert clash.value.current[0].message == (
        "Game 1 was entered and confirmed by the desk (desk1) at 14:02; here is what it says now."
    )
    assert snapshot() == before


def test_a_form_based_on_an_entry_the_desk_marked_wrong_is_told_so(world):
    from_table(world)
    services.reject_game(world.tables[0], world.games[1], 1, world.desk)
    before = snapshot()
    with pytest.raises(services.VersionConflict) as clash:
        from_table(world, scores={**T1, "Bob Roe": 13}, base=1)
    assert "marked wrong by the desk" in clash.value.current[0].message
    assert snapshot() == before


# ---------------------------------------------------------------------------
# Every check refuses through the service, and nothing is stored
# ---------------------------------------------------------------------------

ALL = {"Ann Lee": 0, "Bob Roe": 12, "Cy Doe": 40, "Di Fox": 7}

REFUSALS = [
    # (description, scores, keyword args, field, message)
    (
        "two out",
        {**ALL, "Bob Roe": 0},
        {"out": ["Ann Lee", "Bob Roe"]},
        "outcome",
        "Two players went out in game 1: only one can.",
    ),
    (
        "out with points",
        {**ALL, "Ann Lee": 5},
        {},
        "score-Ann Lee",
        "Ann Lee went out, so Ann Lee's score must be 0.",
    ),
    (
        "nobody out, not blocked",
        {**ALL, "Ann Lee": 3},
        {"out": None},
        "outcome",
        "Nobody went out in game 1: tap 'Blocked' if the boneyard ran out and nobody could play.",
    ),
    (
        "blocked and out",
        ALL,
        {"blocked": True},
        "outcome",
        "Game 1 cannot be both blocked and have a player go out: tap 'Blocked' again to clear "
        "it, or clear who went out.",
    ),
    ("zero without going out at 50", {**ALL, "Cy Doe": 0}, {}, "score-Cy Doe", None),
    (
        "text",
        {**ALL, "Bob Roe": "twelve"},
        {},
        "score-Bob Roe",
        "Bob Roe's score must be a whole number, like 0 or 23.",
    ),
    (
        "decimal",
        {**ALL, "Bob Roe": "12.5"},
        {},
        "score-Bob Roe",
        "Bob Roe's score must be a whole number, like 0 or 23.",
    ),
    (
        "negative",
        {**ALL, "Bob Roe": "-4"},
        {},
        "score-Bob Roe",
        "Bob Roe's score cannot be negative.",
    ),
    ("huge", {**ALL, "Bob Roe": "99999999999999999999"}, {}, "score-Bob Roe", None),
    ("blank", {**ALL, "Bob Roe": ""}, {}, "score-Bob Roe", "Enter a score for Bob Roe."),
    ("over the pip ceiling", {**ALL, "Bob Roe": 1200}, {}, "score-Bob Roe", None),
    ("table over the ceiling", {**ALL, "Bob Roe": 600, "Cy Doe": 600}, {}, "", None),
    (
        "engine out of range",
        ALL,
        {"engine": 6},
        "engine",
        "The engine must be a double from 12 down to 7.",
    ),
    ("engine not a number", ALL, {"engine": "big one"}, "engine", None),
    ("player from another table", {**ALL, "Ed Poe": 4}, {}, "score-Ed Poe", None),
    (
        "tiles that do not add up",
        {**ALL, "Bob Roe": 12},
        {"tiles": {"Bob Roe": "6-5"}},
        "score-Bob Roe",
        "Bob Roe's tiles add up to 11, but the score says 12.",
    ),
    (
        "the engine in a hand",
        {**ALL, "Bob Roe": ""},
        {"tiles": {"Bob Roe": "12-12"}},
        "tiles-Bob Roe",
        None,
    ),
]


@pytest.mark.parametrize("case", REFUSALS, ids=[c[0] for c in REFUSALS])
def test_every_check_refuses_through_the_service_and_stores_nothing(world, case):
    _, scores, kwargs, field, message = case
    kwargs = dict(kwargs)
    kwargs.setdefault("out", "Ann Lee")
    before = snapshot()
    with pytest.raises(services.SheetRefused) as refused:
        services.submit_game(
            world.tables[0],
            world.games[1],
            typed(world, 1, scores, **kwargs),
            0,
            source=Source.TABLE_LINK,
        )
    if "-" in field:
        kind, name = field.split("-", 1)
        field = f"{kind}-{world.entries[name].pk}"
    found = {r.field: r.message for r in refused.value.refusals}
    assert field in found, found
    if message:
        assert found[field] == message
    assert all(r.table == 1 and r.game == 1 and r.day == 1 for r in refused.value.refusals)
    assert snapshot() == before


def test_an_engine_used_earlier_that_day_is_refused(world):
    from_table(world)
    before = snapshot()
    with pytest.raises(services.SheetRefused) as refused:
        from_table(world, game=2, scores={**T1}, engine=12)
    assert {r.field: r.message for r in refused.value.refusals}["engine"] == (
        "Double 12 was already the engine in an earlier game at this table today."
    )
    assert snapshot() == before
    # The fallback: nobody held double 11, so the table played double 10; then 11 is still free.
    from_table(world, game=2, engine=10)
    from_table(world, game=3, engine=11)
    assert sorted(GameSheet.objects.values_list("engine_used", flat=True)) == [10, 11, 12]


def test_the_same_engine_at_another_table_is_fine(world):
    from_table(world)
    services.submit_game(
        world.tables[1],
        world.games[1],
        typed(world, 1, {"Ed Poe": 5, "Flo Ng": 0, "Gus Ray": 33}, out="Flo Ng"),
        0,
        source=Source.TABLE_LINK,
    )
    assert GameSheet.objects.filter(engine_used=12).count() == 2


def test_a_player_who_left_has_no_score_in_later_games(world):
    Seat.objects.filter(entry=world.entries["Di Fox"]).update(left_after_game=1)
    before = snapshot()
    with pytest.raises(services.SheetRefused, match="Di Fox has left the tournament"):
        from_table(world, game=2, scores=T1)
    assert snapshot() == before
    three = {k: v for k, v in T1.items() if k != "Di Fox"}
    sheet = from_table(world, game=2, scores=three).sheet
    assert scores_of(sheet) == three
    # Game 1 (before leaving) still needs Di's score.
    before = snapshot()
    with pytest.raises(services.SheetRefused, match="Enter a score for Di Fox"):
        from_table(world, game=1, scores=three)
    assert snapshot() == before


def test_tiles_fill_in_a_blank_score_and_are_kept(world):
    sheet = from_table(
        world,
        scores={**T1, "Bob Roe": "", "Cy Doe": ""},
        tiles={"Bob Roe": "6-6", "Cy Doe": "0-0 11-10"},
    ).sheet
    stored = {
        s.entry.player.name: (s.points, s.tiles)
        for s in sheet.scores.select_related("entry__player")
    }
    assert stored["Bob Roe"] == (12, "6-6")
    assert stored["Cy Doe"] == (71, "0-0 11-10")  # double blank counts 50 in the tournament rules


def test_a_table_link_on_a_closed_day_is_refused(world):
    services.close_day(world.day, world.boss)
    before = snapshot()
    with pytest.raises(ServiceError, match="This table link no longer works"):
        from_table(world)
    assert not GameSheet.objects.exists()
    assert snapshot() == before


def test_a_save_queued_before_the_link_was_renewed_is_refused(world):
    opened = world.tables[0]  # the phone's page was read with the old link
    services.regenerate_table_link(opened, world.boss)
    before = snapshot()
    with pytest.raises(ServiceError, match="This table link no longer works"):
        from_table(world)
    # The facts the pages read say so too, and store nothing.
    saved = submit.submit_game(
        opened, world.games[1], typed(world, 1, T1, out="Ann Lee"), 0, source=Source.TABLE_LINK
    )
    assert saved.denied == "This table link no longer works: ask the desk."
    assert not saved.saved and not saved.outcomes
    assert snapshot() == before


# ---------------------------------------------------------------------------
# The desk card: all or nothing, totals
# ---------------------------------------------------------------------------


def card_inputs(w, games):
    return [
        GameInput(w.games[n], typed(w, n, scores, out=out, engine=engine), 0)
        for n, scores, out, engine in games
    ]


def test_a_card_saves_every_game_at_once_as_confirmed(world):
    games = [(1, T1, "Ann Lee", 12), (2, {**T1, "Ann Lee": 8, "Bob Roe": 0}, "Bob Roe", 11)]
    totals = {world.entries["Ann Lee"].pk: "8", world.entries["Bob Roe"].pk: "12"}
    outcomes = services.save_card(world.tables[0], card_inputs(world, games), totals, world.desk)
    assert [(o.game, o.action) for o in outcomes] == [(1, "entered"), (2, "entered")]
    assert set(GameSheet.objects.values_list("state", flat=True)) == {SheetState.CONFIRMED}


def test_a_card_with_wrong_totals_stores_nothing(world):
    games = [(1, T1, "Ann Lee", 12), (2, {**T1, "Ann Lee": 8, "Bob Roe": 0}, "Bob Roe", 11)]
    cy = world.entries["Cy Doe"].pk
    with pytest.raises(services.SheetRefused) as refused:
        services.save_card(world.tables[0], card_inputs(world, games), {cy: "70"}, world.desk)
    assert [(r.game, r.field, r.message) for r in refused.value.refusals] == [
        (None, f"total-{cy}", "Cy Doe's total says 70, but Cy Doe's games add up to 80.")
    ]
    assert not GameSheet.objects.exists() and not AuditEvent.objects.exists()


def test_a_card_totals_count_games_already_confirmed(world):
    from_desk(world)  # game 1 confirmed earlier
    games = [(2, {**T1, "Ann Lee": 8, "Bob Roe": 0}, "Bob Roe", 11)]
    ann = world.entries["Ann Lee"].pk
    before = snapshot()
    with pytest.raises(services.SheetRefused, match="Ann Lee's games add up to 8"):
        services.save_card(world.tables[0], card_inputs(world, games), {ann: "0"}, world.desk)
    assert snapshot() == before
    services.save_card(world.tables[0], card_inputs(world, games), {ann: "8"}, world.desk)
    assert GameSheet.objects.count() == 2


def test_one_bad_row_on_a_card_stores_nothing(world):
    games = [(1, T1, "Ann Lee", 12), (2, {**T1, "Bob Roe": -3}, "Ann Lee", 11)]
    with pytest.raises(services.SheetRefused) as refused:
        services.save_card(world.tables[0], card_inputs(world, games), {}, world.desk)
    assert [(r.game, r.message) for r in refused.value.refusals] == [
        (2, "Bob Roe's score cannot be negative.")
    ]
    assert not GameSheet.objects.exists()


def test_two_rows_of_one_card_with_the_same_engine_flag_the_later(world):
    games = [(1, T1, "Ann Lee", 12), (2, T1, "Ann Lee", 12)]
    before = snapshot()
    with pytest.raises(services.SheetRefused) as refused:
        services.save_card(world.tables[0], card_inputs(world, games), {}, world.desk)
    assert [(r.game, r.field) for r in refused.value.refusals] == [(2, "engine")]
    assert snapshot() == before


def test_an_organiser_card_can_swap_two_games_engines(world):
    boss = world.boss
    services.save_card(
        world.tables[0],
        card_inputs(world, [(1, T1, "Ann Lee", 12), (2, T1, "Ann Lee", 11)]),
        {},
        boss,
    )
    swap = [
        GameInput(world.games[1], typed(world, 1, T1, out="Ann Lee", engine=11), 1),
        GameInput(world.games[2], typed(world, 2, T1, out="Ann Lee", engine=12), 1),
    ]
    services.save_games(
        [(world.tables[0], swap)],
        source=Source.DESK,
        user=boss,
        reason="Engines were written the wrong way round",
    )
    live = dict(
        GameSheet.objects.filter(state=SheetState.CONFIRMED).values_list(
            "game__number", "engine_used"
        )
    )
    assert live == {1: 11, 2: 12}


def test_staff_of_another_tournament_cannot_enter(world):
    other = seated_day(slug="other")
    outsider = staff(other.tournament, "outsider")
    with pytest.raises(ServiceError, match="organisers and desk staff"):
        from_desk(world, user=outsider)
    with pytest.raises(ServiceError):
        from_table(world)  # fine from the link...
        services.confirm_game(world.tables[0], world.games[1], 1, outsider)  # ...not for them
    assert GameSheet.objects.get().state == SheetState.ENTERED


# ---------------------------------------------------------------------------
# Days and links
# ---------------------------------------------------------------------------


def test_close_reopen_and_regenerate_are_for_organisers(world):
    with pytest.raises(ServiceError, match="Only an organiser"):
        services.close_day(world.day, world.desk)
    services.close_day(world.day, world.boss)
    world.day.refresh_from_db()
    assert world.day.closed_at is not None
    with pytest.raises(ServiceError, match="already closed"):
        services.close_day(world.day, world.boss)
    services.reopen_day(world.day, world.boss)
    world.day.refresh_from_db()
    assert world.day.closed_at is None
    old = world.tables[0].link_token
    table = services.regenerate_table_link(world.tables[0], world.boss)
    assert table.link_token != old and len(table.link_token) >= 43
    with pytest.raises(ServiceError, match="Only an organiser"):
        services.regenerate_table_link(world.tables[0], world.desk)
