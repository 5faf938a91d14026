"""Start the whole site in the foreground: daphne, a Celery worker with beat, and,
when REDIS_URL is unset, a private Redis. Ctrl-C (or SIGTERM) stops all of it.

    python -m config.runsite            # http://127.0.0.1:8000/
    HOST=0.0.0.0 PORT=9000 python -m config.runsite
"""
import os
import signal
import subprocess
import sys
import time

import django


def start(command, env):
    # Each child leads its own process group, so stopping it stops its children too
    # (Celery's pool processes) and nothing is left behind.
    return subprocess.Popen(command, env=env, start_new_session=True)


def stop_all(processes, grace=15):
    for process in processes:
        if process.poll() is None:
            try:
                os.killpg(process.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + grace
    for process in processes:
        try:
            process.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(process.pid, signal.SIGKILL)  # whatever is left of its group
        except ProcessLookupError:
            pass
        process.wait()


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DEBUG", "1")
    django.setup()
    from django.conf import settings

    from config.embedded_redis import EmbeddedRedis

    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    env = dict(os.environ, REDIS_URL=settings.REDIS_URL)
    redis = EmbeddedRedis(settings.REDIS_URL).start() if settings.EMBEDDED_REDIS else None

    stopping = False

    def request_stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)

    beat_schedule = str(settings.VAR_DIR / "celerybeat-schedule")
    processes = [
        start([sys.executable, "-m", "daphne", "-b", host, "-p", port, "config.asgi:application"], env),
        start([sys.executable, "-m", "celery", "-A", "config", "worker", "--beat",
               "--schedule", beat_schedule, "--loglevel", "INFO", "--concurrency", "2"], env),
    ]
    print(f"\nReversi is running at http://{host}:{port}/  (Ctrl-C stops everything)\n", flush=True)
    exit_code = 0
    try:
        while not stopping:
            if any(process.poll() is not None for process in processes):
                print("A part of the site stopped; stopping the rest.", file=sys.stderr)
                exit_code = 1
                break
            time.sleep(0.2)
    finally:
        stop_all(processes)
        if redis is not None:
            redis.stop()
    print("Stopped.", flush=True)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
