"""Fixtures shared by every test: Redis, the live site, the browser.

Tests talk to real parts: the Redis of REDIS_URL (or a private one started here),
the test database, daphne and a Celery worker as subprocesses, Debian's Chromium.
"""
import os
import time

import pytest
import redis as redis_py
from django.conf import settings

from config.embedded_redis import EmbeddedRedis
from tests import servers
from tests.people import make_user

# Playwright's sync API runs an event loop in the main thread; the ORM calls that
# browser tests make around it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(config, items):
    # Browser tests last: after Playwright's loop, pytest-asyncio tests cannot run.
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failing test that used the live site reports what daphne and the worker logged."""
    report = yield
    site = item.funcargs.get("live_site") if report.failed else None
    if site is not None:
        for process in (site, site.worker):
            report.sections.append((f"{process.name} log (tail)", process.output()[-6000:]))
    return report


@pytest.fixture(autouse=True)
def site_language_after_each_test():
    """Django's test client leaves the language of its last request active in the
    thread (a German request: German), which the next test would draw its pages in."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def browser_contexts_closed(request):
    """Every browser context a test opened is closed when it ends (set up first, so
    torn down last, after the tests' own console checks). Left open, its pages kept
    their sockets and reconnect timers running against the live site for the rest of
    the session: hundreds of renderers by the end of a run."""
    yield
    browser = request.node.funcargs.get("browser")
    if browser is None:
        return
    kept = request.node.funcargs.get("context")  # pytest-playwright's own: it closes it
    for context in list(browser.contexts):
        if context is not kept:
            context.close()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """This process's own connections close after each use. Its websocket and
    to_thread tests reach the database from threads that nothing closes at the
    end, and a connection kept open (DATABASE_CONN_MAX_AGE) keeps PostgreSQL from
    dropping the test database. The daphne and worker processes under test keep
    their connections as in production."""
    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0


@pytest.fixture(scope="session", autouse=True)
def flush_survives_the_live_site():
    """On PostgreSQL the flush after a transactional test is one TRUNCATE of every
    table; a worker or daphne of the live site may still be finishing a move it took
    up before the test ended, lock a row the TRUNCATE wants next and make PostgreSQL
    end the flush as a deadlock. The flush is one transaction, so it is tried again."""
    from django.core.management.base import CommandError
    from django.db import connection
    from django.test import TransactionTestCase

    flush = TransactionTestCase._fixture_teardown
    if connection.vendor != "postgresql":
        yield
        return

    def flush_again_after_a_deadlock(test_case):
        for attempt in range(5):
            try:
                return flush(test_case)
            except CommandError:
                if attempt == 4:
                    raise
                time.sleep(0.5 * (attempt + 1))

    TransactionTestCase._fixture_teardown = flush_again_after_a_deadlock
    yield
    TransactionTestCase._fixture_teardown = flush


@pytest.fixture(scope="session", autouse=True)
def redis_server():
    """The Redis every part uses: embedded when REDIS_URL is unset, emptied first."""
    embedded = EmbeddedRedis(settings.REDIS_URL).start() if settings.EMBEDDED_REDIS else None
    client = redis_py.Redis.from_url(settings.REDIS_URL)
    client.flushdb()  # our own database number (CI) or our own server
    client.close()
    yield settings.REDIS_URL
    if embedded:
        embedded.stop()


@pytest.fixture(scope="session", autouse=True)
def web_process_beats(redis_server):
    """The test process takes moves in-process as daphne does, so it beats as a web
    process (tests.servers.web_beating): the workers' clocks and the time-outs the
    tests queue themselves are not held back as if the site were down. A site with a
    Redis of its own has only its own daphne's beats."""
    with servers.web_beating(redis_server):
        yield


@pytest.fixture(autouse=True)
def thinking_places(redis_server):
    """Every test starts with nobody's computer thinking: the places games.thinking
    keeps in Redis belong to games of a test database that is rolled back after each
    test, and every test client comes from the same address."""
    yield
    client = redis_py.Redis.from_url(redis_server)
    try:
        keys = list(client.scan_iter("reversi:thinking:*"))
        if keys:
            client.delete(*keys)
    except redis_py.ConnectionError:
        pass  # a test that stopped Redis: nothing is kept there either
    finally:
        client.close()


@pytest.fixture(scope="session")
def live_site(django_db_setup, django_db_blocker, tmp_path_factory):
    """daphne and a Celery worker serving the test database. Use with transactional_db.
    Both are told the site's address, as `make run` tells its parts: the mail they send
    links to this daphne."""
    log_dir = tmp_path_factory.mktemp("live-site")
    port = servers.free_port()
    site_url = f"http://127.0.0.1:{port}"
    with django_db_blocker.unblock():
        worker = servers.start_worker(log_dir, SITE_URL=site_url)
        try:
            daphne = servers.start_daphne(log_dir, port=port, SITE_URL=site_url)
        except Exception:
            worker.stop()
            raise
    daphne.worker = worker
    yield daphne
    daphne.stop()
    worker.stop()


@pytest.fixture
def live_workers_paused():
    """For a test that does a worker's job itself: the live site's worker, if an earlier
    test started one, is stopped meanwhile (tests.servers.workers_paused)."""
    with servers.workers_paused():
        yield


@pytest.fixture(autouse=True)
def patient_expectations(request):
    """Browser tests wait up to 15 s for what a page should come to show: on two busy
    cores a push can take seconds (Playwright's default is 5 s)."""
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    from playwright.sync_api import expect
    expect.set_options(timeout=15000)
    yield
    expect.set_options(timeout=5000)


@pytest.fixture(autouse=True)
def clean_console(request):
    """A test that uses Playwright's `page` fails on any page error, console error or
    failed answer there (tests/pages.py Watch); tests with contexts of their own watch them.
    A test that provokes console errors on purpose names them with `clean_console.allow`."""
    if "page" not in request.fixturenames:
        yield
        return
    from tests.pages import Watch

    watch = Watch(request.getfixturevalue("page"))
    yield watch
    watch.assert_clean()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {
        **browser_type_launch_args,
        "executable_path": os.environ.get("CHROMIUM", "/usr/bin/chromium"),
        "args": ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"],
    }


# The personas every test module may ask for (accounts made by tests.people).
@pytest.fixture
def alice(db):
    return make_user("alice", "Alice")


@pytest.fixture
def bob(db):
    return make_user("bob", "Bob")


@pytest.fixture
def carol(db):
    return make_user("carol", "Carol")
