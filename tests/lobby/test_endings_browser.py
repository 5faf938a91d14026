"""Ending a table's game early, in Chromium against a real daphne, Celery worker and
Redis: Alice on a laptop in English, Bob on a phone in German. What a person clicks
is clicked; any console or page error fails."""
import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.accounts.rated_play import rated_table
from tests.lobby.browser_people import LAPTOP, PHONE, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


@pytest.fixture(autouse=True)
def patient_expectations():
    expect.set_options(timeout=15000)
    yield
    expect.set_options(timeout=5000)


def at_table(browser, site, table, errors, **people):
    """{name: page} of the players, each on the table page with its game socket open."""
    pages = {}
    for name, (user, args) in people.items():
        page = person(browser, site, user, errors, **args)
        page.goto(f"{site.url}/tables/{table.code}/")
        if args.get("java_script_enabled", True):
            expect(page.locator("body")).to_have_attribute("data-socket", "open")
        pages[name] = page
    return pages


def laptop_en(user):
    return user, {"viewport": LAPTOP, "locale": "en-GB"}


def phone_de(user):
    return user, {"viewport": PHONE, "locale": "de-DE", "is_mobile": True}


def test_a_player_resigns_over_the_socket_after_a_confirmation_and_both_see_the_result(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob, rated=False)
    pages = at_table(browser, live_site, table, errors, laptop=laptop_en(alice), phone=phone_de(bob))
    laptop, phone = pages["laptop"], pages["phone"]
    laptop.locator("#game-state button.cell.legal").first.click()
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")
    posts = []
    phone.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)

    # Asked first; "Weiterspielen" changes nothing.
    phone.get_by_role("link", name="Aufgeben").click()
    dialog = phone.locator("#resign-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Diese Partie aufgeben?")
    dialog.get_by_role("button", name="Weiterspielen").click()
    expect(dialog).to_be_hidden()
    assert Game.objects.get(pk=table.game_id).status == "playing"

    phone.get_by_role("link", name="Aufgeben").click()
    dialog.get_by_role("button", name="Aufgeben").click()
    for page, said in ((laptop, "White resigned."), (phone, "Weiß hat aufgegeben.")):
        expect(page.locator("#game-state")).to_have_attribute("data-status", "finished")
        expect(page.locator("#game-status")).to_contain_text(said)
        expect(page.locator("#resign")).to_have_count(0)  # the seats panel follows over its socket
    assert posts == []  # sent over the game's websocket, not posted
    game = Game.objects.get(pk=table.game_id)
    assert (game.ending, game.winner) == ("resigned", "black")
    assert errors == []


def test_without_javascript_resigning_asks_on_a_page_of_its_own(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob, rated=False)
    pages = at_table(browser, live_site, table, errors,
                     laptop=(alice, {"viewport": LAPTOP, "locale": "en-GB", "java_script_enabled": False}))
    laptop = pages["laptop"]
    laptop.get_by_role("link", name="Resign").click()
    expect(laptop.locator("h1")).to_have_text("Resign this game?")
    laptop.locator("#confirm-resign").click()
    expect(laptop.locator("#game-status")).to_contain_text("Black resigned.")
    expect(laptop.locator("#game-status")).to_contain_text("White wins 34–2")
    # The form once more (a second tab, a back button): refused in place, nothing changes.
    laptop.go_back()
    expect(laptop.locator("h1")).to_have_text("Resign this game?")
    laptop.locator("#confirm-resign").click()
    expect(laptop.locator(".messages .message.error")).to_contain_text("This game is over.")
    assert Game.objects.get(pk=table.game_id).winner == "white"
    assert errors == []


def test_a_draw_offered_over_the_socket_is_seen_at_once_and_accepted(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob)
    pages = at_table(browser, live_site, table, errors, laptop=laptop_en(alice), phone=phone_de(bob))
    laptop, phone = pages["laptop"], pages["phone"]
    laptop.get_by_role("button", name="Offer a draw").click()
    expect(phone.locator("#draw-offer")).to_contain_text("Schwarz bietet Remis an.")
    expect(laptop.locator("#draw-offer")).to_contain_text("Black offers a draw.")
    expect(laptop.locator("#accept-draw")).to_be_hidden()  # the offer is answered by the other player only
    # Offered again at once: refused in place, in the offerer's language.
    laptop.get_by_role("button", name="Offer a draw").click()
    expect(laptop.locator("#game-message")).to_contain_text("You have offered a draw already")
    phone.get_by_role("button", name="Remis annehmen").click()
    for page, said in ((laptop, "Drawn by agreement."), (phone, "Remis nach Vereinbarung.")):
        expect(page.locator("#game-status")).to_contain_text(said)
        expect(page.locator("#offer-draw")).to_have_count(0)
    game = Game.objects.get(pk=table.game_id)
    assert (game.ending, game.winner, game.score) == ("agreed", "", {"black": 18, "white": 18})
    assert errors == []


def test_a_draw_offer_declined_on_a_phone_and_play_goes_on(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob, rated=False)
    pages = at_table(browser, live_site, table, errors, laptop=laptop_en(alice), phone=phone_de(bob))
    laptop, phone = pages["laptop"], pages["phone"]
    phone.get_by_role("button", name="Remis anbieten").click()
    expect(laptop.locator("#draw-offer")).to_contain_text("White offers a draw.")
    laptop.get_by_role("button", name="Decline").click()
    for page in (laptop, phone):
        expect(page.locator("#draw-offer")).to_have_count(0)
        expect(page.locator("#game-state")).to_have_attribute("data-status", "playing")
    laptop.locator("#game-state button.cell.legal").first.click()
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")
    game = Game.objects.get(pk=table.game_id)
    assert (game.status, game.draw_offer) == ("playing", "")
    assert errors == []


def test_a_game_aborted_at_move_one_is_won_by_nobody(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob)
    pages = at_table(browser, live_site, table, errors, laptop=laptop_en(alice), phone=phone_de(bob))
    laptop, phone = pages["laptop"], pages["phone"]
    laptop.locator("#game-state button.cell.legal").first.click()
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")
    phone.get_by_role("button", name="Partie abbrechen").click()
    for page, said in ((laptop, "Aborted before every player had moved."),
                       (phone, "Abgebrochen, bevor alle Spieler gezogen hatten.")):
        expect(page.locator("#game-status")).to_contain_text(said)
        expect(page.locator("#abort")).to_have_count(0)
    game = Game.objects.get(pk=table.game_id)
    assert (game.ending, game.winner, game.rated) == ("aborted", "", True)
    laptop.goto(f"{live_site.url}/games/")
    expect(laptop.locator("td.outcome-aborted")).to_have_text("aborted")
    assert errors == []


def test_a_takeback_on_a_casual_table_undoes_the_move_and_its_reply(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob, rated=False)
    pages = at_table(browser, live_site, table, errors, laptop=laptop_en(alice), phone=phone_de(bob))
    laptop, phone = pages["laptop"], pages["phone"]
    laptop.locator("#game-state button.cell.legal").first.click()
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")
    phone.locator("#game-state button.cell.legal").first.click()
    expect(laptop.locator("#game-state")).to_have_attribute("data-ply", "2")
    laptop.get_by_role("button", name="Ask to take back my move").click()
    expect(phone.locator("#takeback-request")).to_contain_text("Schwarz möchte den letzten Zug zurücknehmen.")
    expect(laptop.locator("#accept-takeback")).to_be_hidden()
    phone.get_by_role("button", name="Rücknahme erlauben").click()
    for page in (laptop, phone):
        expect(page.locator("#game-state")).to_have_attribute("data-ply", "0")
        expect(page.locator("#game-state")).to_have_attribute("data-turn", "black")
        expect(page.locator("#takeback-request")).to_have_count(0)
    assert Game.objects.get(pk=table.game_id).moves.count() == 0
    laptop.locator("#game-state button.cell.legal").first.click()  # and play goes on
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")
    assert errors == []


def test_a_takeback_is_refused_in_place_at_a_rated_table(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob)
    pages = at_table(browser, live_site, table, errors, phone=phone_de(alice))
    phone = pages["phone"]
    phone.locator("#game-state button.cell.legal").first.click()
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")
    expect(phone.locator("#request-takeback")).to_have_count(0)  # not offered at a rated table
    # What a page from a casual table would send: refused on the socket, in German.
    phone.evaluate(f"""() => {{ const form = document.createElement('form');
        form.method = 'post'; form.action = '/tables/{table.code}/takeback/'; form.dataset.socketAction = 'request_takeback';
        form.innerHTML = '<button type="submit" id="forged">take back</button>'; document.body.append(form); }}""")
    phone.locator("#forged").click()
    expect(phone.locator("#game-message")).to_contain_text(
        "An einem gewerteten Tisch können Züge nicht zurückgenommen werden.")
    game = Game.objects.get(pk=table.game_id)
    assert (game.ply, game.takeback_request) == (1, "")
    assert errors == []


GONE_SECONDS = 6


@pytest.fixture(scope="module")
def gone_site(live_site, django_db_blocker, tmp_path_factory):
    """A second daphne on the live site's database, Redis and worker, with a short
    PLAYER_GONE_SECONDS (the claims are checked in the web process)."""
    from tests import servers

    with django_db_blocker.unblock():
        daphne = servers.start_daphne(tmp_path_factory.mktemp("gone-site"), PLAYER_GONE_SECONDS=GONE_SECONDS)
    yield daphne
    daphne.stop()


def presence_of(page, colour):
    return page.locator(f'#table-seats li[data-colour="{colour}"] .presence')


def test_a_player_closes_their_page_and_after_the_gone_time_the_other_claims_the_win(live_site, gone_site, browser):
    """Bob's page is served by one daphne, Alice's by another: presence is shared (Redis)."""
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob)
    laptop = at_table(browser, gone_site, table, errors, laptop=laptop_en(alice))["laptop"]
    phone = at_table(browser, live_site, table, errors, phone=phone_de(bob))["phone"]
    expect(presence_of(phone, "black")).to_have_text("· da")
    laptop.locator("#game-state button.cell.legal").first.click()  # now Bob (White) is to move
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")
    expect(presence_of(laptop, "white")).to_have_attribute("data-here", "true")
    phone.context.close()
    expect(presence_of(laptop, "white")).to_have_text("· gone")
    claim = laptop.get_by_role("button", name="Claim the win")
    expect(claim).to_be_hidden()  # until Bob has been gone long enough
    expect(claim).to_be_visible(timeout=GONE_SECONDS * 1000 + 15000)
    claim.click()
    expect(laptop.locator("#game-status")).to_contain_text("White was gone; the win was claimed.")
    game = Game.objects.get(pk=table.game_id)
    assert (game.ending, game.winner) == ("claimed", "black")
    assert errors == []


def test_a_gone_player_who_comes_back_in_time_plays_on(gone_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob, rated=False)
    pages = at_table(browser, gone_site, table, errors, laptop=laptop_en(alice), phone=phone_de(bob))
    laptop, phone = pages["laptop"], pages["phone"]
    laptop.locator("#game-state button.cell.legal").first.click()
    expect(phone.locator("#game-state")).to_have_attribute("data-ply", "1")
    phone.context.close()
    expect(presence_of(laptop, "white")).to_have_text("· gone")
    back = at_table(browser, gone_site, table, errors, phone=phone_de(bob))["phone"]
    expect(presence_of(laptop, "white")).to_have_text("· here")
    expect(laptop.locator("#claim-win")).to_have_count(0)
    back.locator("#game-state button.cell.legal").first.click()  # and play goes on
    expect(laptop.locator("#game-state")).to_have_attribute("data-ply", "2")
    assert Game.objects.get(pk=table.game_id).status == "playing"
    assert errors == []


HIDDEN_TAB = """
    window.notified = [];
    window.Notification = function (title, options) { window.notified.push(title + ' | ' + options.body); };
    window.Notification.permission = 'default';
    window.Notification.requestPermission = function () {
        window.Notification.permission = 'granted'; return Promise.resolve('granted'); };
    window.hideTab = function () {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        document.dispatchEvent(new Event('visibilitychange')); };
    window.showTab = function () {
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
        document.dispatchEvent(new Event('visibilitychange')); };
"""


def test_a_hidden_tab_says_your_turn_in_its_title_and_a_notification_once_allowed(live_site, browser):
    alice, bob = make_user("alice", "Alice"), make_user("bob", "Bob")
    errors = []
    table = in_thread(rated_table, alice, bob, rated=False)
    laptop = person(browser, live_site, alice, errors, viewport=LAPTOP, locale="en-GB")
    phone = person(browser, live_site, bob, errors, viewport=PHONE, locale="de-DE", is_mobile=True)
    phone.add_init_script(HIDDEN_TAB)
    for page in (laptop, phone):
        page.goto(f"{live_site.url}/tables/{table.code}/")
        expect(page.locator("body")).to_have_attribute("data-socket", "open")
    title = phone.title()
    phone.get_by_role("button", name="Sag mir, wenn ich am Zug bin").click()
    expect(phone.locator("#turn-notice")).to_be_hidden()
    phone.evaluate("window.hideTab()")
    laptop.locator("#game-state button.cell.legal").first.click()  # now it is Bob's turn
    expect(phone).to_have_title("Du bist am Zug · Reversi")
    assert phone.evaluate("window.notified") == ["Du bist am Zug · Reversi | Dein Gegner hat gezogen."]
    phone.evaluate("window.showTab()")
    expect(phone).to_have_title(title)
    assert errors == []
