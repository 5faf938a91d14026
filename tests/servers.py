"""Real servers for tests: daphne and a Celery worker as subprocesses.

They share the test database (a file for SQLite, test_<name> on PostgreSQL) and
Redis with the test process, so a test drives the site exactly as a browser and
a worker would in production.
"""
import atexit
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_database_url():
    """The URL of the database the test run created, for the subprocesses."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    user = db.get("USER") or ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{db.get('HOST') or ''}{port}/{db['NAME']}"


# What the servers the tests start send by mail (a correspondence player's turn) is
# written here, one file per message: tests read it with sent_mail().
MAIL_DIR = tempfile.mkdtemp(prefix="reversi-mail-")
atexit.register(shutil.rmtree, MAIL_DIR, ignore_errors=True)


def sent_mail():
    """Every message the test servers sent so far, as email.message.Message objects."""
    import email
    import email.policy

    messages = []
    for path in sorted(Path(MAIL_DIR).glob("*.log")):
        for part in path.read_text().split("-" * 79):
            if part.strip():
                messages.append(email.message_from_string(part.strip(), policy=email.policy.default))
    return messages


def server_env(**extra):
    env = dict(os.environ)
    env.update(
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=MAIL_DIR,
        DATABASE_URL=test_database_url(),
        REDIS_URL=settings.REDIS_URL,
        SECRET_KEY=settings.SECRET_KEY,
        DEBUG="1",
        MOVE_TIME_LIMIT=str(settings.MOVE_TIME_LIMIT),
        PYTHONUNBUFFERED="1",
    )
    env.update({key: str(value) for key, value in extra.items()})
    return env


class Process:
    """A subprocess in its own process group, logged to a file, stopped for sure."""

    def __init__(self, name, command, env, log_dir):
        self.name = name
        self.log_path = Path(log_dir) / f"{name}.log"
        self.log = open(self.log_path, "wb")
        self.popen = subprocess.Popen(
            command, env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )

    def alive(self):
        return self.popen.poll() is None

    def output(self):
        return self.log_path.read_text(errors="replace")

    def crash(self):
        """kill -9 of the main process only, as a crash would; what it forked is orphaned
        until stop() (or the launcher in production) cleans up its process group."""
        os.kill(self.popen.pid, signal.SIGKILL)
        self.popen.wait()

    def stop(self, grace=10):
        if self.alive():
            os.killpg(self.popen.pid, signal.SIGTERM)
            try:
                self.popen.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.popen.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.popen.wait()
        self.log.close()


def start_daphne(log_dir, port=None, name="daphne", options=(), **env):
    """`options`: more of daphne's command-line options."""
    port = port or free_port()
    process = Process(
        name,
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), *options, "config.asgi:application"],
        server_env(**env), log_dir,
    )
    process.url = f"http://127.0.0.1:{port}"
    process.port = port
    wait_for(lambda: http_status(process.url + "/") == 200, process, "daphne to serve /")
    return process


WORKERS = []  # every Celery worker this test run started, for workers_paused()


@contextmanager
def workers_paused(keep=()):
    """Every worker started so far but `keep` stopped (SIGSTOP) until the block ends.
    Each worker's deadline clock times out every overdue player in the database, and
    the session's sites share the test database but not their Redis: a time-out made
    by another site's worker is pushed where this site's pages do not listen. Tests
    that rely on time-outs run inside this block (the fault tests, the quick site's)."""
    paused = [worker for worker in WORKERS if worker.alive() and worker not in keep]
    for _ in range(50):
        for worker in paused:
            os.killpg(worker.popen.pid, signal.SIGSTOP)
        if not paused or not sqlite_write_lock_held():
            break
        # Stopped inside a transaction, a worker would keep SQLite's one write lock for
        # the whole block: let it finish and stop it again.
        for worker in paused:
            os.killpg(worker.popen.pid, signal.SIGCONT)
        time.sleep(0.05)
    try:
        yield
    finally:
        for worker in paused:
            if worker.alive():
                os.killpg(worker.popen.pid, signal.SIGCONT)


def sqlite_write_lock_held():
    """Whether another connection holds the SQLite test database's write lock (always
    False on PostgreSQL, where a transaction locks only what it touched)."""
    db = connection.settings_dict
    if not db["ENGINE"].endswith("sqlite3"):
        return False
    probe = sqlite3.connect(db["NAME"], timeout=0.1, isolation_level=None)
    try:
        probe.execute("BEGIN IMMEDIATE")
        probe.execute("ROLLBACK")
        return False
    except sqlite3.OperationalError:
        return True
    finally:
        probe.close()


def start_worker(log_dir, name="worker", options=(), **env):
    """`options`: more of the worker's command-line options (e.g. its own --queues)."""
    process = Process(
        name,
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel", "INFO",
         "--pool", "prefork", "--concurrency", "2", "--hostname", f"{name}-{os.getpid()}@%h",
         "--without-mingle", "--without-gossip", *options],
        server_env(**env), log_dir,
    )
    WORKERS.append(process)
    wait_for(lambda: "ready." in process.output(), process, "the Celery worker to be ready")
    return process


def tasks_in_log(worker, name):
    """The ids of the tasks `name` the Celery `worker` took, and of those it ended (its
    log, in order): what a test waits for where it would otherwise pause."""
    log, prefix = worker.output(), rf"Task {re.escape(name)}\[([0-9a-f-]+)\] "
    return re.findall(prefix + "received", log), re.findall(prefix + "(?:succeeded|raised|retry)", log)


def start_beat(log_dir, name="beat", **env):
    """Celery beat: the periodic sweep of overdue games (every 10 s)."""
    process = Process(
        name,
        [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO",
         "--schedule", str(Path(log_dir) / f"{name}-schedule")],
        server_env(**env), log_dir,
    )
    wait_for(lambda: "beat: Starting" in process.output(), process, "Celery beat to start")
    return process


@contextmanager
def web_beating(redis_url):
    """While the block runs, this process beats as a web process into the Redis at
    `redis_url` (games.downtime), alive since the block began: for tests that take
    moves in-process, or that start workers without a daphne and expect time-outs."""
    import threading

    import redis as redis_py

    from games import downtime
    from infra.outages import UNREACHABLE

    client = redis_py.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
    since, stopping = time.time(), threading.Event()

    def keep_beating():
        while not stopping.is_set():
            try:
                downtime.beat(client, since)
            except UNREACHABLE:
                pass  # a test that stopped Redis
            stopping.wait(downtime.BEAT)

    thread = threading.Thread(target=keep_beating, name="web-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stopping.set()
        thread.join()
        client.close()


def http_status(url, timeout=2):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def wait_for(condition, process, what, timeout=60):
    deadline = time.monotonic() + timeout
    while not condition():
        if not process.alive():
            raise RuntimeError(f"{process.name} exited while waiting for {what}:\n{process.output()[-3000:]}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}:\n{process.output()[-3000:]}")
        time.sleep(0.1)
