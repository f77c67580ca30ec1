from django.urls import path

from scoring import views_scorekeeper as views

app_name = "scorekeeper"
urlpatterns = [
    path("", views.enter_code, name="enter_code"),
    path("<str:token>/", views.table_page, name="table"),
    path("<str:token>/sheets/", views.table_watch, name="table_watch"),
    path("<str:token>/call/", views.call_desk, name="call_desk"),
]
