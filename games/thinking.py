"""How many games against the computer a visitor, and an address, have the computer
thinking on at once, and the limit on it (settings COMPUTER_THINKING_PER_VISITOR and
COMPUTER_THINKING_PER_ADDRESS).

Every game whose move would set the computer thinking (a move, or a new game in which
the computer opens) first takes a place, in Redis, under its visitor (the account, or
the guest's session) and its address; past either limit it is refused and nothing is
played. The place is given back once the computer has answered (games.publishing.
game_changed, when a person is to move again or the game is over). Every place also
lapses after THINKING_SECONDS, so a worker killed in the middle of a search does not
leave its visitor refused for ever. Checking and taking happen in one Lua script, so
two requests at once cannot both take the last place.
With Redis away nothing is counted and nothing refused: the move path already
works without it.
"""
import logging
import time
from types import SimpleNamespace

from django.conf import settings

from infra.client_address import client_address
from infra.outages import UNREACHABLE
from infra.redis_clients import redis_client

log = logging.getLogger(__name__)

# Far longer than any search (Hard thinks 2 s) plus a fair wait on the visitors' queue.
THINKING_SECONDS = 60

# KEYS: the game's note of where its place is, the visitor's set, the address's set.
# ARGV: now, until, game, seconds, visitor's limit, address's limit.
# Returns -1 (refused: a limit is reached), 1 (a new place) or 0 (the game held one).
TAKE = """
for i = 2, 3 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[1])
  if not redis.call('ZSCORE', KEYS[i], ARGV[3]) and redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[3 + i]) then
    return -1
  end
end
local new = 0
for i = 2, 3 do
  new = new + redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  redis.call('EXPIRE', KEYS[i], ARGV[4])
end
redis.call('SET', KEYS[1], KEYS[2] .. ' ' .. KEYS[3], 'EX', ARGV[4])
return math.min(new, 1)
"""

# KEYS: the game's note. ARGV: the game.
GIVE_BACK = """
local sets = redis.call('GET', KEYS[1])
if sets then
  for key in string.gmatch(sets, '%S+') do redis.call('ZREM', key, ARGV[1]) end
  redis.call('DEL', KEYS[1])
end
return 0
"""


def _note(game_id):
    return f"reversi:thinking:game:{game_id}"


class Asker:
    """A visitor (a games.access.Viewer) at an address, asking for the computer's time."""

    def __init__(self, viewer, address):
        self.visitor = f"user:{viewer.user.pk}" if viewer.user is not None else f"guest:{viewer.guest_token}"
        self.address = address

    @classmethod
    def from_request(cls, request, viewer):
        return cls(viewer, client_address(request))

    @classmethod
    def from_scope(cls, scope, viewer):
        """The same address as an HTTP request from this socket's client would have."""
        headers = dict(scope.get("headers") or ())
        meta = {"REMOTE_ADDR": (scope.get("client") or ("",))[0],
                "HTTP_X_FORWARDED_FOR": headers.get(b"x-forwarded-for", b"").decode("latin-1")}
        return cls(viewer, client_address(SimpleNamespace(META=meta)))

    def take(self, game_id):
        """A place for the game `game_id` (its public id): True if taken now, False if the
        game held one already (or Redis is away), None if refused."""
        keys = [_note(game_id), f"reversi:thinking:visitor:{self.visitor}",
                f"reversi:thinking:address:{self.address}"]
        now = time.time()
        try:
            taken = redis_client().eval(TAKE, len(keys), *keys, now, now + THINKING_SECONDS, game_id, THINKING_SECONDS,
                                        settings.COMPUTER_THINKING_PER_VISITOR, settings.COMPUTER_THINKING_PER_ADDRESS)
        except UNREACHABLE as error:
            log.warning("computer thinking not counted (%s)", error)
            return False
        return None if taken < 0 else bool(taken)


def give_back(game_id):
    """The computer has answered in the game `game_id` (or will not): its place is free."""
    redis_client().eval(GIVE_BACK, 1, _note(game_id), game_id)
