from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from domain.seating.plan_following import pairs_again
from tournaments.management.lookup import find_day
from tournaments.presenters import (
    CUT_SHORT,
    cleared_message,
    day_label,
    movement_counts,
    plan_followed_note,
)
from tournaments.services.planning import (
    clear_plan,
    meet_everyone_schedule,
    plan_remaining_days,
)
from tournaments.services.seating import clear_seating, seat_day


def _names(members) -> str:
    return ", ".join(f"#{e.number} {e.player.name}" for e in members)


def _sentence(words: str) -> str:
    return words[:1].upper() + words[1:]


class Command(BaseCommand):
    help = (
        "Seat (or reseat, before play starts) one day of a tournament and print the tables and "
        "the repeat pairs against the proven lower bound; or, with --plan, plan every day not "
        "seated yet at once."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", help="The tournament's slug.")
        parser.add_argument("--day", type=int, help="Day number, from 1 (required without --plan).")
        parser.add_argument(
            "--plan",
            action="store_true",
            help="Plan every day not seated yet together, so that over all of them as few pairs "
            "as possible meet again; each planned day is seated later with --day N.",
        )
        parser.add_argument(
            "--goal",
            choices=["fewest-repeats", "meet-everyone"],
            default="fewest-repeats",
            help="With --plan: fewest-repeats (plan the days not seated yet) or meet-everyone "
            "(print the fewest sessions in which every pair of players meets, with its bound; "
            "nothing is stored).",
        )
        parser.add_argument("--seed", type=int, help="A shuffle number, to repeat that seating.")
        parser.add_argument(
            "--clear",
            action="store_true",
            help="Take the day's tables away instead (before its first score); with --plan, "
            "forget the plan.",
        )

    def handle(self, slug, day=None, plan=False, seed=None, clear=False, goal=None, **options):
        if plan and day is not None:
            raise CommandError("Give either --day N (seat one day) or --plan (plan them all).")
        if not plan and day is None:
            raise CommandError("the following arguments are required: --day (or give --plan)")
        if seed is not None and not 0 <= seed < 2**31:
            raise CommandError("The shuffle number must be a whole number from 0 to 2147483647.")
        if goal == "meet-everyone" and (not plan or clear):
            raise CommandError("--goal meet-everyone goes with --plan (and not with --clear).")
        tournament, day_row = find_day(slug, day)
        try:
            if goal == "meet-everyone":
                self._meet_everyone(tournament, seed)
            elif plan:
                self._plan(tournament, seed, clear)
            elif clear:
                kept = clear_seating(day_row)
                self.stdout.write(f"{tournament.name}: {cleared_message(day_row.number, kept)}")
            else:
                self._seat(tournament, day_row, seed)
        except ServiceError as error:
            raise CommandError(str(error)) from error

    def _seat(self, tournament, day_row, seed):
        outcome = seat_day(day_row, seed=seed)
        label = day_label(outcome.day)
        label = label[:1].lower() + label[1:]  # "Spring, day 2", "Spring, day 1, session 2"
        if outcome.moves:
            self.stdout.write(
                f"{tournament.name}, {label}: seated by the movement "
                f"({movement_counts(outcome.moves)})"
            )
        else:
            self.stdout.write(f"{tournament.name}, {label}: shuffle number {outcome.seed}")
        if outcome.kept_tables:
            self.stdout.write("Reshuffling is off: the previous day's tables were kept.")
        if outcome.plan is not None:
            self.stdout.write(plan_followed_note(outcome.plan))
        for number, members in enumerate(outcome.tables, start=1):
            self.stdout.write(f"Table {number} ({len(members)}): {_names(members)}")
        if outcome.moves:
            self._moves(outcome)
        self.stdout.write(_sentence(pairs_again(outcome.repeat_pairs, outcome.lower_bound)))
        if outcome.cut_short:
            self.stdout.write(CUT_SHORT)

    def _meet_everyone(self, tournament, seed):
        found, entries = meet_everyone_schedule(tournament, seed=seed)
        self.stdout.write(
            f"{tournament.name}: every pair of the {len(entries)} players meets in "
            f"{len(found.sessions)} sessions (fewest possible: {found.bound}, since "
            f"{found.reason}); shuffle number {found.seed}. Nothing is stored."
        )
        for number, tables in enumerate(found.sessions, start=1):
            self.stdout.write(f"Session {number}")
            for table_number, table in enumerate(tables, start=1):
                members = [entries[p] for p in table]
                self.stdout.write(f"Table {table_number} ({len(members)}): {_names(members)}")

    def _moves(self, outcome):
        by_id = {e.pk: e for members in outcome.tables for e in members}
        self.stdout.write("Who moves where and why:")
        for move in outcome.moves:
            entry = by_id[move["entry"]]
            self.stdout.write(f"  #{entry.number} {entry.player.name}: {move['words']}")

    def _plan(self, tournament, seed, clear):
        if clear:
            clear_plan(tournament)
            self.stdout.write(f"{tournament.name}: the seating plan is cleared.")
            return
        outcome = plan_remaining_days(tournament, seed=seed)
        numbers = ", ".join(str(s.day.number) for s in outcome.sessions)
        self.stdout.write(
            f"{tournament.name}, days {numbers} planned together: shuffle number "
            f"{outcome.plan.seed} ({outcome.plan.method}). Nothing is seated yet: seat each day "
            "with --day N."
        )
        if outcome.note:
            self.stdout.write(outcome.note)
        for session in outcome.sessions:
            self.stdout.write(f"Day {session.day.number} (planned)")
            for number, members in enumerate(session.tables, start=1):
                self.stdout.write(f"Table {number} ({len(members)}): {_names(members)}")
            self.stdout.write(_sentence(pairs_again(session.repeat_pairs, session.lower_bound)))
        total = outcome.schedule_line
        self.stdout.write(f"Over the planned days: {total}")
