"""The site in German: complete catalogs, and no English left on the main pages.

The walking test renders every main page that exists (home, the rules pages, play,
sign in and up, and whichever of the lobby, my games, the table form and the profile
answer 200, anonymous and signed in) with Accept-Language de and with en, and reports
every piece of visible text that is the same in both (a string nobody marked, or
marked without a German translation) and every msgid of the German catalog without
a translation that shows up on the page.
"""
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from config.context_processors import site_version
from games.rulebook.pages import PAGES
from tests.rulebook.dom import parse, visible_texts

LOCALE_DIR = Path(settings.LOCALE_PATHS[0])
PLACEHOLDER = re.compile(r"%(?:\([a-z_]+\))?[sd]")
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{3,}")

# Words that are the same in English and German: a text made only of these (and
# numbers, square names, symbols) may look the same on both pages.
SAME_IN_BOTH = {
    "Reversi", "Anti", "Lobby", "Normal", "Computer", "English", "Deutsch", "Online",
    "Start", "Code", "Link", "Othello", "Logistello", "Jack", "Berkeley", "Waterman",
    "Mollett", "Annexation", "Game", "Bang", "neutral", "Chat",
}
CODE = re.compile(r"[A-Z0-9]{6,}")  # table codes and their examples
WALKER = "walker"  # the signed-in visitor's name shows in the header

# The main pages by URL name; those that do not exist (yet) or do not answer 200 are skipped.
MAIN_PAGES = ["home", "rules", "play", "login", "signup", "lobby", "my_games", "table_new", "profile"]


def catalog(language):
    """The catalog as Babel reads it; a malformed entry (a msgid without its msgstr,
    which the compiler skips with a warning) fails instead of being skipped."""
    with (LOCALE_DIR / language / "LC_MESSAGES" / "django.po").open("rb") as po:
        return read_po(po, abort_invalid=True)


def de_catalog():
    return catalog("de")


def untranslated_msgids():
    return {message.id for message in de_catalog()
            if message.id and isinstance(message.id, str) and (not message.string or message.fuzzy)}


def looks_untranslated(text, same_in_both=SAME_IN_BOTH):
    """True for a text that should differ between English and German."""
    if CODE.fullmatch(text):
        return False
    words = WORD.findall(text)
    return any(word not in same_in_both for word in words)


def untranslated_on(client, url, untranslated, extra_allowed=()):
    """The pieces of text on `url` that German visitors would see in English."""
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert german.status_code == english.status_code == 200, url
    assert german.headers["Content-Language"] == "de", url
    version = site_version()
    english_texts = set(visible_texts(parse(english.content)))
    german_texts = visible_texts(parse(german.content))
    allowed = SAME_IN_BOTH | set(extra_allowed)
    found = []
    for text in german_texts:
        text = text.replace(version, "").strip()
        if text in english_texts and looks_untranslated(text, allowed) and text not in found:
            found.append(text)
    page_text = " ".join(german_texts)
    for msgid in untranslated:
        literal = " ".join(msgid.split())
        if PLACEHOLDER.search(literal) or msgid in found:
            continue
        if literal in german_texts or (len(literal) >= 20 and literal in page_text):
            found.append(f"{literal}  (no German in locale/de)")
    return found


def main_page_urls(client):
    urls = []
    for name in MAIN_PAGES:
        try:
            url = reverse(name)
        except NoReverseMatch:
            continue
        if client.get(url, HTTP_ACCEPT_LANGUAGE="en").status_code == 200:
            urls.append(url)
    urls += [page.get_absolute_url() for page in PAGES]
    return urls


def start_from_form(client, name):
    """Submit the form of URL `name` as it is prefilled; the page it leads to, or None."""
    try:
        url = reverse(name)
    except NoReverseMatch:
        return None
    response = client.get(url)
    if response.status_code != 200 or not response.context or "form" not in response.context:
        return None
    form = response.context["form"]
    data = {}
    for field_name, field in form.fields.items():
        value = form.initial.get(field_name, field.initial)
        if value is None or value is False or value == []:
            continue
        data[field_name] = value
    started = client.post(url, data)
    return started.url if started.status_code == 302 else None


@pytest.mark.django_db
def test_no_english_on_the_main_pages_in_german(client):
    untranslated = untranslated_msgids()
    report = {}
    anonymous = main_page_urls(client)
    for url in anonymous:
        report[("anonymous", url)] = untranslated_on(client, url, untranslated)
    # A game against the computer, as a guest starts one from the play form.
    started = start_from_form(client, "play")
    if started:
        report[("guest", started)] = untranslated_on(client, started, untranslated)

    user = get_user_model().objects.create_user(WALKER, "walker@example.com", "a-long-password-1")
    client.force_login(user)
    signed_in = main_page_urls(client)
    table = start_from_form(client, "table_new")  # an online table, as its host sees it
    if table:
        signed_in.append(table)
    for url in signed_in:
        report[("signed in", url)] = untranslated_on(client, url, untranslated, extra_allowed={WALKER})

    assert len(anonymous) >= len(PAGES) + 4  # home, rules, play, login at least
    problems = {page: texts for page, texts in report.items() if texts}
    assert not problems, "English left on German pages (translate them in locale/de/LC_MESSAGES/django.po):\n" + "\n".join(
        f"  {who} {url}: " + " | ".join(texts) for (who, url), texts in problems.items()
    )


@pytest.mark.django_db
def test_the_walk_catches_a_marked_string_without_german(client):
    """The check is honest: a marked string the German catalog lacks is reported."""
    template = Template('{% load i18n %}<html><body><p>{% translate "Flip every trapped stone quickly" %}</p>'
                       '<p>{% translate "Play now" %}</p></body></html>')

    def render(language):
        with translation.override(language):
            return visible_texts(parse(template.render(Context())))

    english, german = set(render("en")), render("de")
    leftover = [text for text in german if text in english and looks_untranslated(text)]
    assert leftover == ["Flip every trapped stone quickly"]
    assert "Jetzt spielen" in german


def test_the_german_catalog_translates_every_string():
    problems = []
    for message in de_catalog():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            problems.append(f"fuzzy: {ids[0]!r}")
        if not all(strings):
            problems.append(f"no German: {ids[0]!r}")
            continue
        wanted = set(PLACEHOLDER.findall(ids[0]))
        for string in strings:
            if set(PLACEHOLDER.findall(string)) != wanted:
                problems.append(f"placeholders differ: {ids[0]!r} -> {string!r}")
    assert not problems, "\n".join(problems)


def test_the_english_catalog_has_the_same_strings_as_the_german_one():
    english = {message.id for message in catalog("en") if message.id}
    german = {message.id for message in de_catalog() if message.id}
    assert english == german, sorted(map(str, english ^ german))[:20]


@pytest.mark.django_db
def test_the_language_comes_from_the_browser_and_the_header_switch_keeps_it(client):
    page = reverse("rules_variant", args=["octagon"])
    assert parse(client.get(page, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9").content).find("h1").text() == "Achteck-Reversi"
    assert parse(client.get(page, HTTP_ACCEPT_LANGUAGE="en-GB").content).find("h1").text() == "Octagon Reversi"

    # The header offers the other language as a button of a set_language form for this page.
    header = parse(client.get(page, HTTP_ACCEPT_LANGUAGE="en").content).find("form", class_="language")
    assert header.get("action") == reverse("set_language") and header.get("method") == "post"
    assert header.find("input", name="next").get("value") == page
    assert header.find("button", name="language").get("value") == "de"

    response = client.post(reverse("set_language"), {"language": "de", "next": page},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302 and response.url == page
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    # The cookie wins over the browser's language, on every page.
    assert parse(client.get(page, HTTP_ACCEPT_LANGUAGE="en").content).find("h1").text() == "Achteck-Reversi"
    home = parse(client.get(reverse("rules"), HTTP_ACCEPT_LANGUAGE="en").content)
    assert home.find("html").get("lang") == "de"
    assert home.find("form", class_="language").find("button", name="language").get("value") == "en"
