"""Django's ASGI handler on a fixed pool of request threads.

Django runs each HTTP request's synchronous code (middleware, view, template) in a
thread of its own: a new thread for every request, so every request opened a new
database connection and built its thread-local clients (Celery's result store)
again, a third of daphne's CPU per move. Here each request borrows one of a few
long-lived single-thread executors instead (asgiref's ThreadSensitiveContext with
a caller-owned executor): the request's code still runs in one thread, and that
thread keeps its database connection (CONN_MAX_AGE) for the next request.

At most REQUEST_THREADS requests run their Python at once; more wait for a free
thread. The GIL lets only one run at a time anyway; the others wait on the
database or Redis.
"""
import asyncio
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.conf import settings
from django.core.handlers.asgi import ASGIHandler


class PooledThreadsASGIHandler(ASGIHandler):
    def __init__(self):
        super().__init__()
        self._free = None  # made in the server's event loop, on the first request

    def _free_executors(self):
        if self._free is None:
            self._free = asyncio.Queue()
            for number in range(settings.REQUEST_THREADS):
                self._free.put_nowait(ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"request-{number}"))
        return self._free

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        free = self._free_executors()
        executor = await free.get()
        try:
            # A new context each time (a context is entered once); the executor is ours
            # and outlives it. Work a cancelled request left running in the thread
            # simply finishes before the next request's.
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            free.put_nowait(executor)


def get_asgi_application():
    """django.core.asgi.get_asgi_application, with the pooled handler."""
    import django

    django.setup(set_prefix=False)
    return PooledThreadsASGIHandler()
