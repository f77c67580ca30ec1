"""The prizes an organiser defines and the ties they decide (domain.prizes), in a module of their
own so the models module stays one read; tournaments.models imports them, so Django finds them
there."""

from django.db import models
from django.db.models import Q

from domain import prizes
from domain.flights import FLIGHT_MAX


class Prize(models.Model):
    """A prize the organiser will hand out: a place, or a special (domain.prizes.KINDS)."""

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="prizes"
    )
    kind = models.CharField(max_length=16)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    name = models.CharField(max_length=100, blank=True)
    # A flight's prize, among that flight's players (domain.flights); blank: every player's.
    flight = models.CharField(max_length=FLIGHT_MAX, blank=True)

    class Meta:
        ordering = ["tournament_id", "pk"]
        constraints = [
            models.CheckConstraint(name="prize_kind_known", condition=Q(kind__in=prizes.KIND_KEYS)),
            models.CheckConstraint(
                name="a_place_prize_has_a_place",
                condition=Q(kind=prizes.PLACE, place__gte=1) | ~Q(kind=prizes.PLACE),
            ),
            models.UniqueConstraint(
                fields=["tournament", "flight", "place"],
                condition=Q(kind=prizes.PLACE),
                name="one_prize_per_place",
            ),
        ]

    def __str__(self):
        return f"{self.spec.title} ({self.tournament_id})"

    @property
    def spec(self) -> prizes.PrizeSpec:
        return self.spec_for(())

    def spec_for(self, flights) -> prizes.PrizeSpec:
        """The prize as the prize rules read it, its flight placed in the event's ``flights``."""
        order = list(flights).index(self.flight) + 1 if self.flight in flights else 0
        return prizes.PrizeSpec(self.pk, self.kind, self.place, self.name, self.flight, order)


class PrizeDecision(models.Model):
    """The organiser's choice among players tied for a prize."""

    prize = models.OneToOneField(Prize, on_delete=models.CASCADE, related_name="decision")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="+")
    decided_by_label = models.CharField(max_length=150)
    decided_at = models.DateTimeField(auto_now_add=True)

    def __str__(self):
        return f"Prize {self.prize_id}: entry {self.entry_id}"
