"""Sending to a channel group from synchronous code (after a commit), on one event loop
kept for the whole process in a thread of its own.

async_to_sync outside daphne's request threads (Celery, scripts) starts a thread and
an event loop per call, and the channel layer opens a Redis connection per loop: that
was most of a lobby change's CPU (benchmarks/README.md, "The lobby at a crowd's
scale"). Here the loop, and with it the layer's connections, outlive the call.

A request Django cancels (its client went away) does not cancel a send under way: the
send runs on this loop, not the request's, so it completes and the caller goes on.
"""
import asyncio
import os
import threading

from channels.layers import get_channel_layer

_lock = threading.Lock()
_loop, _pid = None, None


def _sender_loop():
    """This process's loop, started on first use (again in a forked child: a fork keeps
    the loop but not its thread)."""
    global _loop, _pid
    with _lock:
        if _pid != os.getpid():
            _loop, _pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="group-sender", daemon=True).start()
        return _loop


def group_send(group, message):
    """Send to a channel group and wait until the layer has it."""
    asyncio.run_coroutine_threadsafe(get_channel_layer().group_send(group, message), _sender_loop()).result()
