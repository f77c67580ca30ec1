from django.core.management.base import BaseCommand, CommandError

from core.errors import ServiceError
from core.formats import date_and_time
from tournaments.access import COMMAND_LINE
from tournaments.models import Player, PlayerMerge
from tournaments.services.merging import merge_players, undo_merge, undo_refusal


class Command(BaseCommand):
    help = (
        "Merge two people who are one: every entry of player DROP becomes player KEEP's (by "
        "the person numbers the merge page shows). Refused with the reason, nothing changed, when "
        "both are entered in one event or sat at a table on the same day. --undo MERGE_ID moves "
        "the entries back, until either person plays again."
    )

    def add_arguments(self, parser):
        parser.add_argument("keep", nargs="?", type=int, help="The id of the player to keep.")
        parser.add_argument("drop", nargs="?", type=int, help="The id of the player merged in.")
        parser.add_argument("--undo", type=int, metavar="MERGE_ID", help="Undo this merge.")
        parser.add_argument(
            "--list", dest="show_list", action="store_true", help="List the merges so far."
        )

    def handle(self, keep=None, drop=None, undo=None, show_list=False, **options):
        if show_list:
            return self._list()
        if undo is not None:
            if keep is not None or drop is not None:
                raise CommandError("Give either KEEP and DROP, or --undo MERGE_ID, not both.")
            return self._undo(undo)
        if keep is None or drop is None:
            raise CommandError("Give the ids of the player to keep and the player to merge in.")
        kept, dropped = _player(keep), _player(drop)
        try:
            outcome = merge_players(kept, dropped, user=COMMAND_LINE)
        except ServiceError as error:
            raise CommandError(str(error)) from error
        count = len(outcome.events)
        events = f" ({', '.join(outcome.events)})" if outcome.events else ""
        self.stdout.write(
            f"Merged #{dropped.pk} {dropped.name} into #{kept.pk} {kept.name}: "
            f"{count} entr{'ies' if count != 1 else 'y'} moved{events}. "
            f"To undo: merge_players --undo {outcome.merge.pk}"
        )

    def _undo(self, pk: int) -> None:
        merge = PlayerMerge.objects.select_related("kept", "dropped").filter(pk=pk).first()
        if merge is None:
            raise CommandError(f"There is no merge #{pk}.")
        try:
            undo_merge(merge, user=COMMAND_LINE)
        except ServiceError as error:
            raise CommandError(str(error)) from error
        count = len(merge.entries)
        self.stdout.write(
            f"Undid merge #{pk}: #{merge.dropped.pk} {merge.dropped.name} is back with "
            f"{count} entr{'ies' if count != 1 else 'y'}, apart from #{merge.kept.pk} "
            f"{merge.kept.name}."
        )

    def _list(self) -> None:
        merges = PlayerMerge.objects.select_related("kept", "dropped").order_by("pk")
        if not merges:
            self.stdout.write("No merges yet.")
        for merge in merges:
            line = (
                f"Merge #{merge.pk}: #{merge.dropped.pk} {merge.dropped.name} into "
                f"#{merge.kept.pk} {merge.kept.name}, by {merge.actor_label} on "
                f"{date_and_time(merge.at)}"
            )
            refusal = undo_refusal(merge, COMMAND_LINE)
            self.stdout.write(f"{line}. {refusal or 'Can be undone.'}")


def _player(pk: int) -> Player:
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        raise CommandError(f"There is no player #{pk}.")
    return player
