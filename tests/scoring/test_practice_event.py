"""A practice event: a copy of the real one with its own table links, never public, in no season,
marked on every page; resetting it clears its scores; the real event's rows never change."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from scoring_factories import (
    T1,
    client_for,
    club_session_with_a_late_player_and_a_substitute,
    fresh,
    link,
    phone_post,
    seated_day,
    staff,
    stored_sheet,
    text_of,
)

from core.errors import ServiceError
from scoring.desk_calls import call_the_desk
from scoring.models import DeskCall, Game, GameSheet, Score
from scoring.practice import practice_event, reset_practice
from tournaments.access import COMMAND_LINE
from tournaments.models import Day, Entry, Payment, Seat, StaffRole, Table, Tournament
from tournaments.selectors import events_free_for_a_season
from tournaments.services.events import set_public_pages
from tournaments.services.seasons import add_events, create_season

pytestmark = pytest.mark.django_db


def real_rows(real):
    """Every row of the real event, field by field."""
    return {
        "tournament": list(Tournament.objects.filter(pk=real.pk).values()),
        "days": list(Day.objects.filter(tournament=real).values()),
        "tables": list(Table.objects.filter(day__tournament=real).values()),
        "seats": list(Seat.objects.filter(day__tournament=real).values()),
        "entries": list(Entry.objects.filter(tournament=real).values()),
        "games": list(Game.objects.filter(day__tournament=real).values()),
        "sheets": list(GameSheet.objects.filter(table__day__tournament=real).values()),
        "scores": list(Score.objects.filter(sheet__table__day__tournament=real).values()),
        "staff": list(StaffRole.objects.filter(tournament=real).values()),
    }


@pytest.fixture
def real():
    w = seated_day()
    w.boss = staff(w.tournament, "boss", StaffRole.ORGANISER)
    w.desk = staff(w.tournament, "desk1")
    first = w.tables[0]
    seats = [s.entry for s in first.seats.order_by("position")]
    stored_sheet(
        first, w.games[1], {e: 0 if i == 0 else 10 for i, e in enumerate(seats)}, out=seats[0]
    )
    return w


def test_the_copy_has_the_players_seating_and_staff_and_links_of_its_own(real):
    # The club played for, not the person's current one: the copy rehearses this event.
    Entry.objects.filter(tournament=real.tournament, number=1).update(club="Elks 1998")
    before = real_rows(real.tournament)
    practice, made = practice_event(real.tournament, by=real.boss)
    assert made and practice.slug == "cup-practice" and practice.name == "Practice: Cup"
    assert practice.practice_of_id == real.tournament.pk and not practice.public_pages
    assert practice.rules.rule_values() == real.tournament.rules.rule_values()
    assert list(
        Entry.objects.filter(tournament=practice).values_list(
            "number", "player_id", "status", "club"
        )
    ) == list(
        Entry.objects.filter(tournament=real.tournament).values_list(
            "number", "player_id", "status", "club"
        )
    )
    assert Entry.objects.get(tournament=practice, number=1).club == "Elks 1998"
    seating = lambda t: sorted(  # noqa: E731
        Seat.objects.filter(day__tournament=t).values_list(
            "day__number", "table__number", "entry__number", "position"
        )
    )
    assert seating(practice) == seating(real.tournament)
    assert sorted(
        Game.objects.filter(day__tournament=practice).values_list("number", "scheduled_engine")
    ) == sorted(
        Game.objects.filter(day__tournament=real.tournament).values_list(
            "number", "scheduled_engine"
        )
    )
    real_tokens = set(
        Table.objects.filter(day__tournament=real.tournament).values_list("link_token", "code")
    )
    for token, code in Table.objects.filter(day__tournament=practice).values_list(
        "link_token", "code"
    ):
        assert all(token != t and code != c for t, c in real_tokens)
    assert not GameSheet.objects.filter(table__day__tournament=practice).exists()
    assert set(
        StaffRole.objects.filter(tournament=practice).values_list("user__username", "role")
    ) == {
        ("boss", StaffRole.ORGANISER),
        ("desk1", StaffRole.DESK),
    }
    assert real_rows(real.tournament) == before


def test_a_practice_link_saves_on_the_practice_table_only(real, client):
    practice, _ = practice_event(real.tournament, by=real.boss)
    before = real_rows(real.tournament)
    table = Table.objects.get(day__tournament=practice, day__number=1, number=1)
    page = text_of(client.get(link(table)))
    assert "Practice event. A copy of Cup for trying the phones" in page
    world = type(real)(
        **{
            **vars(real),
            "entries": {
                e.player.name: e
                for e in Entry.objects.filter(tournament=practice).select_related("player")
            },
        }
    )
    world.games = {g.number: g for g in Game.objects.filter(day__tournament=practice)}
    response = client.post(link(table), phone_post(world, scores=T1))
    assert response.status_code == 302
    assert GameSheet.objects.filter(table=table).count() == 1
    call_the_desk(table, "dispute")
    assert real_rows(real.tournament) == before
    # The real table's link is still the real table's.
    assert "Practice event" not in text_of(client.get(link(real.tables[0])))


def test_resetting_clears_scores_calls_payments_and_reopens_days(real):
    practice, _ = practice_event(real.tournament, by=real.boss)
    table = Table.objects.get(day__tournament=practice, day__number=1, number=1)
    seats = [s.entry for s in table.seats.order_by("position")]
    game = Game.objects.get(day__tournament=practice, number=1)
    stored_sheet(table, game, {e: 0 if i == 0 else 5 for i, e in enumerate(seats)}, out=seats[0])
    call_the_desk(table, "done")
    Payment.objects.create(
        entry=seats[0],
        amount=5,
        method="cash",
        paid_at=game.day.tournament.created_at,
        taken_by_label="x",
    )
    Day.objects.filter(tournament=practice).update(closed_at=practice.created_at)
    before = real_rows(real.tournament)
    again, made = practice_event(practice, by=real.boss)
    assert again.pk == practice.pk and not made
    assert not GameSheet.objects.filter(table__day__tournament=practice).exists()
    assert not DeskCall.objects.filter(table=table).exists()
    assert not Payment.objects.filter(entry__tournament=practice).exists()
    assert not Day.objects.filter(tournament=practice, closed_at__isnull=False).exists()
    assert Seat.objects.filter(day__tournament=practice).count() == 7
    assert real_rows(real.tournament) == before
    # From the real event, the same button resets the same copy.
    assert practice_event(real.tournament, by=real.boss) == (practice, False)
    assert Tournament.objects.filter(practice_of=real.tournament).count() == 1


def test_a_practice_event_is_never_public_and_in_no_season(real):
    practice, _ = practice_event(real.tournament, by=real.boss)
    with pytest.raises(ServiceError, match="never public"):
        set_public_pages(practice, True)
    Tournament.objects.filter(pk=practice.pk).update(public_pages=True)  # even past the service
    for path in ("standings/", "projector/", "find-your-table/", "", "player/1/", "standings.pdf"):
        assert Client().get(f"/t/cup-practice/{path}").status_code == 404, path
    season = create_season(slug="year", name="Year")
    with pytest.raises(ServiceError, match="practice event: it counts in no season"):
        add_events(season, ["cup-practice"])
    # The new season's list of events to add leaves it out.
    assert [e.slug for e in events_free_for_a_season(real.boss)] == ["cup"]


def test_only_an_organiser_makes_or_resets_and_a_real_event_is_never_reset(real):
    before = real_rows(real.tournament)
    with pytest.raises(ServiceError, match="Only an organiser"):
        practice_event(real.tournament, by=real.desk)
    with pytest.raises(ServiceError, match="real event"):
        reset_practice(real.tournament)
    assert real_rows(real.tournament) == before
    assert not Tournament.objects.filter(practice_of=real.tournament).exists()
    response = client_for(real.desk).post("/organiser/t/cup/practice/")
    assert response.status_code == 403
    assert not Tournament.objects.filter(practice_of=real.tournament).exists()


def test_the_overview_button_and_the_command(real):
    boss = client_for(real.boss)
    assert "Make a practice copy" in text_of(boss.get("/organiser/t/cup/"))
    response = boss.post("/organiser/t/cup/practice/", follow=True)
    text = text_of(response)
    assert "Practice copy made: Practice: Cup." in text and "Practice event." in text
    assert "Reset practice" in text
    assert "The practice copy is Practice: Cup" in text_of(boss.get("/organiser/t/cup/"))
    out, err = io.StringIO(), io.StringIO()
    call_command("practice", "cup", stdout=out, stderr=err)
    assert out.getvalue() == "cup-practice\n" and "reset" in err.getvalue()
    with pytest.raises(CommandError, match='no tournament with the slug "nope"'):
        call_command("practice", "nope")
    assert fresh(real.tournament).practice_of_id is None
    Tournament.objects.create(slug="other-practice", name="Taken")
    other = seated_day(slug="other")
    with pytest.raises(CommandError, match='"other-practice" is taken'):
        call_command("practice", "other", stdout=io.StringIO(), stderr=io.StringIO())
    assert not Tournament.objects.filter(practice_of=other.tournament).exists()


def test_a_late_player_and_a_substitute_are_copied_as_they_sit():
    w, _, _, _, _ = club_session_with_a_late_player_and_a_substitute()
    practice, _ = practice_event(w.tournament, by=COMMAND_LINE)

    def seats(t):
        return sorted(
            Seat.objects.filter(day__tournament=t).values_list(
                "table__number",
                "entry__number",
                "joined_at_game",
                "left_after_game",
                "replaces__number",
            )
        )

    assert seats(practice) == seats(w.tournament)
    copied = Seat.objects.filter(day__tournament=practice, replaces__isnull=False).get()
    assert copied.replaces.tournament_id == practice.pk
