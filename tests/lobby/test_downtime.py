"""The site's downtime is not the players' (games.downtime, docs/rules.md §11.3): while
no web process beats, the workers' clocks flag nobody; the first daphne back records
the outage, and its time is given back to the player to move of every game, once,
before anyone is flagged; a restart within STALE seconds is no outage.

Time is injected: the web's beats, the clocks' ticks and the games' turns are set on
a timeline far from now (T), so the beats of the session's own web processes (always
older) change nothing in it. No worker runs meanwhile (tests.servers.workers_paused):
the tests do the workers' part themselves."""
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import Variant, deadlines, downtime, endings
from games.gone import gone_for, seat_place
from games.access import Viewer
from games.turn.clock import RECONNECT
from games.models import Game, Move, Seat
from games.presentation import clocks_view
from games.errors import GameError
from games.services import flag, give_back_downtime, play_move, timeout_move
from infra.redis_clients import redis_client
from lobby import actions
from tests import servers
from tests.presence_marks import left_at

pytestmark = pytest.mark.django_db

CLOCK_1_0 = (Game.TimeControl.CLOCK, 60, 0)
T = (timezone.now() + timedelta(days=30)).replace(microsecond=0)  # beats are kept to the millisecond


def at(seconds):
    return T + timedelta(seconds=seconds)


def web_beats(seconds, since=None):
    """A web process, running since `since` (long before T by default), beats at T+seconds."""
    since_at = at(since).timestamp() if since is not None else 0.0
    return downtime.beat(redis_client(), since_at, now=at(seconds).timestamp())


def clocks_tick(seconds):
    """What a worker's clock does each second, at T+seconds."""
    return deadlines.queue_due_time_outs(at(seconds))


@pytest.fixture(autouse=True)
def timeline():
    """No worker acts on this timeline's outages, and none outlives the test."""
    keys = (downtime.BEAT_KEY, downtime.OUTAGES_KEY, downtime.CREDITED_KEY, downtime.CLAIM_KEY)
    with servers.workers_paused():
        redis_client().delete(*keys)
        yield
        redis_client().delete(*keys)
        # the session's web heartbeat (tests/servers.py) beats again at once, not up to
        # a second later: the next test's workers' clocks find the web serving
        downtime.beat(redis_client(), time.time())


def table(alice, bob, time_control=CLOCK_1_0, started=-80):
    """Alice (Black, to move) and Bob at a running 6x6 table; Alice's turn began at
    T+started, her deadline as the time control sets it from there."""
    lobby_table = actions.open_table(alice, Variant(board="6x6"), time_control=time_control)
    actions.join(lobby_table, Viewer(user=bob))
    game = Game.objects.get(pk=lobby_table.game_id)
    seat = game.seats.get(colour="black")
    Game.objects.filter(pk=game.pk).update(turn_started_at=at(started),
                                           deadline=deadlines.deadline_for(game, seat, at(started)))
    return Game.objects.get(pk=game.pk)


def black(game):
    return Seat.objects.get(game=game, colour="black")


def test_nobody_is_flagged_while_the_web_is_down_and_the_outage_is_given_back_before_any_flag(alice, bob):
    web_beats(-60)  # the last beat: the web dies
    game = table(alice, bob)  # Alice's turn began 20 s before: 40 s left then; her flag would fall at T-20
    assert clocks_tick(-30) == 0 and clocks_tick(0) == 0  # no web process: nobody could move, nobody flags
    assert downtime.state(at(0)) == (False, [])

    outage = web_beats(0, since=0)  # a daphne is back
    assert outage is not None
    serving, owed = downtime.state(at(0.5))
    assert serving and owed == [downtime.Outage(at(-60), at(0))]
    assert clocks_tick(0.5) == 0  # two workers' clocks: the first queues the credit,
    assert clocks_tick(0.6) == 0  # the second finds it claimed; neither flags meanwhile
    assert not downtime.claim_credit()

    assert give_back_downtime() == 1  # the task (games.credit_downtime)
    game.refresh_from_db()
    restart = at(0 + RECONNECT)
    assert game.turn_started_at == restart and game.deadline == restart + timedelta(seconds=40)
    assert black(game).remaining == pytest.approx(40)
    shown = {clock["colour"]: clock for clock in clocks_view(game, game.seats.all())}
    assert shown["black"]["remaining"] == "40.000" and shown["black"]["running"]  # the page counts from 40 s at restart
    # The same outage again (the task ran twice, or its claim lapsed): given once.
    redis_client().delete(downtime.CREDITED_KEY)
    assert give_back_downtime() == 0
    game.refresh_from_db()
    assert game.deadline == restart + timedelta(seconds=40)

    web_beats(1)
    assert clocks_tick(1) == 0  # credited: the flag moved with it
    web_beats(RECONNECT + 39.5)
    assert clocks_tick(RECONNECT + 39.5) == 0
    assert clocks_tick(RECONNECT + 40.5) == 1  # and falls when the time given back has run out
    assert not Move.objects.filter(game=game).exists()  # queued for a worker


def test_a_daphne_back_within_stale_seconds_is_no_outage():
    web_beats(0)
    assert web_beats(2.5, since=2.5) is None  # restarted: 2.5 s without a beat
    assert downtime.state(at(2.6)) == (True, [])
    assert downtime.state(at(2.5 + downtime.STALE)) == (True, [])
    assert downtime.state(at(2.6 + downtime.STALE)) == (False, [])  # no beat for longer: down
    web_beats(10, since=2.5)  # the same process beats again (it had lost Redis): not an outage
    assert downtime.state(at(10)) == (True, [])


def test_with_the_whole_site_down_deadlines_passed_meanwhile_flag_nobody_owed_time(alice, bob, carol):
    web_beats(-60)  # daphne and the workers die together
    owed = table(alice, bob)  # 40 s left when the site went
    already_late = table(carol, bob, started=-125)  # out of time 5 s before the site went
    assert clocks_tick(100) == 0  # the workers come back first: still no web process
    web_beats(110, since=110)  # then daphne
    assert clocks_tick(110.5) == 0  # the credit first
    assert give_back_downtime() == 1
    owed.refresh_from_db()
    assert owed.deadline == at(110 + RECONNECT + 40) and black(owed).remaining == pytest.approx(40)
    already_late.refresh_from_db()
    assert already_late.deadline == at(-125 + 60)  # nothing given back: the site was up when it ran out
    assert clocks_tick(111) == 1  # so only that one is flagged


@pytest.mark.parametrize("time_control, total", [((Game.TimeControl.MOVE, 0, 0), 60),
                                                  ((Game.TimeControl.DAYS, 86400, 0), 86400)])
def test_every_time_control_gets_the_outage_back(alice, bob, time_control, total):
    game = table(alice, bob, time_control=time_control, started=-80)
    seat = game.seat_of(game.turn)
    assert deadlines.give_back_downtime(game, seat, [downtime.Outage(at(-60), at(0))])
    assert game.turn_started_at == at(RECONNECT)
    assert game.deadline == at(RECONNECT) + timedelta(seconds=total - 20)
    assert not deadlines.give_back_downtime(game, seat, [downtime.Outage(at(-60), at(0))])  # once


def real_outage(start, end):
    """An outage as the first daphne back records it, at instants of real time."""
    redis_client().zadd(downtime.OUTAGES_KEY, {f"{start.timestamp():.3f} {end.timestamp():.3f}": end.timestamp()})


def test_a_move_and_a_time_out_before_the_credit_count_the_outage_out(alice, bob):
    """The web is back and Alice moves before any worker gave the outage back: her
    move is in time and charged only her own thinking; the time-out finds her not due."""
    now = timezone.now()
    lobby_table = actions.open_table(alice, Variant(board="6x6"), time_control=CLOCK_1_0)
    actions.join(lobby_table, Viewer(user=bob))
    game = Game.objects.get(pk=lobby_table.game_id)
    Game.objects.filter(pk=game.pk).update(turn_started_at=now - timedelta(seconds=80),
                                           deadline=now - timedelta(seconds=20))
    real_outage(now - timedelta(seconds=70), now - timedelta(seconds=2))  # 10 s of Alice's turn before it
    assert flag(game.pk, 0) is None and timeout_move(game.pk, 0) is None
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    game = play_move(game, game.board().legal_moves[0], expected_ply=0, viewer=Viewer(user=alice))
    assert Move.objects.get(game=game).made_by == "player"
    assert black(game).remaining == pytest.approx(50, abs=0.5)  # 60 - 10; nothing after the restart


@pytest.mark.django_db(transaction=True)
def test_two_workers_crediting_at_once_give_the_outage_back_once(alice, bob):
    web_beats(-60)
    game = table(alice, bob)
    web_beats(0, since=0)
    version = game.version
    changed, failures = [], []

    def worker():
        try:
            changed.append(give_back_downtime())
        except Exception as error:  # pragma: no cover - shown by the assertion below
            failures.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not failures and sum(changed) == 1
    game.refresh_from_db()
    assert game.deadline == at(RECONNECT + 40) and black(game).remaining == pytest.approx(40)
    assert game.version == version + 1


def test_a_player_gone_only_while_the_site_was_down_cannot_be_claimed_against(alice, bob, settings):
    """Alice's page was last heard of 100 s ago; the site was down from then until 2 s
    ago: she counts as gone for 2 s, not 100, so Bob may not claim the win yet."""
    settings.PLAYER_GONE_SECONDS = 30
    lobby_table = actions.open_table(alice, Variant(board="6x6"))
    actions.join(lobby_table, Viewer(user=bob))
    game = Game.objects.get(pk=lobby_table.game_id)  # Alice (Black) to move
    now = timezone.now()
    heard = (now - timedelta(seconds=100)).timestamp()
    left_at(seat_place(game.public_id, "black"), heard)
    assert gone_for(game.public_id, "black") > 99
    real_outage(now - timedelta(seconds=99), now - timedelta(seconds=2))
    assert gone_for(game.public_id, "black") < 5
    with pytest.raises(GameError, match="Alice has not been gone long enough yet"):
        endings.claim_win(game, Viewer(user=bob))
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
