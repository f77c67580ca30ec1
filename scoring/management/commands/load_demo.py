from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from scoring.demo import load_demo
from tournaments.models import Tournament

DEMO_USERNAME = "organiser"
DEMO_PASSWORD = "mexican-train-demo"


class Command(BaseCommand):
    help = (
        "Load the demo tournament if the database has no tournament yet, and make sure the demo "
        f"organiser login exists ({DEMO_USERNAME} / {DEMO_PASSWORD}; demo only)."
    )

    def handle(self, **options):
        User = get_user_model()
        organiser = User.objects.filter(username=DEMO_USERNAME).first()
        if organiser is None:
            organiser = User.objects.create_superuser(DEMO_USERNAME, "", DEMO_PASSWORD)
            self.stdout.write(
                f"Created the demo organiser login: {DEMO_USERNAME} / {DEMO_PASSWORD}"
            )
        if Tournament.objects.exists():
            self.stdout.write("The database already holds a tournament; the demo was not loaded.")
            return
        tournament = load_demo(organiser)
        self.stdout.write(f"Loaded the demo tournament: {tournament.slug}")
