"""The main pages on a phone (390x844: nothing scrolls sideways, taps land on what
they show) and on a laptop (1366x768: the board and its controls on the first screen)."""
import pytest
from playwright.sync_api import expect
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import Profile
from games.analysis import history_of
from games.models import GameAnalysis
from tests.lobby.test_tables_in_browser import open_table
from tests.pages import Watch
from tests.review.conftest import FULL_GAME, WIPEOUT, store_game
from tests.review.test_review_browser import sign_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


@pytest.fixture
def player(db):
    """A player with a long name, finished and unfinished games, an analysed game and a table."""
    user = get_user_model().objects.create_user("alexandra", "a@example.com", "a long enough passphrase")
    Profile.objects.create(user=user, display_name="Alexandra Konstantinopoulou-Smith")
    analysed = store_game(FULL_GAME, players=[user])
    history = history_of(analysed)
    GameAnalysis.objects.create(
        game=analysed, status=GameAnalysis.Status.DONE, history=history, total=len(history.split()),
        done=len(history.split()), finished_at=timezone.now(),
        entries=[{"best": "a1", "best_value": 3, "played_value": 3 - ply % 5, "loss": ply % 5}
                 for ply in range(len(history.split()))])
    for _ in range(3):
        store_game(WIPEOUT, players=[user])
    playing = store_game(WIPEOUT, players=[user], finished=False)  # Black (the player) to move, Undo offered
    return {"user": user, "analysed": analysed, "playing": playing}


def no_sideways_scrolling(page):
    return page.evaluate("""() => { const s = document.scrollingElement;
        return [s.scrollWidth, s.clientWidth, Array.from(document.querySelectorAll('body *')).filter(e =>
            e.getBoundingClientRect().right > s.clientWidth + 1).slice(0, 5).map(e => e.tagName + '.' + e.className)]; }""")


def boxes(page, *selectors):
    """The boxes (top, bottom, left, right) of the first element of each selector, read at once."""
    return page.evaluate("""selectors => selectors.map(selector => {
        const r = document.querySelector(selector).getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; })""", list(selectors))


def in_language(page, live_site, language):
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_site.url}])


def test_the_main_pages_fit_a_phone(live_site, browser, player):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    watch = Watch(page)
    sign_in(page, live_site, player["user"])
    code = open_table(page, live_site, "board=10x10", public=True)
    pages = ["/", "/play/", f"/play/{player['playing'].public_id}/", f"/tables/{code}/",
             "/games/", "/accounts/profile/", "/accounts/players/alexandra/",
             f"/games/{player['analysed'].public_id}/?ply=30", "/rules/", "/rules/reversi/",
             "/rules/three-or-four-players/", "/tables/new/", "/lobby/"]
    for path in pages:
        page.goto(live_site.url + path)
        width, client, wide = no_sideways_scrolling(page)
        assert width <= client, f"{path} scrolls sideways ({width} > {client}): {wide}"
    # A tap on "Review" in My games lands on that link.
    page.goto(live_site.url + "/games/")
    link = page.locator("table.games tr").nth(1).get_by_role("link", name="Review")
    box = link.bounding_box()
    assert page.evaluate(f"document.elementFromPoint({box['x'] + box['width'] / 2}, {box['y'] + box['height'] / 2})"
                         ".closest('a') === document.querySelectorAll('table.games tr')[1].querySelector('a')")
    link.tap()
    page.wait_for_url("**/games/*/")
    anonymous = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    anonymous_watch = Watch(anonymous)
    for path in ("/accounts/login/", "/accounts/signup/"):
        anonymous.goto(live_site.url + path)
        width, client, wide = no_sideways_scrolling(anonymous)
        assert width <= client, f"{path} scrolls sideways ({width} > {client}): {wide}"
    watch.assert_clean()
    anonymous_watch.assert_clean()


def test_the_board_and_its_controls_fit_a_laptop_screen(live_site, browser, player):
    page = browser.new_context(viewport=LAPTOP).new_page()
    watch = Watch(page)
    sign_in(page, live_site, player["user"])
    page.goto(f"{live_site.url}/play/{player['playing'].public_id}/")
    for part in ("#game-state .board", "#undo", "#new-game", "#game-state .counts", "#game-status"):
        expect(page.locator(part)).to_be_visible()
        # Read in one step: the state pushed on connect may replace the element at any moment.
        box = page.evaluate(f"() => {{ const r = document.querySelector('{part}').getBoundingClientRect();"
                            " return {y: r.y, height: r.height}; }")
        assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], f"{part} is below the fold: {box}"
    width, client, wide = no_sideways_scrolling(page)
    assert width <= client, wide
    watch.assert_clean()


def outside_the_screen(page, selector):
    """The elements of `selector` not wholly inside the page's width, with their text."""
    return page.evaluate("""selector => { const width = document.documentElement.clientWidth;
        return Array.from(document.querySelectorAll(selector)).filter(e => { const r = e.getBoundingClientRect();
            return r.left < 0 || r.right > width; }).map(e => e.textContent.trim()); }""", selector)


def test_on_a_phone_every_link_of_the_header_shows(live_site, browser, player):
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch = Watch(page)
    sign_in(page, live_site, player["user"])
    for language in ("en", "de"):
        in_language(page, live_site, language)
        page.goto(f"{live_site.url}/lobby/")
        expect(page.get_by_role("link", name="Rules" if language == "en" else "Regeln")).to_be_visible()
        assert outside_the_screen(page, "header.site-header a, header.site-header button") == [], language
    watch.assert_clean()


def test_on_a_phone_each_lobby_row_reads_in_order(live_site, browser, player, bob, carol):
    from games import Variant
    from lobby import actions
    from tests.accounts.rated_play import rated_table
    from tests.lobby.browser_people import in_thread

    in_thread(rated_table, player["user"], bob, rated=False)  # playing now
    in_thread(actions.open_table, carol, Variant(players=3), listed=True, computer_colours=["red"])  # open
    page = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch = Watch(page)
    for language in ("en", "de"):
        in_language(page, live_site, language)
        page.goto(f"{live_site.url}/lobby/")
        expect(page.locator(".lobby-list tbody tr")).to_have_count(2)
        rows = page.evaluate("""() => Array.from(document.querySelectorAll('.lobby-list tbody tr')).map(row => {
            const box = e => { const r = e.getBoundingClientRect();
                return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height}; };
            return {cells: Array.from(row.cells, box), link: box(row.cells[row.cells.length - 1].querySelector('a')),
                    people: Array.from(row.querySelectorAll('.people li'), li => Array.from(li.children, box)),
                    row: box(row)}; })""")
        for row in rows:
            # A card: what the table is, then who is there, each line from the left edge
            # in turn; its link (Join, Watch) at the right of the first line, big enough to tap.
            first, *cells, action = row["cells"]
            lines = [first] + cells
            for line, following in zip(lines, lines[1:]):
                assert following["top"] >= line["bottom"] - 1, (language, row)
            for line in lines:
                assert abs(line["left"] - row["row"]["left"]) < 2 and line["right"] <= action["left"], (language, row)
            link = row["link"]
            assert link["top"] < first["bottom"] and link["bottom"] > first["top"], (language, row)
            assert link["height"] >= 24 and row["row"]["right"] - 40 < link["right"] <= PHONE["width"], (language, row)
            for parts in row["people"]:  # a name and its rating on one line
                assert max(p["top"] for p in parts) < min(p["bottom"] for p in parts), (language, parts)
    watch.assert_clean()


@pytest.mark.parametrize("language, name", [("en", "Notifications: 0 unread"),
                                            ("de", "Benachrichtigungen: 0 ungelesen")])
def test_the_bell_is_a_drawn_icon_with_a_name(live_site, browser, player, language, name):
    page = browser.new_context(viewport=LAPTOP).new_page()
    watch = Watch(page)
    sign_in(page, live_site, player["user"])
    in_language(page, live_site, language)
    page.goto(f"{live_site.url}/")
    expect(page.get_by_role("link", name=name).locator("svg")).to_be_visible()
    # Read at once: the notification socket draws the bell again when it connects.
    icon = page.evaluate("""() => { const bell = document.getElementById('bell');
        const r = bell.querySelector('svg').getBoundingClientRect();
        return {width: r.width, height: r.height, text: bell.textContent}; }""")
    assert icon["width"] >= 12 and icon["height"] >= 12
    # No emoji: where no emoji font is installed it shows as an empty box.
    assert not any(ord(character) > 0x2000 for character in icon["text"]), icon["text"]
    watch.assert_clean()
