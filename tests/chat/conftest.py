"""Chat tests start with nobody's messages counted (chat.limits keeps them in Redis a
minute; accounts of one test can have the ids of another's)."""
import pytest
import redis as redis_py


@pytest.fixture(autouse=True)
def no_chat_counted(redis_server):
    def clear():
        client = redis_py.Redis.from_url(redis_server)
        try:
            keys = list(client.scan_iter("reversi:chat:*"))
            if keys:
                client.delete(*keys)
        finally:
            client.close()
    clear()
    yield
    clear()
