"""The web server is killed for a minute in the middle of a 1+0 game (docs/rules.md
§11.3): the worker flags nobody meanwhile, and once daphne is back both pages show the
mover's clock as it was when the site went, and play goes on.

A site of this module's own (a private Redis, daphne, a Celery worker): the session's
processes beat in the session's Redis, and its workers are paused meanwhile, since
their clocks would flag this game (tests.servers.workers_paused)."""
import tempfile
import time

import pytest
import redis as redis_py
from django.utils import timezone
from playwright.sync_api import expect

from config.embedded_redis import EmbeddedRedis
from games import Variant, downtime
from games.access import Viewer
from games.models import Game, Seat
from lobby import actions
from tests import servers
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser, pytest.mark.slow]

OUTAGE = 60  # seconds without any web process


@pytest.fixture
def site(tmp_path):
    redis = EmbeddedRedis(f"unix://{tempfile.mkdtemp(prefix='rd-')}/redis.sock").start()
    env = {"REDIS_URL": redis.url}
    started = {}
    try:
        started["worker"] = worker = servers.start_worker(tmp_path, name="downtime-worker", **env)
        with servers.workers_paused(keep=[worker]):
            started["daphne"] = daphne = servers.start_daphne(tmp_path, name="downtime-daphne-1", **env)
            daphne.redis, daphne.env, daphne.log_dir, daphne.started = redis, env, tmp_path, started
            yield daphne
    finally:
        for process in started.values():
            process.stop()
        redis.stop()


def newest_beat(site):
    client = redis_py.Redis.from_url(site.redis.url)
    try:
        beat = client.get(downtime.BEAT_KEY)
        return None if beat is None else float(beat)
    finally:
        client.close()


def shown_left(page, colour="black"):
    return float(page.get_attribute(f'#clocks .clock[data-colour="{colour}"]', "data-left") or "nan")


def refused_reconnection(error):
    """While no server runs, Chromium logs each refused reconnection and htmx the socket's error event."""
    return "WebSocket connection to" in error or error.startswith("[object Event]")


def test_a_minute_without_the_web_server_costs_the_player_to_move_no_time(site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")

    def open_and_join():
        table = actions.open_table(alice, Variant(board="6x6"), time_control=(Game.TimeControl.CLOCK, 60, 0))
        actions.join(table, Viewer(user=bob))
        return table.code

    code = in_thread(open_and_join)
    errors = []
    mover = person(browser, site, alice, errors, viewport=LAPTOP, locale="en-GB")
    other = person(browser, site, bob, errors, viewport=PHONE, locale="de-DE")
    for page in (mover, other):
        page.goto(f"{site.url}/tables/{code}/")
        expect(page.locator('#clocks .clock[data-colour="black"]')).to_have_attribute("data-running", "1")
    game = Game.objects.get(tables__code=code)
    # Alice thinks a few seconds, so her clock runs out well inside the outage.
    mover.wait_for_function("() => Number(document.querySelector('#clocks .clock[data-colour=\"black\"]')"
                            ".dataset.left) < 55", timeout=20000)

    version = game.version
    before = {page: shown_left(page) for page in (mover, other)}
    site.crash()  # kill -9: no web process at all
    killed = time.monotonic()
    servers.wait_for(lambda: time.time() - newest_beat(site) > downtime.STALE, site.started["worker"],
                     "the web's heartbeat to go stale", timeout=10)
    expect(mover.locator("#connection-notice")).to_be_visible()
    time.sleep(max(0.0, OUTAGE - (time.monotonic() - killed)))  # the outage itself
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING, "lost on time while the site was down"
    assert game.deadline < timezone.now()  # her flag as it stood has fallen: nobody took it

    site.started["daphne"] = servers.start_daphne(site.log_dir, port=site.port, name="downtime-daphne-2", **site.env)
    for page in (mover, other):  # the page is back, with the time given back
        page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.version) > {version}",
                               timeout=30000)
        expect(page.locator("#connection-notice")).to_be_hidden()
    after = {page: shown_left(page) for page in (mover, other)}
    outage = downtime.parse(redis_py.Redis.from_url(site.redis.url).zrange(downtime.OUTAGES_KEY, 0, -1)[0])
    print(f"daphne down {(outage.end - outage.start).total_seconds():.1f} s; both pages showed the game again "
          f"{time.time() - outage.end.timestamp():.1f} s after it listened")
    print(f"black's clock before the outage {before[mover]:.1f} s (Bob's page {before[other]:.1f} s), "
          f"after {after[mover]:.1f} s ({after[other]:.1f} s)")
    for page in (mover, other):
        assert abs(after[page] - before[page]) < 2, (before[page], after[page])
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    assert abs(Seat.objects.get(game=game, colour="black").remaining - before[mover]) < 2
    assert "is given back to the players to move" in site.started["daphne"].output()

    # Play goes on: Alice moves, in time, and Bob's page shows it.
    expect(mover.locator("body")).to_have_attribute("data-socket", "open")
    mover.locator("#game-state button.cell.legal").first.click()
    expect(other.locator("#game-state")).to_have_attribute("data-ply", "1")
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING and game.turn == "white"
    assert [error for error in errors if not refused_reconnection(error)] == []
