from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from core.login import LoginForm


class FaviconView(RedirectView):
    """Browsers ask for /favicon.ico whatever the page links: send them to our own icon."""

    permanent = True
    http_method_names = ["get", "head"]

    def get_redirect_url(self, *args, **kwargs):
        return static("img/favicon.ico")


# The admin site's login gets the same username cap as ours.
admin.site.login_form = LoginForm

urlpatterns = [
    path("favicon.ico", FaviconView.as_view(), name="favicon"),
    path("admin/", admin.site.urls),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("organiser/", include("config.urls_organiser")),
    path("table/", include("scoring.urls_scorekeeper")),
    path("", include("config.urls_public")),
]
