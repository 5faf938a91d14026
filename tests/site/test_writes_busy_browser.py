"""A write a person makes with htmx while another connection holds the database's lock,
in Chromium against the real site: the page says at once that the site is busy (the
notice under the header, infra.write_waits), with no console error and the page left
as it was; nothing changed; once the lock goes, the same change goes through."""
import pytest
from django.db import connection
from playwright.sync_api import expect

from games.models import Game
from tests.play.helpers import start_game
from tests.site.test_database_busy import postgres_table_lock, sqlite_write_lock
from tests.site.test_writes_busy import BUSY

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def test_a_level_changed_while_the_database_is_locked_is_answered_busy_in_place(live_site, page):
    start_game(page, live_site, "board=6x6", level="easy")
    game = Game.objects.get(public_id=page.url.rstrip("/").split("/")[-1])
    lock = sqlite_write_lock if connection.vendor == "sqlite" else postgres_table_lock

    with lock():
        with page.expect_response(lambda response: response.url.endswith("/level/")) as answer:
            page.select_option("#level", "hard")
        assert answer.value.status == 503
        expect(page.locator("#site-notice")).to_have_text(BUSY)
        expect(page.locator("#game-state")).to_be_visible()
        assert Game.objects.get(pk=game.pk).level == "easy"

    with page.expect_response(lambda response: response.url.endswith("/level/")) as answer:
        page.select_option("#level", "normal")
    assert answer.value.status == 204
    assert Game.objects.get(pk=game.pk).level == "normal"
