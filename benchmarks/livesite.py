"""The real site for benchmarks: one daphne, one Celery worker (and a private Redis
unless REDIS_URL is set) on a scratch database, with DEBUG off as in production."""
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Site:
    """One daphne, one Celery worker (+ a private Redis) on a scratch database, DEBUG off."""

    def __init__(self, scratch, concurrency):
        from config.embedded_redis import EmbeddedRedis

        self.redis = None
        redis_url = os.environ.get("REDIS_URL")
        if not redis_url:
            redis_url = f"unix://{scratch}/redis/redis.sock"
            self.redis = EmbeddedRedis(redis_url).start()
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = dict(
            os.environ, DEBUG="0", SECRET_KEY="roundtrip-benchmark-" + "x" * 40, ALLOWED_HOSTS="127.0.0.1",
            SECURE_SSL_REDIRECT="0", REDIS_URL=redis_url, VAR_DIR=str(scratch), LOG_LEVEL="WARNING",
            DATABASE_URL=os.environ.get("DATABASE_URL", f"sqlite:///{scratch}/bench.sqlite3"))
        for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
            subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=self.env, check=True)
        self.log = open(Path(scratch) / "site.log", "wb")
        self.processes = [
            subprocess.Popen([sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                              "config.asgi:application"], cwd=ROOT, env=self.env, stdout=self.log,
                             stderr=subprocess.STDOUT, start_new_session=True),
            subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency",
                              str(concurrency), "--loglevel", "WARNING", "--without-mingle", "--without-gossip"],
                             cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
                             start_new_session=True),
        ]
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise SystemExit("the site did not become healthy; see " + str(Path(scratch) / "site.log"))

    def stop(self):
        for process in self.processes:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        for process in self.processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if self.redis:
            self.redis.stop()
