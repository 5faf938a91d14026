"""What Redis being away looks like: redis-py's errors (the channel layer), kombu's
(the Celery broker, after its own retries) and the sockets underneath. A saved move
never fails on them (games.services, games.broadcast)."""
from kombu.exceptions import OperationalError as KombuOperationalError
from redis.exceptions import RedisError

UNREACHABLE = (RedisError, KombuOperationalError, OSError)
