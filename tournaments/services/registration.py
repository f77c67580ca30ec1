"""Writes for registration: entering players, correcting them, check-in, withdrawals and
keep-apart pairs. Each action is one function in one transaction."""

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max

from core.errors import ServiceError
from core.formats import when_left
from domain.flights import Birth, flight_named, not_a_flight
from tournaments.access import account_of
from tournaments.hooks import play_record
from tournaments.models import (
    Day,
    Entry,
    KeepApart,
    PlannedDay,
    Player,
    Seat,
    StaffRole,
    Table,
    Tournament,
)
from tournaments.player_import import CLUB_MAX, CONTACT_MAX, MEMBER_NUMBER_MAX, NAME_MAX, name_key
from tournaments.selectors import directory_for, entered_names, first_started_day, seen_later
from tournaments.services.seating import is_fixed, refresh_repeat_counts


def lock_tournament(tournament) -> Tournament:
    # Player numbers are max+1; locking the tournament row makes two desks adding players at
    # once take turns instead of both picking the same number.
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def refuse_if_play_started(tournament, action: str, *, unless_rules_allow: bool = False) -> None:
    """Refuse once play has started; with ``unless_rules_allow``, not when the event's rules let
    late players or substitutes in (they must be entered to be seated)."""
    rules = tournament.rules
    if unless_rules_allow and (rules.late_joins or rules.substitutes):
        return
    started = first_started_day(tournament)
    if started is not None:
        raise ServiceError(
            f"Day {started} already has scores, so {action}: "
            "nobody joins once play has started and there are no substitutes "
            "(Rules: \u201cLate players may join\u201d and \u201cSubstitutes allowed\u201d are "
            "off)."
        )


def checked_flight(tournament, typed: str) -> str:
    """The event's spelling of the flight ``typed`` (blank: none), or refused naming the
    event's flights."""
    typed = " ".join((typed or "").split())
    if not typed:
        return ""
    flights = tournament.rules.flights
    flight = flight_named(flights, typed)
    if flight is None:
        reason = not_a_flight(typed, flights)
        raise ServiceError(reason[0].upper() + reason[1:], field="flight")
    return flight


def _refuse_flight_change_after_play(entry: Entry) -> None:
    """A player's flight is fixed once they are seated on a day that has scores, as the rules
    are once play starts: the flights' standings have counted them where they are. A late
    player entered since and not seated yet may still be given one."""
    started = Seat.objects.filter(entry=entry, day__tables__in=Table.objects.with_scores())
    if started.exists():
        day = first_started_day(entry.tournament)
        held = f"flight {entry.flight}" if entry.flight else "no flight"
        raise ServiceError(
            f"Day {day} already has scores and {entry.player.name} is seated in {held}, so "
            "their flight is fixed, as the rules are once play starts: the flights' standings "
            "count them there. Not changed: flight.",
            field="flight",
        )


def next_number(tournament) -> int:
    highest = Entry.objects.filter(tournament=tournament).aggregate(n=Max("number"))["n"]
    return (highest or 0) + 1


def _refuse_duplicate_name(tournament, name: str, *, exclude_entry=None) -> None:
    other = entered_names(tournament, exclude_entry=exclude_entry).get(name_key(name))
    if other is None:
        return
    if other.withdrawn:
        raise ServiceError(
            f"{other.name} is already entered as player #{other.number} and has withdrawn. "
            'To bring them back, open their player page and choose "Undo the withdrawal". If '
            "this is a different person, add something to tell them apart, such as a middle "
            "initial.",
            field="name",
        )
    raise ServiceError(
        f"{other.name} is already entered as player #{other.number}. If this is a different "
        "person, add something to tell them apart, such as a middle initial.",
        field="name",
    )


def _clean_text(value: str, label: str, limit: int) -> str:
    value = " ".join((value or "").split())
    if len(value) > limit:
        raise ServiceError(
            f"The {label.replace('_', ' ')} is longer than {limit} letters.", field=label
        )
    return value


@transaction.atomic
def register_player(
    tournament,
    *,
    player: Player | None = None,
    name: str = "",
    club: str = "",
    contact: str = "",
    pinned_table: int | None = None,
    member_number: str = "",
    flight: str = "",
    birth: Birth | None = None,
    user=None,
) -> Entry:
    """Enter a player: an existing directory ``player`` (one in ``user``'s directory, see
    selectors.directory_for), or a new one called ``name``. The entry plays for ``club``, or for
    the player's current club when none is given. A club given becomes the player's current one
    unless they have played a later event (:func:`club_is_current`); a member number given is
    theirs. ``flight``: one of the event's flights, or blank. A ``birth`` known is the person's
    (a directory's year or date is kept unless one is given)."""
    tournament = lock_tournament(tournament)
    refuse_if_play_started(tournament, "no one new can be entered", unless_rules_allow=True)
    flight = checked_flight(tournament, flight)
    club = _clean_text(club, "club", CLUB_MAX)
    member_number = _clean_text(member_number, "member_number", MEMBER_NUMBER_MAX)
    if player is not None:
        if not directory_for(user).filter(pk=player.pk).exists():
            raise ServiceError("That player is not in your directory.")
        existing = Entry.objects.filter(tournament=tournament, player=player).first()
        if existing is not None:
            raise ServiceError(f"{player.name} is already entered as player #{existing.number}.")
        _refuse_duplicate_name(tournament, player.name)
        current = {"member_number": member_number}
        if club_is_current(tournament, [player.pk]):
            current["club"] = club
        changed = [key for key, value in current.items() if value and value != getattr(player, key)]
        for key in changed:
            setattr(player, key, current[key])
        if changed:
            player.save(update_fields=changed)
        _set_birth(player, birth)
    else:
        name = _clean_text(name, "name", NAME_MAX)
        if not name:
            raise ServiceError("Type the player's name.", field="name")
        _refuse_duplicate_name(tournament, name)
        player = _new_player(name, club, member_number, birth or Birth())
    if pinned_table is not None and pinned_table < 1:
        raise ServiceError("Table numbers start at 1.", field="pinned_table")
    return Entry.objects.create(
        tournament=tournament,
        player=player,
        club=club or player.club,
        number=next_number(tournament),
        pinned_table=pinned_table,
        contact=_clean_contact(contact),
        flight=flight,
    )


def _new_player(name: str, club: str, member_number: str, birth: Birth) -> Player:
    return Player.objects.create(
        name=name,
        club=club,
        member_number=member_number,
        birth_year=birth.year,
        birth_date=birth.date,
    )


def _set_birth(player: Player, birth: Birth | None, *, clear: bool = False) -> None:
    """Store what is known of when ``player`` was born: a birth given replaces the directory's;
    an unknown one clears it only when asked (a correction), never at an entry."""
    if birth is None or (not birth.known and not clear) or birth == player.birth:
        return
    player.birth_year, player.birth_date = birth.year, birth.date
    player.save(update_fields=["birth_year", "birth_date"])


def _clean_contact(contact: str) -> str:
    contact = (contact or "").strip()
    if len(contact) > CONTACT_MAX:
        raise ServiceError(f"The contact is longer than {CONTACT_MAX} letters.", field="contact")
    return contact


@transaction.atomic
def update_entry(
    entry,
    *,
    name: str,
    club: str,
    contact: str,
    pinned_table: int | None,
    user,
    member_number: str | None = None,
    flight: str | None = None,
    birth: Birth | None = None,
) -> Entry:
    """Correct a player's details in an event ``user`` organises.

    The birth (None: as it is; an unknown Birth clears it) is the directory's, as the name.
    The flight (None: as it is) is one of the event's flights or blank, and fixed once the
    player has played (:func:`_refuse_flight_change_after_play`).

    The club, contact and pinned table are this entry's: the club is the one played for at this
    event, and becomes the player's current club only when this is their latest event (by
    date), so a correction to an old event leaves the directory as it is. The name and member
    number are the directory's. The name changes in the events ``user`` organises only: when the
    player also entered an event run by someone else, the entries of ``user``'s events move to
    a new directory row with the new name, and the other events keep the old one, so no one
    else's standings change.
    """
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    name = _clean_text(name, "name", NAME_MAX)
    if not name:
        raise ServiceError("Type the player's name.", field="name")
    club = _clean_text(club, "club", CLUB_MAX)
    if pinned_table is not None and pinned_table < 1:
        raise ServiceError("Table numbers start at 1.", field="pinned_table")
    contact = _clean_contact(contact)
    flight = _new_flight(entry, flight)
    if name != entry.player.name:
        _rename(entry, name, user)
    if member_number is not None:
        _set_member_number(entry.player, member_number)
    if birth is not None and birth != entry.player.birth:
        _set_birth(entry.player, birth, clear=True)
    _set_club_and_flight(entry, club, flight)
    if (entry.pinned_table, entry.contact) != (pinned_table, contact):
        pin_changed = entry.pinned_table != pinned_table
        entry.pinned_table, entry.contact = pinned_table, contact
        entry.save(update_fields=["pinned_table", "contact"])
        if pin_changed:
            _refresh_open_days(entry.tournament)
    return entry


def _new_flight(entry: Entry, typed: str | None) -> str:
    """The flight ``entry`` is to hold (``typed`` None: the one it holds), checked before
    anything is written."""
    if typed is None:
        return entry.flight
    flight = checked_flight(entry.tournament, typed)
    if flight != entry.flight:
        _refuse_flight_change_after_play(entry)
    return flight


def _set_club_and_flight(entry: Entry, club: str, flight: str) -> None:
    """This event's club and flight: both the entry's, so another season's are not touched."""
    if (club, flight) == (entry.club, entry.flight):
        return
    club_changed = club != entry.club
    entry.club, entry.flight = club, flight
    entry.save(update_fields=["club", "flight"])
    if club_changed:
        _club_is_current_if_latest(entry)


def _set_member_number(player: Player, member_number: str) -> None:
    """The member number is the person's, not the event's: like the name, one for all events."""
    member_number = _clean_text(member_number, "member_number", MEMBER_NUMBER_MAX)
    if member_number != player.member_number:
        player.member_number = member_number
        player.save(update_fields=["member_number"])


def club_is_current(tournament, player_ids, entry_pk: int | None = None) -> set[int]:
    """Of ``player_ids``, those whose club at ``tournament`` is their current one: no later
    event (selectors.seen_later) and not a practice copy, which is a rehearsal. ``entry_pk``:
    the entry already made; None while it is being made."""
    if tournament.is_practice:
        return set()
    return set(player_ids) - seen_later(player_ids, tournament, entry_pk)


def _club_is_current_if_latest(entry: Entry) -> None:
    player = entry.player
    if player.club != entry.club and club_is_current(entry.tournament, [player.pk], entry.pk):
        player.club = entry.club
        player.save(update_fields=["club"])


def _rename(entry: Entry, name: str, user) -> None:
    """Give ``entry``'s player a new name in the events ``user`` organises."""
    player = entry.player
    organised = set(
        StaffRole.objects.filter(user=account_of(user), role=StaffRole.ORGANISER).values_list(
            "tournament_id", flat=True
        )
    )
    organised.add(entry.tournament_id)  # the caller checked the user may run this event
    entries = list(Entry.objects.select_for_update().filter(player=player).order_by("pk"))
    mine = [e for e in entries if e.tournament_id in organised]
    for other in mine:
        _refuse_duplicate_name(other.tournament, name, exclude_entry=other)
    if len(mine) == len(entries):
        player.name = name
        player.save(update_fields=["name"])
        return
    renamed = Player.objects.create(name=name, club=player.club, member_number=player.member_number)
    Entry.objects.filter(pk__in=[e.pk for e in mine]).update(player=renamed)
    entry.player = renamed


def _refresh_open_days(tournament) -> None:
    """After a pin changes: the lower bound respects pins, so recompute it for the days whose
    seating can still change. A day already played keeps the figures of the tables it was played
    at; a bound from a pin set later could exceed the repeats those tables actually had."""
    seated = Day.objects.filter(tournament=tournament, seated_at__isnull=False).order_by("number")
    for day in seated:
        if not is_fixed(day):
            refresh_repeat_counts(tournament, day.number)
            return


@dataclass
class WithdrawOutcome:
    entry: Entry
    # (day number, last game played) for a day in progress
    left_during: list[tuple[int, int]]
    # days seated but not started: the player's seat was taken out, so reseat for even tables
    unseated_days: list[int]
    # days planned (not seated) with the player at a table: seating them adjusts the plan
    planned_days: list[int] = field(default_factory=list)


@transaction.atomic
def withdraw_entry(
    entry, after_game: int | None = None, day_number: int | None = None
) -> WithdrawOutcome:
    """Mark a player withdrawn from day ``day_number`` on (by default the latest day under way
    where they have a seat). On that day, when it is under way, the player's table plays on
    without them after game ``after_game`` (by default the last game the table has entered: the
    organiser may choose a later one when the paper card has their score, or an earlier one).
    An earlier day still open keeps them: refused while their table there has a game of theirs
    still to play. On a later day, and on a seated day not yet started, the seat is removed."""
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has already withdrawn.")
    seats = list(
        Seat.objects.filter(entry=entry, day__closed_at__isnull=True)
        .select_related("day__tournament__rules", "table")
        .order_by("day__number")
    )
    started = {held.pk for held in seats if held.day.scores_started()}
    if day_number is None:
        day_number = max((h.day.number for h in seats if h.pk in started), default=None)
    entry.status = Entry.WITHDRAWN
    entry.save(update_fields=["status"])
    left_during, unseated = [], []
    for held in seats:
        number = held.day.number
        if day_number is not None and number < day_number:
            _refuse_unfinished(entry, held, day_number)
        elif held.pk not in started:
            unseated.append(number)
            held.delete()
        elif held.left_after_game is None:
            # A later day already under way: they leave it before their first game there.
            chosen = after_game if number == day_number else 0
            if chosen is None and not Table.objects.with_scores().filter(pk=held.table_id).exists():
                chosen = 0  # other tables have started but this one has not entered a game
            held.left_after_game = _leaving_game(entry, held, chosen)
            held.save(update_fields=["left_after_game"])
            left_during.append((number, held.left_after_game))
        else:
            left_during.append((number, held.left_after_game))
    if unseated:
        refresh_repeat_counts(entry.tournament, min(unseated))
    planned = [
        held.day.number
        for held in PlannedDay.objects.filter(day__tournament=entry.tournament_id).select_related(
            "day"
        )
        if entry.pk in held.entry_ids
    ]
    return WithdrawOutcome(
        entry=entry,
        left_during=left_during,
        unseated_days=sorted(unseated),
        planned_days=sorted(planned),
    )


def _refuse_unfinished(entry, seat, day_number: int) -> None:
    """A withdrawal from ``day_number`` on leaves an earlier open day as it is: refused while
    the player's table there has a game they play not yet entered (or marked not played)."""
    games = seat.day.tournament.rules.games_per_day
    finished = play_record().finished_games(seat.table)
    waiting = [n for n in range(1, games + 1) if seat.plays_game(n) and n not in finished]
    if waiting:
        name, day, table = entry.player.name, seat.day.number, seat.table.number
        raise ServiceError(
            f"Day {day}, table {table} has not entered game {waiting[0]} yet, which {name} "
            f"plays: a withdrawal from day {day_number} on would change day {day}'s games. "
            f"Withdraw {name} from day {day} instead, or once table {table} has entered "
            f"game {waiting[-1]}.",
            field="day",
        )


def _leaving_game(entry, seat, after_game: int | None) -> int:
    """The last game ``entry`` plays at ``seat``'s table: ``after_game`` checked against what
    the table has entered (every game up to it has their score, none after it does), or the
    last game the table has entered."""
    if after_game is None:
        return play_record().last_game_entered(seat.table)
    games = seat.day.tournament.rules.games_per_day
    name, day, table = entry.player.name, seat.day.number, seat.table.number
    if not 0 <= after_game <= games:
        raise ServiceError(
            f"Day {day}: choose a game from 0 (before the first game) to {games}.",
            field="after_game",
        )
    for number, scored in sorted(play_record().scores_by_game(seat.table).items()):
        if number > after_game and entry.pk in scored:
            raise ServiceError(
                f"Day {day}, table {table}: game {number} already has a score for {name}: "
                f"choose game {number} or later, or have the desk mark game {number} wrong "
                "first.",
                field="after_game",
            )
        if number <= after_game and entry.pk not in scored and seat.plays_game(number):
            raise ServiceError(
                f"Day {day}, table {table}: game {number} was entered without {name}, so they "
                f"left before it: choose game {number - 1} or earlier.",
                field="after_game",
            )
    return after_game


def _left_seats(entry) -> list[Seat]:
    return list(
        Seat.objects.filter(entry=entry, day__closed_at__isnull=True, left_after_game__isnull=False)
        .select_related("table", "day__tournament__rules")
        .prefetch_related("table__seats__entry__player")
    )


def _seat_taken_refusal(entry, seat: Seat) -> str:
    """Why the table a player left has no room for them again, or "": a substitute took their
    seat, or late players filled it, for a game after the one they left after."""
    rules = seat.day.tournament.rules
    joined = [s for s in seat.table.seats.all() if s.pk != seat.pk and s.joined_at_game]
    where = f"day {seat.day.number}, table {seat.table.number}"
    name = entry.player.name
    for other in joined:
        if other.replaces_id == entry.pk:
            return (
                f"{other.entry.player.name} plays in {name}'s seat at {where} from game "
                f"{other.joined_at_game}, so the withdrawal cannot be undone now."
            )
    for game in range((seat.left_after_game or 0) + 1, rules.games_per_day + 1):
        playing = [s for s in seat.table.seats.all() if s.pk != seat.pk and s.plays_game(game)]
        if len(playing) >= rules.max_table_size:
            late = ", ".join(s.entry.player.name for s in joined if s.plays_game(game))
            return (
                f"{where.capitalize()} has {len(playing)} players for game {game} "
                f"({late} joined since), the most a table seats, so {name} cannot come back "
                "to it: the withdrawal cannot be undone now."
            )
    return ""


def reinstate_refusal(entry, left: list[Seat] | None = None) -> str:
    """Why a withdrawal can no longer be undone, or "" while it can: the one rule the service
    applies and the player's page shows beside its disabled button."""
    left = _left_seats(entry) if left is None else left
    if not left:
        started = first_started_day(entry.tournament)
        if started is not None:
            return (
                f"Day {started} already has scores, so {entry.player.name} cannot come back: "
                "nobody joins once play has started and there are no substitutes."
            )
    for seat in left:
        later = [
            n for n in play_record().scores_by_game(seat.table) if n > (seat.left_after_game or 0)
        ]
        if later:
            return (
                f"Day {seat.day.number}, table {seat.table.number} has entered game "
                f"{min(later)} since {entry.player.name} left "
                f"{when_left(seat.left_after_game)}, so the withdrawal cannot be undone now: "
                "the table played on without them."
            )
        taken = _seat_taken_refusal(entry, seat)
        if taken:
            return taken
    return ""


@transaction.atomic
def reinstate_entry(entry) -> Entry:
    """Undo a withdrawal made by mistake: while play has not started, or, for a player who left
    during a day, until their table enters a game after the one they left after."""
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status != Entry.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has not withdrawn.")
    left = _left_seats(entry)
    refusal = reinstate_refusal(entry, left)
    if refusal:
        raise ServiceError(refusal)
    _refuse_duplicate_name(entry.tournament, entry.player.name, exclude_entry=entry)
    for seat in left:
        seat.left_after_game = None
        seat.save(update_fields=["left_after_game"])
    entry.status = Entry.CHECKED_IN if left else Entry.REGISTERED
    entry.save(update_fields=["status"])
    return entry


@transaction.atomic
def set_checked_in(entry, here: bool) -> Entry:
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == Entry.WITHDRAWN:
        raise ServiceError(f"{entry.player.name} has withdrawn and cannot be checked in.")
    wanted = Entry.CHECKED_IN if here else Entry.REGISTERED
    if entry.status == wanted:
        return entry
    if here:
        refuse_if_play_started(
            entry.tournament,
            f"{entry.player.name} cannot be checked in now",
            unless_rules_allow=True,
        )
    else:
        refuse_if_play_started(
            entry.tournament,
            f"{entry.player.name} cannot be checked out; mark them withdrawn if they have left",
        )
    entry.status = wanted
    entry.save(update_fields=["status"])
    return entry


@transaction.atomic
def check_everyone_in(tournament) -> int:
    """A club night where the whole list is present: every registered player checked in at
    once (withdrawn players stay withdrawn). Returns how many were checked in."""
    tournament = lock_tournament(tournament)
    refuse_if_play_started(
        tournament, "the whole list cannot be checked in now; check in a late arrival by name"
    )
    return Entry.objects.filter(tournament=tournament, status=Entry.REGISTERED).update(
        status=Entry.CHECKED_IN
    )


@transaction.atomic
def add_keep_apart(first: Entry, second: Entry) -> KeepApart:
    if first.pk == second.pk:
        raise ServiceError("A player cannot be kept apart from themself.")
    if first.tournament_id != second.tournament_id:
        raise ServiceError("Both players must be entered in the same event.")
    low, high = sorted((first, second), key=lambda e: e.pk)
    pair, created = KeepApart.objects.get_or_create(
        tournament_id=first.tournament_id, first=low, second=high
    )
    if not created:
        raise ServiceError(f"{low.player.name} and {high.player.name} are already kept apart.")
    return pair


@transaction.atomic
def remove_keep_apart(first: Entry, second: Entry) -> None:
    low, high = sorted((first, second), key=lambda e: e.pk)
    deleted, _ = KeepApart.objects.filter(first=low, second=high).delete()
    if not deleted:
        raise ServiceError(f"{low.player.name} and {high.player.name} were not kept apart.")
