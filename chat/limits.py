"""How often one person may chat: at most 5 messages in 10 seconds and 30 a minute
(CHAT_LIMITS), counted in Redis across every daphne process, each message kept in a
sorted set for a minute. Reports are limited the same way (REPORT_LIMITS)."""
import time
import uuid

from infra.redis_clients import redis_client

# (seconds, messages) a person may send in any window of that length.
CHAT_LIMITS = ((10, 5), (60, 30))
REPORT_LIMITS = ((3600, 20),)

# KEYS[1]: the person's set; ARGV: now, a unique member, then seconds and counts of each
# window, longest last. Returns 0 (taken: the message is counted) or the seconds to wait.
TAKE = """
local now = tonumber(ARGV[1])
local longest = tonumber(ARGV[#ARGV - 1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - longest)
local wait = 0
for i = 3, #ARGV, 2 do
  local seconds, most = tonumber(ARGV[i]), tonumber(ARGV[i + 1])
  local recent = redis.call('ZRANGEBYSCORE', KEYS[1], now - seconds, '+inf', 'WITHSCORES')
  local count = #recent / 2
  if count >= most then
    local oldest = tonumber(recent[2 * (count - most) + 2])
    local until_free = oldest + seconds - now
    if until_free > wait then wait = until_free end
  end
end
if wait > 0 then return tostring(wait) end
redis.call('ZADD', KEYS[1], now, ARGV[2])
redis.call('EXPIRE', KEYS[1], math.ceil(longest))
return 0
"""


def person_key(viewer):
    """Who is counted: the account, else the guest's session token."""
    return f"u{viewer.user.pk}" if viewer.user is not None else f"g{viewer.guest_token}"


def take(kind, person, limits=CHAT_LIMITS):
    """Counts one more `kind` ("chat", "report") for `person` and returns 0, or, past a
    limit, counts nothing and returns the whole seconds to wait. Raises redis' errors
    (infra.outages.UNREACHABLE) when Redis is away."""
    windows = [str(part) for window in sorted(limits) for part in window]
    wait = redis_client().eval(TAKE, 1, f"reversi:chat:{kind}:{person}", f"{time.time():.6f}", uuid.uuid4().hex, *windows)
    wait = float(wait)
    return 0 if wait <= 0 else max(1, int(wait + 0.999))
