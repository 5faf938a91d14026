"""How often a stranger (no seat in the game) may ask for a game's events
(games.views.events): GAME_EVENTS_ASKS_PER_MINUTE from one client address, counted in
Redis over fixed minutes. A program following a game streams it over a socket, or
asks now and then; the limit keeps a crowd of pollers off the database. With Redis
away nothing is counted and nothing refused, as for the computer's places (games.thinking)."""
import hashlib
import logging
import time

from django.conf import settings

from infra.client_address import client_address
from infra.outages import UNREACHABLE
from infra.redis_clients import redis_client

log = logging.getLogger(__name__)

WINDOW = 60  # seconds


def seconds_left(now=None):
    """Until the current window ends: when a refused asker may ask again."""
    now = time.time() if now is None else now
    return WINDOW - int(now) % WINDOW


def take(request, now=None):
    """Count one ask from this request's address: False once the address has asked
    GAME_EVENTS_ASKS_PER_MINUTE times in the current minute."""
    now = time.time() if now is None else now
    address = hashlib.sha256(client_address(request).encode()).hexdigest()[:32]  # no address stored
    key = f"reversi:events-asked:{address}:{int(now) // WINDOW}"
    try:
        pipe = redis_client().pipeline()
        pipe.incr(key)
        pipe.expire(key, WINDOW)
        asked, _expiry = pipe.execute()
    except UNREACHABLE as error:
        log.warning("asks for events not counted (%s)", error)
        return True
    return asked <= settings.GAME_EVENTS_ASKS_PER_MINUTE
