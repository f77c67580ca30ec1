"""Read-only pages for players and spectators."""

from standings import urls_public as standings_urls
from tournaments import urls_public as tournament_urls

app_name = "public"
urlpatterns = tournament_urls.urlpatterns + standings_urls.urlpatterns
