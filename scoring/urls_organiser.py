"""Score entry and the day board for organisers and desk staff, mounted in the "organiser"
namespace."""

from django.urls import path

from scoring import views_board, views_desk as views, views_practice

T = "t/<slug:slug>/"
D = T + "day/<int:day>/"
TABLE = D + "table/<int:table>/"

urlpatterns = [
    path(T + "scores/", views.scores_home, name="scores"),
    path(T + "practice/", views_practice.practice, name="practice"),
    path(T + "scores/upload/", views.upload_workbook, name="upload_workbook"),
    path(D + "scores/", views.scores_day, name="scores_day"),
    path(D + "scores.xlsx", views.export_workbook, name="export_workbook"),
    path(D + "score-sheets.pdf", views.score_sheets, name="score_sheets"),
    path(D + "close/", views.close_day, name="close_day"),
    path(D + "board/", views_board.day_board, name="day_board"),
    path(D + "calls/<int:call>/answer/", views_board.answer_call, name="answer_call"),
    path(D + "reopen/", views.reopen_day, name="reopen_day"),
    path(D + "table-links/", views.table_links, name="table_links"),
    path(TABLE + "card/", views.score_card, name="score_card"),
    path(TABLE + "check/", views.check_card, name="check_card"),
    path(TABLE + "not-played/", views.mark_not_played, name="mark_not_played"),
    path(
        TABLE + "game/<int:game>/not-played/undo/",
        views.undo_not_played,
        name="undo_not_played",
    ),
    path(TABLE + "history/", views.history, name="table_history"),
    path(TABLE + "new-link/", views.regenerate_link, name="regenerate_link"),
    path(TABLE + "game/<int:game>/review/", views.review_game, name="review_game"),
    path(TABLE + "game/<int:game>/correct/", views.correct_game, name="correct_game"),
]
