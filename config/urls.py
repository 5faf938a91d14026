from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import TemplateView

from config.health import healthz
from games.rulebook.pages import PAGES
from lobby.forms import CodeForm


def favicon(request):
    """/favicon.ico, which browsers and feed readers ask for without looking at the page."""
    return redirect(static("favicon.ico"), permanent=True)


urlpatterns = [
    path("favicon.ico", favicon),
    path("", TemplateView.as_view(template_name="home.html", extra_context={"rules_pages": PAGES, "code_form": CodeForm()}), name="home"),
    path("healthz", healthz, name="healthz"),
    path("", include("games.review.urls")),
    path("", include("games.urls")),
    path("rules/", include("games.rulebook.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("", include("lobby.urls")),
    path("social/", include("social.urls")),
    path("", include("chat.urls")),
    path("admin/", admin.site.urls),
]

# A write the database kept waiting, failing in a middleware, is answered "busy" (infra.write_waits).
handler500 = "infra.write_waits.server_error"
