"""A click while another connection holds the database's write lock (SQLite), in
Chromium against the real site: the page says the site is busy, nothing is played
while the lock lasts, and once it is gone the page sends the move again by itself
(static/js/moves.js) and it is played once."""
import sqlite3
import time

import pytest
from django.db import connection
from playwright.sync_api import expect

from games.models import Game, Move
from tests.pages import MovesSent, assert_whole, wait_for_game_socket
from tests.play.helpers import start_game, state, wait_for_my_turn_or_end

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_move_answered_busy_is_sent_again_by_the_page_once_the_lock_goes(live_site, page):
    if connection.vendor != "sqlite":
        pytest.skip("holds a SQLite write lock")
    start_game(page, live_site, "board=6x6", level="easy")
    wait_for_my_turn_or_end(page)
    wait_for_game_socket(page)
    game = Game.objects.get(public_id=page.url.rstrip("/").split("/")[-1])
    ply = int(state(page, "ply"))
    square = page.locator("#game-state .board button.cell.legal").first.get_attribute("data-square")

    holder = sqlite3.connect(connection.settings_dict["NAME"], timeout=30, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        sent = MovesSent(page)
        page.locator(f'#game-state [data-square="{square}"]').click()
        expect(page.locator("#game-message")).to_have_text(
            "The site is busy; your move is sent again in a moment.", timeout=15000)
        # The page tries again, is answered busy again (a page sends again only after
        # "busy") and tries once more.
        deadline = time.monotonic() + 15
        while len(sent()) < 3 and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert len(sent()) >= 3, sent()
        assert_whole(page)
        assert int(state(page, "ply")) == ply
        assert not Move.objects.filter(game=game, ply__gt=ply).exists()
    finally:
        holder.execute("ROLLBACK")
        holder.close()

    page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.ply) > {ply}", timeout=20000)
    move = Move.objects.get(game=game, ply=ply + 1)
    assert (move.square, move.made_by) == (square, "player")
    expect(page.locator("#game-message")).to_have_text("")
