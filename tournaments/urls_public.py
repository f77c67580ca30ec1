from django.urls import path

from tournaments.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<slug:slug>/", public.tournament_home, name="tournament"),
    path("t/<slug:slug>/find-your-table/", public.find_table, name="find_table"),
]
