"""A Celery worker prepares its computer players when it starts (config.celery): the
learned weights of every board and rule set are loaded in the processes that make the
moves before their first task, so no move pays for reading them."""
import uuid

import pytest

import config.celery
from games.ai import core, learned
from tests import servers

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_fresh_workers_pool_holds_every_shipped_weight_before_its_first_task(tmp_path):
    queue = f"fresh-worker-{uuid.uuid4().hex}"  # its own: the first task it takes is this one
    worker = servers.start_worker(tmp_path, name="fresh-worker", options=("--queues", queue))
    try:
        answer = config.celery.engine_in_the_pool.apply_async(queue=queue).get(timeout=60)
    finally:
        worker.stop()
    assert answer["engine"] == core.engine_name()
    assert answer["weights"] == sorted(path.stem for path in learned.WEIGHTS_DIR.glob("*.bin"))
    assert "learned weights of 8 boards and rule sets loaded in" in worker.output()
