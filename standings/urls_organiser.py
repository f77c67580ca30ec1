"""Standings and season standings for organisers and desk staff, mounted in the "organiser"
namespace."""

from django.urls import path

from standings import views_finals, views_organiser, views_prizes

T = "t/<slug:slug>/"
S = "season/<slug:slug>/"

urlpatterns = [
    path(T + "standings/", views_organiser.standings, name="standings"),
    path(T + "standings.pdf", views_organiser.standings_pdf, name="standings_pdf"),
    path(T + "standings.xlsx", views_organiser.standings_xlsx, name="standings_xlsx"),
    path(S, views_organiser.season, name="season"),
    path(S + "player/<int:player_id>/", views_organiser.season_player, name="season_player"),
    path(S[:-1] + ".pdf", views_organiser.season_pdf, name="season_pdf"),
    path(S[:-1] + ".xlsx", views_organiser.season_xlsx, name="season_xlsx"),
    path(S + "public/", views_organiser.season_public_toggle, name="season_public_pages"),
    path(
        T + "standings/public/", views_organiser.public_pages_toggle, name="standings_public_pages"
    ),
    path(T + "final/", views_finals.final, name="final"),
    path(T + "final/seat/", views_finals.seat_final_view, name="seat_final"),
    path(T + "prizes/", views_prizes.prizes, name="prizes"),
    path(T + "prizes/add/", views_prizes.prize_add, name="prize_add"),
    path(T + "prizes/one-each/", views_prizes.prize_one_each, name="prize_one_each"),
    path(T + "prizes/<int:prize>/remove/", views_prizes.prize_remove, name="prize_remove"),
    path(T + "prizes/<int:prize>/decide/", views_prizes.prize_decide, name="prize_decide"),
    path(T + "prizes/announcement.pdf", views_prizes.announcement, name="prize_announcement"),
    path(T + "prizes/certificates.pdf", views_prizes.certificates, name="prize_certificates"),
    path(
        T + "standings/hidden-finish/",
        views_organiser.hidden_finish,
        name="standings_hidden_finish",
    ),
]
