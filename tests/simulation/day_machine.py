"""Simulated days: a Hypothesis state machine that runs a small club event (8 to 16 players, two
days of three games, the club-session rules, which let late players and substitutes in) through
random sequences of what happens at a venue, on the real services, and checks after every step
that the app agrees with a reference model kept beside it (``day_model``).

What it does: check-in and check-out; seating a day, reseating it, clearing it; a table's phone
saving a game (a first entry, a fix, the same save sent twice with one submission id, a page
drawn before someone else saved, a second phone on the table, a link that died when the day was
reopened); the desk keying a paper card (games that match are confirmed, those that differ wait
unless the desk says the paper card is right); confirm; "Wrong"; game not played and its undo;
the organiser's correction with and without a reason; closing and reopening a day; withdrawal
and its undo; a late walk-in; a substitute; switching the tie-breaks; hiding the finish after
a game and revealing it; a player moving on to a later event in another club, or the directory
changing their club; a player merged with a person of another event, and the merge undone.
Players are in flights (60-69, 70-79, 80+, or none; a walk-in enters with none), and half the
events seat each flight at tables of its own (no table mixes them; each as even as it can be).
Some events end with a final on day 2 (the best 4 of day 1 at one table, on its own total or
added): the model says who qualifies and when seating it must be refused, and ranks the
finalists first. Others seat day 2 by a movement (the lowest at each table up, the highest
down, the ends wrapping or not; never within flights or beside a final); a step closes day 1
and seats day 2 by it, and the model says which tables the movement must give, or that it must
refuse (day 1 not seated, or neither closed nor settled).
Scores come from ``game_simulator``, so every game typed is one a table could have played.

What it checks after every step: the score history (every version stored, its state, engine,
who went out, each score) is exactly the model's; the not-played marks are; each live sheet has
a score for exactly the players who play that game; the standings read (totals, games, short
marks, ranks, the "after game N" title, games to play and to confirm) equals the model's,
recomputed from the confirmed record, for staff and, never past a hidden finish, for the
public, and one flight's in turn (its players ranked among themselves); the day board's
confirmed / waiting / not played counts; each player's name and club in the standings are the
model's (the club the entry was made with, whatever the directory says since; the name of the
person an entry was merged into); and a refused action said why and changed nothing in the
database. At the end of each example (teardown) every standings output (page, public page,
projector, PDF, workbook, command line, its --public) shows the model's totals, ranks and
title, for every player and for one flight, and each table's phone page the players at the
table and their hand size.

What it leaves out: the views and forms (the phones and desk are the services they call),
seating quality (the seating is read back, checked only for who is seated and even tables),
written card totals, the workbook import, rule changes other than the tie-breaks (the rules are
fixed once play starts), the "average" rule for games not played, and concurrency.
"""

from __future__ import annotations

import random
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field

from day_model import (
    CONFIRMED,
    ENTERED,
    REJECTED,
    DayM,
    EntryM,
    Model,
    MovementM,
    SeatM,
    TableM,
    Version,
    movement_tables,
)
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client
from game_simulator import play_game
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from scoring_factories import add_entries, fresh, link, snapshot

from core.errors import ServiceError
from domain.seating.by_flight import flight_groups, mixed_flights
from domain.seating.pairs import table_sizes
from domain.sheet_checks import TypedSheet, tile_pips
from scoring import review, submit
from scoring.day_board import day_board
from scoring.models import (
    AuditEvent,
    Game,
    GameSheet,
    Score,
    Source,
    TableSubmission,
    UnplayedChange,
    UnplayedGame,
)
from scoring.selectors import sheet_rules
from scoring.services import close_day, reopen_day
from scoring.unplayed import mark_not_played, undo_not_played
from standings.finals import seat_final
from standings.read import requested_standings
from tournaments.access import COMMAND_LINE
from tournaments.models import (
    Day,
    Entry,
    Player,
    RuleSet,
    Seat,
    StaffRole,
    StandingsSettingChange as SettingChange,
    Table,
    Tournament,
)
from tournaments.services.events import create_tournament, set_hidden_finish, set_public_pages
from tournaments.services.late import late_join_walk_in, substitute_walk_in
from tournaments.services.merging import merge_players, undo_merge
from tournaments.services.registration import (
    register_player,
    reinstate_entry,
    set_checked_in,
    withdraw_entry,
)
from tournaments.services.rules import change_rules
from tournaments.services.seating import clear_seating, seat_day

GAMES = 3
WATCHED = (
    GameSheet,
    Score,
    AuditEvent,
    UnplayedGame,
    UnplayedChange,
    TableSubmission,
    Player,
    Entry,
    Seat,
    Table,
    Day,
    RuleSet,
    SettingChange,
    Tournament,
)
# What a late player's missed games count: the model works each out for itself.
LATE_RULES = ("nothing", "highest", "average")
LATE_WORDS = {"highest": "late: highest at the table", "average": "late: table average"}
FLIGHTS = ["60-69", "70-79", "80+"]
# Some events end with a final on day 2 (the best FINAL_QUALIFIERS of day 1 at one table),
# counted on its own or added to day 1; most have none.
FINALS = ("", "", "own", "added")
FINAL_QUALIFIERS = 4
# How day 2 is seated: reshuffled (None), or by a movement (the lowest up, the highest down,
# the ends wrapping or not) that the model works out for itself.
MOVEMENTS = (None, None, MovementM(1, 1, False), MovementM(1, 0, True), MovementM(2, 1, False))
TIE_BREAK_CHOICES = ((), ("most_outs",), ("lowest_worst_game",), ("most_outs", "lowest_worst_game"))


@dataclass
class Tally:
    """What the runs played, printed by the test."""

    events: int = 0
    days_played: int = 0  # days on which any sheet was typed
    steps: int = 0
    refused: int = 0
    held_back: int = 0  # steps after which the public saw less than the staff
    actions: Counter = field(default_factory=Counter)


TALLY = Tally()

PHONE_WAYS = ["first", "first", "retry", "stale", "two phones", "dead link"]
CLUBS = ("Elks", "Moose Lodge", "")


class Refused(Exception):
    """An action the app refused: what it said."""


def movement_rules(movement: MovementM | None) -> dict:
    """The rule changes that seat day 2 by ``movement`` (none: reshuffled, as the preset)."""
    if movement is None:
        return {}
    return {
        "session_seating": "movement",
        "move_up": movement.up,
        "move_down": movement.down,
        "end_tables": "wrap" if movement.wrap else "stay",
    }


def saved_or_refused(saved: submit.Saved) -> submit.Saved:
    """A service's answer, raised as Refused when it stored nothing and said why."""
    if saved.denied or saved.conflicts or saved.refused or saved.warnings:
        message = saved.denied or " ".join(r.message for r in saved.refusals + saved.warnings)
        raise Refused(message or f"{len(saved.conflicts)} conflicting")
    return saved


class SimulatedDays(RuleBasedStateMachine):
    def __init__(self):
        super().__init__()
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        self.old_tables: list[Table] = []

    def teardown(self):
        try:
            if hasattr(self, "model"):
                self.check_every_output()
                self.check_phone_pages()
                TALLY.events += 1
                TALLY.days_played += sum(d.started for d in self.model.days.values())
        finally:
            transaction.set_rollback(True)
            self._atomic.__exit__(None, None, None)

    # ------------------------------------------------------------------------------
    # The event
    # ------------------------------------------------------------------------------

    @initialize(
        players=st.integers(8, 16),
        seed=st.integers(0, 2**32 - 1),
        late_rule=st.sampled_from(LATE_RULES),
        within_flights=st.booleans(),
        final=st.sampled_from(FINALS),
        movement=st.sampled_from(MOVEMENTS),
    )
    def an_event(self, players, seed, late_rule, within_flights, final, movement):
        self.rng = random.Random(seed)
        # A movement seats day 2 from day 1, so it is neither within flights (the rules refuse
        # that) nor beside a final on day 2.
        if movement is not None:
            within_flights, final = False, ""
        self.within_flights = within_flights
        users = get_user_model().objects
        self.organiser = users.create(username="sim-organiser", is_superuser=True)
        t = create_tournament(slug="sim", name="Sim", preset_key="club-session", organiser=None)
        change_rules(
            t,
            {
                "days": 2,
                "games_per_day": GAMES,
                "late_missed_games": late_rule,
                "flights": FLIGHTS,
                "seat_within_flights": within_flights,
                **movement_rules(movement),
            },
            by=COMMAND_LINE,
        )
        self.movement = movement
        TALLY.actions["movement" if movement else "reshuffle"] += 1
        self.desk = {}
        for name in ("desk1", "desk2"):
            self.desk[name] = users.create(username=f"sim-{name}")
            StaffRole.objects.create(tournament=t, user=self.desk[name], role=StaffRole.DESK)
        set_public_pages(t, True)
        self.t = fresh(t)
        self.srules = sheet_rules(self.t.rules)
        added = add_entries(
            self.t, [(f"Player {n:02}", CLUBS[n % len(CLUBS)]) for n in range(1, players + 1)]
        )
        # Some in each flight and some in none; the model's own record of each entry's flight,
        # as of its name and club (a walk-in enters with none).
        self.flights: dict[int, str] = {}
        for entry in added:
            self.flights[entry.pk] = (*FLIGHTS, "")[entry.number % (len(FLIGHTS) + 1)]
            Entry.objects.filter(pk=entry.pk).update(flight=self.flights[entry.pk])
        # The model's own record of each entry's name and club, never read back from the
        # database: only a merge changes a name, and nothing changes an entry's club.
        self.names: dict[int, str] = {}
        self.clubs: dict[int, str] = {}
        self.elsewhere: Tournament | None = None
        days = {d.number: DayM(d.number, d.pk) for d in self.t.days.all()}
        self.model = Model(GAMES, days, late_rule=late_rule)
        TALLY.actions[f"late rule {late_rule}"] += 1
        self.set_final(final)
        # Day 1 starts seated, so most steps play it; reseating and clearing stay steps.
        seat_day(self.t.days.get(number=1), seed=seed % 1000)
        self.sync()

    def sync(self):
        """Read who is seated where and each entry's status back into the model (seating and
        registration decide them; the model keeps the scores)."""
        m = self.model
        for e in Entry.objects.filter(tournament=self.t).select_related("player"):
            assert e.player.name == self.names.setdefault(e.pk, e.player.name), e.number
            assert e.club == self.clubs.setdefault(e.pk, e.club), e.number
            assert e.flight == self.flights.setdefault(e.pk, ""), e.number
            sub = Seat.objects.filter(entry=e, replaces__isnull=False).exists()
            m.entries[e.pk] = EntryM(e.pk, e.number, e.player.name, e.status, sub, e.flight)
        self.tables = {}
        for day in m.days.values():
            kept = {t.pk: t for t in day.tables.values()}
            day.tables = {}
            for table in (
                Table.objects.filter(day_id=day.pk).select_related("day").order_by("number")
            ):
                table.day.tournament = self.t
                self.tables[day.number, table.number] = table
                seats = [
                    SeatM(s.entry_id, s.joined_at_game, s.left_after_game, s.replaces_id)
                    for s in table.seats.order_by("position")
                ]
                old = kept.pop(table.pk, None)
                day.tables[table.number] = TableM(
                    table.pk,
                    table.number,
                    seats,
                    old.versions if old else {},
                    old.unplayed if old else set(),
                    old.unplayed_history if old else [],
                )
            assert not any(t.versions for t in kept.values()), "a table with scores went away"
        current = {t.pk for t in self.tables.values()}
        self.old_tables = [t for t in self.old_tables if t.pk in current]
        self.games = {
            (g.day.number, g.number): g
            for g in Game.objects.filter(day__tournament=self.t).select_related("day")
        }

    # ------------------------------------------------------------------------------
    # Doing things, refused or not
    # ------------------------------------------------------------------------------

    def attempt(self, what, action, *, expect_refusal=None):
        """Run ``action``; a refusal must say why and change nothing. ``expect_refusal``:
        True or False when the model knows the answer, None when the app decides."""
        TALLY.steps += 1
        TALLY.actions[what] += 1
        before = snapshot(*WATCHED)
        try:
            result = action()
        except (ServiceError, Refused) as refusal:
            assert str(refusal).strip(), f"{what}: refused without a word"
            assert snapshot(*WATCHED) == before, f"{what}: refused, yet something changed"
            assert expect_refusal is not False, f"{what}: refused unexpectedly: {refusal}"
            TALLY.refused += 1
            return None
        assert expect_refusal is not True, f"{what}: went through where it must be refused"
        return result

    def open_tables(self):
        return sorted(self.tables)

    def pick_table(self, data, *, started=None):
        keys = self.open_tables()
        return data.draw(st.sampled_from(keys), label="table")

    def table_m(self, key) -> TableM:
        return self.model.days[key[0]].tables[key[1]]

    def simulated(self, key, game: int, used: list[int]):
        """A game the table could have played: the typed sheet and the values it stores."""
        players = self.table_m(key).playing(game)
        played = play_game(self.srules, players, used, self.rng, set_aside=False)
        values = {
            p: 0 if p == played.went_out else tile_pips(h, self.srules.double_blank_value)
            for p, h in played.hands.items()
        }
        typed = TypedSheet(
            game_number=game,
            engine=played.engine,
            scores=dict(values),
            went_out=played.went_out,
            blocked=played.went_out is None,
        )
        return typed, Version(values, played.went_out, played.engine, ENTERED)

    def used_engines(self, key, besides) -> list[int]:
        table = self.table_m(key)
        return [
            table.live(n).engine
            for n in range(1, GAMES + 1)
            if n not in besides and table.live(n) is not None
        ]

    def playable(self, key, game) -> bool:
        return len(self.table_m(key).playing(game)) >= 2

    # ------------------------------------------------------------------------------
    # Registration and seating
    # ------------------------------------------------------------------------------

    @rule(data=st.data(), here=st.booleans())
    def check_in(self, data, here):
        entry = data.draw(st.sampled_from(sorted(self.model.entries)), label="entry")
        m = self.model.entries[entry]
        leaving = not here and m.status == "checked_in" and self.model.started
        expect = True if m.status == "withdrawn" or leaving else None
        self.attempt(
            "check in",
            lambda: set_checked_in(Entry.objects.get(pk=entry), here),
            expect_refusal=expect,
        )
        self.sync()

    @rule(day=st.sampled_from([1, 2]), seed=st.integers(0, 999))
    def seat(self, day, seed):
        if self.movement is not None and day == 2:
            self.seat_by_movement()
            return
        d = self.model.days[day]
        fixed = d.closed or d.started
        done = self.attempt(
            "seat",
            lambda: seat_day(Day.objects.get(pk=d.pk), seed=seed),
            expect_refusal=fixed or None,
        )
        self.sync()
        if done is not None:
            seated = sorted(s.entry for t in d.tables.values() for s in t.seats)
            here = sorted(e.pk for e in self.model.entries.values() if e.status == "checked_in")
            assert seated == here, "seating left out or added someone"
            self.assert_seated_as_the_rules_say(d, here)

    def assert_seated_as_the_rules_say(self, d, here: list[int]) -> None:
        """Tables as even as the rules allow: over everyone, or, seated within flights, within
        each flight's group (the model's own flights), no table mixing two groups."""
        tables = [sorted(s.entry for s in t.seats) for _, t in sorted(d.tables.items())]
        groups = [here]
        if self.within_flights:
            TALLY.actions["seated within flights"] += 1
            found, _ = flight_groups(here, {p: self.flights.get(p, "") for p in here}, FLIGHTS)
            assert mixed_flights(tables, found) == [], "a table mixes the flights"
            groups = [list(g.ids) for g in found]
        for group in groups:
            sizes = [len(t) for t in tables if set(t) <= set(group)]
            assert sorted(sizes, reverse=True) == table_sizes(len(group), 7), sizes

    # ------------------------------------------------------------------------------
    # A final
    # ------------------------------------------------------------------------------

    def set_final(self, final: str) -> None:
        """Day 2 as the final of the best FINAL_QUALIFIERS of day 1, before any score."""
        if not final:
            return
        change_rules(
            self.t,
            {
                "final_qualify": "overall",
                "final_qualifiers": FINAL_QUALIFIERS,
                "final_tables": 1,
                "final_counts": final,
            },
            by=COMMAND_LINE,
        )
        self.t = fresh(self.t)
        self.model.final, self.model.final_qualifiers = final, FINAL_QUALIFIERS
        TALLY.actions[f"final {final}"] += 1

    @precondition(lambda self: hasattr(self, "model") and self.model.final)
    @rule()
    def seat_the_final(self):
        """Seated with the model's qualifiers, or refused where the model says it must be:
        qualifying not finished, the final seated or closed, or too many (or too few) level
        to seat at its one table."""
        m = self.model
        final = m.days[2]
        going = m.qualifiers() if m.qualifying_finished() else set()
        can = m.qualifying_finished() and not final.tables and not final.closed
        can = can and 2 <= len(going) <= 7
        done = self.attempt(
            "seat the final", lambda: seat_final(fresh(self.t)), expect_refusal=not can
        )
        self.sync()
        if done is not None:
            seated = {s.entry for t in final.tables.values() for s in t.seats}
            assert seated == going, "the final seated others than the model's qualifiers"
            TALLY.actions["finals seated"] += 1

    def qualifying_open(self) -> bool:
        day = self.model.days[1]
        return bool(self.model.final and day.tables and not day.closed)

    # Qualifying rarely ends by chance within an example's steps, so an event with a final
    # has the desk key every game left of day 1 from the cards, table by table.
    @precondition(lambda self: hasattr(self, "model") and self.qualifying_open())
    @rule(data=st.data())
    def play_out_qualifying(self, data):
        for key in [k for k in self.open_tables() if k[0] == 1]:
            left = set(range(1, GAMES + 1)) - self.table_m(key).finished(GAMES)
            if left:
                self.desk_card(data, left, matches=True, card_right=True, key=key)

    def seat_by_movement(self):
        """Day 2 by the movement: refused while day 1 waits (or fills one table), else the
        tables the model works out from day 1's confirmed record."""
        d = self.model.days[2]
        here = {e.pk for e in self.model.entries.values() if e.status == "checked_in"}
        want = movement_tables(self.model, self.movement, 2, here, self.t.rules.max_table_size)
        done = self.attempt(
            "seat by movement",
            lambda: seat_day(Day.objects.get(pk=d.pk)),
            expect_refusal=bool(d.closed or d.started or want is None),
        )
        self.sync()
        if done is None:
            return
        TALLY.actions["seated by movement"] += 1
        got = [{s.entry for s in d.tables[n].seats} for n in sorted(d.tables)]
        assert got == want, f"movement: {got} != the model's {want}"
        moves = Day.objects.get(pk=d.pk).moves
        assert sorted(m["entry"] for m in moves) == sorted(here)
        assert all(m["words"] for m in moves)

    # A movement seats day 2 once day 1 is over: closing it is how most examples get there.
    @precondition(lambda self: getattr(self, "movement", None) and not self.model.days[1].closed)
    @rule()
    def close_day_1_and_move_on(self):
        d = self.model.days[1]
        if self.attempt("close", lambda: close_day(Day.objects.get(pk=d.pk), self.organiser)):
            d.closed = True
            self.sync()
        self.seat_by_movement()

    @rule(day=st.sampled_from([1, 2]))
    def clear(self, day):
        d = self.model.days[day]
        self.attempt(
            "clear",
            lambda: clear_seating(Day.objects.get(pk=d.pk)),
            expect_refusal=(d.closed or d.started) or None,
        )
        self.sync()

    # ------------------------------------------------------------------------------
    # A table's phone
    # ------------------------------------------------------------------------------

    def phone_expectation(self, key, game, version: Version):
        """What a phone's save of ``version`` must do: "refused", "same", "entered" or
        "corrected"."""
        table = self.table_m(key)
        if self.model.days[key[0]].closed or game in table.unplayed:
            return "refused"
        live = table.live(game)
        if live is None:
            return "entered"
        if (live.scores, live.went_out, live.engine) == (
            version.scores,
            version.went_out,
            version.engine,
        ):
            return "same"
        return "refused" if live.state == CONFIRMED else "corrected"

    def phone_save(self, key, game, typed, base, *, device, table=None, submission=""):
        return saved_or_refused(
            submit.submit_game(
                table or self.tables[key],
                self.games[key[0], game],
                typed,
                base,
                source=Source.TABLE_LINK,
                device=device,
                submission_id=submission,
                rechecked=True,
            )
        )

    def record_save(self, key, game, version: Version, outcome: str, device: str):
        table = self.table_m(key)
        if outcome in ("entered", "corrected"):
            version.device = device
            table.store(game, version)
        elif outcome == "confirmed":
            table.live(game).state = CONFIRMED

    @precondition(lambda self: self.tables)
    @rule(
        data=st.data(),
        game=st.integers(1, GAMES),
        how=st.sampled_from(PHONE_WAYS),
    )
    def phone(self, data, game, how):
        dead = None
        if how == "dead link" and self.old_tables:
            dead = data.draw(st.sampled_from(self.old_tables), label="dead link")
            key = (dead.day.number, dead.number)
            if key not in self.tables:
                return
        else:
            key = self.pick_table(data)
        if not self.playable(key, game):
            return
        typed, version = self.simulated(key, game, self.used_engines(key, {game}))
        expected = self.phone_expectation(key, game, version)
        base = self.table_m(key).live_version(game)
        if dead is not None:
            self.attempt(
                "phone, dead link",
                lambda: self.phone_save(key, game, typed, base, device="phone-A", table=dead),
                expect_refusal=True,
            )
            return
        if how == "stale":
            stale = base + 1 if base == 0 else base - 1
            live = self.table_m(key).live(game)
            # Drawn before this phone's own entry (its answer lost): checked against that entry.
            own = live is not None and live.state == ENTERED and live.device == "phone-A"
            saved = self.attempt(
                "phone, stale page",
                lambda: self.phone_save(key, game, typed, stale, device="phone-A"),
                expect_refusal=not own or expected == "refused",
            )
            if saved is not None:
                assert [o.action for o in saved.outcomes] == (
                    [] if expected == "same" else [expected]
                )
                self.record_save(key, game, version, expected, "phone-A")
            return
        submission = uuid.uuid4().hex if how == "retry" else ""
        saved = self.attempt(
            f"phone, {how}",
            lambda: self.phone_save(
                key, game, typed, base, device="phone-A", submission=submission
            ),
            expect_refusal=expected == "refused",
        )
        if saved is None:
            return
        outcomes = [o.action for o in saved.outcomes]
        assert outcomes == ([] if expected == "same" else [expected]), (expected, outcomes)
        self.record_save(key, game, version, expected, "phone-A")
        if how == "retry":  # the answer was lost: the page sends the same save again
            again = self.attempt(
                "phone, sent again",
                lambda: self.phone_save(
                    key, game, typed, base, device="phone-A", submission=submission
                ),
                expect_refusal=False,
            )
            assert again.outcomes == [], "a save sent twice was stored twice"
        if how == "two phones" and expected != "same":
            # A second phone drew its page before the first saved: told, nothing replaced.
            other, _ = self.simulated(key, game, self.used_engines(key, {game}))
            self.attempt(
                "phone, second phone",
                lambda: self.phone_save(key, game, other, base, device="phone-B"),
                expect_refusal=True,
            )

    # ------------------------------------------------------------------------------
    # The desk
    # ------------------------------------------------------------------------------

    def card_expectation(self, key, game, version: Version, card_right: bool) -> str:
        """What a desk card's row must do: "refused" (the whole card), "same", "entered",
        "confirmed", "corrected" or "differs" (waits; the rest of the card is saved)."""
        table = self.table_m(key)
        if game in table.unplayed or self.model.days[key[0]].closed:
            return "refused"
        live = table.live(game)
        if live is None:
            return "entered"
        same = (live.scores, live.went_out, live.engine) == (
            version.scores,
            version.went_out,
            version.engine,
        )
        if live.state == CONFIRMED:
            return "same" if same else "refused"
        if same:
            return "confirmed"
        return "corrected" if card_right else "differs"

    def card_rows(self, key, games, matches):
        """The card's rows: a match copies what the table entered, the rest are played anew
        (engines kept apart from the table's other games and from each other)."""
        table = self.table_m(key)
        rows = {}
        for game in games:
            live = table.live(game)
            if matches and live is not None:
                version = Version(dict(live.scores), live.went_out, live.engine, CONFIRMED)
                rows[game] = (self.typed_from(game, version), version)
        for game in games:
            if game not in rows:
                used = self.used_engines(key, set(games)) + [v.engine for _, v in rows.values()]
                typed, version = self.simulated(key, game, used)
                version.state = CONFIRMED
                rows[game] = (typed, version)
        return rows

    @staticmethod
    def typed_from(game, version: Version) -> TypedSheet:
        return TypedSheet(
            game_number=game,
            engine=version.engine,
            scores=dict(version.scores),
            went_out=version.went_out,
            blocked=version.went_out is None,
        )

    @precondition(lambda self: self.tables)
    @rule(
        data=st.data(),
        games=st.sets(st.integers(1, GAMES), min_size=1),
        matches=st.booleans(),
        card_right=st.booleans(),
    )
    def desk_card(self, data, games, matches, card_right, key=None):
        key = key or self.pick_table(data)
        games = sorted(g for g in games if self.playable(key, g))
        if not games:
            return
        rows = self.card_rows(key, games, matches)
        table = self.table_m(key)
        expected = {g: self.card_expectation(key, g, v, card_right) for g, (_, v) in rows.items()}
        # A game that waits keeps the table's entry, engine and all: a card game that takes that
        # engine is refused, with the whole card.
        kept = {g: table.live(g).engine for g, e in expected.items() if e == "differs"}
        if any(
            rows[g][1].engine == engine and g != waiting
            for g, e in expected.items()
            if e in ("entered", "confirmed", "corrected")
            for waiting, engine in kept.items()
        ):
            expected[min(games)] = "refused"
        right = frozenset(g for g in games if card_right)
        inputs = [
            submit.GameInput(self.games[key[0], g], typed, table.live_version(g))
            for g, (typed, _) in rows.items()
        ]
        saved = self.attempt(
            "desk card",
            lambda: saved_or_refused(
                review.save_card(
                    self.tables[key],
                    inputs,
                    {},
                    self.desk["desk1"],
                    "desk-1",
                    rechecked=True,
                    card_right=right,
                )
            ),
            expect_refusal="refused" in expected.values(),
        )
        if saved is None:
            return
        done = {o.game: o.action for o in saved.outcomes}
        assert done == {g: e for g, e in expected.items() if e not in ("same", "differs")}, (
            expected,
            done,
        )
        assert {d.game for d in saved.differs} == {g for g, e in expected.items() if e == "differs"}
        for game, action in done.items():
            self.record_save(key, game, rows[game][1], action, "desk-1")

    def entered_games(self, state=ENTERED):
        return [
            (key, n)
            for key in self.open_tables()
            for n in range(1, GAMES + 1)
            if self.table_m(key).state(n) == state
        ]

    # Hypothesis picks alike among the rules that may run; the phone and the desk card are most
    # of an event, so each has a second rule, or most events would end before a game is typed.
    @precondition(lambda self: self.tables)
    @rule(data=st.data(), game=st.integers(1, GAMES), how=st.sampled_from(PHONE_WAYS))
    def phone_once_more(self, data, game, how):
        self.phone(data, game, how)

    @precondition(lambda self: self.tables)
    @rule(data=st.data(), games=st.sets(st.integers(1, GAMES), min_size=1), matches=st.booleans())
    def desk_card_once_more(self, data, games, matches):
        self.desk_card(data, games, matches, card_right=False)

    @precondition(lambda self: self.entered_games())
    @rule(data=st.data(), stale=st.booleans())
    def confirm(self, data, stale):
        key, game = data.draw(st.sampled_from(self.entered_games()), label="game")
        base = self.table_m(key).live_version(game)
        saved = self.attempt(
            "confirm" + (", stale page" if stale else ""),
            lambda: saved_or_refused(
                review.confirm_game(
                    self.tables[key],
                    self.games[key[0], game],
                    base + stale,
                    self.desk["desk2"],
                    "desk-2",
                )
            ),
            expect_refusal=stale or self.model.days[key[0]].closed,
        )
        if saved is not None:
            assert [o.action for o in saved.outcomes] == ["confirmed"]
            self.table_m(key).live(game).state = CONFIRMED

    @precondition(lambda self: self.entered_games() or self.entered_games(CONFIRMED))
    @rule(data=st.data())
    def wrong(self, data):
        key, game = data.draw(
            st.sampled_from(self.entered_games() + self.entered_games(CONFIRMED)), label="game"
        )
        live = self.table_m(key).live(game)
        saved = self.attempt(
            "wrong",
            lambda: saved_or_refused(
                review.reject_game(
                    self.tables[key],
                    self.games[key[0], game],
                    self.table_m(key).live_version(game),
                    self.desk["desk1"],
                    "the card says otherwise",
                )
            ),
            expect_refusal=live.state == CONFIRMED or self.model.days[key[0]].closed,
        )
        if saved is not None:
            live.state = REJECTED

    @precondition(lambda self: self.entered_games(CONFIRMED))
    @rule(data=st.data(), who=st.sampled_from(["organiser", "organiser", "desk", "no reason"]))
    def correction(self, data, who):
        key, game = data.draw(st.sampled_from(self.entered_games(CONFIRMED)), label="game")
        if not self.playable(key, game):
            return
        typed, version = self.simulated(key, game, self.used_engines(key, {game}))
        version.state = CONFIRMED
        live = self.table_m(key).live(game)
        same = (live.scores, live.went_out, live.engine) == (
            version.scores,
            version.went_out,
            version.engine,
        )
        user = self.desk["desk1"] if who == "desk" else self.organiser
        saved = self.attempt(
            f"correction, {who}",
            lambda: saved_or_refused(
                submit.submit_game(
                    self.tables[key],
                    self.games[key[0], game],
                    typed,
                    self.table_m(key).live_version(game),
                    source=Source.CORRECTION,
                    user=user,
                    reason="" if who == "no reason" else "the card was misread",
                    rechecked=True,
                )
            ),
            expect_refusal=same or who != "organiser" or self.model.days[key[0]].closed,
        )
        if saved is not None:
            assert [o.action for o in saved.outcomes] == ["corrected"]
            self.record_save(key, game, version, "corrected", "")

    @precondition(lambda self: self.tables)
    @rule(data=st.data(), game=st.integers(1, GAMES), undo=st.booleans())
    def not_played(self, data, game, undo):
        key = self.pick_table(data)
        table = self.table_m(key)
        closed = self.model.days[key[0]].closed
        args = (self.tables[key], self.games[key[0], game])
        reason = data.draw(st.sampled_from(["time ran out", "they played it", "  "]))
        if undo:
            done = self.attempt(
                "undo not played",
                lambda: undo_not_played(*args, reason=reason, user=self.desk["desk2"]) or True,
                expect_refusal=closed or game not in table.unplayed or not reason.strip(),
            )
            if done:
                table.unplayed.discard(game)
                table.unplayed_history.append((game, "undone", reason))
            return
        done = self.attempt(
            "not played",
            lambda: mark_not_played(*args, reason=reason, user=self.desk["desk2"]),
            expect_refusal=closed
            or game in table.unplayed
            or table.live(game) is not None
            or not reason.strip(),
        )
        if done:
            table.unplayed.add(game)
            table.unplayed_history.append((game, "marked", reason))

    @rule(day=st.sampled_from([1, 2]), by_desk=st.booleans())
    def close_or_reopen(self, day, by_desk):
        d = self.model.days[day]
        user = self.desk["desk1"] if by_desk else self.organiser
        action = reopen_day if d.closed else close_day
        done = self.attempt(
            "reopen" if d.closed else "close",
            lambda: action(Day.objects.get(pk=d.pk), user),
            expect_refusal=by_desk,
        )
        if done is None:
            return
        if d.closed:  # reopened: every table's link and code are new; the old ones stay dead
            self.old_tables += [t for (n, _), t in self.tables.items() if n == day]
        d.closed = not d.closed
        self.sync()

    # ------------------------------------------------------------------------------
    # Who plays
    # ------------------------------------------------------------------------------

    def entry_numbers(self, withdrawn: bool):
        return sorted(
            e.number for e in self.model.entries.values() if (e.status == "withdrawn") == withdrawn
        )

    @rule(data=st.data(), undo=st.booleans())
    def withdraw(self, data, undo):
        numbers = self.entry_numbers(withdrawn=undo)
        if not numbers:
            return
        number = data.draw(st.sampled_from(numbers), label="player")
        entry = Entry.objects.get(tournament=self.t, number=number)
        if undo:
            self.attempt("reinstate", lambda: reinstate_entry(entry))
        else:
            self.attempt("withdraw", lambda: withdraw_entry(entry), expect_refusal=None)
        self.sync()

    @precondition(lambda self: self.tables)
    @rule(day=st.sampled_from([1, 2]))
    def late_join(self, day):
        self.walk_in_late(day)

    def days_with_a_confirmed_game(self) -> list[int]:
        return sorted(
            number
            for number, day in self.model.days.items()
            if not day.closed
            and any(
                table.state(n) == CONFIRMED
                for table in day.tables.values()
                for n in range(1, GAMES + 1)
            )
        )

    # A late player's missed games count only once confirmed at their table: arriving after a
    # confirmed game is what the event's late rule (drawn in an_event) is about.
    @precondition(lambda self: hasattr(self, "model") and self.days_with_a_confirmed_game())
    @rule(data=st.data())
    def late_join_after_a_confirmed_game(self, data):
        self.walk_in_late(
            data.draw(st.sampled_from(self.days_with_a_confirmed_game()), label="day")
        )

    def walk_in_late(self, day):
        name = f"Late {len(self.model.entries) + 1:02}"
        self.attempt(
            "late join",
            lambda: late_join_walk_in(
                Day.objects.get(pk=self.model.days[day].pk), name=name, by=self.organiser
            ),
        )
        self.sync()

    @precondition(lambda self: self.tables)
    @rule(data=st.data(), day=st.sampled_from([1, 2]), from_game=st.integers(1, GAMES))
    def substitute(self, data, day, from_game):
        seated = sorted(
            self.model.entries[s.entry].number
            for t in self.model.days[day].tables.values()
            for s in t.seats
        )
        if not seated:
            return
        number = data.draw(st.sampled_from(seated), label="replaced")
        name = f"Sub {len(self.model.entries) + 1:02}"
        self.attempt(
            "substitute",
            lambda: substitute_walk_in(
                Day.objects.get(pk=self.model.days[day].pk),
                replaced_number=number,
                name=name,
                from_game=from_game,
                by=self.organiser,
            ),
        )
        self.sync()

    def another_event(self) -> Tournament:
        """The club's next event, where the sim's people may turn up again."""
        if self.elsewhere is None:
            self.elsewhere = create_tournament(
                slug="sim-next", name="Next", preset_key="club-session", organiser=None
            )
        return self.elsewhere

    def person_not_in_the_next_event(self, data):
        entered = Entry.objects.filter(tournament=self.another_event()).values("player_id")
        entries = sorted(
            Entry.objects.filter(tournament=self.t)
            .exclude(player_id__in=entered)
            .values_list("number", flat=True)
        )
        if not entries:
            return None
        number = data.draw(st.sampled_from(entries), label="player")
        return Entry.objects.select_related("player").get(tournament=self.t, number=number)

    @rule(data=st.data(), how=st.sampled_from(["next event", "directory"]))
    def club_changes_elsewhere(self, data, how):
        entry = self.person_not_in_the_next_event(data)
        if entry is None:
            return
        club = f"{entry.club or 'No club'} 2"
        if how == "next event":
            register_player(self.another_event(), player=entry.player, club=club, user=COMMAND_LINE)
        else:
            Player.objects.filter(pk=entry.player_id).update(club=club)
        assert Player.objects.get(pk=entry.player_id).club == club
        TALLY.actions[f"club {how}"] += 1
        self.sync()

    @rule(data=st.data(), into_them=st.booleans(), undo=st.booleans())
    def merge_with_someone_elsewhere(self, data, into_them, undo):
        entry = self.person_not_in_the_next_event(data)
        if entry is None:
            return
        name = f"Elsewhere {Player.objects.count():02}"
        other = register_player(self.another_event(), name=name, user=COMMAND_LINE).player
        keep, drop = (other, entry.player) if into_them else (entry.player, other)
        merged = self.attempt(
            "merge", lambda: merge_players(keep, drop, user=COMMAND_LINE), expect_refusal=False
        )
        self.names[entry.pk] = keep.name
        self.sync()
        if undo:
            # Straight away, before anyone plays again: the entries go back as they were.
            self.attempt(
                "undo merge",
                lambda: undo_merge(merged.merge, user=COMMAND_LINE),
                expect_refusal=False,
            )
            self.names[entry.pk] = entry.player.name
            self.sync()

    @rule(choice=st.sampled_from(TIE_BREAK_CHOICES), by_desk=st.booleans())
    def tie_breaks(self, choice, by_desk):
        user = self.desk["desk1"] if by_desk else self.organiser
        done = self.attempt(
            "tie-breaks",
            lambda: change_rules(self.t, {"tie_breaks": list(choice)}, by=user),
            expect_refusal=by_desk,
        )
        if done is not None:
            self.model.tie_breaks = choice
        self.t = fresh(self.t)

    @rule(
        day=st.sampled_from([1, 2]),
        game=st.sampled_from([None, *range(1, GAMES + 1)]),
        reveal=st.booleans(),
        by_desk=st.booleans(),
    )
    def hidden_finish(self, day, game, reveal, by_desk):
        """The organiser hides the public standings after a game, or reveals them; the end of
        the event hides nothing and is refused, and so is the desk."""
        user = self.desk["desk1"] if by_desk else self.organiser
        if reveal:
            day = game = None
        at_the_end = day == 2 and game in (None, GAMES)
        done = self.attempt(
            "hidden finish",
            lambda: set_hidden_finish(self.t, day, game, by=user),
            expect_refusal=by_desk or at_the_end,
        )
        if done is not None:
            self.model.hidden = None if day is None else (day, game)
        self.t = fresh(self.t)

    # ------------------------------------------------------------------------------
    # After every step
    # ------------------------------------------------------------------------------

    @invariant()
    def history_is_the_model(self):
        """Every version stored, as stored: nothing typed was replaced behind anyone's back."""
        if not hasattr(self, "model"):
            return
        scores: dict[int, dict[int, int]] = {}
        for sheet, entry, points in Score.objects.filter(
            sheet__table__day__tournament=self.t
        ).values_list("sheet_id", "entry_id", "points"):
            scores.setdefault(sheet, {})[entry] = points
        stored = {
            (table, game, version): (scores.get(pk, {}), out, engine, state)
            for pk, table, game, version, out, engine, state in GameSheet.objects.filter(
                table__day__tournament=self.t
            ).values_list(
                "pk", "table_id", "game__number", "version", "went_out_id", "engine_used", "state"
            )
        }
        expected = {}
        marks = set()
        history = {}
        for day in self.model.days.values():
            for table in day.tables.values():
                marks |= {(table.pk, n) for n in table.unplayed}
                if table.unplayed_history:
                    history[table.pk] = table.unplayed_history
                for game, versions in table.versions.items():
                    for number, v in enumerate(versions, start=1):
                        expected[table.pk, game, number] = (v.scores, v.went_out, v.engine, v.state)
        assert stored == expected
        assert (
            set(
                UnplayedGame.objects.filter(table__day__tournament=self.t).values_list(
                    "table_id", "game__number"
                )
            )
            == marks
        )
        stored_history: dict[int, list] = {}
        for row in UnplayedChange.objects.filter(table__day__tournament=self.t).values_list(
            "table_id", "game__number", "action", "reason"
        ):
            stored_history.setdefault(row[0], []).append(row[1:])
        assert stored_history == history

    @invariant()
    def live_sheets_have_the_players_who_play(self):
        if not hasattr(self, "model"):
            return
        for day in self.model.days.values():
            for table in day.tables.values():
                for game in range(1, GAMES + 1):
                    assert len(table.playing(game)) <= 7, ("table over-full", day.number, game)
                    live = table.live(game)
                    if live is not None:
                        assert set(live.scores) == set(table.playing(game)), (
                            day.number,
                            table.number,
                            game,
                        )

    @invariant()
    def standings_are_the_model(self):
        if not hasattr(self, "model"):
            return
        staff = self.model.standings()
        public = self.model.standings(public=True)
        got = requested_standings(self.t, {})
        self.standings_agree(got, staff)
        TALLY.actions["steps with the final first"] += bool(got.finalists)
        self.standings_agree(requested_standings(self.t, {}, public=True), public)
        TALLY.actions["steps with late credit"] += any(r.late for r in staff.rows.values())
        TALLY.held_back += public.title != staff.title
        # One flight a step, in turn: each flight's ranking is the model's own.
        self.flight_turn = getattr(self, "flight_turn", -1) + 1
        flight = FLIGHTS[self.flight_turn % len(FLIGHTS)]
        self.standings_agree(
            requested_standings(self.t, {"flight": flight}), self.model.standings(flight=flight)
        )

    @invariant()
    def names_and_clubs_are_the_model(self):
        if not hasattr(self, "model"):
            return
        for row in requested_standings(self.t, {}).rows:
            pk = row.record.entry_id
            shown = (row.record.name, row.record.club)
            assert shown == (self.names[pk], self.clubs[pk]), row.record.player_number

    @staticmethod
    def standings_agree(got, want):
        assert got.title == want.title
        rows = {
            row.record.name: (
                row.total,
                row.record.games_played,
                bool(row.short_of),
                row.rank,
                row.tied,
                row.record.withdrawn,
                row.record.substitute,
            )
            for row in got.rows
        }
        assert rows == {
            name: (r.total, r.games, r.short, r.rank, r.tied, r.withdrawn, r.substitute)
            for name, r in want.rows.items()
        }
        assert (got.to_confirm, min(got.entered_games, got.to_confirm)) == (
            want.to_confirm,
            min(want.entered, want.to_confirm),
        )

    @invariant()
    def day_board_counts(self):
        if not hasattr(self, "model"):
            return
        for day in self.model.days.values():
            if not day.tables:
                continue
            tiles = {
                tile.number: (tile.confirmed, tile.waiting, tile.not_played)
                for tile in day_board(
                    Day.objects.select_related("tournament__rules").get(pk=day.pk)
                ).tiles
            }
            assert tiles == {
                t.number: tuple(
                    [t.state(n) for n in range(1, GAMES + 1)].count(s)
                    for s in (CONFIRMED, ENTERED, "not played")
                )
                for t in day.tables.values()
            }

    # ------------------------------------------------------------------------------
    # At the end of each example
    # ------------------------------------------------------------------------------

    def check_every_output(self):
        from standings_outputs import PUBLIC_OUTPUTS, every_output

        client = Client()
        client.force_login(self.organiser)
        # Every player's standings, and one flight's (in turn over the examples).
        flight = FLIGHTS[TALLY.events % len(FLIGHTS)]
        for asked in ("", flight):
            for name, shown in every_output(fresh(self.t), client, asked).items():
                want = self.model.standings(public=name in PUBLIC_OUTPUTS, flight=asked)
                self.output_is(name, shown, want)
                if not asked:
                    self.late_marks_are(name, shown, want)

    def late_marks_are(self, name, shown, want):
        """A credited late player's missed games are marked, and the mark explained."""
        credited = any(r.late for r in want.rows.values())
        words = LATE_WORDS.get(self.model.late_rule, "late:")
        assert (words in shown.text) == credited, (name, words)
        if credited:
            TALLY.actions["late credit shown"] += 1

    @staticmethod
    def output_is(name, shown, want):
        """One output as the model expects it: its heading, totals (short marks) and ranks."""
        assert shown.heading == want.title, (name, shown.heading)
        if shown.totals:
            # The workbook keeps totals as numbers, with a note for a short one.
            mark = "" if name == "workbook" else "*"
            assert shown.totals == {
                n: f"{r.total}{mark if r.short else ''}" for n, r in want.rows.items()
            }, (name, shown.totals)
        assert set(shown.ranks) == set(want.rows), name
        for player, printed in shown.ranks.items():
            r = want.rows[player]
            if r.rank is None:
                assert not printed.strip("=").isdigit(), (name, player, printed)
            else:
                assert printed == f"{'=' if r.tied else ''}{r.rank}", (name, player, printed)

    def check_phone_pages(self):
        """Each open table's page: the players at the table for the game it asks for next, and
        the tiles each draws."""
        client = Client()
        for key, table in self.tables.items():
            if self.model.days[key[0]].closed:
                continue
            page = client.get(link(table)).content.decode()
            found = re.search(
                r"· game (\d+): (\d+) players(?:, each player draws (\d+) tiles)?", page
            )
            if found is None:
                continue  # every game entered: no form
            game, players = int(found.group(1)), int(found.group(2))
            assert players == len(self.table_m(key).playing(game)), (key, game)
            hand = self.srules.hand_size(players)
            assert found.group(3) == (str(hand) if hand else None), (key, game)
