app_name = "scorekeeper"
urlpatterns = []
