"""Pages every visitor may meet: the site's own 404 and 500 pages (DEBUG off), in
both languages; the icon; form labels; page titles."""
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import RequestFactory, override_settings
from django.utils import translation
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, heading, link", [
    ("en", "Page not found", "Back to the start page"),
    ("de", "Seite nicht gefunden", "Zurück zur Startseite"),
])
def test_a_wrong_address_gets_the_sites_own_404_page(client, language, heading, link):
    with override_settings(DEBUG=False):
        response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    page = response.content.decode()
    assert f"<h1>{heading}</h1>" in page and link in page
    assert 'class="site-header"' in page and "css/site.css" in page  # the site's look, header and all


@pytest.mark.parametrize("language, heading", [("en", "Something went wrong"), ("de", "Etwas ist schiefgegangen")])
def test_the_500_page_renders_without_any_context(language, heading):
    with override_settings(DEBUG=False), translation.override(language):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    page = response.content.decode()
    assert f"<h1>{heading}</h1>" in page and f'<html lang="{language}">' in page and "css/site.css" in page


def test_the_icon_is_a_real_icon_linked_from_every_page(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith("/favicon.ico")
    with open(finders.find("favicon.ico"), "rb") as icon:
        assert icon.read(4) == b"\0\0\1\0"  # the ICO signature
    assert '<link rel="icon" href="/static/favicon.ico"' in client.get("/").content.decode()


def test_checkbox_labels_have_no_colon_and_other_labels_keep_theirs(client):
    page = client.get("/play/").content.decode()
    assert re.search(r'<label for="id_anti">[^<]*[^:<]</label>', page)  # after its box: "Anti-Reversi (…)"
    assert re.search(r'<label for="id_level">[^<]*:</label>', page)  # before its menu: "Computer level:"


def test_the_reversi_rules_page_title_does_not_repeat_itself(client):
    page = client.get("/rules/reversi/").content.decode()
    assert "<title>Reversi · Rules · Reversi</title>" in page
