"""The head-to-head line counts each number in its own grammatical number, in English
as in German ("1 time", "0 times")."""
from django.template.loader import render_to_string
from django.utils import translation

from tests.rulebook.dom import parse


def line(language, games, ahead, behind, even):
    with translation.override(language):
        html = render_to_string("accounts/includes/head_to_head.html", {
            "head_to_head": {"games": games, "player_ahead": ahead, "viewer_ahead": behind, "even": even},
            "player": {"display_name": "Carol"}})
    return parse(html).find("p", data_games=True).text()


def test_each_count_has_its_own_plural():
    assert line("en", 1, 1, 0, 0) == "1 game together: Carol finished ahead 1 time, you 0 times, even 0 times."
    assert line("en", 3, 0, 1, 2) == "3 games together: Carol finished ahead 0 times, you 1 time, even 2 times."
    assert line("de", 1, 1, 0, 0) == "1 Partie zusammen: Carol lag 1-mal vorn, du 0-mal, gleichauf 0-mal."
