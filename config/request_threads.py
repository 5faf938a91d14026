"""Django's ASGI handler, with each request's synchronous work done in one go on one of
a fixed pool of long-lived threads.

Django's own handler ran the middleware chain in async mode: every middleware of
ours is synchronous, so each of their process_request and process_response hopped
from the event loop into a thread and back (about twenty switches per request), and
each request got a new thread, hence a new database connection and new thread-local
clients (Celery's result store): together a large share of daphne's CPU per move
(benchmarks/README.md, "Request threads"). Here the chain is loaded in synchronous
mode, as under WSGI, and the whole of it (middleware, view, template) runs in a
single call on a thread borrowed from the pool (asgiref's ThreadSensitiveContext
with a caller-owned executor). The thread keeps its database connection
(CONN_MAX_AGE) for the next request.

At most REQUEST_THREADS requests run their Python at once; more wait for a free
thread. The GIL lets only one run at a time anyway; the others wait on the
database or Redis. A thread that comes free goes to a waiting GET or HEAD before any
other request: when writes queue up behind a database lock (each waits a bounded
time, infra.write_waits), a page that only reads is served next, not after them.
"""
import asyncio
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler


class PooledThreadsASGIHandler(ASGIHandler):
    def __init__(self):
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)  # not ASGIHandler's async chain
        self._free = None  # made on the first request
        self._waiting = {True: deque(), False: deque()}  # futures of requests waiting: reads, others

    def _borrow(self, reads):
        """A future of a free executor, given to waiting reads (GET, HEAD) first."""
        if self._free is None:
            self._free = [ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"request-{number}")
                          for number in range(settings.REQUEST_THREADS)]
        waiter = asyncio.get_running_loop().create_future()
        if self._free:
            waiter.set_result(self._free.pop())
        else:
            self._waiting[reads].append(waiter)
        return waiter

    def _give_back(self, executor):
        for line in (self._waiting[True], self._waiting[False]):
            while line:
                waiter = line.popleft()
                if not waiter.done():  # not a request that went away while it waited
                    waiter.set_result(executor)
                    return
        self._free.append(executor)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        waiter = self._borrow(reads=scope.get("method") in ("GET", "HEAD"))
        try:
            executor = await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():  # given one just as it went away
                self._give_back(waiter.result())
            raise
        try:
            # A new context each time (a context is entered once); the executor is ours
            # and outlives it. Work a cancelled request left running in the thread
            # simply finishes before the next request's.
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self._give_back(executor)

    async def get_response_async(self, request):
        """The synchronous chain in one call on the request's thread."""
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_asgi_application():
    """django.core.asgi.get_asgi_application, with the pooled handler."""
    import django

    django.setup(set_prefix=False)
    return PooledThreadsASGIHandler()
