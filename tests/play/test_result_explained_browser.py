"""A result whose score is not the stone count says why: the empty squares go to the
winner (docs/rules.md §4)."""
import pytest
from playwright.sync_api import expect

from games import Variant
from tests.review.conftest import FULL_GAME, WIPEOUT, store_game
from tests.review.test_review_browser import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_wipeout_says_the_empty_squares_went_to_the_winner(live_site, page, alice):
    game = store_game(WIPEOUT, players=[alice])  # Black wipes White out with 51 squares empty
    sign_in(page, live_site, alice)
    page.goto(f"{live_site.url}/play/{game.public_id}/")
    result = page.locator("#game-status .result")
    expect(result).to_contain_text("Black wins 64–0")
    expect(page.locator("#game-state .count[data-colour=black] strong")).to_have_text("13")
    expect(result).to_contain_text("51 empty squares count for the winner.")
    page.goto(f"{live_site.url}/games/{game.public_id}/")
    expect(page.locator("#review-result")).to_contain_text("51 empty squares count for the winner.")


def test_a_full_board_and_anti_need_no_explanation(live_site, page, alice):
    full = store_game(FULL_GAME, players=[alice])
    anti = store_game(WIPEOUT, Variant(anti=True), players=[alice])
    sign_in(page, live_site, alice)
    for game in (full, anti):
        page.goto(f"{live_site.url}/play/{game.public_id}/")
        expect(page.locator("#game-status .result")).to_be_visible()
        expect(page.locator("#game-status")).not_to_contain_text("empty")
