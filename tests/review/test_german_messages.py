"""German pages say everything in German: refused variants, refused imports, the
review's chart and analysis; and no message a visitor sees cites a RULES section."""
import pytest
from django.urls import reverse
from django.utils import translation

from games import InvalidVariantError, Variant, draw_blocked
from games.analysis import request_analysis
from games.creation import build_variant
from games.variant_errors import MESSAGES, variant_error_message
from tests.review.conftest import WIPEOUT, WIPEOUT_BLUNDER_PLY, store_game
from tests.review.test_analysis import run_to_end
from tests.review.test_records import DEFAULTS

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture(autouse=True)
def english_afterwards():
    """A German request leaves German active in this thread; the tests after these expect English."""
    yield
    translation.deactivate()

# One of every variant the rules core refuses (the form fields allow some of them).
REFUSED = [
    dict(board="9x9"), dict(players=5), dict(anti="yes"), dict(handicap=5), dict(handicap=1, handicap_colour="red"),
    dict(board="6x6", players=3), dict(players=3, free_opening=True), dict(players=3, handicap=1),
    dict(board="octagon", handicap=1), dict(blocked=3), dict(blocked=5), dict(blocked=["z9", "a1"]),
    dict(blocked=["b2", "b2"]), dict(blocked=["d4", "e5"]), dict(board="octagon", blocked=["a1", "h8"]),
    dict(handicap=1, blocked=["a1", "h8"]), dict(blocked=["b2", "c2"]),
]


@pytest.mark.parametrize("options", REFUSED)
def test_every_refused_variant_has_a_german_message_without_a_section(options):
    with pytest.raises(InvalidVariantError) as info:
        build_variant(**options) if isinstance(options.get("blocked", 0), int) else Variant(**options)
    assert info.value.code in MESSAGES
    with translation.override("de"):
        german = variant_error_message(info.value)
    with translation.override("en"):
        english = variant_error_message(info.value)
    assert german != english and "§" not in german + english and "RULES" not in german + english


def test_the_rules_core_stays_django_free_and_keeps_its_rule_for_developers():
    with pytest.raises(InvalidVariantError, match="docs/rules.md §6") as info:
        draw_blocked("8x8", 3)
    assert info.value.code == "blocked_count"


def test_a_refused_play_form_and_table_form_answer_in_german(client):
    html = client.post(reverse("play"), {"board": "6x6", "players": 3, "blocked": 0, "handicap": 0,
                                         "handicap_colour": "white", "level": "easy"}, **DE).content.decode()
    assert "Das 6×6-Brett gibt es nur für 2 Spieler." in html and "§" not in html


@pytest.mark.parametrize("transcript, german", [
    ('{"variant": {"board": "9x9"}, "moves": []}', "Wähle ein Brett"),
    ('{"variant": {"board": ["8x8"]}, "moves": []}', "Wähle ein Brett"),
    ('{"variant": {"players": "many"}, "moves": []}', "Eine Partie hat 2, 3 oder 4 Spieler."),
    ('{"variant": {"blocked": 7}, "moves": []}', "Gib die gesperrten Felder mit ihren Namen an"),
])
def test_import_errors_are_german(client, transcript, german):
    response = client.post(reverse("review_import"), {**DEFAULTS, "transcript": transcript}, **DE)
    html = response.content.decode()
    assert response.status_code == 400 and german in html and "§" not in html


def test_the_review_chart_and_its_mistakes_are_german(client):
    game = store_game(WIPEOUT, public=True)
    record, _queued = request_analysis(game)
    run_to_end(record)
    html = client.get(f"/games/{game.public_id}/?ply={WIPEOUT_BLUNDER_PLY}", **DE).content.decode()
    assert f"Fehler bei Zug {WIPEOUT_BLUNDER_PLY}" in html and ">Zug</text>" in html
    assert "Weiß hat mit diesem Zug" in html
    assert "Schwarz gewinnt 64–0: Schwarz (Computer) 64, Weiß (Computer) 0." in html
    assert "Mistake at move" not in html and ">move</text>" not in html


def test_no_english_on_the_review_of_an_analysed_game_or_an_import_in_german(client):
    from tests.rulebook.test_translations import untranslated_msgids, untranslated_on

    game = store_game(WIPEOUT, public=True)
    record, _queued = request_analysis(game)
    run_to_end(record)
    untranslated = untranslated_msgids()
    for url in (f"/games/{game.public_id}/?ply={WIPEOUT_BLUNDER_PLY}", f"/games/{game.public_id}/?ply=0",
                reverse("review_import"), f"{reverse('review_import')}?moves={WIPEOUT}"):
        assert untranslated_on(client, url, untranslated) == [], url


def test_no_english_on_the_new_pages_and_lines_in_german(client):
    """The code form, the sign-in reasons, the games to continue, an abandoned game."""
    from games.models import Game
    from games.access import GUEST_TOKEN_KEY, Viewer
    from games.creation import create_computer_game
    from tests.rulebook.test_translations import untranslated_msgids, untranslated_on

    session = client.session
    session[GUEST_TOKEN_KEY] = "token"
    session.save()
    old = create_computer_game(Viewer(guest_token="token"), Variant(board="6x6"), "easy")
    create_computer_game(Viewer(guest_token="token"), Variant(), "hard")
    asked = client.post(reverse("play_again", args=[old.public_id]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Diese Partie verlassen?" in asked.content.decode()
    client.post(reverse("play_again", args=[old.public_id]), {"confirm": "1"})
    assert Game.objects.get(pk=old.pk).is_abandoned
    untranslated = untranslated_msgids()
    for url in (reverse("table_join"), reverse("login") + "?next=/lobby/", reverse("login") + "?next=/tables/new/",
                reverse("play"), reverse("play_game", args=[old.public_id]), reverse("review", args=[old.public_id]),
                reverse("my_games"), reverse("play") + "?players=3"):
        assert untranslated_on(client, url, untranslated) == [], url
