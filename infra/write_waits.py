"""How long the web process's writes wait for the database, and how many wait at once.

Another writer can hold the database's write lock for long (a long SQLite transaction,
a locked PostgreSQL table or row). A request that waited the connection's usual 20 s
(SQLite) or for ever (PostgreSQL) held one of daphne's few request threads
(config.request_threads) all along and then failed with a 500; a handful of them
starved every other page. So in daphne (config.asgi calls bound_request_writes):

- every database connection waits at most REQUEST_LOCK_WAIT for a lock (SQLite's busy
  timeout; PostgreSQL's lock_timeout, and statement_timeout for any one statement);
- a statement that may wait for a write lock first takes one of REQUEST_THREADS - 1
  places (waiting WAITER_WAIT at most), so one request thread is always left for the
  pages that write nothing;
- past either, the statement raises WritesBusy: its transaction is rolled back like
  any other error's, and the request is answered "busy, try again" in its language
  (WritesBusyMiddleware: HTTP 503, in place for htmx; the sockets answer their own
  message line). A person's move says so in its own words and is sent again by its
  page (games.errors.DatabaseBusy).

Workers keep the usual waits and their tasks retry.
"""
import logging
import re
import sys
import threading
from functools import lru_cache

from django.conf import settings
from django.db import OperationalError, connections
from django.db.backends.signals import connection_created
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views import defaults

log = logging.getLogger(__name__)

# A write waits this long at most for another writer's lock; everything the web
# process does takes milliseconds, so only a lock held for long makes it wait.
REQUEST_LOCK_WAIT = 2.0
# Any one statement of the web process (PostgreSQL), lock or no lock.
REQUEST_STATEMENT_WAIT = 10.0
# How long a write waits for a place among those that may wait for the lock.
WAITER_WAIT = 0.5
# Seconds after which an answer "busy" says to try again (the Retry-After header; a
# page sends a move answered busy again after as long, static/js/moves.js).
RETRY_AFTER = 1


class WritesBusy(OperationalError):
    """A write could not get the database in time; what its transaction did is undone."""

    def __init__(self):
        super().__init__(_("The site is busy; nothing was changed. Try again in a moment."))


def bound_request_writes():
    """From now on this process's connections are the web's (daphne's): bounded waits."""
    connection_created.connect(_bound, dispatch_uid="infra.write_waits")
    connections.close_all()  # any opened before (at start-up) is opened again, bounded


def _bound(sender, connection, **kwargs):
    lock_ms, statement_ms = int(REQUEST_LOCK_WAIT * 1000), int(REQUEST_STATEMENT_WAIT * 1000)
    if connection.vendor == "sqlite":
        connection.connection.execute(f"PRAGMA busy_timeout = {lock_ms}")
    elif connection.vendor == "postgresql":
        with connection.connection.cursor() as cursor:
            cursor.execute(f"SET lock_timeout = {lock_ms}")
            cursor.execute(f"SET statement_timeout = {statement_ms}")
    if _take_a_place not in connection.execute_wrappers:
        connection.execute_wrappers.append(_take_a_place)


@lru_cache(maxsize=1)
def _places():
    return threading.BoundedSemaphore(max(1, settings.REQUEST_THREADS - 1))


WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")
ROW_LOCKS = re.compile(r" FOR (?:NO KEY |KEY )?(?:UPDATE|SHARE)\b")


def may_wait(connection, sql):
    """Whether this statement may wait for another writer's lock. SQLite: a write
    transaction's BEGIN (IMMEDIATE), or a write outside one (inside, the lock is held
    already). PostgreSQL: a write, a row lock or a table lock."""
    head = sql.lstrip()[:8].upper()
    if connection.vendor == "sqlite":
        return head.startswith("BEGIN") or (not connection.in_atomic_block and head.startswith(WRITES))
    return head.startswith(WRITES) or head.startswith("LOCK") or (
        head.startswith("SELECT") and ROW_LOCKS.search(sql) is not None)


def is_lock_wait(error):
    """SQLite's busy timeout, PostgreSQL's lock_timeout (55P03) or statement_timeout (57014)."""
    return "database is locked" in str(error) or getattr(error.__cause__, "sqlstate", None) in ("55P03", "57014")


def _take_a_place(execute, sql, params, many, context):
    waits = may_wait(context["connection"], sql)
    if waits and not _places().acquire(timeout=WAITER_WAIT):
        raise WritesBusy()
    try:
        return execute(sql, params, many, context)
    except OperationalError as error:
        if isinstance(error, WritesBusy) or not is_lock_wait(error):
            raise
        raise WritesBusy() from error
    finally:
        if waits:
            _places().release()


# -- the answer ----------------------------------------------------------------------

def busy_response(request):
    """"Busy, try again", in the request's language: htmx gets the notice swapped in
    place (#site-notice, out of band; static/js/site.js swaps a 503 like this) and its
    target left alone, a plain form a page saying so (the browser's Back keeps what
    was typed)."""
    if getattr(request, "htmx", False):
        response = HttpResponse(render_to_string("includes/busy_notice.html", {"text": str(WritesBusy())}),
                                status=503)
        response["HX-Reswap"] = "none"
    else:
        response = render(request, "503.html", {"text": str(WritesBusy())}, status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    return response


class WritesBusyMiddleware:
    """Answers a view's WritesBusy. Last in MIDDLEWARE, so that it sees it first."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, WritesBusy):
            return None
        log.warning("busy: %s %s answered 503 (%s)", request.method, request.path, exception.__cause__ or "no place")
        return busy_response(request)


def server_error(request, template_name="500.html"):
    """handler500: WritesBusy from a middleware (a session saved after the view) is
    answered "busy" too; anything else is the site's 500 page."""
    if isinstance(sys.exc_info()[1], WritesBusy):
        return busy_response(request)
    return defaults.server_error(request, template_name)
