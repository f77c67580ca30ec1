"""Read-only pages for players and spectators."""

from scoring import urls_public as scoring_urls
from tournaments import urls_public as tournament_urls

app_name = "public"
urlpatterns = tournament_urls.urlpatterns + scoring_urls.urlpatterns
