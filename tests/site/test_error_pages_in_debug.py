"""With DEBUG on (`make run`), players still get the site's own 404 and 500 pages, in
their language and with the site's header; the traceback goes to the log, and staff
keep Django's technical pages."""
import logging

import pytest
from django.test import Client, override_settings

from tests.people import make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, heading, link", [
    ("en", "Page not found", "Back to the start page"),
    ("de", "Seite nicht gefunden", "Zurück zur Startseite"),
])
@pytest.mark.parametrize("path", ["/no-such-page/", "/games/nosuchgame12/"])  # no URL; a view's Http404
def test_a_missing_page_is_the_sites_404_with_debug_on(client, path, language, heading, link):
    with override_settings(DEBUG=True):
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    page = response.content.decode()
    assert f"<h1>{heading}</h1>" in page and link in page and 'class="site-header"' in page
    assert "Django tried these URL patterns" not in page and "Page not found at" not in page


def test_a_missing_address_without_its_slash_is_still_redirected(client):
    with override_settings(DEBUG=True):
        response = client.get("/games")
    assert response.status_code == 301 and response["Location"] == "/games/"


@pytest.mark.parametrize("language, heading", [("en", "Something went wrong"), ("de", "Etwas ist schiefgegangen")])
@override_settings(ROOT_URLCONF="tests.site.raising_urls")
def test_a_fault_is_the_sites_500_with_debug_on_and_its_traceback_is_logged(caplog, language, heading):
    client = Client(raise_request_exception=False)
    with override_settings(DEBUG=True), caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get("/fails-on-purpose/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 500
    page = response.content.decode()
    assert f"<h1>{heading}</h1>" in page and f'<html lang="{language}">' in page and 'href="/"' in page
    assert "Traceback" not in page and "a fault on purpose" not in page
    logged = [record for record in caplog.records if record.exc_info]
    assert len(logged) == 1 and "/fails-on-purpose/" in logged[0].getMessage()
    assert str(logged[0].exc_info[1]) == "a fault on purpose"  # the real error, traceback and all


@override_settings(ROOT_URLCONF="tests.site.raising_urls")
def test_staff_keep_djangos_technical_pages_with_debug_on():
    staff = make_user("staffer", "Staffer")
    staff.is_staff = True
    staff.save()
    client = Client(raise_request_exception=False)
    client.force_login(staff)
    with override_settings(DEBUG=True):
        assert "Django tried these URL patterns" in client.get("/no-such-page/").content.decode()
        assert "a fault on purpose" in client.get("/fails-on-purpose/").content.decode()
