"""Start the whole site in the foreground and keep it up: daphne, two Celery workers
(every queue, and the urgent ones: worker_parts), Celery beat and, when REDIS_URL
is unset, a private Redis (its data kept in var/redis). A part that dies is
restarted with back-off while the others keep serving. Ctrl-C (or SIGTERM) stops
all of it.

    python -m config.runsite            # http://127.0.0.1:8000/
    HOST=0.0.0.0 PORT=9000 python -m config.runsite
"""
import os
import signal
import subprocess
import sys
import time

import django

# A part that dies is started again after 0.5 s, then 1, 2, 4... up to 10 s while
# it keeps dying; one that ran for a minute is healthy again.
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 10.0
HEALTHY_AFTER = 60.0


def say(text):
    print(text, file=sys.stderr, flush=True)


class Part:
    """One process of the site and whatever it forks (Celery's pool), in a process
    group of its own, so that it is stopped, or cleaned up after a crash, whole."""

    def __init__(self, name, command, env, nice=0):
        self.name = name
        self.command = command
        self.env = env
        self.nice = nice
        self.process = None
        self.failures = 0
        self.restart_at = 0.0
        self.started_at = 0.0

    def start(self):
        self.process = subprocess.Popen(self.command, env=self.env, stdin=subprocess.DEVNULL,
                                        start_new_session=True, preexec_fn=self._lower_priority)
        self.started_at = time.monotonic()

    def _lower_priority(self):
        if self.nice:
            os.nice(self.nice)

    def signal_group(self, signum):
        try:
            os.killpg(self.process.pid, signum)
        except (ProcessLookupError, PermissionError):
            pass

    def watch(self, now):
        """Restart the part once its back-off has passed, if it died."""
        if self.process is None:
            if now >= self.restart_at:
                self.start()
                say(f"{self.name} restarted (pid {self.process.pid})")
            return
        code = self.process.poll()
        if code is None:
            if self.failures and now - self.started_at > HEALTHY_AFTER:
                self.failures = 0
            return
        self.signal_group(signal.SIGKILL)  # what it leaves behind (pool processes) goes with it
        delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** self.failures)
        self.failures += 1
        self.process = None
        self.restart_at = now + delay
        say(f"{self.name} stopped (exit code {code}); starting it again in {delay:g} s")

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.signal_group(signal.SIGTERM)

    def wait(self, deadline):
        if self.process is None:
            return
        try:
            self.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        self.signal_group(signal.SIGKILL)  # whatever is left of its group
        self.process.wait()
        self.process = None


# The worker of every queue searches at a lower CPU priority than the urgent worker
# (and daphne): on a machine whose cores its long Hard searches fill, a time-out or
# a table's move still gets the CPU at once.
NICE_WORKER = 10
# The first queues of config.settings' CELERY_TASK_QUEUES (the Procfile names them too).
URGENT_QUEUES = ("timeouts", "tables")


def worker_parts(celery, env):
    """The Celery workers (README.md, "Queues"): one for every queue, in the order of
    CELERY_TASK_QUEUES (time-outs first, analysis last), niced; and one of its own for
    the urgent queues (time-outs and tables), so that they never wait for a visitor's
    game to end, even when every process of the first is busy with one."""
    return [
        Part("worker", [*celery, "worker", "--loglevel", "INFO", "--concurrency", "2",
                        "--hostname", "worker@%h"], env, nice=NICE_WORKER),
        Part("urgent-worker", [*celery, "worker", "--loglevel", "INFO", "--concurrency", "2",
                               "--queues", ",".join(URGENT_QUEUES), "--hostname", "urgent@%h"], env),
    ]


def served_at(host, port):
    """The address the site is reached at on this machine when daphne listens on `host`
    and `port` (a wildcard host: through 127.0.0.1)."""
    shown = "127.0.0.1" if host in ("", "0.0.0.0") else "[::1]" if host == "::" else host
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def parts_env(environ, redis_url, host, port):
    """The environment of every part: the Redis they share, and the site's address for the
    links in mail (infra/site_url.py) unless SITE_URL names another."""
    return dict(environ, REDIS_URL=redis_url, SITE_URL=environ.get("SITE_URL") or served_at(host, port))


def stop_all(parts, grace=15):
    for part in parts:
        part.stop()
    deadline = time.monotonic() + grace
    for part in parts:
        part.wait(deadline)


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    django.setup()
    from django.conf import settings

    from config.embedded_redis import EmbeddedRedis
    from games.ai.core import missing_core_warning

    warning = missing_core_warning()  # the workers run this same Python
    if warning:
        say(f"WARNING: {warning}")
    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    env = parts_env(os.environ, settings.REDIS_URL, host, port)
    celery = [sys.executable, "-m", "celery", "-A", "config"]

    stopping = False

    def request_stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    redis = None
    storage = []  # stopped last, after the parts that use it
    if settings.EMBEDDED_REDIS:
        redis = EmbeddedRedis(settings.REDIS_URL, data_dir=settings.VAR_DIR / "redis")
        redis.prepare()
        storage.append(Part("redis", redis.command(), env))
        storage[0].start()
        redis.process = storage[0].process
        redis.wait_until_it_answers()
    parts = [
        Part("web", [sys.executable, "-m", "daphne", "-b", host, "-p", port, "config.asgi:application"], env),
        *worker_parts(celery, env),
        Part("beat", [*celery, "beat", "--loglevel", "INFO",
                      "--schedule", str(settings.VAR_DIR / "celerybeat-schedule")], env),
    ]
    for part in parts:
        part.start()
    print(f"\nReversi is running at {served_at(host, port)}/  (Ctrl-C stops everything)\n", flush=True)
    try:
        while not stopping:
            now = time.monotonic()
            for part in storage + parts:
                part.watch(now)
            time.sleep(0.2)
    finally:
        stop_all(parts)
        stop_all(storage)
        if redis is not None:
            redis.process = None
            redis.stop()  # removes the socket's directory; the data stays in var/redis
    print("Stopped.", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
