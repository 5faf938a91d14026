"""Tables in Chromium: two (or three) browser contexts, each its own person,
against a real daphne, Celery worker and Redis. Every update a screen shows
arrives over its websockets."""
import re
import time

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.test import Client
from playwright.sync_api import expect

from games.models import Game, Move
from lobby.models import Table
from tests.lobby.conftest import QUICK_MOVE_TIME_LIMIT
from tests.people import make_user
from tests.pages import Watch

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


WATCHED = []  # every person's page in the running test: its console must stay clean


@pytest.fixture(autouse=True)
def clean_consoles():
    WATCHED.clear()
    yield
    for watch in WATCHED:
        watch.assert_clean()


def person(browser, site, user=None, watched=True):
    """A browser context of its own: signed in as `user` (through the session cookie), or a visitor."""
    context = browser.new_context()
    if user is not None:
        client = Client()
        client.force_login(user)
        context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": site.url}])
    page = context.new_page()
    page.set_default_timeout(20000)
    if watched:
        WATCHED.append(Watch(page))
    return page


def state(page, name):
    return page.get_attribute("#game-state", f"data-{name}")


def board(page):
    return page.eval_on_selector_all(
        "#game-state .board .cell", "cells => cells.map(c => c.dataset.square + ':' + c.dataset.stone).join(' ')")


def wait_for_ply(page, ply):
    page.wait_for_function(f"() => document.querySelector('#game-state') && "
                           f"Number(document.querySelector('#game-state').dataset.ply) >= {ply}")


def wait_for_board(page):
    page.wait_for_selector("#game-state .board")
    page.wait_for_load_state()  # htmx takes over the board at DOMContentLoaded, before load


def open_table(page, site, query, *, seat=None, computer=(), public=False):
    page.goto(f"{site.url}/tables/new/?{query}")
    if seat:
        page.get_by_label("Your seat").select_option(seat)
    for colour in computer:
        page.locator(f'input[name="computer"][value="{colour}"]').check()
    if public:
        page.get_by_label("Public: show the table in the lobby").check()
    page.get_by_role("button", name="Open the table").click()
    page.wait_for_selector("#table-code")
    return page.locator("#table-code").inner_text().strip()


def play_until(pages, seats, stop, limit=200):
    """Whoever is to move (a page in `seats` by colour) clicks their first legal square;
    after every move every page shows the same position. Returns the moves clicked."""
    clicked = 0
    for _ in range(limit):
        first = pages[0]
        turn, ply = first.evaluate(  # one read: a computer move may land between two
            "() => { const s = document.querySelector('#game-state').dataset; return [s.turn, Number(s.ply)]; }")
        # Asked after that read: a page only moves on, so a computer move landing in
        # between stops here instead of being played on from by the next seat.
        if stop(first):
            return clicked
        mover = seats.get(turn)
        if mover is None:  # the computer's turn: wait for it
            for page in pages:
                wait_for_ply(page, ply + 1)
            continue
        mover.locator("#game-state button.cell.legal").first.click()
        wait_for_ply(mover, ply + 1)
        new_ply = int(state(mover, "ply"))
        for page in pages:
            wait_for_ply(page, new_ply)
        same_everywhere(pages)
        clicked += 1
    raise AssertionError("the game did not end")


def same_everywhere(pages, timeout=15):
    """Every page settles on the same ply and position (a computer move may be on its way)."""
    deadline = time.monotonic() + timeout
    while True:
        shown = {(state(page, "ply"), board(page)) for page in pages}
        if len(shown) == 1:
            return
        assert time.monotonic() < deadline, f"the screens disagree: plies {sorted(p for p, _ in shown)}"
        time.sleep(0.1)


def finished(page):
    return state(page, "status") == "finished"


def test_two_friends_play_a_private_6x6_table_to_the_end(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    # The live site hashes passwords with Django's default, not the tests' fast hasher.
    alice.password = PBKDF2PasswordHasher().encode("a long enough passphrase", "salt" * 4)
    alice.save(update_fields=["password"])
    host = person(browser, live_site)
    host.goto(live_site.url + "/accounts/login/?next=/tables/new/%3Fboard%3D6x6")
    host.get_by_label("Username").fill("alice")
    host.get_by_label("Password").fill("a long enough passphrase")
    host.get_by_role("button", name="Sign in").click()
    expect(host.get_by_role("link", name="Multiplayer")).to_be_visible()
    expect(host.get_by_label("Board")).to_have_value("6x6")
    host.get_by_role("button", name="Open the table").click()
    code = host.locator("#table-code").inner_text().strip()
    assert re.fullmatch(r"[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{10}", code)
    expect(host.locator("#table-seats")).to_contain_text("Waiting for 1 more player")

    friend = person(browser, live_site, bob)
    friend.goto(live_site.url + "/lobby/")
    expect(friend.locator("#open-tables")).to_have_count(0)  # private: not in the lobby
    friend.get_by_label("Table code").fill(code.lower()[:5] + "-" + code.lower()[5:])
    friend.get_by_role("button", name="Join").click()
    wait_for_board(friend)
    wait_for_board(host)  # the host's waiting room turned into the board by itself
    expect(host.locator("#table-seats")).to_contain_text("Bob")
    assert host.get_attribute("#game", "data-viewer-colours") == "black"
    assert friend.get_attribute("#game", "data-viewer-colours") == "white"
    expect(host.locator("#move-clock")).to_be_visible()
    expect(friend.locator("#move-clock")).to_be_visible()

    clicked = play_until([host, friend], {"black": host, "white": friend}, finished)
    for page in (host, friend):
        wait_for_ply(page, int(state(host, "ply")))
        expect(page.locator("#game-status .result")).to_be_visible()
    # the same result on both pages, each calling its own reader "You"
    host_said, friend_said = host.locator("#game-status").inner_text(), friend.locator("#game-status").inner_text()
    assert "Black (You)" in host_said and "White (Bob)" in host_said
    assert "Black (Alice)" in friend_said and "White (You)" in friend_said
    assert host_said.replace("(You)", "(Alice)") == friend_said.replace("(You)", "(Bob)")
    expect(host.locator("#move-clock")).to_be_hidden()
    game = Game.objects.get(tables__code=code)
    assert game.status == "finished" and game.ending == "normal"
    assert Move.objects.filter(game=game).exclude(made_by="auto").count() == clicked
    assert not Move.objects.filter(game=game, made_by__in=["computer", "timeout"]).exists()


def test_a_public_three_player_table_joined_from_the_lobby_with_a_computer_seat(live_site, browser):
    alice, bob, carol = make_user("alice", "Alice"), make_user("bob", "Bob"), make_user("carol", "Carol")
    joiner = person(browser, live_site, bob)
    joiner.goto(live_site.url + "/lobby/")
    expect(joiner.locator("#lobby-tables")).to_contain_text("No open tables")
    onlooker = person(browser, live_site, carol)
    onlooker.goto(live_site.url + "/lobby/")

    host = person(browser, live_site, alice)
    code = open_table(host, live_site, "board=8x8&players=3&level=easy", computer=["red"], public=True)
    row = joiner.locator(f'#open-tables tr[data-code="{code}"]')  # arrived over the lobby's websocket
    expect(row).to_contain_text("2 of 3")
    expect(row).to_contain_text("Alice")
    row.get_by_role("link", name="Join").click()
    joiner.get_by_role("button", name="Take the White seat").click()
    wait_for_board(joiner)
    wait_for_board(host)
    expect(onlooker.locator(f'#playing-tables tr[data-code="{code}"]')).to_be_visible()  # started
    expect(onlooker.locator("#open-tables")).to_have_count(0)

    onlooker.locator(f'#playing-tables tr[data-code="{code}"]').get_by_role("link", name="Watch").click()
    wait_for_board(onlooker)
    assert onlooker.get_attribute("#game", "data-viewer-colours") == ""
    pages = [host, joiner, onlooker]
    play_until(pages, {"black": host, "white": joiner}, lambda page: int(state(page, "ply")) >= 9)
    game = Game.objects.get(tables__code=code)
    made_by = dict(Move.objects.filter(game=game, ply__lte=9).values_list("ply", "made_by"))
    assert [made_by[ply] for ply in (3, 6, 9)] == ["computer"] * 3
    assert {made_by[ply] for ply in (1, 2, 4, 5, 7, 8)} == {"player"}
    for page in pages:
        expect(page.locator("#table-seats")).to_contain_text("Computer")
        assert len(re.findall(r"[a-j]\d+:(?:black|white|red|neutral)", board(page))) == 4 + 9


def test_quick_choices_and_a_quick_submit_lose_nothing_on_the_new_table_form(live_site, browser):
    """Each choice redraws the form; a newer choice, then the submission, cut the redraw on
    its way short. The redraws are held here until then: the table has every choice, and
    the console stays clean (a cut redraw is no error)."""
    host = person(browser, live_site, make_user("alice", "Alice"))
    held = []
    host.route("**/tables/new/**", lambda route: held.append(route)
               if route.request.resource_type in ("xhr", "fetch") else route.continue_())
    host.goto(f"{live_site.url}/tables/new/?board=8x8&players=3&level=easy")
    host.locator('input[name="computer"][value="red"]').check()
    host.get_by_label("Public: show the table in the lobby").check()
    host.get_by_role("button", name="Open the table").click()
    host.wait_for_selector("#table-code")
    assert len(held) == 2  # neither redraw was answered before the page moved on
    table = Table.objects.get(code=host.inner_text("#table-code").strip())
    assert table.listed
    assert list(table.game.seats.filter(is_computer=True).values_list("colour", flat=True)) == ["red"]


def test_a_slow_player_times_out_and_the_computer_moves_for_them(quick_site, browser):
    alice = make_user("alice", "Alice")
    host = person(browser, quick_site, alice)
    code = open_table(host, quick_site, "board=6x6&level=easy")
    share = host.locator("#share-link").input_value()
    assert share == f"{quick_site.url}/tables/{code}/"
    guest = person(browser, quick_site)  # no account: the share link is enough
    guest.goto(share)
    guest.get_by_label("Your name").fill("Gus <the guest>")
    guest.get_by_role("button", name="Play as a guest").click()
    wait_for_board(guest)
    wait_for_board(host)
    expect(host.locator("#table-seats")).to_contain_text("Gus <the guest> (guest)")
    for page in (host, guest):
        clock = page.locator("#move-clock .seconds")
        expect(clock).to_be_visible()
        assert 0 <= int(clock.inner_text()) <= QUICK_MOVE_TIME_LIMIT
    # Alice (Black) does nothing: after the limit the computer moves for her.
    for page in (host, guest):
        wait_for_ply(page, 1)
        assert state(page, "turn") == "white"
    move = Move.objects.get(game__tables__code=code, ply=1)
    assert (move.colour, move.made_by) == ("black", "timeout")
    for page in (host, guest):  # nobody reads it as Alice's own move
        expect(page.locator("#game-state .timeout-notice")).to_have_text(
            f"Black ran out of time: the computer played {move.square} for them and flipped {len(move.flips)}.")
    assert board(host) == board(guest)
    # The guest's clock now runs, and the guest moves in time.
    guest.locator("#game-state button.cell.legal").first.click()
    for page in (host, guest):
        wait_for_ply(page, 2)
    assert Move.objects.get(game__tables__code=code, ply=2).made_by == "player"


def test_a_player_who_leaves_loses_and_the_computer_finishes_their_game(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    host = person(browser, live_site, alice)
    code = open_table(host, live_site, "board=6x6&level=easy")
    friend = person(browser, live_site, bob)
    friend.goto(f"{live_site.url}/tables/{code}/")
    friend.get_by_role("button", name="Take the White seat").click()
    wait_for_board(friend)
    wait_for_board(host)
    play_until([host, friend], {"black": host, "white": friend}, lambda page: int(state(page, "ply")) >= 2)

    host.get_by_role("link", name="Leave table").click()
    expect(host.get_by_role("heading", name="Leave the table?")).to_be_visible()
    host.get_by_role("button", name="Leave and lose").click()
    wait_for_board(host)
    expect(host.locator(".messages")).to_contain_text("You left the table and lose this game")
    expect(friend.locator("#table-seats")).to_contain_text("left the table; the computer plays on")

    play_until([friend, host], {"white": friend}, finished)  # Black is the computer's now
    for page in (host, friend):
        expect(page.locator("#game-status .result")).to_contain_text("White wins")
        expect(page.locator("#game-status .result")).to_contain_text("Forfeit: Black left the table.")
    game = Game.objects.get(tables__code=code)
    assert (game.ending, game.winner, game.forfeited) == ("forfeit", "white", ["black"])
    assert set(Move.objects.filter(game=game, colour="black", ply__gt=2).exclude(made_by="auto")
               .values_list("made_by", flat=True)) == {"leaver"}
    assert Table.objects.get(code=code).game_id == game.pk
