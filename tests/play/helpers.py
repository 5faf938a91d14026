"""Small helpers for the play tests."""


class FirstChoice:
    """A random source that always picks the first option: the visitor plays Black."""

    def choice(self, options):
        return options[0]

    def sample(self, population, k):
        return list(population)[:k]


def board_snapshot(page):
    """{square: stone} of every square on the page's board."""
    return page.eval_on_selector_all(
        "#game-state .board .cell", "cells => Object.fromEntries(cells.map(c => [c.dataset.square, c.dataset.stone]))")


def state(page, name):
    return page.get_attribute("#game-state", f"data-{name}")


def wait_for_my_turn_or_end(page, timeout=30000):
    page.wait_for_function(
        """() => {
            const s = document.querySelector('#game-state');
            const me = document.querySelector('#game').dataset.viewerColours;
            return s && (s.dataset.status === 'finished' || s.dataset.turn === me);
        }""",
        timeout=timeout,
    )


def choose(page, label, value):
    """Select a value of the play form, and wait for the form drawn again for it
    (static/js/redraw.js), as a person sees the choices it offers next."""
    with page.expect_response(lambda response: response.request.method == "GET" and "/play/?" in response.url):
        page.get_by_label(label).select_option(value)
    page.wait_for_function("() => !document.querySelector('#play-form[aria-busy]')")


def start_game(page, live_site, query, level=None):
    page.goto(f"{live_site.url}/play/?{query}")
    if level:
        choose(page, "Computer level", level)
    page.get_by_role("button", name="Start").click()
    page.wait_for_selector("#game-state")
    # htmx takes over the board at DOMContentLoaded: a click before is a plain form post.
    page.wait_for_load_state()
    return page.get_attribute("#game", "data-viewer-colours")
