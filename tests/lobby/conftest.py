"""Fixtures for tables and the lobby: a second live site with a short move time limit
for the time-out tests."""
import tempfile

import pytest

from config.embedded_redis import EmbeddedRedis
from tests import servers

QUICK_MOVE_TIME_LIMIT = 3


@pytest.fixture
def quick_site(quick_site_servers):
    """daphne and a Celery worker with MOVE_TIME_LIMIT=3 s, on the test database; the
    session's other workers are paused meanwhile, since their clocks would time out
    this site's players and push the move on their own Redis (tests/servers.py)."""
    with servers.workers_paused(keep=[quick_site_servers.worker]):
        yield quick_site_servers


@pytest.fixture(scope="session")
def quick_site_servers(django_db_setup, django_db_blocker, tmp_path_factory):
    """daphne and a Celery worker with MOVE_TIME_LIMIT=3 s, on the test database.

    They get a Redis of their own: sharing the main live site's broker, its worker
    (60 s limit) could take this site's tasks, and the other way round.
    """
    log_dir = tmp_path_factory.mktemp("quick-site")
    redis_dir = tempfile.mkdtemp(prefix="rq-")  # short: a unix socket path has ~100 characters
    redis_url = f"unix://{redis_dir}/redis.sock"
    redis = EmbeddedRedis(redis_url).start()
    env = {"MOVE_TIME_LIMIT": QUICK_MOVE_TIME_LIMIT, "REDIS_URL": redis_url}
    with django_db_blocker.unblock():
        try:
            worker = servers.start_worker(log_dir, name="quick-worker", **env)
        except Exception:
            redis.stop()
            raise
        try:
            daphne = servers.start_daphne(log_dir, **env)
        except Exception:
            worker.stop()
            redis.stop()
            raise
    daphne.worker = worker
    yield daphne
    daphne.stop()
    worker.stop()
    redis.stop()
