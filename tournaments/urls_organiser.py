from django.urls import path

from . import views_organiser as views

urlpatterns = [
    path("", views.home, name="home"),
    path("t/<slug:slug>/", views.tournament_overview, name="tournament"),
]
