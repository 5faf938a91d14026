"""A host and a guest at a table, in Chromium: refused seats and misclicks are
answered in place, in each page's language; markers only for the player to move;
the guest's page always knows their seat; a closed table stops inviting."""
import re

import pytest
from playwright.sync_api import expect

from games.models import Game, Move
from tests.people import make_user
from tests.lobby.test_tables_in_browser import (  # noqa: F401 (clean_consoles: every person's console checked)
    clean_consoles, open_table, person, state, wait_for_board, wait_for_ply)
from tests.pages import MovesSent, Watch, assert_board_is_the_stored_game, assert_whole, socket_answer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def markers_shown(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll('#game-state .cell.legal')).filter(c =>
        getComputedStyle(c, '::after').content !== 'none' || /legal|erlaubt/i.test(c.getAttribute('aria-label'))).length""")


def click(page, square, game):
    """A click that the page sends: wait for its answer; the page stays whole and shows the stored game."""
    with socket_answer(page):
        page.locator(f'#game-state [data-square="{square}"]').click()
    assert_whole(page)
    assert_board_is_the_stored_game(page, game)
    return page.locator("#game-message").inner_text().strip()


def empty_not_legal(page):
    return page.locator('#game-state button.cell:not(.legal):not([disabled])[data-stone=""]').first.get_attribute(
        "data-square")


def offer_seat(page, colour):
    """What a stale or tampered form would post: a seat the list does not offer."""
    page.evaluate(f"""() => {{ const s = document.querySelector('.guest-form select[name=seat]');
        s.add(new Option('{colour}', '{colour}')); s.value = '{colour}'; }}""")


def count_seats_pushes(page):
    """Counts, on every page this tab loads, the seats panels its table socket brings."""
    page.add_init_script("""window.seatsPushes = 0;
        document.addEventListener('htmx:wsAfterMessage', (event) => {
            if (String(event.detail.message).includes('id="table-seats"')) window.seatsPushes += 1; });""")


def refused_seat(page, message):
    with page.expect_response(re.compile(r"/guest/$")) as answer:
        page.get_by_role("button", name="Als Gast spielen").click()
    assert answer.value.status == 400
    expect(page.locator("#table-message")).to_have_text(message)
    assert page.locator("header.site-header nav").count() == 1
    expect(page.locator(".guest-form")).to_be_visible()
    expect(page.locator("#table-code")).to_be_visible()


def test_a_guest_in_german_and_a_host_in_english_misclick_at_a_table(live_site, browser):
    host = person(browser, live_site, make_user("alice", "Alice"))
    code = open_table(host, live_site, "board=6x6&level=easy")
    guest = person(browser, live_site)
    count_seats_pushes(guest)
    guest.goto(f"{live_site.url}/tables/{code}/")
    guest.get_by_role("button", name="Deutsch").click()
    expect(guest.locator("html")).to_have_attribute("lang", "de")
    guest.wait_for_load_state()  # htmx takes over the forms at DOMContentLoaded: before, a post is plain
    # The seats socket's first push makes the form offer the free seats only (table.js):
    # a seat added to the list before it arrives would be taken away again.
    guest.wait_for_function("() => window.seatsPushes > 0")

    # The form offers the free seat only; refused values are answered in place, in German.
    options = guest.locator(".guest-form select[name=seat] option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == ["", "white"]
    guest.get_by_label("Dein Name").fill("   ")  # the browser itself refuses an empty field
    refused_seat(guest, "Gib den Namen ein, den die anderen Spieler sehen.")
    guest.get_by_label("Dein Name").fill("Gus")
    offer_seat(guest, "black")
    refused_seat(guest, "Der Platz für Schwarz ist besetzt. Wähle einen anderen.")
    offer_seat(guest, "red")
    refused_seat(guest, "Diesen Platz gibt es an diesem Tisch nicht.")
    guest.locator(".guest-form select[name=seat]").select_option("white")
    guest.get_by_role("button", name="Als Gast spielen").click()
    # The page the guest lands on is served with the game playing (the one they clicked
    # on was served waiting, and is reloading meanwhile).
    guest.wait_for_function("""() => document.querySelector('#game').dataset.tableStatus === 'playing'
        && document.querySelector('#game').dataset.viewerColours === 'white'""", timeout=10000)
    wait_for_board(guest)
    wait_for_board(host)
    game = Game.objects.get(tables__code=code)

    # Black (the host) to move: only the host's page shows markers and sends clicks.
    host.wait_for_function("() => document.querySelector('#game-state .cell.legal')")
    assert markers_shown(host) > 0 and markers_shown(guest) == 0
    guest_sent = MovesSent(guest)
    squares = [c.get_attribute("data-square") for c in guest.locator("#game-state button.cell").all()[::7]]
    for square in squares:
        cell = guest.locator(f'#game-state button.cell[data-square="{square}"]')
        cell.wait_for(state="visible")  # a push may be redrawing the board just now
        cell.click(force=True)  # a person can click it; out of turn it is no button
    assert_whole(guest)

    square = empty_not_legal(host)
    assert click(host, square, game) == f"{square} is not a legal move."
    ply = int(state(host, "ply"))
    legal = host.locator("#game-state button.cell.legal").first.get_attribute("data-square")
    host_sent = MovesSent(host)
    host.locator(f'#game-state [data-square="{legal}"]').dblclick()
    wait_for_ply(guest, ply + 1)
    # The guest's page drew this move after its clicks: had they sent anything, it would show.
    assert guest_sent() == []
    assert Move.objects.filter(game=game, colour="black").count() == 1
    expect(host.locator("#game-message")).to_have_text("")
    assert_whole(host)
    assert_board_is_the_stored_game(host, game)

    # White (the guest) to move.
    guest.wait_for_function("() => document.querySelector('#game-state .cell.legal')")
    assert markers_shown(guest) > 0 and markers_shown(host) == 0
    host.locator("#game-state button.cell.legal").first.click(force=True)
    square = empty_not_legal(guest)
    assert click(guest, square, game) == f"{square} ist kein erlaubter Zug."
    guest.evaluate("document.querySelector('#game-state input[name=ply]').value -= 1")
    legal = guest.locator("#game-state button.cell.legal").first.get_attribute("data-square")
    assert click(guest, legal, game) == "Die Partie ist weitergegangen; hier ist die aktuelle Stellung."
    assert click(guest, legal, game) == ""
    wait_for_ply(host, ply + 2)
    # The host's page drew the guest's move after its clicks: the double click sent one
    # move (its second click came before the answer), the click out of turn none.
    assert len(host_sent()) == 1
    assert_board_is_the_stored_game(host, game)
    expect(host.locator("#game-message")).to_have_text("")  # a refusal goes once the position moved on


def test_a_guest_who_sits_down_lands_on_a_page_that_knows_their_seat(live_site, browser):
    """Joining fills the table: the push that starts the game and the answer to the
    guest's form race; whatever comes first, the guest's page knows the seat."""
    host = person(browser, live_site, make_user("alice", "Alice"))
    for attempt in range(3):
        code = open_table(host, live_site, "board=6x6&level=easy")
        guest = person(browser, live_site, watched=False)
        watch = Watch(guest)
        # The page the guest leaves may have sent its websocket's handshake before they sat
        # down; answered after the game started, a private table refuses it (403). Only the
        # page they land on must be clean.
        guest.on("framenavigated", lambda frame: watch.errors.clear() if frame == guest.main_frame else None)
        # Once as soon as the page arrives (the form may still be a plain form), else when loaded.
        guest.goto(f"{live_site.url}/tables/{code}/", wait_until="commit" if attempt == 1 else "load")
        guest.get_by_label("Your name").fill(f"Guest {attempt}")
        guest.get_by_role("button", name="Play as a guest").click()
        wait_for_board(guest)
        guest.wait_for_function("() => document.querySelector('#game').dataset.viewerColours === 'white'", timeout=10000)
        wait_for_board(host)
        host_clock = host.locator("#move-clock .seconds")
        expect(host_clock).to_be_visible()
        assert int(host_clock.inner_text()) <= 60
        watch.assert_clean()
        guest.context.close()


def test_a_closed_table_stops_inviting_the_guest_who_is_looking_at_it(live_site, browser):
    host = person(browser, live_site, make_user("alice", "Alice"))
    code = open_table(host, live_site, "board=8x8")
    guest = person(browser, live_site)
    guest.goto(f"{live_site.url}/tables/{code}/")
    expect(guest.locator("#table-code")).to_be_visible()
    host.get_by_role("link", name="Give up my seat").click()
    host.get_by_role("button", name="Give up my seat").click()
    expect(guest.locator("#table-seats")).to_contain_text("This table was closed")
    for part in ("#table-code", "#share-link", ".guest-form"):
        expect(guest.locator(part)).to_be_hidden()
