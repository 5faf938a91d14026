"""The lobby's live frames, applied by Chromium, against a fresh drawing: whatever
happens to the listed tables (opened, a seat taken or given back, started, finished,
closed, several changes in one frame, a section's first row or its last, rows added
to a full page), every open lobby page shows what a fresh load of it shows.

A daphne of its own lists LOBBY_ROWS=3 rows a section, so a few tables fill a page;
Hypothesis draws the sequences of changes, made through the site's own actions."""
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from playwright.sync_api import expect

from games import Variant, endings
from games.access import Viewer
from games.models import Game
from lobby import actions, broadcast
from lobby.models import Table
from tests import servers
from tests.lobby.browser_people import LAPTOP, in_thread, person
from tests.people import make_user

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

ROWS = 3
PAGES = ("/lobby/", "/lobby/?page=2", "/lobby/?rated=rated")

# One table's change; an index picks among the tables it applies to (none: nothing happens).
CHANGE = st.one_of(
    st.tuples(st.just("open"), st.sampled_from([2, 3]), st.booleans()),  # players, rated
    st.tuples(st.just("open"), st.sampled_from([2, 3]), st.booleans()),
    st.tuples(st.just("sit"), st.integers(0, 9)),
    st.tuples(st.just("leave"), st.integers(0, 9)),
    st.tuples(st.just("finish"), st.integers(0, 9)),
)
# Each step's changes are made back to back: several of them reach a page in one frame.
STEPS = st.lists(st.lists(CHANGE, min_size=1, max_size=3), min_size=2, max_size=6)

# The list as a page shows it, without what only says how it got there (htmx's
# transient classes, hx-swap-oob, versions) or what the clock moves on (an age's words).
SHAPE = """root => {
  const shape = (node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = node.textContent.replace(/\\s+/g, " ").trim();
      return text ? JSON.stringify(text) : "";
    }
    if (node.nodeType !== Node.ELEMENT_NODE) return "";
    if (node.classList.contains("age")) return "<age " + node.dataset.since + ">";
    const classes = Array.from(node.classList).filter((name) => !name.startsWith("htmx-")).sort().join(" ");
    const attributes = Array.from(node.attributes)
      .filter((a) => !["class", "hx-swap-oob", "data-lobby-version"].includes(a.name))
      .map((a) => a.name + "=" + JSON.stringify(a.value)).sort();
    if (classes) attributes.push("class=" + JSON.stringify(classes));
    return "<" + node.tagName.toLowerCase() + " " + attributes.join(" ") + ">"
      + Array.from(node.childNodes, shape).join("") + "</" + node.tagName.toLowerCase() + ">";
  };
  return shape(root);
}"""

# The page's list and the list of the same page loaded afresh, in one evaluation.
FRESH = """async () => {
  const shape = %s;
  const answer = await fetch(location.href, {cache: "no-store"});
  const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
  return [shape(document.getElementById("lobby-tables")), shape(fresh.getElementById("lobby-tables"))];
}""" % SHAPE


@pytest.fixture(scope="module")
def small_pages_site(django_db_setup, django_db_blocker, tmp_path_factory):
    """daphne listing three rows a section on a lobby page, on the test database and Redis."""
    with django_db_blocker.unblock():
        daphne = servers.start_daphne(tmp_path_factory.mktemp("small-pages"), LOBBY_ROWS=ROWS)
    yield daphne
    daphne.stop()


def make_change(change, hosts, players):
    kind = change[0]
    waiting = list(Table.objects.filter(game__status=Game.Status.WAITING).select_related("game").order_by("pk"))
    playing = list(Table.objects.filter(game__status=Game.Status.PLAYING).select_related("game").order_by("pk"))
    if kind == "open":
        _kind, seats, rated = change
        host = min(hosts, key=lambda user: Table.objects.filter(host=user, game__status=Game.Status.WAITING).count())
        actions.open_table(host, Variant(players=seats), listed=True, rated=rated)
    elif kind == "sit" and waiting:
        table = waiting[change[1] % len(waiting)]
        seated = set(table.game.seats.exclude(user=None).values_list("user_id", flat=True))
        actions.join(table, Viewer(user=next(user for user in players if user.pk not in seated)))
    elif kind == "leave" and waiting:
        table = waiting[change[1] % len(waiting)]
        guest = table.game.seats.exclude(user=None).exclude(user=table.host).order_by("-pk").first()
        actions.leave(table, Viewer(user=guest.user if guest else table.host))
    elif kind == "finish" and playing:
        table = playing[change[1] % len(playing)]
        seat = table.game.seats.exclude(user=None).first()
        endings.abort(table.game, Viewer(user=seat.user))


def clear_tables():
    """Every table gone, as closing them would tell the lobby."""
    ids = list(Table.objects.values_list("pk", flat=True))
    Game.objects.filter(tables__pk__in=ids).delete()
    if ids:
        broadcast.lobby_changed(ids, closed=True)


def test_every_sequence_of_changes_leaves_each_open_lobby_page_as_a_fresh_load_draws_it(small_pages_site, browser):
    hosts = [make_user(f"host{n}", f"Host {n}") for n in range(6)]
    players = [make_user(f"player{n}", f"Player {n}") for n in range(4)]
    errors = []
    pages = [person(browser, small_pages_site, None, errors, viewport=LAPTOP) for _path in PAGES]

    def shown_version(page):
        return int(page.locator("#lobby-version").get_attribute("data-lobby-version"))

    def all_caught_up():
        version = broadcast.lobby_version()
        for page in pages:
            page.wait_for_function("v => Number(document.getElementById('lobby-version').dataset.lobbyVersion) >= v",
                                   arg=version)
            live, fresh = page.evaluate(FRESH)
            assert live == fresh, f"{page.url} after version {shown_version(page)}"

    @settings(max_examples=20, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(STEPS)
    def sequence(steps):
        in_thread(clear_tables)
        for page, path in zip(pages, PAGES):
            page.goto(small_pages_site.url + path)
            expect(page.locator("body[ws-connect*=\"lobby=1\"]")).to_be_attached()
        all_caught_up()
        for changes in steps:
            for change in changes:
                in_thread(make_change, change, hosts, players)
            all_caught_up()
        assert errors == []

    sequence()
