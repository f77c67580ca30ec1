"""Reads of the players entered: the list and the directory, check-in, who a seating seats, and
a player's days (where they sit, when they left, their games)."""

from dataclasses import dataclass

from django.db.models import Count, F, Prefetch, Q

from core.search import matches, search_key, surname_key
from domain.flights import flight_warnings
from domain.people import KnownPerson, contact_keys
from tournaments.hooks import play_record
from tournaments.models import Entry, KeepApart, Player, Seat, StaffRole, Table
from tournaments.player_import import name_key
from tournaments.selectors.events import play_started


def players_to_seat(tournament) -> list[Entry]:
    """Who a seating seats: checked-in players; when nobody has been checked in, every player
    still entered."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.WITHDRAWN)
        .select_related("player")
        .order_by("number")
    )
    return to_seat_among(entries)


def to_seat_among(entries: list[Entry]) -> list[Entry]:
    """The rule of :func:`players_to_seat`, applied to entries already read."""
    playing = [e for e in entries if e.status != Entry.WITHDRAWN]
    here = [e for e in playing if e.status == Entry.CHECKED_IN]
    return here or playing


@dataclass(frozen=True)
class EnteredName:
    pk: int
    number: int
    name: str
    withdrawn: bool


def entered_names(tournament, *, exclude_entry=None) -> dict[str, EnteredName]:
    """:func:`name_key` of every name entered in the event -> its entry. One query.

    Withdrawn entries count: a player who comes back is brought back with "Undo the withdrawal"
    (same number, same history), not entered a second time under the same name.
    """
    entries = Entry.objects.filter(tournament=tournament)
    if exclude_entry is not None:
        entries = entries.exclude(pk=exclude_entry.pk)
    rows = [
        EnteredName(pk, number, name, status == Entry.WITHDRAWN)
        for pk, number, name, status in entries.values_list(
            "pk", "number", "player__name", "status"
        )
    ]
    # Older data may hold a name twice (withdrawn names once did not count): the entry still
    # playing, then the lowest number, is the one a name refers to, so it goes in last.
    rows.sort(key=lambda e: (not e.withdrawn, -e.number))
    return {name_key(e.name): e for e in rows}


def keep_apart_partners(tournament) -> dict[int, list[Entry]]:
    """Entry id -> the entries it must sit apart from. One query."""
    partners: dict[int, list[Entry]] = {}
    pairs = KeepApart.objects.filter(tournament=tournament).select_related(
        "first__player", "second__player"
    )
    for pair in pairs:
        partners.setdefault(pair.first_id, []).append(pair.second)
        partners.setdefault(pair.second_id, []).append(pair.first)
    for entries in partners.values():
        entries.sort(key=lambda e: e.number)
    return partners


def entry_list(tournament, *, query: str = "", by_surname: bool = False) -> list[Entry]:
    """Every entry, by player number (or by surname, then number), each with ``keep_apart`` (a
    list of entries). Two queries."""
    entries = (
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("number")
    )
    listed = [entry for entry in entries if matches(query, entry.player.name)]
    if by_surname:
        listed.sort(key=lambda e: surname_key(e.player.name))  # stable: equal names by number
    partners = keep_apart_partners(tournament)
    for entry in listed:
        entry.keep_apart = partners.get(entry.pk, [])
    return listed


def flight_notes(tournament) -> list[str]:
    """The flights' warnings (domain.flights.flight_warnings) for the players still in the
    event. One query, none without flights."""
    rules = tournament.rules
    if not rules.flights:
        return []
    counts = (
        Entry.objects.filter(tournament=tournament)
        .exclude(status=Entry.WITHDRAWN)
        .values("flight")
        .annotate(players=Count("pk"))
    )
    players_in = {row["flight"]: row["players"] for row in counts}
    return flight_warnings(rules.flights, players_in, seated_within=rules.seat_within_flights)


def entry_detail(tournament, number: int) -> Entry | None:
    entry = (
        Entry.objects.filter(tournament=tournament, number=number).select_related("player").first()
    )
    if entry is not None:
        entry.keep_apart = keep_apart_partners(tournament).get(entry.pk, [])
    return entry


def directory_for(user):
    """The players ``user`` may see in the directory and enter again: those entered in an event
    they organise (every player for a superuser or the command line). Another organiser's
    players, private events' among them, stay out of sight, and so does anyone merged into
    another person (services.merging). A queryset, unevaluated."""
    current = Player.objects.filter(merged_into__isnull=True)
    if getattr(user, "is_superuser", False):
        return current
    return current.filter(pk__in=_organised_entries(user).values("player_id"))


def _organised_entries(user):
    """The entries of the events ``user`` organises (every entry for a superuser or the command
    line): whose contact details they were given."""
    if getattr(user, "is_superuser", False):
        return Entry.objects.all()
    organised = StaffRole.objects.filter(user=user, role=StaffRole.ORGANISER).values(
        "tournament_id"
    )
    return Entry.objects.filter(tournament_id__in=organised)


def _in_a_later_event(tournament, entry_pk: int | None) -> Q:
    """Entries in an event after ``tournament`` by date (an undated event counts as the newest;
    on the same date, the entry made later). ``entry_pk`` None: the entry is being made now."""
    newer = Q(pk__gt=entry_pk) if entry_pk is not None else Q(pk__in=[])
    date = tournament.start_date
    if date is None:
        return Q(tournament__start_date__isnull=True) & newer
    return (
        Q(tournament__start_date__gt=date)
        | Q(tournament__start_date__isnull=True)
        | (Q(tournament__start_date=date) & newer)
    )


def seen_later(player_ids, tournament, entry_pk: int | None = None) -> set[int]:
    """The players who have an entry in an event later than ``tournament`` (practice copies
    are rehearsals, not events): for them ``tournament``'s club is not their current one. One
    query."""
    return set(
        Entry.objects.filter(player_id__in=list(player_ids), tournament__practice_of__isnull=True)
        .exclude(tournament=tournament)
        .filter(_in_a_later_event(tournament, entry_pk))
        .values_list("player_id", flat=True)
    )


def people_on_file(user) -> list[KnownPerson]:
    """Everyone in ``user``'s directory as an import matches them (domain.people): name,
    current club, member number and the phone numbers and emails they gave to events ``user``
    organises. Two queries."""
    contacts: dict[int, set[str]] = {}
    for player_id, contact in (
        _organised_entries(user).exclude(contact="").values_list("player_id", "contact")
    ):
        contacts.setdefault(player_id, set()).update(contact_keys(contact))
    return [
        KnownPerson(pk, name, club, member_number, frozenset(contacts.get(pk, ())))
        for pk, name, club, member_number in directory_for(user)
        .order_by("pk")
        .values_list("pk", "name", "club", "member_number")
    ]


def last_events(player_ids, user) -> dict[int, Entry]:
    """Each player's latest entry (by the event's date, then the entry) among the events
    ``user`` organises, with its event: where the organiser last saw them. One query."""
    latest: dict[int, Entry] = {}
    entries = (
        _organised_entries(user)
        .filter(player_id__in=list(player_ids))
        .select_related("tournament")
        .order_by(F("tournament__start_date").desc(nulls_last=True), "-pk")
    )
    for entry in entries:
        latest.setdefault(entry.player_id, entry)
    return latest


def directory_matches(tournament, query: str, user, limit: int = 20) -> list[Player]:
    """Players in ``user``'s directory (:func:`directory_for`) whose name contains ``query``,
    by the search rule (core.search), each with ``entry_number`` (their number in this event, or
    None). Two queries: the directory's names, then the players found."""
    query = " ".join(query.split())
    if len(search_key(query)) < 2:
        return []
    named = [
        pk for pk, name in directory_for(user).values_list("pk", "name") if matches(query, name)
    ]
    players = list(
        Player.objects.filter(pk__in=named)
        .prefetch_related(
            Prefetch(
                "entries",
                queryset=Entry.objects.filter(tournament=tournament),
                to_attr="entries_here",
            )
        )
        .order_by("name", "pk")[:limit]
    )
    found: list[Player] = []
    for player in players:
        player.entry_number = player.entries_here[0].number if player.entries_here else None
        found.append(player)
    return found


def check_in_list(tournament) -> dict:
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("number")
    )
    entries.sort(key=lambda e: surname_key(e.player.name))  # stable: equal names by number
    counts = {status: 0 for status, _ in Entry.STATUSES}
    for entry in entries:
        counts[entry.status] += 1
    return {"entries": entries, "counts": counts, "play_started": play_started(tournament)}


def leaving_mid_day(entry) -> list[dict]:
    """The days under way where ``entry`` has a seat: day, table, the last game the table has
    entered (the default "left after" game), the games of a day. Two queries and one per such
    day (usually one)."""
    seats = (
        Seat.objects.filter(entry=entry, day__closed_at__isnull=True)
        .select_related("day__tournament__rules", "table")
        .order_by("day__number")
    )
    started = set(
        Table.objects.with_scores()
        .filter(day__tournament=entry.tournament_id, day__closed_at__isnull=True)
        .values_list("day_id", flat=True)
    )
    rows = []
    for seat in seats:
        if seat.day_id not in started or seat.left_after_game is not None:
            continue
        rows.append(
            {
                "day": seat.day.number,
                "table": seat.table.number,
                "last_entered": play_record().last_game_entered(seat.table),
                "games": seat.day.tournament.rules.games_per_day,
            }
        )
    return rows


def entry_days(entry) -> list[dict]:
    """Each day the player was seated: table, when they left, their games (scores and whether
    the desk confirmed them) and the day's total. Two queries."""
    games = play_record().entry_games(entry)
    seats = Seat.objects.filter(entry=entry).select_related("day", "table").order_by("day__number")
    return [
        {
            "day": seat.day.number,
            "table": seat.table.number,
            "left_after_game": seat.left_after_game,
            "games": games.get(seat.day.number, []),
            "total": sum(g["points"] for g in games.get(seat.day.number, [])),
        }
        for seat in seats
    ]


def late_seating_choices(day) -> dict:
    """Who may still be seated on a started day (entered, not withdrawn, not at a table that
    day) and whose seat a substitute may take (withdrawn during the day): 2 queries."""
    seated = Seat.objects.filter(day=day)
    waiting = list(
        Entry.objects.filter(tournament_id=day.tournament_id)
        .exclude(status=Entry.WITHDRAWN)
        .exclude(pk__in=seated.values("entry_id"))
        .select_related("player")
        .order_by("player__name")
    )
    replaceable = list(
        seated.filter(left_after_game__isnull=False, entry__status=Entry.WITHDRAWN)
        .select_related("entry__player", "table")
        .order_by("table__number", "position")
    )
    return {"waiting": waiting, "replaceable": replaceable}
