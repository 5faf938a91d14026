"""A test that does a worker's job itself stops the live workers meanwhile
(tests.servers.workers_paused). On SQLite a worker stopped inside a transaction would
keep the database's one write lock, and the test would wait for it in vain."""
import subprocess
import sys
from types import SimpleNamespace

import pytest
from django.db import connection

from tests import servers

pytestmark = pytest.mark.django_db(transaction=True)

# A stand-in worker that holds SQLite's write lock half the time.
BUSY_WRITER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
print("ready", flush=True)
while True:
    db.execute("BEGIN IMMEDIATE")
    time.sleep(0.01)
    db.execute("COMMIT")
    time.sleep(0.01)
"""


@pytest.mark.skipif(connection.vendor != "sqlite", reason="the test database is not SQLite")
def test_a_worker_is_never_left_stopped_holding_the_write_lock():
    popen = subprocess.Popen([sys.executable, "-c", BUSY_WRITER, connection.settings_dict["NAME"]],
                             stdout=subprocess.PIPE, text=True, start_new_session=True)
    writer = SimpleNamespace(popen=popen, alive=lambda: popen.poll() is None)
    servers.WORKERS.append(writer)
    try:
        assert popen.stdout.readline().strip() == "ready"
        for _ in range(5):
            with servers.workers_paused():
                assert not servers.sqlite_write_lock_held()
        with open(f"/proc/{popen.pid}/stat") as stat:
            assert stat.read().split()[2] != "T"  # and running again afterwards
    finally:
        servers.WORKERS.remove(writer)
        popen.kill()
        popen.wait()
