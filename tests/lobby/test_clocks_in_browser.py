"""Clocks at tables in Chromium, on the live site (daphne, a Celery worker, Redis): the
clocks tick on every page without drifting from the server's, turn red under 10 s and
warn the player to move; a player who lets their clock run out loses on time, and the
other page shows it by itself, the clock at nothing on both; of three, the computer
plays on; a player who never makes their first move has the game aborted, and their
first move's time starts when their page shows the game.

The tables are opened through the service with clocks of a few seconds (the form's
least is a minute; the clock logic is the same)."""
import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import Variant
from games.access import Viewer
from games.turn.clock import MAX_LAG_CREDIT
from games.models import Game, Move, Seat
from games.services import play_move
from lobby import actions
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def clock_table(host, others, seconds, board="6x6", players=2):
    def open_and_join():
        table = actions.open_table(host, Variant(board=board, players=players), level="easy",
                                   time_control=(Game.TimeControl.CLOCK, seconds, 0))
        for other in others:
            actions.join(table, Viewer(user=other))
        return table.code
    return in_thread(open_and_join)


def shown_left(page, colour):
    return float(page.get_attribute(f'#clocks .clock[data-colour="{colour}"]', "data-left") or "nan")


def server_left(game_id, colour):
    game = Game.objects.get(pk=game_id)
    seat = Seat.objects.get(game=game, colour=colour)
    if game.turn != colour:
        return seat.remaining
    return seat.remaining - (timezone.now() - game.turn_started_at).total_seconds()


def test_a_player_lets_the_clock_run_out_and_loses_on_time(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    code = clock_table(alice, [bob], 25)
    table_url = f"{live_site.url}/tables/{code}/"
    game_id = Game.objects.get(tables__code=code).pk
    # Ticking from the server's time, not a tick off per tick: a page whose clock jumps
    # 5 s on, its timers firing once (Playwright's clock: a late tick on a busy
    # machine, a laptop's lid closed), shows the server's figure 5 s on. A count of
    # ticks would be 4.9 s behind.
    watcher = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE")
    watcher.clock.install()
    watcher.goto(table_url)
    expect(watcher.locator('#clocks .clock[data-colour="black"]')).to_have_attribute("data-running", "1")
    # A push that lands between the two reads (the players' presence) sets the page back
    # to the server's own time: that jump is then lost, so up to three tries.
    jumps = []
    for _ in range(3):
        started = time.monotonic()
        shown_before = shown_left(watcher, "black")
        watcher.clock.fast_forward(5000)
        jumps.append((shown_before - shown_left(watcher, "black"), time.monotonic() - started))
        if 4.7 <= jumps[-1][0] <= 5.3 + jumps[-1][1]:
            break
    else:
        raise AssertionError(f"the page's clock did not move 5 s on with its time: {jumps}")
    watcher.context.close()
    mover = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    other = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE")
    for page in (mover, other):
        page.goto(table_url)
        expect(page.locator('#clocks .clock[data-colour="black"]')).to_have_attribute("data-running", "1")
    # Each makes their first move (one who never does has the game aborted: docs/rules.md §11.3).
    for page, colour, ply in ((mover, "white", "1"), (other, "black", "2")):
        expect(page.locator("body")).to_have_attribute("data-socket", "open")
        page.locator("#game-state button.cell.legal").first.click()
        for each in (mover, other):
            expect(each.locator('#clocks .clock[data-colour="%s"]' % colour)).to_have_attribute("data-running", "1")
            expect(each.locator("#game-state")).to_have_attribute("data-ply", ply)
    white_shown = other.locator('#clocks .clock[data-colour="white"] .clock-time').inner_text()
    # Ticking on each page from the server's time.
    for page in (mover, other):
        # The page's figure lies between the server's just before and just after it was
        # read, give or take 0.3 s, however slowly the machine answers the two reads; it
        # may also be as old as the page's last tick (every 0.1 s, later on a busy
        # machine).
        before = server_left(game_id, "black")
        shown = shown_left(page, "black")
        after = server_left(game_id, "black")
        assert after - 0.3 <= shown <= before + 1.0, (before, shown, after)
        assert page.locator('#clocks .clock[data-colour="white"] .clock-time').inner_text() == white_shown
    # Under 10 s: red on both pages; only the player to move is warned.
    for page in (mover, other):
        expect(page.locator('#clocks .clock[data-colour="black"]')).to_have_class("clock running low")
    expect(mover.locator("#clock-warning")).to_have_text("Less than 10 seconds left: move now!")
    expect(mover.locator("#clock-warning")).to_be_visible()
    expect(other.locator("#clock-warning")).to_be_hidden()
    # The sound is off until the player turns it on, and stays as they left it.
    sound = mover.locator("#clock-sound")
    expect(sound).not_to_be_checked()
    sound.check()
    assert mover.evaluate("localStorage.getItem('reversi.clock-sound')") == "on"
    expect(other.locator("#clock-sound")).to_have_count(1)
    # Alice lets her time run out: Bob's page (German) shows the loss by itself. How
    # soon after the flag's instant is a figure of benchmarks/flag_latency.py.
    expect(other.locator("#game-status .result")).to_contain_text("Schwarz hat die Zeit überschritten.",
                                                                  timeout=20000)
    expect(mover.locator("#game-status .result")).to_contain_text("Black ran out of time.")
    expect(mover.locator("#game-status .result")).to_contain_text("Black (You)", use_inner_text=True)
    # Her clock shows what is left of it, nothing, on both pages at once; Bob's stays as it was.
    for page in (mover, other):
        expect(page.locator('#clocks .clock[data-colour="black"] .clock-time')).to_have_text("0.0")
        expect(page.locator('#clocks .clock[data-colour="black"]')).not_to_have_attribute("data-running", "1")
        expect(page.locator('#clocks .clock[data-colour="white"] .clock-time')).to_have_text(white_shown)
    game = Game.objects.get(pk=game_id)
    assert (game.ending, game.winner, game.flagged) == ("time", "white", ["black"])
    assert Move.objects.filter(game=game).count() == 2
    assert Seat.objects.get(game=game, colour="black").remaining == 0
    # Alice's page answered the server's ping: her round trip is her lag credit.
    assert 0 < Seat.objects.get(game=game, colour="black").lag < 1
    assert errors == []


def test_of_three_one_flags_and_the_computer_plays_on(live_site, browser):
    alice, bob, carol = make_user("alice", "Alice"), make_user("bob", "Bob"), make_user("carol", "Carol")
    errors = []
    code = clock_table(alice, [bob, carol], 12, board="8x8", players=3)

    def first_moves():  # each makes a first move at once (one who does not aborts the game)
        game = Game.objects.get(tables__code=code)
        for user in (alice, bob, carol):
            game = play_move(game, game.board().legal_moves[0], expected_ply=game.ply, viewer=Viewer(user=user))
    in_thread(first_moves)
    page = person(browser, live_site, bob, errors, viewport=PHONE, locale="en-GB")
    page.goto(f"{live_site.url}/tables/{code}/")
    expect(page.locator('#clocks .clock[data-colour="black"]')).to_have_attribute("data-running", "1")
    # Black (Alice) does not move: she is out, and the computer moves for her.
    expect(page.locator("#game-state")).to_have_attribute("data-turn", "white", timeout=20000)
    game = Game.objects.get(tables__code=code)
    assert (game.status, game.forfeited, game.flagged) == ("playing", ["black"], ["black"])
    assert Move.objects.get(game=game, ply=4).made_by == "leaver"
    expect(page.locator('#clocks .clock[data-colour="black"] .clock-time')).to_have_text("0.0")
    expect(page.locator('#clocks .clock[data-colour="white"]')).to_have_attribute("data-running", "1")
    assert errors == []


def test_a_move_just_in_time_counts_and_the_increment_is_added(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    code = in_thread(lambda: _increment_table(alice, bob))
    mover = person(browser, live_site, alice, errors, viewport=PHONE, locale="de-DE")
    other = person(browser, live_site, bob, errors, viewport=LAPTOP, locale="en-GB")
    for page in (mover, other):
        page.goto(f"{live_site.url}/tables/{code}/")
    expect(mover.locator("body")).to_have_attribute("data-socket", "open")
    # Alice waits until her clock shows under a second and a half, then moves.
    mover.wait_for_function("() => Number(document.querySelector('#clocks .clock[data-running]')"
                            ".dataset.left) < 1.5", timeout=10000)
    mover.locator("#game-state button.cell.legal").first.click()
    expect(other.locator("#game-state")).to_have_attribute("data-ply", "1")
    game = Game.objects.get(tables__code=code)
    assert Move.objects.get(game=game, ply=1).made_by == "player" and game.status == "playing"
    left = Seat.objects.get(game=game, colour="black").remaining
    # What was left (under 1.5 s), plus her lag credit (at most 1 s), plus the 2 s increment.
    assert 2.0 < left < 1.5 + MAX_LAG_CREDIT + 2, left
    # tenths, cut down; the page may see the stored seconds a hair higher (3.39999 as 3.4)
    shown = {f"{int(left * 10) / 10:.1f}", f"{int((left + 0.001) * 10) / 10:.1f}"}
    expect(other.locator('#clocks .clock[data-colour="black"] .clock-time')).to_have_text(
        re.compile("^(" + "|".join(re.escape(text) for text in shown) + ")$"))
    assert errors == []


def _increment_table(alice, bob):
    table = actions.open_table(alice, Variant(board="6x6"), time_control=(Game.TimeControl.CLOCK, 8, 2))
    actions.join(table, Viewer(user=bob))
    return table.code


def test_a_player_who_never_makes_a_first_move_has_the_game_aborted_not_lost(live_site, browser):
    from accounts.models import Rating, RatingChange

    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []

    def rated_clock_table():
        table = actions.open_table(alice, Variant(board="6x6"), rated=True,
                                   time_control=(Game.TimeControl.CLOCK, 300, 0))
        actions.join(table, Viewer(user=bob))
        # Accepted 40 s ago while neither had the table open: the test moves the turn's start back.
        game = Game.objects.get(pk=table.game_id)
        Game.objects.filter(pk=game.pk).update(turn_started_at=game.turn_started_at - timedelta(seconds=40),
                                               deadline=game.deadline - timedelta(seconds=40))
        return table.code
    code = in_thread(rated_clock_table)
    game_id = Game.objects.get(tables__code=code).pk
    table_url = f"{live_site.url}/tables/{code}/"
    mover = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    other = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE")
    mover.goto(table_url)
    # Her page shows the game only now: her first move's minute starts now, not 40 s ago.
    expect(mover.locator("#first-move")).to_contain_text("Time for Black's first move:")
    mover.wait_for_function("() => Number(document.querySelector('#first-move').dataset.left) > 50")
    assert (Game.objects.get(pk=game_id).deadline - timezone.now()).total_seconds() > 50
    other.goto(table_url)
    expect(other.locator("#first-move")).to_contain_text("Zeit für den ersten Zug von Schwarz:")
    other.wait_for_function("() => Number(document.querySelector('#first-move').dataset.left) > 45")
    # She never moves. Her minute runs out (the test moves it to now rather than wait it out):
    # the worker aborts the game, and both pages say so by themselves.
    now = timezone.now()
    in_thread(lambda: Game.objects.filter(pk=game_id).update(turn_started_at=now - timedelta(seconds=60),
                                                             deadline=now))
    # (the result is drawn once per reader, who sees theirs: hence the inner text)
    expect(mover.locator("#game-status .result")).to_have_text("Aborted before every player had moved.",
                                                                timeout=20000, use_inner_text=True)
    expect(other.locator("#game-status .result")).to_have_text("Abgebrochen, bevor alle Spieler gezogen hatten.",
                                                               use_inner_text=True)
    for page in (mover, other):
        expect(page.locator("#first-move")).to_have_count(0)
        expect(page.locator('#clocks .clock[data-colour="white"] .clock-time')).to_have_text("5:00")
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.ending, game.winner, game.flagged) == ("finished", "aborted", "", [])
    assert not RatingChange.objects.filter(game=game).exists()
    assert not Rating.objects.filter(games__gt=0).exists()
    assert errors == []


def test_after_a_takeback_both_pages_count_the_clock_from_its_acceptance(live_site, browser):
    from games.presentation import clock_text

    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    code = clock_table(alice, [bob], 300)  # a casual table: takebacks allowed
    table_url = f"{live_site.url}/tables/{code}/"
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE")
    for page in (laptop, phone):
        page.goto(table_url)
        expect(page.locator("body")).to_have_attribute("data-socket", "open")
    for page, ply in ((laptop, "1"), (phone, "2"), (laptop, "3")):
        page.locator("#game-state button.cell.legal").first.click()
        for each in (laptop, phone):
            expect(each.locator("#game-state")).to_have_attribute("data-ply", ply)
    laptop.get_by_role("button", name="Ask to take back my move").click()
    expect(phone.locator("#takeback-request")).to_contain_text("Schwarz möchte den letzten Zug zurücknehmen.")
    game_id = Game.objects.get(tables__code=code).pk

    def bob_thought_30_seconds():  # the test moves his turn's start back rather than wait
        game = Game.objects.get(pk=game_id)
        Game.objects.filter(pk=game_id).update(turn_started_at=game.turn_started_at - timedelta(seconds=30),
                                               deadline=game.deadline - timedelta(seconds=30))
    in_thread(bob_thought_30_seconds)
    phone.get_by_role("button", name="Rücknahme erlauben").click()
    for page in (laptop, phone):
        expect(page.locator("#game-state")).to_have_attribute("data-ply", "2")
        expect(page.locator('#clocks .clock[data-colour="black"]')).to_have_attribute("data-running", "1")
    black, white = (Seat.objects.get(game_id=game_id, colour=colour).remaining for colour in ("black", "white"))
    assert white < 300 - 29  # Bob's 30 s stay spent on his clock
    for page in (laptop, phone):
        # Alice's clock runs from the acceptance: what she had, not 30 s of Bob's less.
        assert black - 3 < shown_left(page, "black") <= black
        before = server_left(game_id, "black")
        shown = shown_left(page, "black")
        after = server_left(game_id, "black")
        assert after - 0.3 <= shown <= before + 1.0, (before, shown, after)
        expect(page.locator('#clocks .clock[data-colour="white"] .clock-time')).to_have_text(clock_text(white))
    assert errors == []
