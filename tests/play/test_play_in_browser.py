"""A visitor plays the computer in Chromium, against a real daphne, Celery worker
and Redis: every update they see arrives over the game's websocket."""
import pytest
from playwright.sync_api import expect

from games.models import Move
from tests.pages import GAME_SOCKET, wait_for_game_socket
from tests.play.helpers import board_snapshot, start_game, state, wait_for_my_turn_or_end

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def play_first_legal_move(page):
    before = int(state(page, "ply"))
    page.locator("#game-state button.cell.legal").first.click()
    page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.ply) > {before}")


def test_a_whole_6x6_game_against_easy_ends_with_the_result(live_site, page):
    me = start_game(page, live_site, "board=6x6", level="easy")
    assert me in ("black", "white")
    moves = 0
    while True:
        wait_for_my_turn_or_end(page)
        if state(page, "status") == "finished":
            break
        play_first_legal_move(page)
        moves += 1
        assert moves <= 32
    result = page.locator("#game-status .result")
    expect(result).to_contain_text("–")  # "Black wins 20–16: Black 20, White 16." or "Draw, 18–18: ..."
    stones = board_snapshot(page)
    counts = {colour: list(stones.values()).count(colour) for colour in ("black", "white")}
    text = result.inner_text()
    assert ("Draw" in text) == (counts["black"] == counts["white"])
    expect(page.locator("#announcer")).to_contain_text(text.split(".")[0])
    assert page.locator("#undo").count() == 1  # the finished game can still be taken back


def test_undo_twice_in_a_row_goes_back_two_of_my_moves(live_site, page):
    me = start_game(page, live_site, "board=8x8", level="easy")
    wait_for_my_turn_or_end(page)
    positions = [board_snapshot(page)]
    for _ in range(2):
        play_first_legal_move(page)
        wait_for_my_turn_or_end(page)
        positions.append(board_snapshot(page))
    for expected in (positions[1], positions[0]):
        ply = int(state(page, "ply"))
        page.get_by_role("button", name="Undo").click()
        page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.ply) < {ply}")
        assert board_snapshot(page) == expected
        assert state(page, "turn") == me
    if positions[0] == board_snapshot(page) and me == "black":
        expect(page.get_by_role("button", name="Undo")).to_have_count(0)  # back at the start


def test_the_octagon_has_88_playable_squares(live_site, page):
    start_game(page, live_site, "board=octagon")
    expect(page.locator("#game-state .board .cell")).to_have_count(100)
    expect(page.locator("#game-state .board .cell:not([disabled])")).to_have_count(88)
    for cut in ("a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "j9", "i10", "j10"):
        cell = page.locator(f'#game-state [data-square="{cut}"]')
        expect(cell).to_be_disabled()
        expect(cell).to_have_attribute("aria-label", f"{cut}, not part of the board")


def test_three_computer_turns_arrive_by_themselves_in_a_four_player_game(live_site, page):
    me = start_game(page, live_site, "board=8x8&players=4", level="easy")
    wait_for_my_turn_or_end(page)
    start_ply = int(state(page, "ply"))
    assert start_ply == ["black", "white", "red", "green"].index(me)  # the computers before me moved
    play_first_legal_move(page)
    wait_for_my_turn_or_end(page)
    assert int(state(page, "ply")) == start_ply + 4  # my move and three computer moves
    stones = [stone for stone in board_snapshot(page).values() if stone]
    assert len(stones) == 4 + start_ply + 4  # every placement adds one stone, nobody passes


def test_a_reload_mid_game_keeps_the_position(live_site, page):
    start_game(page, live_site, "board=10x10", level="easy")
    wait_for_my_turn_or_end(page)
    play_first_legal_move(page)
    wait_for_my_turn_or_end(page)
    before, ply = board_snapshot(page), state(page, "ply")
    page.reload()
    page.wait_for_selector("#game-state")
    assert board_snapshot(page) == before
    assert state(page, "ply") == ply


def test_an_illegal_click_changes_nothing_and_says_why(live_site, page):
    start_game(page, live_site, "board=8x8")
    wait_for_my_turn_or_end(page)
    before, ply = board_snapshot(page), state(page, "ply")
    page.locator('#game-state [data-square="a1"]').click()
    expect(page.locator("#game-message")).to_contain_text("a1 is not a legal move")
    assert board_snapshot(page) == before
    assert state(page, "ply") == ply


def test_the_keyboard_moves_a_cursor_and_enter_plays(live_site, page):
    me = start_game(page, live_site, "board=8x8", level="easy")
    wait_for_my_turn_or_end(page)
    ply = int(state(page, "ply"))
    name = page.locator("#game-state button.cell.legal").first.get_attribute("data-square")
    right = chr(ord(name[0]) + 1) + name[1:]
    page.locator("#game-state button.cell[tabindex='0']").focus()
    expect(page.locator(f'#game-state [data-square="{name}"]')).to_be_focused()  # the cursor starts on a legal move
    page.keyboard.press("ArrowRight")
    expect(page.locator(f'#game-state [data-square="{right}"]')).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(page.locator(f'#game-state [data-square="{name}"]')).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => Number(document.querySelector('#game-state').dataset.ply) > {ply}")
    assert Move.objects.filter(ply=ply + 1, colour=me, square=name, made_by="player").exists()


def test_the_answer_to_a_click_arriving_after_the_computers_reply_does_not_undo_it(live_site, page):
    """A move posted over HTTP (the page's socket down, as moves.js sees it: a click
    before it connected, or while it reconnects) is answered over HTTP, and the network
    may deliver that answer after the socket pushed the computer's reply to it; the
    page must keep the newer position."""
    me = start_game(page, live_site, "board=8x8", level="easy")
    wait_for_my_turn_or_end(page)
    ply = int(state(page, "ply"))
    wait_for_game_socket(page)
    page.evaluate("""selector => document.querySelector(selector).dispatchEvent(
        new CustomEvent('htmx:wsClose', {bubbles: true, detail: {event: {code: 1000}}}))""", GAME_SOCKET)

    def hold_back_until_the_reply_is_shown(route):
        answer = route.fetch()  # the server has applied the move: the answer is the state after it
        page.wait_for_function(  # the computer's reply came over the websocket first
            f"() => Number(document.querySelector('#game-state').dataset.ply) >= {ply + 2}")
        route.fulfill(response=answer)

    page.route("**/move/", hold_back_until_the_reply_is_shown)
    page.evaluate("document.body.addEventListener('htmx:afterOnLoad', () => { window.answered = true; })")
    page.locator("#game-state button.cell.legal").first.click()
    page.wait_for_function("() => window.answered === true")  # the late answer has been handled
    assert int(state(page, "ply")) >= ply + 2
    assert state(page, "turn") == me
    expect(page.locator("#game-state button.cell.legal").first).to_be_enabled()
