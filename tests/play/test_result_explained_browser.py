"""A result whose score is not the stone count says why: the empty squares go to the
winner (docs/rules.md §4); a result calls the player reading it "You", as the header does."""
import pytest
from playwright.sync_api import expect

from games import Variant
from tests.pages import Watch
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


def test_the_result_calls_the_player_you_as_the_header_does_and_names_them_to_others(live_site, page, browser, alice):
    game = store_game(WIPEOUT, players=[alice], public=True)
    sign_in(page, live_site, alice)
    watcher = browser.new_context().new_page()
    watch = Watch(watcher)
    for language, you, name in (("en", "Black (You) 64", "Black (Alice) 64"),
                                ("de", "Schwarz (Du) 64", "Schwarz (Alice) 64")):
        for reader in (page, watcher):
            reader.context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])
            reader.goto(f"{live_site.url}/play/{game.public_id}/")
        # What a person reads (innerText): the page's own reading only.
        mine = page.locator("#game-status .result").inner_text()
        assert you in mine and "Alice" not in mine, mine
        expect(page.locator("#game .players")).to_contain_text(you.split(" (")[1].split(")")[0])
        theirs = watcher.locator("#game-status .result").inner_text()
        assert name in theirs and you not in theirs, theirs
        for reader, said in ((page, you), (watcher, name)):
            assert said in reader.locator("#announcer").inner_text()
    watch.assert_clean()
