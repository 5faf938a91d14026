"""What browser tests check on every page a person sees: no script errors, the page
whole after every click, and the board the rules library gives for the stored moves."""
import re
from contextlib import contextmanager

from games import Board
from games.models import Game, Move

# Chromium reports every 4xx answer as a console error ("Failed to load resource");
# refusals are answered 4xx by design, and a write the database kept waiting 503 with
# Retry-After (infra.write_waits), so those lines are left to `Watch._response`.
REFUSED_RESOURCE = re.compile(r"^Failed to load resource: the server responded with a status of (4\d\d|503) ")


class Watch:
    """Console errors, page errors and failed answers of one page, checked with `assert_clean`."""

    def __init__(self, page):
        self.errors = []
        self.expected = []  # predicates of console messages a test provokes on purpose
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on("console", self._console)
        page.on("response", self._response)

    def allow(self, predicate):
        """Console messages for which `predicate(message)` is true are part of the story."""
        self.expected.append(predicate)

    def _console(self, message):
        if any(predicate(message) for predicate in self.expected):
            return
        # htmx reports its error events (an aborted request, an out-of-band part with no
        # target...) as console errors: each fails the test.
        if message.type == "error" and not REFUSED_RESOURCE.match(message.text):
            self.errors.append(f"console: {message.text}")
        elif message.type == "warning" and "htmx" in message.text.lower():
            self.errors.append(f"console warning: {message.text}")

    def _response(self, response):
        # A refusal of a POST is a 4xx, and "busy, try again" a 503 with Retry-After; a page,
        # script or icon that is missing, or any other 5xx, is a fault.
        busy = response.status == 503 and "retry-after" in response.headers
        if (response.status >= 500 and not busy) or (response.status == 404 and response.request.method == "GET"):
            self.errors.append(f"{response.status} for {response.request.method} {response.url}")

    def assert_clean(self):
        assert not self.errors, "\n".join(self.errors)


@contextmanager
def htmx_answer(page, path_end):
    """Around a click whose htmx request goes to a path ending in `path_end`: yields
    Playwright's response, and returns only once htmx has swapped the answer in
    (htmx:afterRequest comes after the swap), not merely once it arrived."""
    page.evaluate("""end => { window.htmxAnswered = false;
        document.addEventListener('htmx:afterRequest', function done(event) {
            if (!event.detail.pathInfo.requestPath.endsWith(end)) return;
            window.htmxAnswered = true;
            document.removeEventListener('htmx:afterRequest', done);
        }); }""", path_end)
    with page.expect_response(lambda response: response.url.endswith(path_end)) as answer:
        yield answer
    page.wait_for_function("() => window.htmxAnswered === true")


GAME_SOCKET = 'body[ws-connect*="&game="]'


def wait_for_game_socket(page):
    """Until the page's socket, with its game, is open and its first push (the position)
    is in (moves.js marks it): clicks then go over it, and the next position is their answer."""
    page.locator(f"{GAME_SOCKET}[data-socket=open]").wait_for(state="attached")


@contextmanager
def socket_answer(page):
    """Around a click on a square of a page whose game socket is open (moves.js sends
    the move over it): returns once the first message after the move went out (its
    answer: the new state, or the position with the reason it was refused) has been
    swapped in. While it is the clicker's turn no other position is pushed in between
    (the page's other streams may push, say, that a player came or went: not positions)."""
    wait_for_game_socket(page)
    page.evaluate("""() => { window.socketAnswered = false;
        const game = (event) => (event.detail.message || '').includes('id="game-state"');
        document.addEventListener('htmx:wsAfterSend', function sent(event) {
            document.removeEventListener('htmx:wsAfterSend', sent);
            document.addEventListener('htmx:wsAfterMessage', function done(event) {
                if (!game(event)) return;
                window.socketAnswered = true;
                document.removeEventListener('htmx:wsAfterMessage', done);
            });
        }); }""")
    yield
    page.wait_for_function("() => window.socketAnswered === true")


class MovesSent:
    """The moves a page sends from now on, over its socket or over HTTP."""

    def __init__(self, page):
        self.page, self.posted = page, []
        page.on("request", lambda request: self.posted.append(request.url) if request.url.endswith("/move/") else None)
        page.evaluate("""() => { window.movesOverSocket = [];
            document.addEventListener('htmx:wsAfterSend', event => window.movesOverSocket.push(event.detail.message)); }""")

    def __call__(self):
        return self.posted + self.page.evaluate("window.movesOverSocket")


def assert_whole(page):
    """Header, board and controls are all still there (nothing swapped the page away)."""
    assert page.locator("header.site-header nav").count() == 1, "the site header is gone"
    assert page.locator("footer.site-footer").count() == 1, "the footer is gone"
    assert page.locator("#game #move-form #game-state .board button.cell").count() > 0, "the board is gone"
    assert page.locator("#game-message").count() == 1, "the message area is gone"
    assert page.locator("head link[rel=stylesheet]").count() >= 1


def shown_stones(page):
    """{square: colour} of the stones on the page's board, and the ply it shows: read at
    once, for a push may swap in the next position between two reads."""
    cells, ply = page.evaluate("""() => { const state = document.querySelector('#game-state');
        return [Array.from(state.querySelectorAll('.board .cell'), c => [c.dataset.square, c.dataset.stone]),
                Number(state.dataset.ply)]; }""")
    return {square: stone for square, stone in cells if stone}, ply


def stored_stones(game, ply):
    """The stones after `ply` moves of the game's stored Move rows, replayed by the rules library."""
    game = Game.objects.get(pk=game.pk)
    board = Board(game.variant_obj)
    for square in Move.objects.filter(game=game, ply__lte=ply).order_by("ply").values_list("square", flat=True):
        board.push(square)
    return board.stones()


def assert_board_is_the_stored_game(page, game):
    stones, ply = shown_stones(page)
    assert stones == stored_stones(game, ply), f"the board at ply {ply} is not the stored game's"
