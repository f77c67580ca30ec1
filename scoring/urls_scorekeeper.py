from django.urls import path

from . import views_scorekeeper as views

app_name = "scorekeeper"
urlpatterns = [
    path("<str:token>/", views.table_page, name="table"),
]
