"""The rules pages (docs/rules.md §11): one per variant, in English and German, each with its
sections, its start position as the rules library sets it up, and links that prefill
the play and table forms with a variant the rules accept."""
from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from games import Board, InvalidVariantError, Variant
from games.forms import variant_query
from games.rulebook.pages import PAGES, url_or_path
from tests.rulebook.dom import parse

pytestmark = pytest.mark.django_db

# What each page must show, written out here rather than read from pages.py.
EXPECTED = {
    "reversi": {"variant": Variant(), "diagrams": [Variant()],
                "en": "How to play Reversi", "de": "So spielst du Reversi"},
    "reversi-6x6": {"variant": Variant(board="6x6"), "diagrams": [Variant(board="6x6")],
                    "en": "Reversi 6×6", "de": "Reversi 6×6"},
    "reversi-10x10": {"variant": Variant(board="10x10"), "diagrams": [Variant(board="10x10")],
                      "en": "Reversi 10×10", "de": "Reversi 10×10"},
    "octagon": {"variant": Variant(board="octagon"), "diagrams": [Variant(board="octagon")],
                "en": "Octagon Reversi", "de": "Achteck-Reversi"},
    "anti-reversi": {"variant": Variant(anti=True), "diagrams": [Variant()],
                     "en": "Anti-Reversi", "de": "Anti-Reversi"},
    "three-or-four-players": {
        "variant": Variant(players=4),
        "diagrams": [Variant(players=3), Variant(players=4)],
        "en": "Reversi for three or four players", "de": "Reversi für drei oder vier Spieler",
    },
    "free-opening": {"variant": Variant(free_opening=True), "diagrams": [Variant(free_opening=True)],
                     "en": "Reversi with a free opening", "de": "Reversi mit freier Eröffnung"},
    # The links ask for four blocked squares; the reading below draws them with seed 1, as the diagram does.
    "blocked-squares": {"variant": Variant.with_random_blocked(4, seed=1),
                        "diagrams": [Variant.with_random_blocked(4, seed=1)],
                        "en": "Reversi with blocked squares", "de": "Reversi mit gesperrten Feldern"},
    "corner-handicap": {"variant": Variant(handicap=2), "diagrams": [Variant(handicap=2)],
                        "en": "Reversi with a corner handicap", "de": "Reversi mit Eckvorgabe"},
}
SLUGS = list(EXPECTED)

# Headings every page has, in both languages (the seed pages' wording in German).
SECTION_HEADINGS = {
    "en": {"history": "History", "setup": "Setup", "moves": "Moves", "end": "The end of the game"},
    "de": {"history": "Geschichte", "setup": "Aufbau", "moves": "Züge", "end": "Das Ende der Partie"},
}
FAQ_HEADING = {"en": "questions and answers", "de": "Fragen und Antworten"}
TIPS_HEADING = {"en": "strategy tips", "de": "Strategietipps"}


def get(client, url, language):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, (url, response.status_code)
    return response, parse(response.content)


def test_every_variant_has_a_page_in_the_catalogue():
    assert [page.slug for page in PAGES] == SLUGS


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_index_lists_every_variant_with_a_play_link(client, language):
    response, dom = get(client, reverse("rules"), language)
    assert response.headers["Content-Language"] == language
    links = {a.get("href") for a in dom.find_all("a")}
    for slug, expected in EXPECTED.items():
        assert reverse("rules_variant", args=[slug]) in links
    assert len(dom.find_all("a", data_action="play")) == len(EXPECTED)
    titles = {h2.text() for h2 in dom.find(class_="rules-index").find_all("h2")}
    if language == "de":
        assert {"Achteck-Reversi", "Reversi für drei oder vier Spieler"} <= titles
    else:
        assert {"Octagon Reversi", "Reversi for three or four players"} <= titles


def test_the_header_links_the_rules():
    from config.context_processors import nav_items

    assert reverse("rules") in [item["url"] for item in nav_items()]


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("slug", SLUGS)
def test_a_variant_page_answers_with_its_sections(client, slug, language):
    response, dom = get(client, reverse("rules_variant", args=[slug]), language)
    assert dom.find("html").get("lang") == language
    assert response.headers["Content-Language"] == language
    assert dom.find("h1").text() == EXPECTED[slug][language]

    for section in ("what", "how-to-play", "setup", "moves", "end", "scoring",
                    "differences", "history", "tips", "faq"):
        element = dom.by_id(section)
        assert element is not None, f"{slug} ({language}) has no section #{section}"
        assert len(element.text()) > 40, f"{slug} ({language}): section #{section} is empty"
    # Two players pass; three or four never do and place next to a stone instead.
    no_move = "adjacent" if slug == "three-or-four-players" else "passing"
    assert dom.by_id(no_move) is not None, f"{slug} ({language}) has no section #{no_move}"

    for section, heading in SECTION_HEADINGS[language].items():
        assert dom.by_id(section).find(["h2", "h3"][section != "history"]).text() == heading
    assert dom.by_id("faq").find("h2").text().endswith(FAQ_HEADING[language])
    assert dom.by_id("tips").find("h2").text().endswith(TIPS_HEADING[language])

    table = dom.by_id("differences").find("table")
    assert table is not None and len(table.find_all("tr")) >= 5
    assert len(dom.by_id("tips").find_all("li")) >= 4
    assert len(dom.by_id("faq").find_all(class_="qa")) >= 5
    assert dom.find("a", data_action="play").text() == {"en": "Play now", "de": "Jetzt spielen"}[language]
    assert dom.find("a", data_action="table").text() == {"en": "Open a table", "de": "Tisch eröffnen"}[language]


def test_the_german_page_is_german_and_the_english_page_english(client):
    _, english = get(client, reverse("rules_variant", args=["octagon"]), "en")
    _, german = get(client, reverse("rules_variant", args=["octagon"]), "de")
    assert "Die gekappten Ecken verändern die Strategie." in german.by_id("what").text()
    assert "The cut corners change the strategy." in english.by_id("what").text()
    assert "gekappten" not in english.text() and "cut corners" not in german.text()


def drawn_position(figure):
    """{square: stone} and the removed squares, as the board template drew them."""
    stones, removed = {}, set()
    for cell in figure.find_all(class_="cell"):
        if cell.get("data-removed") == "true":
            removed.add(cell.get("data-square"))
        elif cell.get("data-stone"):
            stones[cell.get("data-square")] = cell.get("data-stone")
    return stones, removed


@pytest.mark.parametrize("slug", SLUGS)
def test_the_start_position_is_the_one_the_rules_library_sets_up(client, slug):
    _, dom = get(client, reverse("rules_variant", args=[slug]), "en")
    figures = dom.find_all("figure", class_="start-position")
    assert len(figures) == len(EXPECTED[slug]["diagrams"])
    for figure, variant in zip(figures, EXPECTED[slug]["diagrams"]):
        board = Board(variant)
        geometry = variant.geometry
        width = geometry.width
        stones, removed = drawn_position(figure)
        assert stones == board.stones(), f"{slug}: {variant}"
        cells = figure.find_all(class_="cell")
        assert len(cells) == width * geometry.height
        expected_removed = {cell.get("data-square") for cell in cells if not geometry.is_playable(cell.get("data-square"))}
        assert removed == expected_removed
        # A diagram, not a game: nothing to press.
        assert figure.find("button") is None and figure.find("form") is None
        assert figure.find("figcaption").text()


def test_the_octagon_diagram_cuts_three_squares_at_every_corner(client):
    _, dom = get(client, reverse("rules_variant", args=["octagon"]), "en")
    _, removed = drawn_position(dom.find("figure", class_="start-position"))
    assert removed == {"a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "j9", "i10", "j10"}


def variant_from_query(query):
    """The variant a form link asks for, read the way the rules read it."""
    params = {name: values[-1] for name, values in parse_qs(query).items()}
    assert set(params) <= {"board", "players", "anti", "free_opening", "blocked", "handicap", "handicap_colour"}
    fields = {}
    if "board" in params:
        fields["board"] = params["board"]
    if "players" in params:
        fields["players"] = int(params["players"])
    for flag in ("anti", "free_opening"):
        if flag in params:
            fields[flag] = params[flag] in ("1", "true", "on", "yes")
    if "handicap" in params:
        fields["handicap"] = int(params["handicap"])
    if "handicap_colour" in params:
        fields["handicap_colour"] = params["handicap_colour"]
    if "blocked" in params:
        return Variant.with_random_blocked(int(params["blocked"]), seed=1, **fields)
    return Variant(**fields)


def selected_values(form):
    """The values a form shows: {field name: value} for selects, checkboxes and inputs."""
    values = {}
    for select in form.find_all("select"):
        chosen = [option.get("value") for option in select.find_all("option") if "selected" in option.attrs]
        values[select.get("name")] = chosen[0] if chosen else select.find("option").get("value")
    for field in form.find_all("input"):
        if field.get("type") == "checkbox":
            values[field.get("name")] = "checked" in field.attrs
        elif field.get("type") not in ("hidden", "submit"):
            values[field.get("name")] = field.get("value", "")
    return values


@pytest.mark.parametrize("slug", SLUGS)
def test_play_now_prefills_the_play_form_with_a_variant_the_rules_accept(client, slug):
    _, dom = get(client, reverse("rules_variant", args=[slug]), "en")
    href = dom.find("a", data_action="play").get("href")
    url = urlsplit(href)
    assert url.path == reverse("play")
    try:
        variant = variant_from_query(url.query)
    except InvalidVariantError as error:  # pragma: no cover - the message names the rule
        pytest.fail(f"{slug}: Play now asks for a variant the rules refuse: {error}")
    assert variant == EXPECTED[slug]["variant"]

    response, play = get(client, href, "en")
    form = next(f for f in play.find_all("form") if f.find("select", name="board"))
    shown = selected_values(form)
    assert shown["board"] == variant.board
    assert int(shown["players"]) == variant.players
    assert shown["anti"] is variant.anti
    assert shown["free_opening"] is variant.free_opening
    # The form as shown is valid: the site accepts what the link prefilled.
    form_class = type(response.context["form"])
    data = {name: value for name, value in shown.items() if value is not False}
    data = {name: ("on" if value is True else value) for name, value in data.items()}
    bound = form_class(data)
    assert bound.is_valid(), bound.errors
    made = bound.cleaned_data["variant"]  # blocked squares are drawn anew: compare their number
    assert replace(made, blocked=()) == replace(variant, blocked=()) and len(made.blocked) == len(variant.blocked)


@pytest.mark.parametrize("slug", SLUGS)
def test_open_a_table_links_the_table_form_with_the_same_variant(client, slug, django_user_model):
    _, dom = get(client, reverse("rules_variant", args=[slug]), "en")
    href = dom.find("a", data_action="table").get("href")
    url = urlsplit(href)
    assert url.path == url_or_path("table_new", "/tables/new/")
    variant = variant_from_query(url.query)
    assert variant == EXPECTED[slug]["variant"]
    if url_or_path("table_new", None) is None:
        return  # the multiplayer form has not landed yet; the link is ready for it
    client.force_login(django_user_model.objects.create_user("host", "host@example.com", "a-long-password-1"))
    _, table_form = get(client, href, "en")
    form = next(f for f in table_form.find_all("form") if f.find("select", name="board"))
    shown = selected_values(form)
    assert shown["board"] == variant.board
    assert int(shown["players"]) == variant.players
    assert shown["anti"] is variant.anti


def test_links_name_only_what_differs_from_the_defaults():
    assert variant_query(Variant()) == ""
    assert variant_query(Variant(board="octagon", players=3, anti=True)) == "board=octagon&players=3&anti=1"
    assert variant_query(Variant(free_opening=True, handicap=2)) == "free_opening=1&handicap=2"
    assert variant_query(Variant(handicap=1, handicap_colour="black")) == "handicap=1&handicap_colour=black"
    blocked = Variant.with_random_blocked(4, seed=3, board="10x10")
    assert variant_query(blocked) == "board=10x10&blocked=4"


def test_an_unknown_variant_is_404(client):
    assert client.get("/rules/checkers/").status_code == 404


def test_the_computer_and_time_limit_promises_use_the_site_settings(client, settings):
    settings.MOVE_TIME_LIMIT = 45
    _, dom = get(client, reverse("rules_variant", args=["reversi"]), "de")
    faq = dom.by_id("faq").text()
    assert "länger als 45 Sekunden" in faq
    assert "Im Menü neben Neues Spiel stellst du ihn auf Leicht, Normal oder Schwer" in faq


# What the pages tell visitors to press, and the labels the site really shows (docs/rules.md §11).
UI_WORDS = {
    "Play now": "Jetzt spielen", "Open a table": "Tisch eröffnen", "Multiplayer": "Mehrspieler",
    "New Game": "Neues Spiel", "Easy": "Leicht", "Normal": "Normal", "Hard": "Schwer", "Undo": "Rückgängig",
}


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_buttons_the_pages_name_are_the_sites_own_labels(client, language):
    from django.utils import translation

    _, dom = get(client, reverse("rules_variant", args=["reversi"]), language)
    faq = dom.by_id("faq").text()
    with translation.override(language):
        for msgid, german in UI_WORDS.items():
            label = translation.gettext(msgid)
            assert label == (german if language == "de" else msgid)
            assert label in faq, f"the FAQ ({language}) does not name {label!r}"
    nav = [a.text() for a in dom.find("nav").find_all("a")]
    if url_or_path("table_new", None):  # the multiplayer form exists: the header links it
        assert (UI_WORDS["Multiplayer"] if language == "de" else "Multiplayer") in nav


def test_the_plain_reversi_page_links_the_play_form_without_a_dangling_question_mark(client):
    html = client.get(reverse("rules_variant", args=["reversi"])).content.decode()
    links = {a.get("href") for a in parse(html).find_all("a") if a.get("data-action") == "play"}
    assert links == {reverse("play")}
    table_links = {a.get("href") for a in parse(html).find_all("a") if a.get("href", "").startswith(reverse("table_new"))}
    assert all(not href.endswith("?") for href in table_links)
